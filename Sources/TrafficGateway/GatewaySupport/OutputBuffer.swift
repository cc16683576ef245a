/// Output bytes built without `String`: integers, fixed-point numbers, hex, JSON strings and
/// ISO-8601 times written straight into a reusable byte array, so that a command printing a
/// line a message (`decode`, `fisb`) costs little more than the decoding. Each append reserves
/// its largest size once and writes through a `ByteCursor` (no check per byte); written out with
/// large writes, and `removeAll` keeps the storage for the next batch.
public struct OutputBuffer: Sendable {
    /// Storage: `count` bytes written, the rest room to grow into. (`Array.append(contentsOf:)`
    /// per piece cost a third of `decode --json`.)
    @usableFromInline var storage: [UInt8]
    /// Bytes held.
    public var count: Int { _count }
    @usableFromInline var _count = 0

    /// An empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 1 << 16) {
        storage = capacity > 0 ? [UInt8](repeating: 0, count: capacity) : []
    }

    /// Empties the buffer, keeping its storage.
    public mutating func removeAll() { _count = 0 }

    /// The bytes held.
    public var bytes: [UInt8] { Array(storage[0..<_count]) }

    /// The bytes as text (UTF-8).
    public var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// Calls `body` with the bytes held.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<_count])) }
    }

    /// Reserves `maximum` bytes and lets `body` write at most that many through a cursor.
    @inlinable @inline(__always)
    public mutating func write(upTo maximum: Int, _ body: (inout ByteCursor) -> Void) {
        if _count + maximum > storage.count { grow(_count + maximum) }
        let at = _count
        _count = storage.withUnsafeMutableBufferPointer { buffer in
            var cursor = ByteCursor(buffer.baseAddress! + at, end: buffer.baseAddress! + buffer.count)
            body(&cursor)
            return cursor.position - buffer.baseAddress!
        }
    }

    @usableFromInline @inline(never)
    mutating func grow(_ needed: Int) {
        var bigger = [UInt8](repeating: 0, count: max(needed, storage.count * 2, 64))
        let n = _count
        bigger.withUnsafeMutableBytes { to in storage.withUnsafeBytes { from in to.copyMemory(from: UnsafeRawBufferPointer(rebasing: from[0..<n])) } }
        storage = bigger
    }

    /// Appends one byte.
    @inlinable @inline(__always)
    public mutating func append(byte: UInt8) { write(upTo: 1) { $0.put(byte) } }

    /// Appends raw bytes.
    @inlinable @inline(__always)
    public mutating func append(raw: UnsafeRawBufferPointer) { write(upTo: raw.count) { $0.put(raw) } }

    /// Appends the UTF-8 of `s`.
    @inlinable @inline(__always)
    public mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { append(raw: UnsafeRawBufferPointer($0)) }
    }

    /// Appends the UTF-8 of a literal.
    @inlinable @inline(__always)
    public mutating func append(_ s: StaticString) { write(upTo: s.utf8CodeUnitCount) { $0.put(s) } }

    /// Appends other bytes.
    public mutating func append(contentsOf other: [UInt8]) { other.withUnsafeBytes { append(raw: $0) } }

    /// Appends `v` in decimal.
    public mutating func append(_ v: Int) { write(upTo: 20) { $0.put(decimal: Int64(v)) } }

    /// Appends the decimal digits of `v`, at least `width` (at most 20) of them.
    public mutating func appendDigits(_ v: UInt64, width: Int) { write(upTo: 20) { $0.putDigits(v, width: width) } }

    /// Appends `v` with at most `decimals` decimals (half away from zero), trailing zeros
    /// trimmed, `-0` written `0`: the same text as `JSONWriter.format`.
    public mutating func append(_ v: Double, decimals: Int) {
        write(upTo: 42) { $0.putNumber(v, decimals: decimals) }
    }

    /// Appends `v` as lowercase hex, zero-padded to `width` digits.
    public mutating func appendHex(_ v: UInt32, width: Int) { write(upTo: 8) { $0.putHex(v, width: width) } }

    /// Appends a byte as two lowercase hex digits.
    public mutating func appendHex(byte b: UInt8) { write(upTo: 2) { $0.putHex(byte: b) } }

    /// Appends `s` quoted as a JSON string (RFC 8259: `"`, `\` and control characters escaped;
    /// everything else, non-ASCII included, as its UTF-8).
    public mutating func appendJSONQuoted(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in write(upTo: utf8.count * 6 + 2) { $0.putJSONQuoted(UnsafeRawBufferPointer(utf8)) } }
    }
}

