/// JSON text (RFC 8259) read into the plain value tree the readers of NOTAM replies, GeoJSON, gpsd
/// reports and EFB announcements walk: objects `[String: Any]`, arrays `[Any]`, `String`,
/// numbers as `Double`, `Bool`, and `JSONReader.null`. The gateway's own byte parser in place of
/// Foundation's `JSONSerialization` (which is not in FoundationEssentials and brings ICU).
///
/// Numbers are always `Double` (an integer such as a port is read with `JSONReader.int`), so a
/// reader never confuses `1` with `true`. Duplicate keys keep the last value. Nesting deeper than
/// 512 levels is refused rather than overflowing the stack. A number too large for a `Double`
/// (`1e400`) is refused, never read as infinity: every number a reader gets is finite.
public enum JSONReader {
    /// JSON's `null` in a tree.
    public struct Null: Sendable, Equatable {}
    /// The one `null` value.
    public static let null = Null()

    /// Why text is not JSON, and at which byte.
    public struct Failure: Error, CustomStringConvertible, Sendable, Equatable {
        /// The byte offset.
        public var offset: Int
        /// What was wrong.
        public var reason: String
        /// One line.
        public var description: String { "not JSON at byte \(offset): \(reason)" }

        /// A failure at `offset` for `reason`.
        public init(offset: Int, reason: String) {
            self.offset = offset
            self.reason = reason
        }
    }

    /// The value `bytes` hold (an object, an array or a scalar), or why they are not JSON.
    public static func value(_ bytes: some Sequence<UInt8>) throws(Failure) -> Any {
        let array = bytes as? [UInt8] ?? Array(bytes)
        return try array.withUnsafeBufferPointer { (buffer) throws(Failure) -> Any in
            var parser = Parser(bytes: buffer)
            parser.skipSpace()
            let v = try parser.value(depth: 0)
            parser.skipSpace()
            guard parser.at == buffer.count else { throw parser.failure("text after the value") }
            return v
        }
    }

    /// The object `bytes` hold; nil when they are not JSON or not an object.
    public static func object(_ bytes: some Sequence<UInt8>) -> [String: Any]? {
        (try? value(bytes)) as? [String: Any]
    }

    /// A number that is a whole number (ports, counts, gpsd's mode).
    public static func int(_ value: Any?) -> Int? {
        guard let d = value as? Double, d == d.rounded(), abs(d) < 9.0e15 else { return nil }
        return Int(d)
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func failure(_ reason: String) -> Failure { Failure(offset: at, reason: reason) }

        mutating func skipSpace() {
            while at < bytes.count {
                switch bytes[at] {
                case 0x20, 0x09, 0x0A, 0x0D: at += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(Failure) -> Any {
            guard depth < 512 else { throw failure("nested deeper than 512 levels") }
            guard at < bytes.count else { throw failure("the text ends where a value should be") }
            switch bytes[at] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return try string()
            case UInt8(ascii: "t"): try literal("true"); return true
            case UInt8(ascii: "f"): try literal("false"); return false
            case UInt8(ascii: "n"): try literal("null"); return JSONReader.null
            case UInt8(ascii: "-"), 0x30...0x39: return try number()
            default: throw failure("unexpected '\(Self.show(bytes[at]))'")
            }
        }

        mutating func literal(_ word: StaticString) throws(Failure) {
            let n = word.utf8CodeUnitCount
            guard at + n <= bytes.count else { throw failure("expected \(word)") }
            for i in 0..<n where bytes[at + i] != word.utf8Start[i] { throw failure("expected \(word)") }
            at += n
        }

        mutating func object(depth: Int) throws(Failure) -> [String: Any] {
            at += 1
            var out: [String: Any] = [:]
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return out }
            while true {
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw failure("expected a key in quotes") }
                let key = try string()
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw failure("expected ':' after a key") }
                at += 1
                skipSpace()
                out[key] = try value(depth: depth + 1)
                skipSpace()
                guard at < bytes.count else { throw failure("the text ends inside an object") }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                if bytes[at] == UInt8(ascii: "}") { at += 1; return out }
                throw failure("expected ',' or '}' in an object")
            }
        }

