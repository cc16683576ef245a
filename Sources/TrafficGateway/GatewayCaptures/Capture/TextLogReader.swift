import GatewaySupport
import GDL90
#if canImport(Glibc)
import Glibc
#endif

/// The line captures besides dump978's own output, each line turned into GDL 90 frames as a
/// Stratux would send them, so every format flows into the same deframer and core:
///
/// - a Stratux **replay log** (`/var/log/stratux/NNNN-uat.log`, `-es.log`, `-gps.log`): a
///   `START,<time as Go prints it>,<time>` line, then `<nanoseconds since START>,<line>`, where
///   the line is dump978's (`+` uplinks, `-` UAT downlinks: Basic and Long reports, which the
///   core makes traffic), SBS BaseStation (`MSG,…`: `SBSDecoder`, traffic reports) or NMEA
///   (`$GPRMC,…`: `NMEADecoder`, heartbeat and ownship). Each line is timed START plus its
///   offset. A later `START` (Stratux appends a new session to the same file) starts a new clock;
///   lines before any `START` have no time and are skipped.
/// - **SBS BaseStation text** as dump1090 and readsb serve it on port 30003 (`nc HOST 30003 > F`):
///   each line timed by its own "generated" date and time, read as UTC.
///
/// A wrong line (cut, hex of the wrong length, a field that is not a number, an unknown message
/// type, no `START` before it) is counted with its line number (`LineProblems`) and skipped;
/// offsets going back by less than a second (lines written from two threads) keep the previous
/// line's time.
///
/// What a crash or a power cut leaves in a log (Stratux's own test data has both: a line cut
/// mid-field with the next session's `START,…` glued to it, and a block of NUL bytes after which
/// the offsets begin again from zero with no `START`):
/// - a `START,` anywhere on a line begins a new session (the cut part before it is skipped);
/// - NUL bytes before a line (a zero-filled block) are skipped;
/// - an offset that steps back by more than a second, or forward by more than an hour, is held
///   for one line: when the next line continues from it, it begins a new session (one that
///   steps back is timed on from the previous line's time, its own start unknown); when the
///   next line continues from the lines before it, it alone is skipped. One bad offset never
///   discards what follows;
/// - an offset of more than 18 digits or beyond `longestSession` is skipped alone;
/// - a line longer than `TextLines.longestLine` is skipped to its newline, never held whole.
struct TextLogReader {
    /// What the lines hold.
    enum Kind: Sendable {
        /// dump978 lines (uplinks and UAT downlinks).
        case uat
        /// SBS BaseStation lines (1090 MHz).
        case sbs
        /// NMEA sentences (the GPS).
        case nmea
    }

    let kind: Kind
    private var lineNumber = 0
    /// Epoch seconds of the current `START`.
    private var start: Double?
    private var starts = 0
    /// The previous line's offset since `START`, nanoseconds.
    private var lastOffset: Int64?
    /// The previous line's time, epoch seconds.
    private var lastTime: Double?
    /// A line whose offset broke the sequence, waiting for the next line to say which was wrong.
    private var held: Held?
    /// Inside a line longer than `TextLines.longestLine`, skipping to its newline.
    private var overlong = false

    /// A line held back (see the type's documentation).
    private struct Held {
        var offset: Int64
        var body: [UInt8]
        var fileOffset: Int
        var lineNumber: Int
    }

    /// The largest offset believed (nanoseconds since `START`): 11.6 days. A Stratux session is
    /// a flight or a day; a larger offset is a corrupt field.
    static let longestSession: Int64 = 1_000_000_000_000_000
    /// The largest step forward between two lines taken without a second opinion: an hour.
    static let longestGap: Int64 = 3_600_000_000_000
    /// The largest step back absorbed (lines written from two threads): a second.
    static let longestStepBack: Int64 = 1_000_000_000
    private var sbs = SBSDecoder()
    private var nmea = NMEADecoder()
    /// Lines skipped as wrong.
    private(set) var problems = LineProblems()

    init(kind: Kind) {
        self.kind = kind
    }

