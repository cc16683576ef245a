/// The GDL 90 frame check: CRC-16-CCITT (polynomial 0x1021, initial value 0), computed
/// exactly as the ICD's table-driven routine (§2.2.3):
/// `crc = table[crc >> 8] ^ (crc << 8) ^ byte`.
///
/// This is *not* the common XMODEM formulation (which XORs the byte into the high half);
/// only this form reproduces the ICD's checks, e.g. `00 81 41 DB D0 08 02` → `0x8BB3`.
///
/// ``compute(_:)-(UnsafeRawBufferPointer)`` processes four bytes a step ("slicing"): the routine
/// is linear, so four steps of it equal table lookups on the two state bytes (`a4`, `b4`) and on
/// the first two input bytes (`a2`, `table`), all independent of each other, plus the last two
/// input bytes as they are. One dependent lookup per four bytes instead of one per byte.
public enum CRC16 {
    /// The 256-entry lookup table of the ICD.
    public static let table: [UInt16] = (0..<256).map { i -> UInt16 in
        var crc = UInt16(i) << 8
        for _ in 0..<8 {
            crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1
        }
        return crc
    }

    /// The four slicing tables laid end to end: the ICD table, then `a2`, `a4`, `b4` (256 each).
    /// `a2[h]` is two zero-input steps applied to `h << 8`; `a4[h]` and `b4[l]` are four steps
    /// applied to `h << 8` and to `l`.
    @usableFromInline static let slices: [UInt16] = {
        let t = table
        func step(_ c: UInt16) -> UInt16 { t[Int(c >> 8)] ^ (c << 8) }
        func steps(_ c: UInt16, _ n: Int) -> UInt16 { var c = c; for _ in 0..<n { c = step(c) }; return c }
        var all = t
        all += (0..<256).map { steps(UInt16($0) << 8, 2) }
        all += (0..<256).map { steps(UInt16($0) << 8, 4) }
        all += (0..<256).map { steps(UInt16($0), 4) }
        return all
    }()

    /// The CRC of `bytes` (message ID and payload, before byte-stuffing).
    @inlinable
    public static func compute<C: Collection>(_ bytes: C) -> UInt16 where C.Element == UInt8 {
        if let fast = bytes.withContiguousStorageIfAvailable({ compute(UnsafeRawBufferPointer($0)) }) {
            return fast
        }
        var crc: UInt16 = 0
        for byte in bytes {
            crc = table[Int(crc >> 8)] ^ (crc << 8) ^ UInt16(byte)
        }
        return crc
    }

    /// The CRC of the bytes in `buffer`, four bytes a step.
    @inlinable
    public static func compute(_ buffer: UnsafeRawBufferPointer) -> UInt16 {
        slices.withUnsafeBufferPointer { s in
            let t = s.baseAddress!
            let a2 = t + 256, a4 = t + 512, b4 = t + 768
            var crc: UInt16 = 0
            var i = 0
            let n = buffer.count
            while i + 4 <= n {
                let b0 = buffer[i], b1 = buffer[i + 1], b2 = buffer[i + 2], b3 = buffer[i + 3]
                crc = a4[Int(crc >> 8)] ^ b4[Int(crc & 0xFF)] ^ a2[Int(b0)] ^ t[Int(b1)]
                    ^ (UInt16(b2) << 8 | UInt16(b3))
                i &+= 4
            }
            while i < n {
                crc = t[Int(crc >> 8)] ^ (crc << 8) ^ UInt16(buffer[i])
                i &+= 1
            }
            return crc
        }
    }
}