/// A write position in memory an `OutputBuffer` reserved: every `put` writes without a check,
/// so a caller reserves the most it can write first (`OutputBuffer.write(upTo:_:)`).
public struct ByteCursor {
    /// Where the next byte goes.
    public var position: UnsafeMutablePointer<UInt8> { _position }
    @usableFromInline var _position: UnsafeMutablePointer<UInt8>
    @usableFromInline let end: UnsafeMutablePointer<UInt8>

    @usableFromInline
    init(_ _position: UnsafeMutablePointer<UInt8>, end: UnsafeMutablePointer<UInt8>) {
        self._position = _position
        self.end = end
    }

    /// Writes one byte.
    @inlinable @inline(__always)
    public mutating func put(_ b: UInt8) {
        assert(_position < end)
        _position.pointee = b
        _position += 1
    }

    /// Writes raw bytes.
    ///
    /// Up to 32 bytes are copied here, with two loads and two stores that may overlap (the first
    /// and the last 16, 8 or 4 bytes; one to three bytes one at a time), reading and writing only
    /// the bytes given: most pieces
    /// of a line are short literals and names whose length is chosen at run time (`true` or
    /// `false`, a type's name, the date, a callsign), and a call to `memmove` for each, a
    /// million a second, was a twentieth of `decode --json`'s time.
    @inlinable @inline(__always)
    public mutating func put(_ raw: UnsafeRawBufferPointer) {
        guard let from = raw.baseAddress else { return }
        let n = raw.count
        assert(_position + n <= end)
        let to = UnsafeMutableRawPointer(_position)
        if n > 32 {
            to.copyMemory(from: from, byteCount: n)
        } else if n >= 16 {
            let first = from.loadUnaligned(as: SIMD16<UInt8>.self)
            let last = from.loadUnaligned(fromByteOffset: n &- 16, as: SIMD16<UInt8>.self)
            to.storeBytes(of: first, as: SIMD16<UInt8>.self)
            to.storeBytes(of: last, toByteOffset: n &- 16, as: SIMD16<UInt8>.self)
        } else if n >= 8 {
            let first = from.loadUnaligned(as: UInt64.self)
            let last = from.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
            to.storeBytes(of: first, as: UInt64.self)
            to.storeBytes(of: last, toByteOffset: n &- 8, as: UInt64.self)
        } else if n >= 4 {
            let first = from.loadUnaligned(as: UInt32.self)
            let last = from.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
            to.storeBytes(of: first, as: UInt32.self)
            to.storeBytes(of: last, toByteOffset: n &- 4, as: UInt32.self)
        } else if n > 0 {
            // One to three bytes: the first, the middle and the last (some the same).
            let first = from.load(as: UInt8.self), middle = from.load(fromByteOffset: n >> 1, as: UInt8.self)
            let last = from.load(fromByteOffset: n &- 1, as: UInt8.self)
            to.storeBytes(of: first, as: UInt8.self)
            to.storeBytes(of: middle, toByteOffset: n >> 1, as: UInt8.self)
            to.storeBytes(of: last, toByteOffset: n &- 1, as: UInt8.self)
        }
        _position += n
    }

