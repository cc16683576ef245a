/// One block of a gridded ("global block") product: 63/64 NEXRAD, 70/71 icing, 84 cloud tops,
/// 90/91 turbulence, 103 lightning. A block reference (block number, hemisphere, scale, or the
/// altitude level for icing/turbulence) then either 128 run-length coded bins (32 west→east by 4
/// north→south) or, for element identifier 0, a bitmap of empty blocks.
public struct GriddedBlock: Hashable, Sendable {
    /// Bins in a block.
    public static let binCount = 128
    /// Bins per row of a block.
    public static let binsPerRow = 32
    /// Block height in degrees (4 arc-minutes at high resolution).
    public static let blockHeight = 4.0 / 60.0
    /// Block width in degrees (48 arc-minutes; doubled north of 60°).
    public static let blockWidth = 48.0 / 60.0
    /// Blocks per ring of latitude.
    public static let blocksPerRing = 450
    /// First block number north of 60°.
    public static let wideBlockThreshold = 405_000

    /// How the bins of a product are run-length coded.
    public enum Coding: Hashable, Sendable {
        /// NEXRAD: one byte a run, 5-bit count−1 and 3-bit intensity.
        case nexrad
        /// Lightning: one byte a run, 4-bit count−1, polarity bit and 3-bit strike count.
        case lightning
        /// Icing: two bytes a run, count−1 then the value byte.
        case icing
        /// Turbulence and cloud tops: 4-bit count−1 and 4-bit value; count nibble 14 means a
        /// second byte holds count−1.
        case turbulence

        /// The coding of a gridded product ID.
        public static func of(productID: Int) -> Coding? {
            switch productID {
            case 63, 64: .nexrad
            case 103: .lightning
            case 70, 71: .icing
            case 84, 90, 91: .turbulence
            default: nil
            }
        }
    }

    /// Product ID.
    public var productID: Int
    /// Block number (20 bits).
    public var blockNumber: Int
    /// Southern hemisphere (NEXRAD, cloud tops, lightning).
    public var southern: Bool
    /// Scale: 0 high, 1 medium (5×), 2 low (9×) resolution.
    public var scale: Int
    /// The 3-bit altitude level of icing and turbulence products.
    public var altitudeLevel: Int?
    /// The 128 bin values of a run-length block, or nil for an empty-block bitmap.
    public var bins: [UInt8]?
    /// For an empty-block bitmap: block numbers flagged empty (the reference block included).
    public var emptyBlocks: [Int]

    /// Creates a run-length block.
    public init(productID: Int, blockNumber: Int, southern: Bool = false, scale: Int = 0, altitudeLevel: Int? = nil, bins: [UInt8]) {
        self.productID = productID
        self.blockNumber = blockNumber
        self.southern = southern
        self.scale = scale
        self.altitudeLevel = altitudeLevel
        self.bins = bins
        self.emptyBlocks = []
    }

    /// Creates an empty-block bitmap: `emptyBlocks` must lie east of `blockNumber` in its ring,
    /// at most 124 blocks of its size away (others are left out).
    public init(productID: Int, blockNumber: Int, southern: Bool = false, scale: Int = 0, altitudeLevel: Int? = nil, emptyBlocks: [Int]) {
        self.init(productID: productID, blockNumber: blockNumber, southern: southern, scale: scale, altitudeLevel: altitudeLevel, bins: [])
        self.bins = nil
        let offsets = Set((1...124).map { Self.eastward(blockNumber, $0, scale: scale) })
        self.emptyBlocks = [blockNumber] + emptyBlocks.filter { offsets.contains($0) && $0 != blockNumber }.sorted { a, b in
            Self.steps(from: blockNumber, to: a, scale: scale) < Self.steps(from: blockNumber, to: b, scale: scale)
        }
    }

