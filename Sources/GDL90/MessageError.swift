/// Why a frame with a good CRC still could not be decoded as its message type.
public struct MessageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: String, Hashable, Sendable {
        /// The message is shorter than its type requires.
        case length
        /// The message has no bytes at all (not even an ID).
        case empty
    }

    /// What was wrong.
    public var reason: Reason
    /// The message ID of the frame.
    public var messageID: UInt8
    /// The length the type requires (ID included).
    public var expected: Int
    /// The length received (ID included).
    public var actual: Int

    /// Creates a report.
    public init(reason: Reason, messageID: UInt8, expected: Int, actual: Int) {
        self.reason = reason
        self.messageID = messageID
        self.expected = expected
        self.actual = actual
    }

    /// A sentence saying what was wrong.
    public var description: String {
        let hex = String(messageID, radix: 16, uppercase: true)
        switch reason {
        case .empty: return "empty message"
        case .length: return "message 0x\(hex.count == 1 ? "0" + hex : hex) is \(actual) bytes, needs at least \(expected)"
        }
    }

    static func check(_ m: MessageBytes, _ minimum: Int) throws(MessageError) {
        if m.count < minimum {
            throw MessageError(reason: .length, messageID: m[0], expected: minimum, actual: m.count)
        }
    }
}
