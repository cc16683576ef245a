/// Reassembles segmented APDUs (S flag) into whole products. Segments are keyed by product ID and
/// product file ID; each carries the product's 6-byte TWGO header, which is kept from segment 1
/// and dropped from the others. A file is complete when all its segments have arrived, in any
/// order. At most `capacity` incomplete files are held; the oldest is dropped beyond that.
public struct APDUReassembler: Sendable {
    private struct Key: Hashable {
        var productID: Int
        var fileID: Int
    }

    private struct Pending {
        var count: Int
        var parts: [Int: APDU]
        var order: Int
    }

    /// Bytes at the start of every segment that repeat the product header.
    public static let repeatedHeaderLength = TWGOProduct.headerLength

    private var pending: [Key: Pending] = [:]
    private var serial = 0
    /// Most incomplete product files held at once.
    public let capacity: Int
    /// Incomplete files dropped to make room.
    public private(set) var dropped = 0

    /// Creates an empty reassembler.
    public init(capacity: Int = 64) { self.capacity = capacity }

    /// Number of product files waiting for segments.
    public var pendingCount: Int { pending.count }

    /// Adds an APDU. An unsegmented APDU is returned as is; a segment returns the whole product
    /// (an unsegmented APDU with the time of segment 1) once its last missing segment arrives,
    /// else nil. A segment numbered 0 or beyond its count throws.
    public mutating func add(_ apdu: APDU) throws(FISBError) -> APDU? {
        guard let seg = apdu.segment else { return apdu }
        guard seg.count >= 1, seg.number >= 1, seg.number <= seg.count else {
            throw FISBError(.badSegment, at: 0, "product \(apdu.productID) file \(seg.fileID): segment \(seg.number) of \(seg.count)")
        }
        let key = Key(productID: apdu.productID, fileID: seg.fileID)
        var entry = pending[key] ?? Pending(count: seg.count, parts: [:], order: serial)
        if entry.count != seg.count { entry = Pending(count: seg.count, parts: [:], order: serial) }
        serial += 1
        entry.parts[seg.number] = apdu
        guard entry.parts.count == entry.count else {
            pending[key] = entry
            if pending.count > capacity, let oldest = pending.min(by: { $0.value.order < $1.value.order })?.key {
                pending[oldest] = nil
                dropped += 1
            }
            return nil
        }
        pending[key] = nil
        var payload: [UInt8] = []
        for n in 1...entry.count {
            guard let part = entry.parts[n] else { return nil }
            payload += n == 1 ? part.payload : Array(part.payload.dropFirst(Self.repeatedHeaderLength))
        }
        let first = entry.parts[1] ?? apdu
        return APDU(productID: apdu.productID, time: first.time, segment: nil, payload: payload,
                    aFlag: first.aFlag, gFlag: first.gFlag, pFlag: first.pFlag)
    }

    /// Splits a product into segments of at most `segmentPayload` bytes each (the product header
    /// repeated at the start of every segment), as a ground station sends a long TWGO product.
    public static func segment(_ apdu: APDU, fileID: Int, segmentPayload: Int) -> [APDU] {
        let header = Array(apdu.payload.prefix(repeatedHeaderLength))
        let body = Array(apdu.payload.dropFirst(repeatedHeaderLength))
        let chunk = Swift.max(1, segmentPayload - repeatedHeaderLength)
        var parts: [[UInt8]] = []
        var i = 0
        repeat {
            parts.append(Array(body[i..<Swift.min(body.count, i + chunk)]))
            i += chunk
        } while i < body.count
        return parts.enumerated().map { n, part in
            APDU(productID: apdu.productID, time: apdu.time,
                 segment: APDU.Segment(fileID: fileID, count: parts.count, number: n + 1), payload: header + part,
                 aFlag: apdu.aFlag, gFlag: apdu.gFlag, pFlag: apdu.pFlag)
        }
    }
}