    /// The block `steps` blocks of its own size east of `blockNumber` in its ring of latitude:
    /// an empty-block bitmap's bit steps by the block's width (DO-358; FAA SRT-047: 5 base
    /// blocks at medium scale, 9 at low; north of 60° twice that, blocks being twice as wide and
    /// numbered even), wrapping at 360° within the ring.
    public static func eastward(_ blockNumber: Int, _ steps: Int, scale: Int) -> Int {
        let width = scaleFactor(scale) * (blockNumber >= wideBlockThreshold ? 2 : 1)
        let ring = blockNumber / blocksPerRing, column = blockNumber % blocksPerRing
        return ring * blocksPerRing + (column + steps * width) % blocksPerRing
    }

    /// How many blocks of its size `other` lies east of `blockNumber` in its ring (see `eastward`).
    static func steps(from blockNumber: Int, to other: Int, scale: Int) -> Int {
        let width = scaleFactor(scale) * (blockNumber >= wideBlockThreshold ? 2 : 1)
        let delta = ((other % blocksPerRing) - (blockNumber % blocksPerRing) + blocksPerRing) % blocksPerRing
        return delta / width
    }

    /// Altitude of an icing or turbulence level in feet: low products (70, 90) 2000 ft + 2000 ft a
    /// level, high products (71, 91) 18000 ft + 2000 ft a level.
    public var altitudeFt: Int? {
        guard let level = altitudeLevel else { return nil }
        return (productID == 71 || productID == 91 ? 18_000 : 2000) + level * 2000
    }

    /// Block numbers in a hemisphere: 1,350 rings of 4′ (90°) of 450 blocks; a block numbered
    /// from here on lies outside the grid (its bounds would reach past the pole).
    public static let blockLimit = 1_350 * blocksPerRing

    /// Whether the block lies on the grid (`blockLimit`).
    public var isInGrid: Bool { blockNumber < Self.blockLimit }

    /// Geographic bounds of the block: north and south latitude, west and east longitude.
    public var bounds: (north: Double, south: Double, west: Double, east: Double) {
        Self.bounds(blockNumber: blockNumber, southern: southern, scale: scale)
    }

    /// How many high-resolution blocks (and bins) wide and high a block of `scale` is: 1 at high
    /// resolution (0), 5 at medium (1), 9 at low (2; 3 is reserved and read as 1).
    public static func scaleFactor(_ scale: Int) -> Int { scale == 1 ? 5 : scale == 2 ? 9 : 1 }

    /// Geographic bounds of block `blockNumber` of a hemisphere at `scale` (longitudes −180…180).
    public static func bounds(blockNumber: Int, southern: Bool, scale: Int) -> (north: Double, south: Double, west: Double, east: Double) {
        let factor = Double(scaleFactor(scale))
        var bn = blockNumber
        if bn >= wideBlockThreshold { bn &= ~1 }
        let rawLat = blockHeight * Double(bn / blocksPerRing)
        var west = Double(bn % blocksPerRing) * blockWidth
        if west >= 180 { west -= 360 }
        let width = (bn >= wideBlockThreshold ? 2 * blockWidth : blockWidth) * factor
        let height = blockHeight * factor
        let north = southern ? -rawLat : rawLat + blockHeight
        // A low-resolution block in the last rings reaches past the pole: its bounds stop there.
        // East of 180° is kept as such (continuous across the antimeridian, as a world file wants).
        return (min(90, max(-90, north)), min(90, max(-90, north - height)), west, west + width)
    }

    /// Bounds of bin `index` (0–127; row-major from the north-west corner, 32 bins a row).
    public func binBounds(_ index: Int) -> (north: Double, south: Double, west: Double, east: Double) {
        let b = bounds
        let height = (b.north - b.south) / Double(Self.binCount / Self.binsPerRow)
        let width = (b.east - b.west) / Double(Self.binsPerRow)
        let row = Double(index / Self.binsPerRow)
        let column = Double(index % Self.binsPerRow)
        return (b.north - row * height, b.north - (row + 1) * height, b.west + column * width, b.west + (column + 1) * width)
    }

