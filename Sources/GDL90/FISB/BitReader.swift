/// Reads big-endian bit fields (most significant bit first) from a byte range. Reading past the
/// end of the range throws `FISBError.truncated` instead of trapping, so a short or lying frame
/// is reported, never a crash.
struct BitReader {
    let bytes: [UInt8]
    /// First byte index after the readable range.
    let end: Int
    /// Absolute bit position in `bytes`.
    private(set) var bit: Int
    /// What is being read, for error messages.
    let what: String

    init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil, what: String) {
        self.bytes = bytes
        self.end = Swift.min(end ?? bytes.count, bytes.count)
        self.bit = start * 8
        self.what = what
    }

    /// Byte index of the next whole byte (a partially read byte counts as read).
    var byteOffset: Int { (bit + 7) >> 3 }
    /// Whole bytes left after `byteOffset`.
    var bytesLeft: Int { Swift.max(0, end - byteOffset) }

    /// Reads `count` bits (at most 32) as an unsigned integer.
    mutating func read(_ count: Int, _ field: @autoclosure () -> String = "") throws(FISBError) -> Int {
        guard bit + count <= end * 8 else {
            let f = field()
            throw FISBError(.truncated, at: bit >> 3, "\(what)\(f.isEmpty ? "" : " " + f) needs \(count) bits, \(Swift.max(0, end * 8 - bit)) left")
        }
        var v = 0
        var n = count
        while n > 0 {
            let byte = Int(bytes[bit >> 3])
            let used = bit & 7
            let take = Swift.min(8 - used, n)
            let shifted = (byte >> (8 - used - take)) & ((1 << take) - 1)
            v = (v << take) | shifted
            bit += take
            n -= take
        }
        return v
    }

    /// Reads one bit as a Boolean.
    mutating func flag() throws(FISBError) -> Bool { try read(1) == 1 }

    /// Moves to the next byte boundary.
    mutating func align() { bit = (bit + 7) & ~7 }

    /// Reads `count` whole bytes (after aligning).
    mutating func bytes(_ count: Int, _ field: String) throws(FISBError) -> [UInt8] {
        align()
        let start = bit >> 3
        guard start + count <= end else {
            throw FISBError(.truncated, at: start, "\(what) \(field) needs \(count) bytes, \(Swift.max(0, end - start)) left")
        }
        bit += count * 8
        return Array(bytes[start..<(start + count)])
    }
}

/// Writes big-endian bit fields, most significant bit first; the last byte is zero-padded.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var bit = 0

    init() {}

    /// Appends the low `count` bits of `value`.
    mutating func write(_ value: Int, _ count: Int) {
        var n = count
        while n > 0 {
            if bit & 7 == 0 { bytes.append(0) }
            let used = bit & 7
            let take = Swift.min(8 - used, n)
            let chunk = (value >> (n - take)) & ((1 << take) - 1)
            bytes[bytes.count - 1] |= UInt8(chunk << (8 - used - take))
            bit += take
            n -= take
        }
    }

    /// Appends one bit.
    mutating func write(_ flag: Bool) { write(flag ? 1 : 0, 1) }

    /// Pads with zero bits to the next byte boundary.
    mutating func align() { bit = (bit + 7) & ~7 }

    /// Appends whole bytes (after aligning).
    mutating func append(_ more: [UInt8]) {
        align()
        bytes += more
        bit += more.count * 8
    }
}
