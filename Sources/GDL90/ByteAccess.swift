/// Big-endian field access into a message slice, indexed from the message ID (byte 0).
/// Callers check the length first (`MessageError.check`); the byte accessors only `assert` the
/// bounds (debug, tests and fuzzing builds trap on a decoder that reads past its checked length),
/// so release builds do not pay a bounds check per byte.
@usableFromInline
struct MessageBytes {
    @usableFromInline let bytes: UnsafeRawBufferPointer

    @inlinable init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    @inlinable var count: Int { bytes.count }
    @inlinable @inline(__always) subscript(_ i: Int) -> UInt8 {
        assert(i >= 0 && i < bytes.count, "GDL90 decoder read past a checked length")
        return bytes[i]
    }
    @inlinable @inline(__always) func u16(_ i: Int) -> UInt16 { UInt16(self[i]) << 8 | UInt16(self[i + 1]) }
    @inlinable @inline(__always) func i16(_ i: Int) -> Int16 { Int16(bitPattern: u16(i)) }
    @inlinable @inline(__always) func u24(_ i: Int) -> UInt32 { UInt32(self[i]) << 16 | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) }
    @inlinable @inline(__always) func u32(_ i: Int) -> UInt32 { UInt32(u16(i)) << 16 | UInt32(u16(i + 2)) }
    /// Eight bytes from `i` as a little-endian integer (first byte lowest), for fixed text fields.
    @inlinable @inline(__always) func u64LE(_ i: Int) -> UInt64 {
        assert(i >= 0 && i + 8 <= bytes.count, "GDL90 decoder read past a checked length")
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
    }
    @inlinable @inline(__always) func slice(_ from: Int, _ count: Int) -> UnsafeRawBufferPointer {
        precondition(from >= 0 && from + count <= bytes.count, "GDL90 decoder read past a checked length")
        return UnsafeRawBufferPointer(rebasing: bytes[from..<(from + count)])
    }
}

extension Array where Element == UInt8 {
    @inlinable mutating func appendU16(_ v: UInt16) {
        append(UInt8(v >> 8))
        append(UInt8(v & 0xFF))
    }
    @inlinable mutating func appendI16(_ v: Int16) { appendU16(UInt16(bitPattern: v)) }
    @inlinable mutating func appendU24(_ v: UInt32) {
        append(UInt8((v >> 16) & 0xFF))
        append(UInt8((v >> 8) & 0xFF))
        append(UInt8(v & 0xFF))
    }
    @inlinable mutating func appendU32(_ v: UInt32) {
        appendU16(UInt16(v >> 16))
        appendU16(UInt16(v & 0xFFFF))
    }
}

/// Fixed-width ASCII text fields (callsigns, device names): trailing spaces and NULs trimmed on
/// decode, space-padded on encode. Bytes outside printable ASCII keep their value as a scalar.
enum FixedText {
    static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        var end = bytes.count
        var ascii = true
        while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0 { end -= 1 }
        for i in 0..<end where bytes[i] >= 0x80 { ascii = false }
        let used = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
        if ascii { return String(decoding: used, as: UTF8.self) }
        var s = ""
        for b in used { s.unicodeScalars.append(Unicode.Scalar(b)) }
        return s
    }

    /// Eight bytes of text packed into an integer (first byte lowest), as ``encode`` would send them.
    static func pack(_ text: String) -> UInt64 {
        var out: [UInt8] = []
        out.reserveCapacity(8)
        encode(text, width: 8, into: &out)
        var v: UInt64 = 0
        for (i, b) in out.enumerated() { v |= UInt64(b) << (8 * UInt64(i)) }
        return v
    }

    /// The text of eight packed bytes (see ``pack``), trailing spaces and NULs trimmed.
    static func decode(_ packed: UInt64) -> String {
        withUnsafeBytes(of: packed.littleEndian) { decode($0) }
    }

    static func encode(_ text: String, width: Int, into out: inout [UInt8], pad: UInt8 = 0x20) {
        var n = 0
        for scalar in text.unicodeScalars where n < width {
            out.append(scalar.value < 256 ? UInt8(scalar.value) : 0x3F)
            n += 1
        }
        while n < width {
            out.append(pad)
            n += 1
        }
    }
}

/// 24-bit two's-complement semicircles (ICD §3.5.1.3): degrees = value × 180 / 2²³.
enum Semicircle {
    static let scale = 180.0 / 8_388_608.0

    static func degrees(_ raw: UInt32) -> Double {
        let signed = Int32(bitPattern: raw << 8) >> 8
        return Double(signed) * scale
    }

    static func raw(_ degrees: Double) -> UInt32 {
        var v = Int64((degrees / scale).rounded())
        v = Swift.min(Swift.max(v, -8_388_608), 8_388_607)
        return UInt32(truncatingIfNeeded: v) & 0xFF_FFFF
    }
}
