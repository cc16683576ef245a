#if canImport(Glibc)
import Glibc
#endif
import GDL90
import GatewaySupport

/// dump978 text output: `+HEX;rs=…;t=UNIX.frac;` (uplinks) and `-HEX;…` (ADS-B downlinks).
/// Each line becomes a GDL 90 frame (0x07 uplink, 0x1E/0x1F report) so every capture format
/// flows into the same deframer.
struct Dump978Reader {
    private var lineNumber = 0
    /// The time given to lines without `t=` (dump978's plain output, its example files): a time
    /// the file's products or its modification time point to (`CaptureDate.ofUndatedDump978`),
    /// never the epoch. Nil: such lines carry no time.
    var undatedTime: Double?

    static func read(_ bytes: [UInt8], name: String) -> CaptureContents {
        var out = CaptureContents(format: .dump978, datagrams: [], error: nil, skipped: 0)
        var reader = Dump978Reader()
        _ = reader.scan(bytes, base: 0, atEnd: true, name: name, into: &out)
        if out.error == nil { out.error = reader.lineProblems.error(path: name) }
        return out
    }

    /// Reads the whole lines at the start of `bytes` (file offset `base`) into `out`; returns
    /// the bytes consumed. A line cut by the window's end waits for more, unless `atEnd`.
    mutating func scan(_ bytes: [UInt8], base: Int, atEnd: Bool, name: String, into out: inout CaptureContents) -> Int {
        // Lines found and split through a buffer pointer (no array of fields a line); the hex
        // and the `t=` time read in place: a capture of NEXRAD uplinks is 900-byte lines by the
        // hundred thousand.
        var skipping = overlong
        defer { overlong = skipping }
        return bytes.withUnsafeBufferPointer { b in
            TextLines.forEach(b, atEnd: atEnd, overlong: &skipping) { lineStart, end in
                lineNumber += 1
                var i = lineStart
                while i < end, b[i] == 0x20 || b[i] == 0x0D { i += 1 }
                guard i < end else { return }
                switch Self.line(b, from: i, to: end) {
                case .message(let message, let time):
                    out.datagrams.append(CapturedDatagram(timestamp: time ?? undatedTime, bytes: message.frame(), fileOffset: base + lineStart))
                case .notHex:
                    out.error = CaptureError(path: name, offset: base + lineStart, reason: "line \(lineNumber) is not valid dump978 hex")
                    out.skipped += 1
                case .timeOutOfRange(let text):
                    lineProblems.add(line: lineNumber, "its time t=\(text) is not a time between 1970 and 2099")
                    out.skipped += 1
                case .wrongLength, .notALine:
                    out.skipped += 1
                }
            } tooLong: { start in
                lineNumber += 1
                lineProblems.add(line: lineNumber, "a line of more than \(TextLines.longestLine / 1024) kB without a newline (not dump978 text): skipped to the next newline")
                out.skipped += 1
            }
        }
    }

    /// Lines skipped for a time out of range or an endless line (`LineProblems`); said once
    /// the file is read (`error(path:)`), reading goes on.
    private(set) var lineProblems = LineProblems()
    /// Inside a line longer than `TextLines.longestLine`, skipping to its newline.
    private var overlong = false

    /// What one dump978 line (`b[from..<to]`, blanks before it skipped) holds.
    enum Line {
        /// An uplink (as a GDL 90 0x07 frame's message) or a downlink (Basic 0x1E or Long 0x1F
        /// report), with the `t=` time when the line has one.
        case message(Message, time: Double?)
        /// The hex is not hex, or an odd count of digits.
        case notHex
        /// Hex of a length no UAT message has: its bytes, and whether it was an uplink (`+`).
        case wrongLength(Int, uplink: Bool)
        /// Not a `+` or `-` line.
        case notALine
        /// A `t=` that is a number but no time a capture can have (`Timestamp.plausible`): NaN,
        /// 1e300, twenty digits. The line is skipped, never timed at it.
        case timeOutOfRange(String)
    }