    /// Decodes the payload of a gridded APDU.
    public init(productID: Int, payload: [UInt8]) throws(FISBError) {
        guard let coding = Coding.of(productID: productID) else {
            throw FISBError(.unknownProduct, at: 0, "product \(productID) is not a gridded product")
        }
        guard payload.count >= 3 else {
            throw FISBError(.truncated, at: 0, "block reference needs 3 bytes, \(payload.count) present")
        }
        self.productID = productID
        let runLength = payload[0] & 0x80 != 0
        let specific = Int(payload[0] >> 4) & 0x07
        blockNumber = Int(payload[0] & 0x0F) << 16 | Int(payload[1]) << 8 | Int(payload[2])
        if coding == .icing || productID == 90 || productID == 91 {
            altitudeLevel = specific
            southern = false
            scale = 1
        } else {
            altitudeLevel = nil
            southern = specific & 4 != 0
            scale = specific & 3
        }
        emptyBlocks = []
        guard runLength else {
            bins = nil
            guard payload.count >= 4 else { throw FISBError(.truncated, at: 3, "empty-block bitmap needs its length byte") }
            let extra = Int(payload[3] & 0x0F)
            var flagged = [blockNumber]
            let number = blockNumber, step = scale
            for bit in 0..<4 where payload[3] >> (4 + bit) & 1 == 1 { flagged.append(Self.eastward(number, 1 + bit, scale: step)) }
            for i in 0..<extra {
                guard 4 + i < payload.count else {
                    throw FISBError(.truncated, at: 4 + i, "empty-block bitmap declares \(extra) bytes, \(payload.count - 4) present")
                }
                for bit in 0..<8 where payload[4 + i] >> bit & 1 == 1 { flagged.append(Self.eastward(number, 5 + i * 8 + bit, scale: step)) }
            }
            emptyBlocks = flagged
            return
        }
        // One allocation, zero-filled; the runs are read and written through buffer pointers
        // (runs of 0, most of a block, are skipped), the failure, if any, thrown afterwards.
        var failure: RunLengthFailure?
        let decoded = [UInt8](unsafeUninitializedCapacity: Self.binCount) { buffer, initialized in
            buffer.initialize(repeating: 0)
            initialized = Self.binCount
            failure = payload.withUnsafeBufferPointer { Self.runLength($0, coding: coding, into: buffer) }
        }
        switch failure {
        case nil:
            bins = decoded
        case .binsMissing(let pos, let filled):
            throw FISBError(.truncated, at: pos, "product \(productID) block \(blockNumber): \(filled) of 128 bins present")
        case .icingRunCut(let pos):
            throw FISBError(.truncated, at: pos, "icing run needs 2 bytes")
        case .turbulenceRunCut(let pos):
            throw FISBError(.truncated, at: pos, "long turbulence run needs 2 bytes")
        case .tooManyBins(let pos, let total):
            throw FISBError(.badLength, at: pos, "product \(productID) block \(blockNumber): runs total \(total) bins, a block has 128")
        }
    }

    /// Why the run-length bins of a block could not be read (positions are payload indices).
    private enum RunLengthFailure {
        case binsMissing(at: Int, filled: Int)
        case icingRunCut(at: Int)
        case turbulenceRunCut(at: Int)
        case tooManyBins(at: Int, total: Int)
    }

    /// Reads the runs after the 3-byte block reference into `out` (128 zeroed bins). The coding
    /// is chosen once, not per run: each gets its own loop (`runs` is inlined into each case),
    /// which a profile of NEXRAD-heavy `fisb` showed was most of the time here.
    private static func runLength(_ payload: UnsafeBufferPointer<UInt8>, coding: Coding, into out: UnsafeMutableBufferPointer<UInt8>) -> RunLengthFailure? {
        switch coding {
        case .nexrad:
            // One byte: 5-bit count − 1, 3-bit value.
            return runs(payload, into: out) { pos in
                let b = payload[pos]
                pos += 1
                return (Int(b >> 3) + 1, b & 0x07)
            }
        case .lightning:
            // One byte: 4-bit count − 1, 4-bit value (8 means none); 0xF8, seen in real data, stands for 32 empty bins.
            return runs(payload, into: out) { pos in
                let b = payload[pos]
                pos += 1
                let value = b & 0x0F
                return (b == 0xF8 ? 32 : Int(b >> 4) + 1, value == 8 ? 0 : value)
            }
        case .icing:
            // Two bytes: count − 1, value.
            return runs(payload, into: out) { pos in
                guard pos + 1 < payload.count else { return nil }
                defer { pos += 2 }
                return (Int(payload[pos]) + 1, payload[pos + 1])
            } cut: { .icingRunCut(at: $0) }
        case .turbulence:
            // One byte (4-bit count − 1, 4-bit value), or 0xE_ and a count − 1 byte for long runs.
            return runs(payload, into: out) { pos in
                let b = payload[pos]
                guard b >> 4 == 0x0E else {
                    pos += 1
                    return (Int(b >> 4) + 1, b & 0x0F)
                }
                guard pos + 1 < payload.count else { return nil }
                defer { pos += 2 }
                return (Int(payload[pos + 1]) + 1, b & 0x0F)
            } cut: { .turbulenceRunCut(at: $0) }
        }
    }