    /// Reads the whole lines at the start of `bytes` (file offset `base`) into `out`; returns the
    /// bytes consumed. A line cut by the window's end waits for more, unless `atEnd`.
    mutating func scan(_ bytes: [UInt8], base: Int, atEnd: Bool, into out: inout CaptureContents) -> Int {
        var skipping = overlong
        let consumed = bytes.withUnsafeBufferPointer { b in
            TextLines.forEach(b, atEnd: atEnd, overlong: &skipping) { lineStart, end in
                lineNumber += 1
                var e = end
                while e > lineStart, b[e - 1] == 0x0D || b[e - 1] == 0x20 || b[e - 1] == 0 { e -= 1 }
                var i = lineStart
                // Blanks, and the NUL bytes of a block a crash left zero-filled.
                while i < e, b[i] == 0x20 || b[i] == 0 { i += 1 }
                guard i < e else { return }
                read(UnsafeBufferPointer(rebasing: b[i..<e]), offset: base + lineStart, into: &out)
            } tooLong: { _ in
                lineNumber += 1
                problem("a line of more than \(TextLines.longestLine / 1024) kB without a newline (not a log line): skipped to the next newline", into: &out)
            }
        }
        overlong = skipping
        if atEnd { releaseHeld(into: &out) }
        return consumed
    }

    /// At the end of the log: a line still held begins its new session (nothing came to say otherwise).
    private mutating func releaseHeld(into out: inout CaptureContents) {
        guard let h = held else { return }
        held = nil
        beginSession(at: h, into: &out)
    }

    /// `h` begins a new session: one that steps back is timed on from the previous line's time.
    private mutating func beginSession(at h: Held, into out: inout CaptureContents) {
        guard start != nil else { return }
        if let last = lastOffset, h.offset < last, let lastTime {
            self.start = lastTime - Double(h.offset) / 1e9
            problems.add(line: h.lineNumber, "its time goes back \(Self.seconds(last - h.offset)) s with no START (a restart after a crash?): a new session, timed on from the line before")
        }
        lastOffset = h.offset
        let time = timeAt(h.offset)
        lastTime = time
        let saved = lineNumber
        lineNumber = h.lineNumber
        h.body.withUnsafeBufferPointer { emit($0, time: time, offset: h.fileOffset, into: &out) }
        lineNumber = saved
    }

    /// The time of offset `ns` in the current session, to the microsecond as recordings keep times.
    private func timeAt(_ ns: Int64) -> Double {
        (((start ?? 0) + Double(ns) / 1e9) * 1e6).rounded() / 1e6
    }

