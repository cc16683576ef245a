/// The GDL 90 frame check: CRC-16-CCITT (polynomial 0x1021, initial value 0), computed
/// exactly as the ICD's table-driven routine (§2.2.3):
/// `crc = table[crc >> 8] ^ (crc << 8) ^ byte`.
///
/// This is *not* the common XMODEM formulation (which XORs the byte into the high half);
/// only this form reproduces the ICD's checks, e.g. `00 81 41 DB D0 08 02` → `0x8BB3`.
///
/// ``compute(_:)-(UnsafeRawBufferPointer)`` processes sixteen bytes a step ("slicing"): the
/// routine is linear, so with `Z` one step on a zero byte and `G[j][x] = Z^j(x << 8)`, eight
/// steps from state `h:l` over bytes `b0…b7` give
/// `G8[h] ^ G7[l] ^ G6[b0] ^ G5[b1] ^ G4[b2] ^ G3[b3] ^ G2[b4] ^ G1[b5] ^ (b6 << 8 | b7)`
/// (`G1` is the ICD table), and sixteen steps likewise with `G16` … `G1`: lookups independent of
/// each other, one dependent step per sixteen bytes instead of one per byte.
public enum CRC16 {
    /// The 256-entry lookup table of the ICD.
    public static let table: [UInt16] = (0..<256).map { i -> UInt16 in
        var crc = UInt16(i) << 8
        for _ in 0..<8 {
            crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1
        }
        return crc
    }

    /// The slicing tables `G1` (the ICD table) to `G16` laid end to end, 256 entries each (8 kB).
    @usableFromInline static let slices: [UInt16] = {
        let t = table
        func step(_ c: UInt16) -> UInt16 { t[Int(c >> 8)] ^ (c << 8) }
        var all: [UInt16] = []
        all.reserveCapacity(16 * 256)
        for j in 1...16 {
            all += (0..<256).map { x -> UInt16 in
                var c = UInt16(x) << 8
                for _ in 0..<j { c = step(c) }
                return c
            }
        }
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

    /// The CRC of the bytes in `buffer`, sixteen bytes a step (then eight, then one).
    @inlinable
    public static func compute(_ buffer: UnsafeRawBufferPointer) -> UInt16 {
        guard let bytes = buffer.baseAddress else { return 0 }
        return slices.withUnsafeBufferPointer { s in
            let g = s.baseAddress!
            var crc: UInt16 = 0
            var i = 0
            let n = buffer.count
            while i &+ 16 <= n {
                let w = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian
                let v = bytes.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self).littleEndian
                @inline(__always) func b(_ k: UInt64) -> Int { Int(truncatingIfNeeded: w >> (8 &* k) & 0xFF) }
                @inline(__always) func c(_ k: UInt64) -> Int { Int(truncatingIfNeeded: v >> (8 &* k) & 0xFF) }
                let x = g[15 << 8 | Int(crc >> 8)] ^ g[14 << 8 | Int(crc & 0xFF)]
                    ^ g[13 << 8 | b(0)] ^ g[12 << 8 | b(1)] ^ g[11 << 8 | b(2)] ^ g[10 << 8 | b(3)]
                    ^ g[9 << 8 | b(4)] ^ g[8 << 8 | b(5)] ^ g[7 << 8 | b(6)] ^ g[6 << 8 | b(7)]
                let y = g[5 << 8 | c(0)] ^ g[4 << 8 | c(1)] ^ g[3 << 8 | c(2)] ^ g[2 << 8 | c(3)]
                    ^ g[1 << 8 | c(4)] ^ g[c(5)] ^ UInt16(truncatingIfNeeded: c(6) << 8 | c(7))
                crc = x ^ y
                i &+= 16
            }
            if i &+ 8 <= n {
                let w = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian
                @inline(__always) func b(_ k: UInt64) -> Int { Int(truncatingIfNeeded: w >> (8 &* k) & 0xFF) }
                crc = g[7 << 8 | Int(crc >> 8)] ^ g[6 << 8 | Int(crc & 0xFF)]
                    ^ g[5 << 8 | b(0)] ^ g[4 << 8 | b(1)] ^ g[3 << 8 | b(2)] ^ g[2 << 8 | b(3)]
                    ^ g[1 << 8 | b(4)] ^ g[b(5)] ^ UInt16(truncatingIfNeeded: b(6) << 8 | b(7))
                i &+= 8
            }
            while i < n {
                crc = g[Int(crc >> 8)] ^ (crc << 8) ^ UInt16(bytes.load(fromByteOffset: i, as: UInt8.self))
                i &+= 1
            }
            return crc
        }
    }
}
