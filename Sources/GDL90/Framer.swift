/// Builds GDL 90 frames: CRC appended least significant byte first, flags around, and every
/// 0x7E or 0x7D between the flags (payload and CRC alike) sent as `0x7D, byte ^ 0x20`.
public enum Framer {
    /// The complete frame for `message` (message ID followed by payload).
    public static func frame<C: Collection>(_ message: C) -> [UInt8] where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(message.count + 8)
        append(message, to: &out)
        return out
    }

    /// Appends the complete frame for `message` to `out` (for building multi-frame datagrams).
    public static func append<C: Collection>(_ message: C, to out: inout [UInt8]) where C.Element == UInt8 {
        if message.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0), to: &out) }) != nil { return }
        let crc = CRC16.compute(message)
        out.append(0x7E)
        for byte in message { stuff(byte, into: &out) }
        stuff(UInt8(crc & 0xFF), into: &out)
        stuff(UInt8(crc >> 8), into: &out)
        out.append(0x7E)
    }

    /// The same for bytes in memory: runs with nothing to escape appended at once (found eight
    /// bytes a step, as the deframer finds them), not a byte at a time.
    static func append(_ message: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        let crc = CRC16.compute(message)
        let n = message.count
        if out.capacity < out.count + n + 8 { out.reserveCapacity(max(out.count + n + 8, out.capacity * 2)) }
        out.append(0x7E)
        if let base = message.baseAddress {
            var i = 0
            while i < n {
                let special = Deframer.nextSpecial(base, from: i, to: n)
                if special > i { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: message[i..<special])) }
                guard special < n else { break }
                out.append(0x7D)
                out.append(message[special] ^ 0x20)
                i = special + 1
            }
        }
        stuff(UInt8(crc & 0xFF), into: &out)
        stuff(UInt8(crc >> 8), into: &out)
        out.append(0x7E)
    }

    @inline(__always)
    static func stuff(_ byte: UInt8, into out: inout [UInt8]) {
        if byte == 0x7E || byte == 0x7D {
            out.append(0x7D)
            out.append(byte ^ 0x20)
        } else {
            out.append(byte)
        }
    }
}