    /// Writes a literal's UTF-8.
    @inlinable @inline(__always)
    public mutating func put(_ s: StaticString) {
        put(UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// Writes `v` in decimal (at most 20 bytes).
    @inlinable @inline(__always)
    public mutating func put(decimal v: Int64) {
        if v < 0 {
            put(0x2D)
            putDigits(v.magnitude, width: 1)
        } else {
            putDigits(UInt64(v), width: 1)
        }
    }

    /// Writes the decimal digits of `v`, zero-padded to at least `width` (at most 20) of them.
    @inlinable @inline(__always)
    public mutating func putDigits(_ v: UInt64, width: Int) {
        // Most numbers on a line are one or two digits (integrity and accuracy codes, categories,
        // a level aircraft's zero vertical speed): written straight away, with no digits counted.
        if v < 100 && width <= 2 {
            if v < 10 && width <= 1 {
                put(UInt8(truncatingIfNeeded: v) &+ 0x30)
            } else {
                var two = v
                Self.putPair(&two, at: _position, Self.digitPairs.utf8Start)
                _position += 2
            }
            return
        }
        // Digits counted four at a step (a multiply each), then two, then one.
        var n = 1
        var probe = v
        while probe >= 10_000 {
            n += 4
            probe /= 10_000
        }
        if probe >= 100 {
            n += 2
            probe /= 100
        }
        if probe >= 10 { n += 1 }
        n = max(n, min(width, 20))
        var v = v
        let start = _position
        var at = _position + n
        _position = at
        // Two digits a step from a table of "00" to "99".
        let pairs = Self.digitPairs.utf8Start
        while v >= 10 {
            at -= 2
            Self.putPair(&v, at: at, pairs)
        }
        if v > 0 || at == _position {
            at -= 1
            at.pointee = UInt8(truncatingIfNeeded: v) &+ 0x30
        }
        while at > start {
            at -= 1
            at.pointee = 0x30
        }
    }

    /// Writes the last two decimal digits of `v` at `at` and drops them from `v`.
    @inlinable @inline(__always)
    static func putPair(_ v: inout UInt64, at: UnsafeMutablePointer<UInt8>, _ pairs: UnsafePointer<UInt8>) {
        let r = Int(truncatingIfNeeded: v % 100)
        v /= 100
        at[0] = pairs[2 &* r]
        at[1] = pairs[2 &* r &+ 1]
    }

    @inlinable
    static var digitPairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
    }

    /// True when `put(_:decimals:)` can write `v` (finite, and within Int64 once scaled);
    /// otherwise `String(v)` is written, as `JSONWriter.format` does.
    @inlinable @inline(__always)
    public static func fitsFixed(_ v: Double, decimals: Int) -> Bool {
        // From 2^52 up every double is a whole number, so `x.rounded() < 9e15` is `x < 9e15`
        // (and NaN fails it): no call into libm's round.
        abs(v) * scale(decimals) < 9e15
    }

    /// `x.rounded()` (half away from zero) for `x` in [0, 2^63), without a call into libm: below
    /// 2^52 the truncation is exact, and so is `x - truncation` (Sterbenz), so the half test is
    /// exact; from 2^52 up every double is whole.
    @inlinable @inline(__always)
    static func roundedMagnitude(_ x: Double) -> Int64 {
        guard x < 4_503_599_627_370_496 else { return Int64(x) }  // whole already
        let whole = Int64(x)
        return x - Double(whole) >= 0.5 ? whole + 1 : whole
    }

    @inlinable @inline(__always)
    static func scale(_ decimals: Int) -> Double {
        switch decimals {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        default:
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            return scale
        }
    }

    /// Writes `v` with at most `decimals` decimals (half away from zero), trailing zeros trimmed,
    /// `-0` written `0` (at most 42 bytes); `fitsFixed` must be true.
    ///
    /// The scaled integer is split into whole part and fraction (a multiply each when `decimals`
    /// is a constant at the call, as it is on every hot path); the fraction's trailing zeros are
    /// dropped before any digit is written.
    @inlinable @inline(__always)
    public mutating func put(_ v: Double, decimals: Int) {
        // Each count of decimals the gateway writes gets its own specialised copy, the powers of
        // ten constants in it (dividing by a variable is a slow instruction), inlined or not.
        switch decimals {
        case 0: putFixed(v, Decimals0.self)
        case 1: putFixed(v, Decimals1.self)
        case 2: putFixed(v, Decimals2.self)
        case 5: putFixed(v, Decimals5.self)
        case 6: putFixed(v, Decimals6.self)
        default: putScaled(v, decimals: decimals)
        }
    }

    @inlinable @inline(__always)
    mutating func putFixed<D: FixedDecimals>(_ v: Double, _: D.Type) {
        putScaled(v, decimals: D.count)
    }

    @inlinable @inline(__always)
    mutating func putScaled(_ v: Double, decimals: Int) {
        let scale = Self.scale(decimals)
        let n = UInt64(Self.roundedMagnitude(abs(v) * scale))
        if v < 0 && n != 0 { put(0x2D) }
        guard decimals > 0 else {
            putDigits(n, width: 1)
            return
        }
        let power = UInt64(scale)
        var fraction = n % power
        putDigits(n / power, width: 1)
        guard fraction != 0 else { return }
        var digits = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        put(0x2E)
        putFixedDigits(fraction, width: digits)
    }

    /// Writes exactly `width` decimal digits of `v` (`v` < 10^`width`), zero-padded on the left.
    @inlinable @inline(__always)
    mutating func putFixedDigits(_ v: UInt64, width: Int) {
        var v = v
        var at = _position + width
        _position = at
        let pairs = Self.digitPairs.utf8Start
        var left = width
        while left >= 2 {
            at -= 2
            Self.putPair(&v, at: at, pairs)
            left -= 2
        }
        if left == 1 { at[-1] = UInt8(truncatingIfNeeded: v) &+ 0x30 }
    }

    /// Writes a string known to need no escaping (no control character, quote or backslash) quoted, or,
    /// if it does need escaping, as `putJSONQuoted` does: short names (a callsign) in one pass.
    @inlinable @inline(__always)
    public mutating func putJSONQuotedShort(_ text: UnsafeRawBufferPointer) {
        var plain = true
        for i in 0..<text.count {
            let c = text[i]
            if c < 0x20 || c == 0x22 || c == 0x5C { plain = false }
        }
        if plain {
            put(0x22)
            put(text)
            put(0x22)
        } else {
            putJSONQuoted(text)
        }
    }

    /// Writes `v` as `OutputBuffer.append(_:decimals:)` does: fixed-point when it fits, else
    /// Swift's shortest text (at most 42 bytes).
    @inlinable @inline(__always)
    public mutating func putNumber(_ v: Double, decimals: Int) {
        if Self.fitsFixed(v, decimals: decimals) {
            put(v, decimals: decimals)
        } else {
            putShortest(v)
        }
    }

    /// Swift's shortest text of `v` (at most 24 bytes): the rare number too large for fixed point.
    @usableFromInline @inline(never)
    mutating func putShortest(_ v: Double) {
        var text = String(v)
        text.withUTF8 { put(UnsafeRawBufferPointer($0)) }
    }

    /// Writes an integer or `null` (at most 20 bytes).
    @inlinable @inline(__always)
    public mutating func putJSON(_ v: Int?) {
        if let v { put(decimal: Int64(v)) } else { put("null" as StaticString) }
    }

    /// Writes `true` or `false` (at most 5 bytes).
    @inlinable @inline(__always)
    public mutating func putJSON(_ v: Bool) {
        if v { put("true" as StaticString) } else { put("false" as StaticString) }
    }

    /// Writes a number as `JSONWriter.add(_:_:decimals:)` does: `null` when nil or not finite,
    /// fixed-point when it fits, else Swift's shortest text (at most 42 bytes).
    @inlinable @inline(__always)
    public mutating func putJSON(_ v: Double?, decimals: Int) {
        guard let v, v.isFinite else { put("null" as StaticString); return }
        putNumber(v, decimals: decimals)
    }

    /// Writes `v` as lowercase hex, zero-padded to `width` digits (at most 8 bytes).
    @inlinable @inline(__always)
    public mutating func putHex(_ v: UInt32, width: Int) {
        var shift = 28
        var started = false
        while shift >= 0 {
            let nibble = Int(v >> UInt32(shift) & 0xF)
            started = started || nibble != 0 || shift < width * 4 || shift == 0
            if started { put(Self.hex(nibble)) }
            shift -= 4
        }
    }

    /// Writes `v` as lowercase hex without leading zeros (`String(v, radix: 16)`; at most 16 bytes).
    public mutating func putHex(_ v: UInt64) {
        var shift = 60
        var started = false
        while shift >= 0 {
            let nibble = Int(truncatingIfNeeded: v >> UInt64(shift) & 0xF)
            started = started || nibble != 0 || shift == 0
            if started { put(Self.hex(nibble)) }
            shift -= 4
        }
    }

    /// Writes a byte as two lowercase hex digits.
    @inlinable @inline(__always)
    public mutating func putHex(byte b: UInt8) {
        put(Self.hex(Int(b >> 4)))
        put(Self.hex(Int(b & 0xF)))
    }

    @inlinable @inline(__always)
    static func hex(_ nibble: Int) -> UInt8 { UInt8(truncatingIfNeeded: nibble < 10 ? 0x30 + nibble : 0x57 + nibble) }

    /// Writes `s` quoted as a JSON string (at most 6 × its UTF-8 length + 2 bytes).
    public mutating func putJSONQuoted(_ s: String) {
        var s = s
        s.withUTF8 { putJSONQuoted(UnsafeRawBufferPointer($0)) }
    }

    /// Writes the UTF-8 of `s` as it is (at most its UTF-8 length).
    public mutating func put(_ s: String) {
        var s = s
        s.withUTF8 { put(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `v` as Swift's `description` writes it (`"\(v)"`: `1.5`, `-2.0`). A number of whole
    /// tenths below 10^14, which is every angle of a GDL 90 AHRS message, is written from its
    /// digits; any other falls back to the standard library's text (at most 24 bytes).
    @inlinable @inline(__always)
    public mutating func putDescription(_ v: Double) {
        let magnitude = abs(v)
        if magnitude < 1e14 {
            let tenths = Self.roundedMagnitude(magnitude * 10)
            if Double(tenths) / 10 == magnitude {
                if v.sign == .minus { put(0x2D) }
                putDigits(UInt64(tenths / 10), width: 1)
                put(0x2E)
                put(UInt8(truncatingIfNeeded: tenths % 10) &+ 0x30)
                return
            }
        }
        putShortest(v)
    }

    /// Writes UTF-8 `text` quoted as a JSON string (at most 6 × its length + 2 bytes).
    public mutating func putJSONQuoted(_ text: UnsafeRawBufferPointer) {
        put(0x22)
        var clean = 0  // start of the run of bytes that need no escape
        for i in 0..<text.count {
            let c = text[i]
            guard c < 0x20 || c == 0x22 || c == 0x5C else { continue }
            if clean < i { put(UnsafeRawBufferPointer(rebasing: text[clean..<i])) }
            clean = i + 1
            switch c {
            case 0x22: put("\\\"" as StaticString)
            case 0x5C: put("\\\\" as StaticString)
            case 0x0A: put("\\n" as StaticString)
            case 0x0D: put("\\r" as StaticString)
            case 0x09: put("\\t" as StaticString)
            default:
                put("\\u00" as StaticString)
                putHex(byte: c)
            }
        }
        if clean < text.count { put(UnsafeRawBufferPointer(rebasing: text[clean...])) }
        put(0x22)
    }
}

/// ISO-8601 UTC times appended to an `OutputBuffer`, the text of `Timestamp.iso8601`: the
/// `YYYY-MM-DDTHH:MM:SS` part is kept and copied for every line of its second; when the second
/// changes only its `HH:MM:SS` is rewritten, and the date made again only on a new day.
public struct ISO8601Writer: Sendable {
    @usableFromInline var second = Int64.min
    @usableFromInline var day = Int64.min
    @usableFromInline var prefix: [UInt8] = []
    @usableFromInline var millis: Int64 = 0
    /// The time last prepared (NaN before the first): the lines of one datagram share it.
    @usableFromInline var prepared = Double.nan

    /// The longest text written (a year of up to nine digits).
    public static let maximumLength = 32

    /// A writer with nothing cached.
    public init() {}

    /// Makes `t` (epoch seconds) the time `put(into:)` writes.
    public mutating func prepare(_ t: Double) {
        if t == prepared { return }
        prepared = t
        // Total, as `Timestamp.iso8601` is: NaN, infinities and 1e300 read as the limits.
        let scaled = Timestamp.clamped(t) * 1000
        let total = scaled >= 0 && scaled < 9e18 ? ByteCursor.roundedMagnitude(scaled) : Int64(scaled.rounded())
        var seconds = total / 1000
        millis = total % 1000
        if millis < 0 {
            millis += 1000
            seconds -= 1
        }
        if seconds != second {
            var days = seconds / 86_400
            var ofDay = seconds % 86_400
            if ofDay < 0 {
                ofDay += 86_400
                days -= 1
            }
            if days != day || prefix.count < 8 {
                // A new day: the date from the formatter (once a day).
                day = days
                prefix = Array(Timestamp.iso8601(Double(seconds)).utf8.dropLast())
            } else {
                // The same day: only `HH:MM:SS`, the prefix's last eight bytes, changes.
                let n = prefix.count
                prefix.withUnsafeMutableBufferPointer { p in
                    func two(_ value: Int64, at: Int) {
                        p[at] = UInt8(truncatingIfNeeded: value / 10) &+ 0x30
                        p[at + 1] = UInt8(truncatingIfNeeded: value % 10) &+ 0x30
                    }
                    two(ofDay / 3600, at: n - 8)
                    two(ofDay / 60 % 60, at: n - 5)
                    two(ofDay % 60, at: n - 2)
                }
            }
            second = seconds
        }
    }

    /// Writes the prepared time, `2026-05-16T14:00:03Z` or `…03.250Z` (at most `maximumLength`).
    @inlinable
    public func put(into c: inout ByteCursor) {
        prefix.withUnsafeBytes { c.put($0) }
        if millis != 0 {
            c.put(0x2E)
            c.putDigits(UInt64(millis), width: 3)
        }
        c.put(0x5A)
    }

    /// Appends `t` (epoch seconds) as `2026-05-16T14:00:03Z` or `…03.250Z`.
    @inlinable
    public mutating func append(_ t: Double, to out: inout OutputBuffer) {
        prepare(t)
        out.write(upTo: Self.maximumLength) { put(into: &$0) }
    }
}

/// A count of decimals as a type, so that `ByteCursor.put(_:decimals:)` is specialised for it.
@usableFromInline protocol FixedDecimals { static var count: Int { get } }
@usableFromInline enum Decimals0: FixedDecimals { @inlinable static var count: Int { 0 } }
@usableFromInline enum Decimals1: FixedDecimals { @inlinable static var count: Int { 1 } }
@usableFromInline enum Decimals2: FixedDecimals { @inlinable static var count: Int { 2 } }
@usableFromInline enum Decimals5: FixedDecimals { @inlinable static var count: Int { 5 } }
@usableFromInline enum Decimals6: FixedDecimals { @inlinable static var count: Int { 6 } }
