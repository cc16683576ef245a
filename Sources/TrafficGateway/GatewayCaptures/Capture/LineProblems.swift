/// The lines of a text capture that were skipped for being wrong (cut, bad hex, a field that is
/// not a number, no `START` line before them…): counted, the first few kept with their line
/// numbers, so a reader says where to look without holding a line of a long log in memory.
struct LineProblems: Sendable, Equatable {
    /// Lines skipped as wrong.
    private(set) var count = 0
    /// The first `kept` of them: "line 12: hex of the wrong length (17 bytes)".
    private(set) var examples: [String] = []
    /// Examples kept.
    static let kept = 5

    /// Counts line `line` as skipped for `reason`.
    mutating func add(line: Int, _ reason: String) {
        count += 1
        if examples.count < Self.kept { examples.append("line \(line): \(reason)") }
    }

    /// One sentence for the file at `path` ("PATH: 3 lines skipped (line 12: …; line 40: …)"),
    /// as a capture error that reading went on after; nil when none was skipped.
    func error(path: String) -> CaptureError? {
        guard count > 0 else { return nil }
        let more = count > examples.count ? "; …" : ""
        var e = CaptureError(path: path, offset: nil,
                             reason: "\(count) line\(count == 1 ? "" : "s") skipped (\(examples.joined(separator: "; "))\(more))")
        e.readOn = true
        return e
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// The whole lines of a window of a text capture (dump978, Stratux's logs, SBS).
package enum TextLines {
    /// Calls `body` with the start and end (before the newline) of each whole line of `b`, in
    /// order; a line cut by the window's end waits for more unless `atEnd`. Returns the bytes
    /// consumed. Newlines are found with `memchr`: no array of lines, no copy.
    /// The longest line a text capture may have (a dump978 uplink line is about 900 bytes; SBS
    /// and NMEA under 200): a longer one is skipped to its newline, never held whole (a 2 MB
    /// `.log.gz` that is one endless line would otherwise grow a reader's window past gigabytes).
    package static let longestLine = 65_536

    /// `forEach` for a reader that bounds its lines: a line cut by the window's end after more
    /// than `longestLine` bytes is given to `tooLong` (its start) and skipped to its newline,
    /// across windows (`overlong`, the reader's own, says it is still being skipped).
    @inline(__always)
    package static func forEach(_ b: UnsafeBufferPointer<UInt8>, atEnd: Bool, overlong: inout Bool,
                                _ body: (_ start: Int, _ end: Int) -> Void, tooLong: (_ start: Int) -> Void) -> Int {
        var from = 0
        if overlong {
            guard let p = b.baseAddress, let newline = memchr(p, 0x0A, b.count) else { return b.count }
            overlong = false
            from = p.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
        }
        let rest = UnsafeBufferPointer(rebasing: b[from...])
        let consumed = forEach(rest, atEnd: atEnd) { start, end in body(from + start, from + end) }
        if !atEnd, rest.count - consumed > longestLine {
            tooLong(from + consumed)
            overlong = true
            return b.count
        }
        return from + consumed
    }

    @inline(__always)
    package static func forEach(_ b: UnsafeBufferPointer<UInt8>, atEnd: Bool, _ body: (_ start: Int, _ end: Int) -> Void) -> Int {
        var lineStart = 0
        while lineStart < b.count {
            var end = b.count
            if let p = b.baseAddress, let newline = memchr(p + lineStart, 0x0A, b.count - lineStart) {
                end = p.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            }
            if end == b.count && !atEnd { break }
            body(lineStart, end)
            lineStart = end + 1
        }
        return min(lineStart, b.count)
    }
}
