/// The GDL 90 frame check: CRC-16-CCITT (polynomial 0x1021, initial value 0), computed
/// exactly as the ICD's table-driven routine (§2.2.3):
/// `crc = table[crc >> 8] ^ (crc << 8) ^ byte`.
///
/// This is *not* the common XMODEM formulation (which XORs the byte into the high half);
/// only this form reproduces the ICD's checks, e.g. `00 81 41 DB D0 08 02` → `0x8BB3`.
public enum CRC16 {
    /// The 256-entry lookup table of the ICD.
    public static let table: [UInt16] = (0..<256).map { i -> UInt16 in
        var crc = UInt16(i) << 8
        for _ in 0..<8 {
            crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1
        }
        return crc
    }

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

    /// The CRC of the bytes in `buffer`.
    @inlinable
    public static func compute(_ buffer: UnsafeRawBufferPointer) -> UInt16 {
        table.withUnsafeBufferPointer { table in
            var crc: UInt16 = 0
            for byte in buffer {
                crc = table[Int(crc >> 8)] ^ (crc << 8) ^ UInt16(byte)
            }
            return crc
        }
    }
}
