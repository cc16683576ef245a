/// A small, fast, deterministic JSON object writer: keys in the order written, numbers with a
/// fixed number of decimals, strings escaped per RFC 8259. Used for every JSON Lines output so
/// that replaying a capture twice gives byte-identical output.
public struct JSONWriter {
    /// The text so far.
    public private(set) var text: String
    private var first = true

    /// Starts an object.
    public init() {
        text = "{"
        text.reserveCapacity(256)
    }

    /// The finished object.
    public var result: String { text + "}" }

    private mutating func key(_ k: String) {
        if !first { text += "," }
        first = false
        text += "\""
        text += k
        text += "\":"
    }

    /// Writes a string (or null).
    public mutating func add(_ k: String, _ v: String?) {
        key(k)
        guard let v else { text += "null"; return }
        JSONWriter.appendQuoted(v, to: &text)
    }

    /// Writes an integer (or null).
    public mutating func add(_ k: String, _ v: Int?) {
        key(k)
        text += v.map { String($0) } ?? "null"
    }

    /// Writes a Boolean (or null).
    public mutating func add(_ k: String, _ v: Bool?) {
        key(k)
        text += v.map { $0 ? "true" : "false" } ?? "null"
    }

    /// Writes a number with at most `decimals` decimals, trailing zeros trimmed (or null).
    public mutating func add(_ k: String, _ v: Double?, decimals: Int) {
        key(k)
        guard let v, v.isFinite else { text += "null"; return }
        text += JSONWriter.format(v, decimals: decimals)
    }

    /// Writes pre-encoded JSON (an array or object) verbatim.
    public mutating func addRaw(_ k: String, _ json: String) {
        key(k)
        text += json
    }

    /// Formats `v` with at most `decimals` decimals (half away from zero), trailing zeros trimmed.
    public static func format(_ v: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(v) * scale).rounded()
        guard scaled < 9e15 else { return String(v) }
        let n = Int64(scaled)
        let p = Int64(scale)
        var s = (v < 0 && n != 0 ? "-" : "") + String(n / p)
        var frac = n % p
        if decimals > 0 && frac != 0 {
            var digits = String(frac)
            digits = String(repeating: "0", count: decimals - digits.count) + digits
            while digits.hasSuffix("0") {
                digits.removeLast()
                frac /= 10
            }
            s += "." + digits
        }
        return s
    }

    /// Appends `s` as a quoted JSON string.
    public static func appendQuoted(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let h = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// A JSON array of pre-encoded elements.
    public static func array(_ elements: [String]) -> String { "[" + elements.joined(separator: ",") + "]" }
}