    /// Reads one dump978 line: `+HEX;…` or `-HEX;…`, then `;`-separated fields of which `t=` is the time.
    static func line(_ b: UnsafeBufferPointer<UInt8>, from i: Int, to end: Int) -> Line {
        guard i < end else { return .notALine }
        let first = b[i]
        guard first == 0x2B || first == 0x2D else { return .notALine }
        // The first field runs to the first ';'; the hex follows its first '+' or '-'.
        var fieldEnd = end
        if let base = b.baseAddress, let semicolon = memchr(base + i, 0x3B, end - i) {
            fieldEnd = base.distance(to: semicolon.assumingMemoryBound(to: UInt8.self))
        }
        let hexStart = i + 1
        guard (fieldEnd - hexStart) % 2 == 0, let payload = decodeHex(UnsafeBufferPointer(rebasing: b[hexStart..<fieldEnd])) else {
            return .notHex
        }
        var time: Double? = nil
        var f = fieldEnd
        while f < end {
            let fieldStart = f + 1
            f = fieldStart
            while f < end, b[f] != 0x3B { f += 1 }
            if f - fieldStart >= 2, b[fieldStart] == 0x74, b[fieldStart + 1] == 0x3D {  // "t="
                let field = UnsafeBufferPointer(rebasing: b[(fieldStart + 2)..<f])
                time = parseTime(field)
                if let t = time, !Timestamp.isPlausible(t) {
                    return .timeOutOfRange(String(decoding: field.prefix(32), as: UTF8.self).escapingControlCharacters)
                }
            }
        }
        if first == 0x2B {
            guard payload.count == Uplink.payloadLength else { return .wrongLength(payload.count, uplink: true) }
            return .message(.uplink(Uplink(timeOfReception: nil, payload: payload)), time: time)
        } else if payload.count == 18 {
            return .message(.basicReport(UATReport(timeOfReception: nil, payload: payload)), time: time)
        } else if payload.count == 34 {
            return .message(.longReport(UATReport(timeOfReception: nil, payload: payload)), time: time)
        }
        return .wrongLength(payload.count, uplink: false)
    }

    /// A `t=` value: digits with an optional fraction, up to 15 significant digits, read exactly
    /// (an integer divided by a power of ten, both exact in a Double, is correctly rounded, as
    /// `Double(String)` is); anything else is left to `Double(String)`.
    static func parseTime(_ s: UnsafeBufferPointer<UInt8>) -> Double? {
        var mantissa: Int64 = 0
        var digits = 0, fraction = 0
        var seenPoint = false
        for c in s {
            if c >= 48 && c <= 57 {
                mantissa = mantissa &* 10 &+ Int64(c - 48)  // wraps past 18 digits; those go to Double(String) below
                digits += 1
                if seenPoint { fraction += 1 }
            } else if c == 0x2E && !seenPoint {
                seenPoint = true
            } else {
                digits = 99
                break
            }
        }
        guard digits >= 1, digits <= 15, !(seenPoint && fraction == 0) else {
            return Double(String(decoding: s, as: UTF8.self))
        }
        return Double(mantissa) / powersOfTen[fraction]
    }

    private static let powersOfTen: [Double] = (0...15).map { n in (0..<n).reduce(1.0) { p, _ in p * 10 } }

    /// The value of each ASCII hex digit, 0xFF for any other byte.
    private static let hexValues: [UInt8] = (0..<256).map { c -> UInt8 in
        switch c {
        case 48...57: UInt8(c - 48)
        case 65...70: UInt8(c - 55)
        case 97...102: UInt8(c - 87)
        default: 0xFF
        }
    }

    /// The bytes of an even count of hex digits; nil when any is not one.
    static func decodeHex(_ s: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var valid = true
        let out = hexValues.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: s.count / 2) { buffer, initialized in
                var i = 0
                while i + 1 < s.count {
                    let hi = table[Int(s[i])], lo = table[Int(s[i + 1])]
                    if (hi | lo) & 0xF0 != 0 { valid = false; break }
                    buffer[i / 2] = hi << 4 | lo
                    i += 2
                }
                initialized = i / 2
            }
        }
        return valid ? out : nil
    }
}