    /// The run loop: `next` reads the run at `pos` and moves past it, or returns nil (then `cut`
    /// says why) when the run's second byte is missing (never, for one-byte runs: hence the
    /// default). Runs of 0 are skipped (the bins are zeroed).
    @inline(__always)
    private static func runs(_ payload: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>,
                             next: (_ pos: inout Int) -> (count: Int, value: UInt8)?,
                             cut: (_ pos: Int) -> RunLengthFailure = { _ in .binsMissing(at: 0, filled: 0) }) -> RunLengthFailure? {
        var filled = 0
        var pos = 3
        while filled < binCount {
            guard pos < payload.count else { return .binsMissing(at: pos, filled: filled) }
            guard let (count, value) = next(&pos) else { return cut(pos) }
            guard filled + count <= binCount else { return .tooManyBins(at: pos, total: filled + count) }
            if value != 0 {
                // Runs of one or two bins are most of a detailed block: stored, not a call to memset.
                let p = out.baseAddress! + filled
                switch count {
                case 1: p[0] = value
                case 2: p[0] = value; p[1] = value
                default: p.update(repeating: value, count: count)
                }
            }
            filled += count
        }
        return nil
    }

    /// The encoded APDU payload.
    public func encode() -> [UInt8] {
        let coding = Coding.of(productID: productID) ?? .nexrad
        let specific = altitudeLevel ?? ((southern ? 4 : 0) | (scale & 3))
        var out: [UInt8] = [
            UInt8((bins != nil ? 0x80 : 0) | (specific & 7) << 4 | (blockNumber >> 16 & 0x0F)),
            UInt8(blockNumber >> 8 & 0xFF), UInt8(blockNumber & 0xFF),
        ]
        guard let bins else {
            let offsets = emptyBlocks.map { Self.steps(from: blockNumber, to: $0, scale: scale) - 1 }.filter { $0 >= 0 && $0 < 124 }
            let extra = ((offsets.max() ?? 0) < 4) ? 0 : ((offsets.max() ?? 0) - 4) / 8 + 1
            var bitmap = [UInt8](repeating: 0, count: 1 + extra)
            bitmap[0] = UInt8(extra)
            for o in offsets {
                if o < 4 { bitmap[0] |= UInt8(1 << (4 + o)) } else { bitmap[1 + (o - 4) / 8] |= UInt8(1 << ((o - 4) % 8)) }
            }
            return out + bitmap
        }
        let maxRun: Int
        switch coding {
        case .nexrad: maxRun = 32
        case .lightning: maxRun = 16
        case .icing: maxRun = 256
        case .turbulence: maxRun = 256
        }
        var i = 0
        while i < bins.count {
            var n = 1
            while i + n < bins.count, bins[i + n] == bins[i], n < maxRun { n += 1 }
            let v = bins[i]
            switch coding {
            case .nexrad: out.append(UInt8((n - 1) << 3) | v & 0x07)
            case .lightning: out.append(UInt8((n - 1) << 4) | v & 0x0F)
            case .icing: out += [UInt8(n - 1), v]
            case .turbulence:
                if n <= 14 { out.append(UInt8((n - 1) << 4) | v & 0x0F) } else { out += [0xE0 | v & 0x0F, UInt8(n - 1)] }
            }
            i += n
        }
        return out
    }
}
