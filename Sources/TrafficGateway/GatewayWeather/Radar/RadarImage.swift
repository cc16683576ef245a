import GatewaySupport
import GDL90

/// A composite drawn: one palette index a pixel, rows north to south, the grid at the finest bin
/// size of the composite, each of those bins `pixelsPerBin` × `pixelsPerBin` pixels (a bin of a
/// coarser block, or a double-width one north of 60°, covers a whole multiple of that).
package struct RadarImage: Sendable {
    /// The kind drawn.
    package var kind: RadarKind
    /// The product time and when its latest block arrived.
    package var time: Double, received: Double
    /// Pixels across and down.
    package var width: Int, height: Int
    /// Palette indices, `width` × `height`, row by row from the north-west corner.
    package var pixels: [UInt8]
    /// The outer edges, degrees (longitudes −180…180).
    package var north: Double, south: Double, west: Double, east: Double
    /// Pixels a finest bin covers each way (k).
    package var pixelsPerBin: Int
    /// Blocks drawn (with bins, announced empty).
    package var blocks: Int, emptyBlocks: Int

    /// Degrees of longitude a pixel covers.
    package var pixelWidth: Double { (east - west) / Double(width) }
    /// Degrees of latitude a pixel covers.
    package var pixelHeight: Double { (north - south) / Double(height) }

    /// Pixels a picture may have at most (16 M: 16 MB of indices, about all of North America at
    /// regional resolution); a composite larger than that is not drawn (`RadarImage.Failure`).
    package static let maximumPixels = 16 << 20

    /// Why a composite was not drawn.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Nothing to draw.
        case noBlocks
        /// It spans more pixels than `maximumPixels`.
        case tooLarge(width: Int, height: Int)

        package var description: String {
            switch self {
            case .noBlocks: "no blocks"
            case .tooLarge(let w, let h): "\(w) × \(h) pixels, over the \(RadarImage.maximumPixels >> 20)-megapixel bound (blocks scattered over the globe?)"
            }
        }
    }

    /// Draws `composite`: each bin's value mapped to its palette index (`RadarLevels.index`).
    package init(_ composite: RadarComposite, pixelsPerBin k: Int = 1) throws(Failure) {
        let levels = RadarLevels.of(composite.kind)
        // The finest bin, in high-resolution bins each way: the greatest common divisor of all the
        // bin sizes, so that every bin covers a whole number of pixels.
        var unitX = 0, unitY = 0
        var north = -Double.infinity, south = Double.infinity, west = Double.infinity, east = -Double.infinity
        var blocks = 0, empty = 0
        composite.forEachBlock { number, southern, scale, bins in
            let size = RadarGrid.binSize(blockNumber: number, scale: scale)
            unitX = Self.gcd(unitX, size.width)
            unitY = Self.gcd(unitY, size.height)
            let b = GriddedBlock.bounds(blockNumber: number, southern: southern, scale: scale)
            north = max(north, b.north); south = min(south, b.south)
            west = min(west, b.west); east = max(east, b.east)
            if bins == nil { empty += 1 } else { blocks += 1 }
        }
        guard unitX > 0 else { throw .noBlocks }
        let k = max(1, k)
        let px = Double(unitX) * RadarGrid.binWidth / Double(k), py = Double(unitY) * RadarGrid.binHeight / Double(k)
        let width = Int(((east - west) / px).rounded()), height = Int(((north - south) / py).rounded())
        // Each side at most the bound first: their product cannot overflow.
        guard width > 0, height > 0, width <= Self.maximumPixels, height <= Self.maximumPixels, width * height <= Self.maximumPixels
        else { throw .tooLarge(width: width, height: height) }
        var pixels = [UInt8](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBufferPointer { out in
            composite.forEachBlock { number, southern, scale, bins in
                let b = GriddedBlock.bounds(blockNumber: number, southern: southern, scale: scale)
                let size = RadarGrid.binSize(blockNumber: number, scale: scale)
                let binW = size.width / unitX * k, binH = size.height / unitY * k
                let x0 = Int(((b.west - west) / px).rounded()), y0 = Int(((north - b.north) / py).rounded())
                guard let bins else {
                    // Announced empty: the kind's empty index over the whole block (0 needs nothing).
                    guard levels.emptyIndex != 0 else { return }
                    for y in max(0, y0) ..< min(height, y0 + 4 * binH) {
                        for x in max(0, x0) ..< min(width, x0 + GriddedBlock.binsPerRow * binW) { out[y * width + x] = levels.emptyIndex }
                    }
                    return
                }
                var i = bins.startIndex
                for row in 0 ..< GriddedBlock.binCount / GriddedBlock.binsPerRow {
                    let top = y0 + row * binH
                    for column in 0 ..< GriddedBlock.binsPerRow {
                        let value = levels.index(bins[i])
                        i += 1
                        guard value != 0 else { continue }
                        let left = x0 + column * binW
                        for y in max(0, top) ..< min(height, top + binH) {
                            let base = y * width
                            for x in max(0, left) ..< min(width, left + binW) { out[base + x] = value }
                        }
                    }
                }
            }
        }
        self.kind = composite.kind
        self.time = composite.time
        self.received = composite.lastReceived
        self.width = width
        self.height = height
        self.pixels = pixels
        self.north = north; self.south = south; self.west = west; self.east = east
        self.pixelsPerBin = k
        self.blocks = blocks
        self.emptyBlocks = empty
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }

    /// The PNG: 8-bit indexed colour, the kind's palette, its no-data indices transparent (tRNS).
    package func png() -> [UInt8] {
        let levels = RadarLevels.of(kind)
        return PNGEncoder.indexed(width: width, height: height, pixels: pixels, palette: levels.palette, transparent: levels.transparent)
    }

    /// The ESRI world file (`.pgw`), WGS 84 degrees: pixel width, 0, 0, −pixel height, then the
    /// centre of the upper-left pixel.
    package var worldFile: String {
        let lines = [pixelWidth, 0, 0, -pixelHeight, west + pixelWidth / 2, north - pixelHeight / 2]
        return lines.map { $0 == 0 ? "0" : "\($0)" }.joined(separator: "\n") + "\n"
    }

    /// The sidecar JSON: product, kind, time, received, bounds, pixels a bin, the levels.
    package var json: String {
        var w = JSONWriter()
        w.add("product", kind.productID)
        w.add("kind", kind.name)
        w.add("time", Timestamp.iso8601(time))
        w.add("received", Timestamp.iso8601(received))
        var bounds = JSONWriter()
        bounds.add("north", north, decimals: 6)
        bounds.add("south", south, decimals: 6)
        bounds.add("west", west, decimals: 6)
        bounds.add("east", east, decimals: 6)
        w.addRaw("bounds", bounds.result)
        w.add("width", width)
        w.add("height", height)
        w.add("pixelsPerBin", pixelsPerBin)
        w.add("blocks", blocks)
        w.add("emptyBlocks", emptyBlocks)
        if case .icing(let ft) = kind { w.add("altitudeFt", ft) }
        if case .turbulence(let ft) = kind { w.add("altitudeFt", ft) }
        let levels = RadarLevels.of(kind)
        w.addRaw("levels", JSONWriter.array(levels.levels.map { level in
            var l = JSONWriter()
            l.add("index", level.index)
            l.add("label", level.label)
            l.add("color", level.color)
            l.add("transparent", levels.transparent.contains(level.index))
            return l.result
        }))
        return w.result
    }
}
