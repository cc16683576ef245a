import GDL90

/// The FIS-B a late-joining EFB is sent before the live stream (issue 57): the latest uplink
/// that carried each current product, so a tablet that starts listening gets the radar, the
/// METARs, TAFs, winds and AIRMET/SIGMET/TFR graphics at once instead of after the next
/// broadcast cycle (up to 10 minutes for a CONUS composite).
///
/// Each uplink (GDL 90 message 7, kept as the frame the EFBs are sent) is read only as far as
/// its products' identities: a gridded product's block (product, block number, scale, altitude),
/// a text report's kind and station ("METAR KSLE"), a graphic's location and report number, a
/// segment of a long product its file and segment. An uplink is held while any product it
/// carries is the latest of its identity and younger than that product's lifetime. Pure: frames
/// and times in, frames out; bounded (`maximumUplinks`).
package struct FISBHold: Sendable {
    /// Most uplinks held (a full CONUS NEXRAD cycle heard from several stations is about 1,500).
    package var maximumUplinks = 4_000
    /// The frames held, by the order they came (`serial`).
    private var frames: [Int: (frame: [UInt8], time: Double, rank: Int)] = [:]
    /// Identity → the serial of the latest frame carrying it, and when it expires.
    private var latest: [String: (serial: Int, expires: Double)] = [:]
    private var serial = 0

    /// An empty hold.
    package init() {}

    /// How long a product stays worth sending after it was heard, seconds: a regional NEXRAD
    /// composite (every 2.5 min on the air) 10 min, the CONUS one (every 15 min) 20 min, the
    /// other grids (lightning, icing, turbulence, cloud tops) 20 min, text and graphics an hour
    /// (their validity is in the product; a METAR is rebroadcast every 5 min while current).
    static func lifetime(_ productID: Int) -> Double {
        switch productID {
        case 63: 600
        case 64: 1_200
        case 70...91, 103: 1_200
        default: 3_600
        }
    }

    /// The order a joining EFB is sent products in: text first (small, what a pilot reads
    /// first), then graphics, then the radar (regional before CONUS), then the other grids.
    static func rank(_ productID: Int) -> Int {
        switch productID {
        case 413: 0
        case 8...16: 1
        case 63: 2
        case 64: 3
        default: 4
        }
    }

    /// Takes one GDL 90 frame (flag to flag, as sent to the EFBs) heard at `time`: held when it
    /// is an uplink carrying at least one product.
    package mutating func take(frame: [UInt8], message: Uplink, at time: Double) {
        let keys = Self.identities(message.payload)
        guard !keys.isEmpty else { return }
        serial += 1
        frames[serial] = (frame, time, keys.map { Self.rank($0.productID) }.min() ?? 4)
        for k in keys {
            let old = latest[k.key]?.serial
            latest[k.key] = (serial, time + Self.lifetime(k.productID))
            if let old, old != serial, !latest.values.contains(where: { $0.serial == old }) { frames[old] = nil }
        }
        if frames.count > maximumUplinks { prune(at: time, force: true) }
    }

    /// Drops what expired by `time` (and, forced, the oldest beyond the bound).
    package mutating func prune(at time: Double, force: Bool = false) {
        latest = latest.filter { $0.value.expires > time }
        let live = Set(latest.values.map(\.serial))
        frames = frames.filter { live.contains($0.key) }
        if force, frames.count > maximumUplinks {
            let keep = Set(frames.keys.sorted().suffix(maximumUplinks))
            frames = frames.filter { keep.contains($0.key) }
            latest = latest.filter { keep.contains($0.value.serial) }
        }
    }

    /// The frames to send a joining EFB at `time`: each held uplink once, text first, then
    /// graphics, then the radar, each group oldest first.
    package func current(at time: Double) -> [[UInt8]] {
        let live = Set(latest.filter { $0.value.expires > time }.map(\.value.serial))
        return frames.filter { live.contains($0.key) }.sorted { ($0.value.rank, $0.key) < ($1.value.rank, $1.key) }.map(\.value.frame)
    }

    /// Uplinks held.
    package var count: Int { frames.count }

    /// The identities of the products an uplink payload carries.
    static func identities(_ payload: [UInt8]) -> [(key: String, productID: Int)] {
        var out: [(key: String, productID: Int)] = []
        FISBUplink.forEachFrame(in: payload) { type, data, capped in
            guard type == 0, capped == nil, let apdu = try? APDU(payload, in: data) else { return }
            let id = apdu.productID
            if let s = apdu.segment {
                out.append(("\(id):file \(s.fileID):\(s.number)/\(s.count)", id))
                return
            }
            switch id {
            case 63, 64, 70...91, 103:
                guard let block = try? GriddedBlock(productID: id, payload: apdu.payload) else { return }
                out.append(("\(id):\(block.blockNumber):\(block.southern):\(block.scale):\(block.altitudeLevel ?? -1)", id))
            case 413:
                for record in GenericTextProduct(apdu.payload).records {
                    out.append(("413:\(record.kind.rawValue) \(record.location ?? String(record.text.prefix(24)))", id))
                }
            case 8...16:
                guard let product = try? TWGOProduct(apdu.payload) else { return }
                let number: Int?
                switch product.records {
                case .text(let r): number = r.first?.reportNumber
                case .graphic(let r): number = r.first?.reportNumber
                }
                out.append(("\(id):\(product.location):\(number ?? -1)", id))
            default:
                out.append(("\(id):\(apdu.payload.count):\(apdu.payload.prefix(16).map(String.init).joined(separator: ","))", id))
            }
        }
        return out
    }
}