        mutating func array(depth: Int) throws(Failure) -> [Any] {
            at += 1
            var out: [Any] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return out }
            while true {
                skipSpace()
                out.append(try value(depth: depth + 1))
                skipSpace()
                guard at < bytes.count else { throw failure("the text ends inside an array") }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                if bytes[at] == UInt8(ascii: "]") { at += 1; return out }
                throw failure("expected ',' or ']' in an array")
            }
        }

        mutating func string() throws(Failure) -> String {
            at += 1
            let start = at
            // Fast path: no escapes.
            while at < bytes.count {
                let b = bytes[at]
                if b == UInt8(ascii: "\"") {
                    defer { at += 1 }
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
                }
                if b == UInt8(ascii: "\\") { break }
                if b < 0x20 { throw failure("a control character in a string") }
                at += 1
            }
            var out = Array(bytes[start..<at])
            while at < bytes.count {
                let b = bytes[at]
                if b == UInt8(ascii: "\"") {
                    at += 1
                    return String(decoding: out, as: UTF8.self)
                }
                if b < 0x20 { throw failure("a control character in a string") }
                guard b == UInt8(ascii: "\\") else { out.append(b); at += 1; continue }
                at += 1
                guard at < bytes.count else { break }
                let e = bytes[at]
                at += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xD800 && scalar < 0xDC00, at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") {
                        // A pair only when the next escape is a low surrogate; else the lone high
                        // one is U+FFFD and the next escape is read as itself (it was swallowed).
                        let next = at
                        at += 2
                        let low = try hex4()
                        if low >= 0xDC00 && low < 0xE000 {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            at = next
                            scalar = 0xFFFD
                        }
                    }
                    out.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
                default: at -= 1; throw failure("a bad escape '\\\(Self.show(e))'")
                }
            }
            throw failure("the text ends inside a string")
        }

        mutating func hex4() throws(Failure) -> UInt32 {
            guard at + 4 <= bytes.count else { throw failure("a \\u escape cut short") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[at]
                let d: UInt32
                switch b {
                case 0x30...0x39: d = UInt32(b - 0x30)
                case 0x41...0x46: d = UInt32(b - 0x41 + 10)
                case 0x61...0x66: d = UInt32(b - 0x61 + 10)
                default: throw failure("a bad hex digit in a \\u escape")
                }
                v = v << 4 | d
                at += 1
            }
            return v
        }

        mutating func number() throws(Failure) -> Double {
            let start = at
            if bytes[at] == UInt8(ascii: "-") { at += 1 }
            var whole: Int64 = 0, digits = 0
            while at < bytes.count, bytes[at] >= 0x30, bytes[at] <= 0x39 {
                if digits < 18 { whole = whole * 10 + Int64(bytes[at] - 0x30) }
                digits += 1
                at += 1
            }
            guard digits > 0 else { throw failure("a number without digits") }
            var simple = digits <= 15
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
                simple = false
                at += 1
                let from = at
                while at < bytes.count, bytes[at] >= 0x30, bytes[at] <= 0x39 { at += 1 }
                guard at > from else { throw failure("a number with no digit after '.'") }
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
                simple = false
                at += 1
                if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
                let from = at
                while at < bytes.count, bytes[at] >= 0x30, bytes[at] <= 0x39 { at += 1 }
                guard at > from else { throw failure("a number with no digit in its exponent") }
            }
            if simple { return bytes[start] == UInt8(ascii: "-") ? -Double(whole) : Double(whole) }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
            // Finite numbers only (the shared rule for every parsed input): `1e400` is not read as
            // infinity, which no reader of a position, a time or a size can use.
            guard let d = Double(text), d.isFinite else { at = start; throw failure("a number out of range (\(text.prefix(24)))") }
            return d
        }

        static func show(_ b: UInt8) -> String {
            b >= 0x20 && b < 0x7F ? String(UnicodeScalar(b)) : "0x" + String(b, radix: 16)
        }
    }
}
