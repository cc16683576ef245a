#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Splits the members of one top-level JSON array (`"items": [ … ]`) out of a byte stream fed in
/// chunks of any size: strings and escapes are honoured (a `]` or `{` inside a string is text,
/// wherever the string stands), each object or array member is handed over as its bytes, with
/// its offset in the stream (`itemOffset`). After the array the rest of the document is read on
/// for a second `arrayKey` (`repeated`): which of the two is meant cannot be told.
public struct JSONItemSplitter: Sendable {
    /// The key whose array is split.
    public let arrayKey: [UInt8]
    /// Whether the array was found.
    public private(set) var sawArray = false
    /// Whether the array's closing bracket was seen.
    public var finished: Bool { sawArray && state == 0 }
    /// The key came twice at the top level (the second array is not read).
    public private(set) var repeated = false
    /// Bytes fed so far.
    public private(set) var offset = 0
    /// The stream offset of the member handed over last (or being read).
    public private(set) var itemOffset = 0
    private var state = 0  // 0: outside the array (before or after it), 1: inside it
    private var recent: [UInt8] = []
    private var item: [UInt8] = []
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var keyDepth = 0  // object depth outside the array
    private var keyInString = false
    private var keyEscaped = false
    private var pendingKey = false

    /// A splitter for `"arrayKey": [ … ]` at the top level of the document.
    public init(arrayKey: String) { self.arrayKey = Array("\"\(arrayKey)\"".utf8) }

    /// Feeds bytes; `emit` gets each complete member.
    public mutating func feed<E: Error>(_ data: Data, emit: ([UInt8]) throws(E) -> Void) throws(E) {
        try feed(data) { (bytes: [UInt8], _: Int) throws(E) in try emit(bytes) }
    }

    /// Feeds bytes; `emit` gets each complete member and its offset in the stream.
    public mutating func feed<E: Error>(_ data: Data, emit: ([UInt8], Int) throws(E) -> Void) throws(E) {
        for byte in data {
            offset += 1
            switch state {
            case 0:
                // Only `"arrayKey": [` directly in the top-level object counts.
                if keyInString {
                    recent.append(byte)
                    Self.step(byte, inString: &keyInString, escaped: &keyEscaped)
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): keyInString = true; recent = [byte]; pendingKey = false
                case UInt8(ascii: ":"): pendingKey = keyDepth == 1 && recent == arrayKey; recent = []
                case UInt8(ascii: "["):
                    if pendingKey {
                        if sawArray { repeated = true; keyDepth += 1; pendingKey = false; continue }
                        state = 1
                        sawArray = true
                        continue
                    }
                    keyDepth += 1
                case UInt8(ascii: "{"): keyDepth += 1; pendingKey = false
                case UInt8(ascii: "}"), UInt8(ascii: "]"): keyDepth -= 1; pendingKey = false
                case 0x20, 0x0A, 0x0D, 0x09: break
                default: pendingKey = false; recent = []
                }
            default:
                if depth == 0 {
                    // Between members; a member that is a string or number is passed over whole.
                    if inString {
                        Self.step(byte, inString: &inString, escaped: &escaped)
                        continue
                    }
                    if byte == UInt8(ascii: "]") { state = 0; continue }
                    if byte == UInt8(ascii: "\"") { inString = true; continue }
                    if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { depth = 1; item = [byte]; itemOffset = offset - 1 }
                    continue
                }
                item.append(byte)
                if inString {
                    Self.step(byte, inString: &inString, escaped: &escaped)
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        let done = item
                        item = []
                        try emit(done, itemOffset)
                    }
                default: break
                }
            }
        }
    }

    /// One byte inside a JSON string: an escape's next byte is taken as is, a bare quote ends it.
    @inline(__always)
    private static func step(_ byte: UInt8, inString: inout Bool, escaped: inout Bool) {
        if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
    }
}