    private mutating func read(_ line: UnsafeBufferPointer<UInt8>, offset: Int, into out: inout CaptureContents) {
        if Self.hasPrefix(line, "START,") {
            startLine(line, into: &out)
            return
        }
        // A line cut by a crash with the next session's START glued to it: the START counts.
        if let k = Self.find("START,", in: line) {
            problem("cut (\(Self.preview(UnsafeBufferPointer(rebasing: line[..<k])))) with a START glued to it (a crash): the cut part skipped, the START read", into: &out)
            out.skipped -= 1
            startLine(UnsafeBufferPointer(rebasing: line[k...]), into: &out)
            return
        }
        // `<nanoseconds>,` before the line: a replay log's.
        var digits = 0
        var nanoseconds: Int64 = 0
        var tooLarge = false
        while digits < line.count, line[digits] >= 48, line[digits] <= 57 {
            if digits >= 18 { tooLarge = true } else { nanoseconds = nanoseconds * 10 + Int64(line[digits] - 48) }
            digits += 1
        }
        var body = line
        if digits > 0, digits < line.count, line[digits] == 0x2C {
            body = UnsafeBufferPointer(rebasing: line[(digits + 1)...])
            guard start != nil else {
                problem("no START line before it (a replay log begins with one): its time is unknown", into: &out)
                return
            }
            guard !tooLarge, nanoseconds <= Self.longestSession else {
                problem("its offset (\(Self.preview(UnsafeBufferPointer(rebasing: line[..<digits])))) is more than \(Self.longestSession / 86_400_000_000_000) days after START: skipped alone", into: &out)
                return
            }
            if let h = held {
                let continuesHeld = nanoseconds >= h.offset - Self.longestStepBack && nanoseconds - h.offset <= Self.longestGap
                let continuesOld = lastOffset.map { nanoseconds >= $0 - Self.longestStepBack && nanoseconds - $0 <= Self.longestGap } ?? false
                held = nil
                if continuesHeld && !continuesOld {
                    beginSession(at: h, into: &out)
                } else {
                    let last = lastOffset ?? h.offset
                    problem(h.offset < last
                            ? "its time goes back \(Self.seconds(last - h.offset)) s from the line before, and the line after it does not: skipped alone"
                            : "its time jumps \(Self.seconds(h.offset - last)) s ahead of the line before, and the line after it does not: skipped alone",
                            line: h.lineNumber, into: &out)
                    if !continuesOld {
                        hold(nanoseconds, body, offset: offset)
                        return
                    }
                }
            }
            if let last = lastOffset, nanoseconds < last - Self.longestStepBack || nanoseconds - last > Self.longestGap {
                hold(nanoseconds, body, offset: offset)
                return
            }
            if let last = lastOffset, nanoseconds < last { nanoseconds = last }
            lastOffset = nanoseconds
            let time = timeAt(nanoseconds)
            lastTime = time
            emit(body, time: time, offset: offset, into: &out)
            return
        } else if kind != .sbs || start != nil {
            // Only plain SBS text has lines without offsets (each line says when it was made).
            problem(start == nil && kind != .sbs ? "no START line before it, and no time of its own" : "no nanosecond offset before it (a cut line?)", into: &out)
            return
        }
        emit(body, time: nil, offset: offset, into: &out)
    }

    /// A line held back until the next one says whether its offset or theirs is wrong.
    private mutating func hold(_ ns: Int64, _ body: UnsafeBufferPointer<UInt8>, offset: Int) {
        held = Held(offset: ns, body: Array(body), fileOffset: offset, lineNumber: lineNumber)
    }

    /// A `START,<time>,…` line: a new session and its clock.
    private mutating func startLine(_ line: UnsafeBufferPointer<UInt8>, into out: inout CaptureContents) {
        if let h = held {
            // The line held before a new START: nothing after it in its session, so it stands.
            held = nil
            beginSession(at: h, into: &out)
        }
        let text = line[6...].prefix { $0 != 0x2C }
        guard let t = Self.goTime(String(decoding: text, as: UTF8.self)) else {
            problem("the START line's time \(String(decoding: text.prefix(40), as: UTF8.self).escapingControlCharacters) is not one Stratux writes", into: &out)
            start = nil
            return
        }
        starts += 1
        if starts > 1 { problem("a second START (\(Timestamp.iso8601(t))): the log was appended to by a later session; its lines are timed from it", into: &out) }
        start = t
        lastOffset = nil
        out.skipped += 1
    }

    /// Where `needle` first occurs in `line`, nil when it does not.
    static func find(_ needle: StaticString, in line: UnsafeBufferPointer<UInt8>) -> Int? {
        needle.withUTF8Buffer { n -> Int? in
            guard let first = n.first, line.count >= n.count, let p = line.baseAddress else { return nil }
            var from = 0
            // memchr for the first byte, then a compare: SBS lines hold no 'S' but in text fields.
            while from + n.count <= line.count, let hit = memchr(p + from, Int32(first), line.count - n.count + 1 - from) {
                let k = p.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if memcmp(p + k, n.baseAddress!, n.count) == 0 { return k }
                from = k + 1
            }
            return nil
        }
    }

