/// Why part of a FIS-B uplink could not be decoded. The part (a frame, an APDU, a record) is
/// skipped and counted; the rest of the uplink is kept.
public struct FISBError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: String, Hashable, Sendable {
        /// A field runs past the bytes present (a truncated frame, APDU or record).
        case truncated
        /// A declared length is impossible (shorter than its own header, or zero).
        case badLength
        /// The APDU carries a product ID this decoder does not know.
        case unknownProduct
        /// A TWGO record uses a record format, geometry or operator this decoder does not know.
        case unsupported
        /// A segmented APDU is inconsistent (segment number 0 or beyond the declared count).
        case badSegment
    }

    /// What was wrong.
    public var reason: Reason
    /// Byte offset of the offending part, counted from the start of the structure being decoded
    /// (the 432-byte uplink payload for frames, the APDU payload for records).
    public var offset: Int
    /// A sentence naming the field and the numbers involved.
    public var detail: String

    /// Creates a report.
    public init(_ reason: Reason, at offset: Int, _ detail: String) {
        self.reason = reason
        self.offset = offset
        self.detail = detail
    }

    /// A sentence saying what was wrong and where.
    public var description: String { "FIS-B \(reason.rawValue) at byte \(offset): \(detail)" }
}
