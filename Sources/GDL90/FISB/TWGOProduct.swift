/// The payload of a "text with graphic overlay" product (8 NOTAM, 11 AIRMET, 12 SIGMET, 13 SUA,
/// 14 G-AIRMET, 15 CWA, 16 NOTAM-TRA, 17 NOTAM-TMOA, 18/19 TFR): a 6-byte header and either text
/// records or graphic overlay records. A record that cannot be decoded is skipped and reported;
/// when its length is unusable, the records after it are lost and reported too.
public struct TWGOProduct: Hashable, Sendable {
    /// Record format value for text records.
    public static let textFormat = 2
    /// Record format value for graphic overlay records.
    public static let graphicFormat = 8
    /// Size of the payload header.
    public static let headerLength = 6

    /// The records of one product payload.
    public enum Records: Hashable, Sendable {
        /// Record format 2.
        case text([TWGOTextRecord])
        /// Record format 8.
        case graphic([TWGOGraphicRecord])
    }

    /// Product version (4 bits).
    public var version: Int
    /// Location identifier (4 DLAC characters), empty when none.
    public var location: String
    /// Record reference point (0x00 facility, 0xFF external).
    public var referencePoint: Int
    /// The records.
    public var records: Records
    /// Records skipped, with why.
    public var errors: [FISBError]

    /// Creates a product payload.
    public init(version: Int = 2, location: String = "", referencePoint: Int = 0xFF, records: Records) {
        self.version = version
        self.location = location
        self.referencePoint = referencePoint
        self.records = records
        self.errors = []
    }

    /// The record format number.
    public var recordFormat: Int {
        if case .text = records { return Self.textFormat }
        return Self.graphicFormat
    }

    /// Decodes a TWGO payload (an unsegmented APDU payload, or a reassembled one).
    public init(_ payload: [UInt8]) throws(FISBError) {
        guard payload.count >= Self.headerLength else {
            throw FISBError(.truncated, at: 0, "TWGO header needs \(Self.headerLength) bytes, \(payload.count) present")
        }
        let format = Int(payload[0] >> 4)
        version = Int(payload[0] & 0x0F)
        let count = Int(payload[1] >> 4)
        location = DLAC.decode(payload, from: 2, count: 3)
        referencePoint = Int(payload[5])
        errors = []
        var pos = Self.headerLength
        switch format {
        case Self.textFormat:
            var list: [TWGOTextRecord] = []
            for i in 0..<count where pos < payload.count {
                do {
                    let (rec, next) = try TWGOTextRecord.read(payload, at: pos)
                    list.append(rec)
                    pos = next
                } catch {
                    errors.append(error)
                    if i + 1 < count { errors.append(FISBError(.badLength, at: pos, "\(count - i - 1) text records after it lost")) }
                    break
                }
            }
            records = .text(list)
        case Self.graphicFormat:
            var list: [TWGOGraphicRecord] = []
            for i in 0..<count where pos < payload.count {
                do {
                    let (rec, next) = try TWGOGraphicRecord.read(payload, at: pos)
                    list.append(rec)
                    pos = next
                } catch {
                    errors.append(error)
                    // Skip by the declared length when it is usable, else stop.
                    let declared = pos + 1 < payload.count ? Int(payload[pos]) << 2 | Int(payload[pos + 1] >> 6) : 0
                    if declared < 11 {
                        errors.append(FISBError(.badLength, at: pos, "\(count - i - 1) graphic records after it lost"))
                        break
                    }
                    pos += declared
                }
            }
            records = .graphic(list)
        default:
            throw FISBError(.unsupported, at: 0, "TWGO record format \(format) (only 2 text and 8 graphic exist)")
        }
    }

    /// The encoded payload.
    public func encode() -> [UInt8] {
        var out: [UInt8] = []
        let count: Int
        switch records {
        case .text(let r): count = r.count
        case .graphic(let r): count = r.count
        }
        out.append(UInt8(recordFormat << 4 | (version & 0x0F)))
        out.append(UInt8((count & 0x0F) << 4))
        out += DLAC.encode(location, width: 3)
        out.append(UInt8(referencePoint & 0xFF))
        switch records {
        case .text(let r): for rec in r { rec.encode(into: &out) }
        case .graphic(let r): for rec in r { rec.encode(into: &out) }
        }
        return out
    }
}