    /// One line's message (`body`, after its offset) at `time` (nil: plain SBS, timed by itself).
    private mutating func emit(_ body: UnsafeBufferPointer<UInt8>, time: Double?, offset: Int, into out: inout CaptureContents) {
        var time = time
        switch kind {
        case .uat:
            switch Dump978Reader.line(body, from: 0, to: body.count) {
            case .message(let message, _):
                out.datagrams.append(CapturedDatagram(timestamp: time, bytes: message.frame(), fileOffset: offset))
            case .notHex:
                problem("not UAT hex (\(Self.preview(body)))", into: &out)
            case .wrongLength(let n, let uplink):
                problem("hex of the wrong length (\(n) bytes; \(uplink ? "an uplink has 432" : "a downlink has 18 or 34"))", into: &out)
            case .notALine:
                problem("not a UAT line (\(Self.preview(body)))", into: &out)
            case .timeOutOfRange(let text):
                problem("its time t=\(text) is not a time between 1970 and 2099", into: &out)
            }
        case .sbs:
            if time == nil {
                // Plain SBS text: the time the line says it was generated.
                guard let generated = sbs.timeGenerated(body), Timestamp.isPlausible(generated) else {
                    if Self.hasPrefix(body, "MSG,") {
                        problem("no date and time generated (fields 7 and 8) to time it by", into: &out)
                    } else {
                        out.skipped += 1
                    }
                    return
                }
                time = generated
            }
            switch sbs.feed(body, at: time!) {
            case .report(let report):
                out.datagrams.append(CapturedDatagram(timestamp: time, bytes: Message.traffic(report).frame(), fileOffset: offset))
            case .nothing:
                out.skipped += 1
            case .problem(let why):
                problem(why, into: &out)
            }
        case .nmea:
            switch nmea.feed(body, at: time ?? 0) {
            case .ownship(let messages):
                var frames: [UInt8] = []
                for m in messages { frames += m.frame() }
                out.datagrams.append(CapturedDatagram(timestamp: time, bytes: frames, fileOffset: offset))
            case .nothing:
                out.skipped += 1
            case .problem(let why):
                problem(why, into: &out)
            }
        }
    }

    /// Counts a line skipped for `reason`: the current one, or `line` (a line held back).
    private mutating func problem(_ reason: String, line: Int? = nil, into out: inout CaptureContents) {
        problems.add(line: line ?? lineNumber, reason)
        out.skipped += 1
    }

    /// Seconds, one decimal, from nanoseconds.
    static func seconds(_ ns: Int64) -> String {
        let tenths = (ns + 50_000_000) / 100_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// The start of a line, for a message.
    static func preview(_ line: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: line.prefix(24), as: UTF8.self).escapingControlCharacters
        return line.count > 24 ? text + "…" : text
    }

    static func hasPrefix(_ line: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        guard line.count >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { p in zip(line, p).allSatisfy { $0 == $1 } }
    }

    /// A time as Go's `Mon Jan 2 15:04:05 -0700 MST 2006` prints it (what a Stratux writes after
    /// `START,`), in epoch seconds; nil when it is not one, or before 2001.
    static func goTime(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 7 else { return nil }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard let month = months.firstIndex(of: String(parts[1])), let day = Int(parts[2]), (1...31).contains(day),
              let year = Int(parts[6]), year >= 2001, year < 2200 else { return nil }
        let clock = parts[3].split(separator: ":")
        guard clock.count == 3, let h = Int(clock[0]), let m = Int(clock[1]), let s = Int(clock[2]), h < 24, m < 60, s < 61 else { return nil }
        let zone = Array(parts[4].utf8)
        guard zone.count == 5, zone[0] == 0x2B || zone[0] == 0x2D, let zh = Int(parts[4].dropFirst().prefix(2)), let zm = Int(parts[4].suffix(2)),
              zh <= 14, zm < 60 else { return nil }
        // A day the month does not have (31 Sep, 29 Feb of 2015) is no date.
        let days = Timestamp.days(fromCivil: Int64(year), Int64(month + 1), Int64(day))
        guard Timestamp.civil(fromDays: days) == (Int64(year), Int64(month + 1), Int64(day)) else { return nil }
        let offset = Double(zh * 3600 + zm * 60) * (zone[0] == 0x2D ? -1 : 1)
        return Double(days * 86_400) + Double(h * 3600 + m * 60 + s) - offset
    }
}
