/// A small, fast, deterministic JSON object writer: keys in the order written, numbers with a
/// fixed number of decimals, strings escaped per RFC 8259. Used for every JSON Lines output so
/// that replaying a capture twice gives byte-identical output.
public struct JSONWriter {
    /// The bytes so far (what came before the object, then the object's opening and fields).
    public private(set) var out: OutputBuffer
    private var first = true

    /// Starts an object.
    public init() {
        out = OutputBuffer(capacity: 256)
        out.append(byte: 0x7B)
    }

    /// Starts an object at the end of `buffer`, whose bytes move into the writer (`buffer` is
    /// left empty) until `finish(into:)` moves them back: the hot paths write line after line into
    /// one buffer, with no `String` and no copy in between.
    public init(continuing buffer: inout OutputBuffer) {
        out = OutputBuffer(capacity: 0)
        swap(&out, &buffer)
        out.append(byte: 0x7B)
    }

    /// The finished object.
    public var result: String {
        var o = out
        o.append(byte: 0x7D)
        return o.text
    }

    /// Closes the object and moves the bytes back into `buffer`.
    public mutating func finish(into buffer: inout OutputBuffer) {
        out.append(byte: 0x7D)
        swap(&out, &buffer)
    }

    /// Writes `,"k":` (no comma first) and then what `body` writes, in one reservation of
    /// `extra` bytes beyond the key: the value's largest size.
    @inline(__always)
    private mutating func field(_ k: StaticString, upTo extra: Int, _ body: (inout ByteCursor) -> Void) {
        let comma = !first
        first = false
        out.write(upTo: k.utf8CodeUnitCount + 4 + extra) { c in
            if comma { c.put(0x2C) }
            c.put(0x22)
            c.put(k)
            c.put("\":" as StaticString)
            body(&c)
        }
    }

    /// Writes a string (or null).
    public mutating func add(_ k: StaticString, _ v: String?) {
        guard var v else { field(k, upTo: 4) { $0.put("null" as StaticString) }; return }
        v.withUTF8 { utf8 in field(k, upTo: utf8.count * 6 + 2) { $0.putJSONQuoted(UnsafeRawBufferPointer(utf8)) } }
    }

    /// Writes an integer (or null).
    public mutating func add(_ k: StaticString, _ v: Int?) {
        field(k, upTo: 20) { c in
            if let v { c.put(decimal: Int64(v)) } else { c.put("null" as StaticString) }
        }
    }

    /// Writes a Boolean (or null).
    public mutating func add(_ k: StaticString, _ v: Bool?) {
        field(k, upTo: 5) { c in
            switch v {
            case true?: c.put("true" as StaticString)
            case false?: c.put("false" as StaticString)
            case nil: c.put("null" as StaticString)
            }
        }
    }

    /// Writes a number with at most `decimals` decimals, trailing zeros trimmed (or null).
    public mutating func add(_ k: StaticString, _ v: Double?, decimals: Int) {
        field(k, upTo: 42) { $0.putJSON(v, decimals: decimals) }
    }

    /// Writes a time as an ISO-8601 string (or null), through `clock`'s once-a-second cache.
    public mutating func add(_ k: StaticString, time: Double?, clock: inout ISO8601Writer) {
        guard let time else { field(k, upTo: 4) { $0.put("null" as StaticString) }; return }
        clock.prepare(time)
        field(k, upTo: ISO8601Writer.maximumLength + 2) { c in
            c.put(0x22)
            clock.put(into: &c)
            c.put(0x22)
        }
    }

    /// Writes six lowercase hex digits as a string (an ICAO address).
    public mutating func add(_ k: StaticString, hex6 v: UInt32) {
        field(k, upTo: 10) { c in
            c.put(0x22)
            c.putHex(v, width: 6)
            c.put(0x22)
        }
    }

    /// Writes `,"k":` for a key known only at run time (escaped as any JSON string).
    private mutating func dynamicKey(_ k: String) {
        if !first { out.append(byte: 0x2C) }
        first = false
        out.appendJSONQuoted(k)
        out.append(byte: 0x3A)
    }

    /// Writes pre-encoded JSON under a key known only at run time.
    public mutating func addRaw(key k: String, _ json: String) {
        dynamicKey(k)
        out.append(json)
    }

    /// Writes a string (or null) under a key known only at run time.
    public mutating func add(key k: String, _ v: String?) {
        dynamicKey(k)
        if let v { out.appendJSONQuoted(v) } else { out.append("null" as StaticString) }
    }

    /// Writes an integer (or null) under a key known only at run time.
    public mutating func add(key k: String, _ v: Int?) {
        dynamicKey(k)
        if let v { out.append(v) } else { out.append("null" as StaticString) }
    }

    /// Writes pre-encoded JSON (an array or object) verbatim.
    public mutating func addRaw(_ k: StaticString, _ json: String) {
        var json = json
        json.withUTF8 { utf8 in field(k, upTo: utf8.count) { $0.put(UnsafeRawBufferPointer(utf8)) } }
    }

    /// Formats `v` with at most `decimals` decimals (half away from zero), trailing zeros trimmed.
    public static func format(_ v: Double, decimals: Int) -> String {
        var out = OutputBuffer(capacity: 24)
        out.append(v, decimals: decimals)
        return out.text
    }

    /// Appends `s` as a quoted JSON string.
    public static func appendQuoted(_ s: String, to out: inout String) {
        var buffer = OutputBuffer(capacity: s.utf8.count + 2)
        buffer.appendJSONQuoted(s)
        out += buffer.text
    }

    /// A JSON array of pre-encoded elements.
    public static func array(_ elements: [String]) -> String { "[" + elements.joined(separator: ",") + "]" }
}
