/// Why the deframer rejected a run of bytes. Every rejection is reported; decoding goes on.
public struct FrameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: String, Hashable, Sendable, CaseIterable {
        /// The frame's CRC does not match its contents.
        case crc
        /// Fewer than three bytes (message ID and two CRC bytes) between two flags.
        case tooShort
        /// A control-escape byte (0x7D) followed by a flag, or ending the frame.
        case badEscape
        /// More bytes between two flags than any GDL 90 message can hold.
        case oversized
        /// The input ended inside a frame.
        case truncated
        /// Bytes before the first flag of the stream, which cannot belong to a known frame.
        case unsynced
    }

    /// What was wrong.
    public var reason: Reason
    /// Offset in the input stream of the first byte of the rejected run (its opening flag, if any).
    public var offset: Int
    /// Number of raw (still byte-stuffed) bytes the rejected run spanned, flags excluded.
    public var length: Int

    /// Creates a rejection report.
    public init(reason: Reason, offset: Int, length: Int) {
        self.reason = reason
        self.offset = offset
        self.length = length
    }

    /// A sentence naming the reason and where.
    public var description: String {
        let what: String
        switch reason {
        case .crc: what = "CRC mismatch"
        case .tooShort: what = "frame too short (needs message ID and CRC)"
        case .badEscape: what = "invalid escape sequence (0x7D before a flag or at frame end)"
        case .oversized: what = "frame longer than \(Deframer.maximumFrameLength) bytes"
        case .truncated: what = "input ended inside a frame"
        case .unsynced: what = "bytes before the first flag"
        }
        return "\(what) at byte \(offset) (\(length) bytes)"
    }
}
