#if canImport(Glibc)
import Glibc
#endif
import CZlib

/// A capture read as it is used: a megabyte window of the file at a time, whole records handed
/// on one datagram after another, so that resident memory does not depend on the capture's size
/// (a few hours of flight-recorder pcapng replay on a 512 MB Pi). Every format streams: pcap,
/// pcapng, dump978 text and raw GDL 90 (cut at heartbeats). `CaptureFile.read` is this, collected.
package struct CaptureStream {
    /// The file.
    package let path: String
    /// Detected format (from the first window).
    package private(set) var format: CaptureFormat
    /// Set when the file is damaged or truncated (after the datagrams before the damage).
    package private(set) var error: CaptureError?
    /// Records skipped (not UDP to the port, not a GDL 90 carrier).
    package private(set) var skipped = 0
    /// The flight recorder's interfaces described so far, and with `readsChannels` their bytes.
    private(set) var channels = RecordingChannels()

    /// The open file (nil for a Stratux session, read through `parts`).
    private let file: OpenFile?
    /// The size of a regular file when opened (nil for a pipe or device): no window is made
    /// larger than what is left of it.
    private let sizeAtOpen: Int?
    /// Bytes read from the file so far.
    private var bytesRead = 0
    private let port: UInt16
    private var window: [UInt8] = []
    private var base = 0
    /// Raw parts: the bytes of the window already given (`nextRawPart`).
    private var head = 0
    private var atEnd = false
    private var finished = false
    private var pending: [CapturedDatagram] = []
    private var nextPending = 0
    private var scanner: Scanner

    /// Bytes read at a time.
    package static let windowSize = 1 << 20

    /// The least a read asks for, however little is left of the file (a file may grow while read).
    static let smallestRead = 1 << 16

    private enum Scanner {
        case pcap(PcapReader)
        case pcapng(PcapNGReader)
        case dump978(Dump978Reader)
        case text(TextLogReader)
        case raw
    }

    /// A Stratux session's logs, each its own stream, merged by time (`.stratuxSession`).
    private var parts: [CaptureStream] = []
    /// The next datagram of each of `parts` (nil: that part has ended).
    private var heads: [CapturedDatagram?] = []
    /// When the file's lines carry no time (dump978's plain output): the note saying what time
    /// they were given and why ("dated 2026-05-16 14:10Z from the FIS-B products' dates").
    package private(set) var undatedNote: String?

    /// The file's descriptor, closed when the last copy of the stream goes.
    private final class OpenFile {
        let fd: Int32
        /// The gzip stream over `fd` when the file is compressed (zlib's, which owns `fd` then).
        let gz: OpaquePointer?
        /// Why reading the compressed file stopped early (a damaged or cut .gz), once it has.
        var gzFailure: String?
        init(fd: Int32, gz: OpaquePointer? = nil) {
            self.fd = fd
            self.gz = gz
        }
        deinit {
            if let gz { skygate_gz_close(gz) } else { close(fd) }
        }

        /// Reads into `to` until `count` bytes are read or the file has no more (a short read):
        /// the bytes read, and the `errno` of a failed read (0 when none failed). A compressed
        /// file's damage ends it there, the bytes before it kept (`gzFailure` says why).
        func read(into to: UnsafeMutableRawPointer, count: Int) -> (read: Int, failure: Int32) {
            guard let gz else { return CaptureStream.read(fd, into: to, count: count) }
            var total = 0
            while total < count, gzFailure == nil {
                let r = skygate_gz_read(gz, to + total, UInt32(min(count - total, 1 << 30)))
                if r < 0 {
                    gzFailure = skygate_gz_error(gz).map { String(cString: $0) } ?? "unreadable"
                    break
                }
                if r == 0 {
                    // The end, or a cut file's: zlib says "unexpected end of file" then.
                    if let why = skygate_gz_error(gz) { gzFailure = String(cString: why) }
                    break
                }
                total += Int(r)
            }
            return (total, 0)
        }
    }

    /// Opens `path`, keeping UDP payloads sent to `port` (pcap/pcapng); fails with the reason
    /// (no such file, a folder, unreadable, empty).
    package init(path: String, port: UInt16 = 4000) throws(CaptureError) {
        try self.init(path: path, port: port, readsChannels: false)
    }

    /// Opens `path`; with `readsChannels` it yields no datagrams and collects the flight
    /// recorder's own interfaces (`channels`) instead.
    package init(path: String, port: UInt16, readsChannels: Bool) throws(CaptureError) {
        try self.init(path: path, port: port, readsChannels: readsChannels, dating: true)
    }

    /// Opens `path`; `dating`: give the lines of a dump978 file without times a time of its
    /// products or the file's (`CaptureDate.ofUndatedDump978`), as every reader should.
    init(path: String, port: UInt16, readsChannels: Bool, dating: Bool) throws(CaptureError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT, let logs = Self.stratuxLogs(stem: path) {
                try self.init(stratuxSession: path, logs: logs, port: port)
                return
            }
            throw CaptureError(path: path, offset: nil, reason: code == ENOENT ? "no such file" : "cannot read the file: \(String(cString: strerror(code)))")
        }
        guard info.st_mode & S_IFMT != S_IFDIR else {
            throw CaptureError(path: path, offset: nil, reason: "is a folder, not a capture file (replay and flights import take a recording or Stratux log folder)")
        }
        try self.init(opening: path, info: info, port: port, readsChannels: readsChannels, dating: dating)
    }

    /// Opens the file `path` (`info`: its `stat`) and reads its first window.
    private init(opening path: String, info: stat, port: UInt16, readsChannels: Bool, dating: Bool) throws(CaptureError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CaptureError(path: path, offset: nil, reason: "cannot read the file (permissions?)") }
        // gzip (1F 8B): read through zlib, as it is (Stratux compresses its replay logs).
        var magic: (UInt8, UInt8) = (0, 0)
        if pread(fd, &magic, 2, 0) == 2, magic == (0x1F, 0x8B) {
            guard let gz = skygate_gz_open(fd) else {
                let why = skygate_gz_load_error().map { String(cString: $0) } ?? "zlib could not open it"
                close(fd)
                throw CaptureError(path: path, offset: nil, reason: "gzip-compressed, and zlib (libz.so.1) cannot be loaded to read it: \(why)")
            }
            file = OpenFile(fd: fd, gz: gz)
            sizeAtOpen = nil
        } else {
            file = OpenFile(fd: fd)
            sizeAtOpen = info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : nil
        }
        self.path = path
        self.port = port
        scanner = .raw
        format = .raw
        try fill()
        guard !window.isEmpty else { throw CaptureError(path: path, offset: nil, reason: "the file is empty") }
        format = CaptureFile.detect(window)
        switch format {
        case .pcap: scanner = .pcap(PcapReader())
        case .pcapng:
            var reader = PcapNGReader()
            reader.readsChannels = readsChannels
            scanner = .pcapng(reader)
        case .dump978:
            var reader = Dump978Reader()
            if dating, let (time, note) = try CaptureDate.ofUndatedDump978(at: path, given: nil) {
                reader.undatedTime = time
                undatedNote = note
            }
            scanner = .dump978(reader)
        case .stratuxUAT, .sbs, .stratuxGPS: scanner = .text(TextLogReader(kind: format.textLogKind!))
        case .raw, .stratuxSession: scanner = .raw
        }
    }

    /// Dates the lines without times of a dump978 file on the day `given` (`YYYY-MM-DD`) instead
    /// of the one its products or its file time point to; before the first `next()`. Nothing for
    /// other formats or a file whose lines have times.
    package mutating func dateUndatedLines(given: String) throws(CaptureError) {
        guard case .dump978(var reader) = scanner, undatedNote != nil,
              let (time, note) = try CaptureDate.ofUndatedDump978(at: path, given: given) else { return }
        reader.undatedTime = time
        undatedNote = note
        scanner = .dump978(reader)
    }

    /// The logs of the Stratux session `stem` (`DIR/0001`: `DIR/0001-uat.log`, `-es.log`,
    /// `-gps.log`, each also as a Stratux keeps it, gzip-compressed: `.log.gz`) that are there;
    /// nil when none is.
    static func stratuxLogs(stem: String) -> [String]? {
        let logs = stratuxEndings.compactMap { ending -> String? in
            let candidates: [String] = [stem + ending, stem + ending + ".gz"]
            return candidates.first { access($0, F_OK) == 0 }
        }
        return logs.isEmpty ? nil : logs
    }

    /// The endings of a Stratux session's logs that are read: UAT, 1090ES, GPS.
    static let stratuxEndings = ["-uat.log", "-es.log", "-gps.log"]

    /// A Stratux session: each log opened as a stream of its own, merged by time.
    private init(stratuxSession stem: String, logs: [String], port: UInt16) throws(CaptureError) {
        file = nil
        sizeAtOpen = nil
        path = stem
        self.port = port
        scanner = .raw
        format = .stratuxSession
        finished = true
        for log in logs {
            // An empty log (a receiver that was not plugged in) costs nothing of the others.
            var info = stat()
            if stat(log, &info) == 0, info.st_size == 0 { continue }
            var part = try CaptureStream(path: log, port: port)
            guard [.stratuxUAT, .sbs, .stratuxGPS].contains(part.format) else {
                throw CaptureError(path: log, offset: nil, reason: "is not a Stratux replay log (read as \(part.format.name))")
            }
            heads.append(part.next())
            parts.append(part)
        }
        guard !parts.isEmpty else { throw CaptureError(path: stem, offset: nil, reason: "the Stratux logs \(logs.joined(separator: ", ")) are empty") }
    }

    /// The next datagram of a Stratux session: the earliest of its logs' next ones (the first
    /// log's at a tie).
    private mutating func nextMerged() -> CapturedDatagram? {
        var best: Int?
        for k in heads.indices {
            guard let d = heads[k] else { continue }
            if let b = best, let tb = heads[b]?.timestamp, let td = d.timestamp, td >= tb { continue }
            best = k
        }
        guard let k = best else {
            if error == nil {
                let errors = parts.compactMap(\.error)
                if var first = errors.first {
                    if errors.count > 1 { first.reason += "; and " + errors.dropFirst().map(\.description).joined(separator: "; ") }
                    error = first
                }
                skipped = parts.reduce(0) { $0 + $1.skipped }
            }
            return nil
        }
        let d = heads[k]
        heads[k] = parts[k].next()
        return d
    }

    /// pcapng: the interfaces described so far by the section read last (nil for other formats).
    package var pcapngInterfaces: [PcapNGReader.Interface]? {
        if case .pcapng(let reader) = scanner { return reader.interfaces }
        return nil
    }

    /// pcapng: the file offset just past the last whole block read so far (nil for other formats):
    /// read to the end, where a writer may append after a torn tail.
    package var wholeBlocksEnd: Int? {
        if case .pcapng(let reader) = scanner { return reader.wholeEnd }
        return nil
    }

    /// The next datagram, or nil at the end of the file or where it is damaged (see `error`).
    package mutating func next() -> CapturedDatagram? {
        if format == .stratuxSession { return nextMerged() }
        while nextPending == pending.count {
            guard !finished else { return nil }
            scan()
            if nextPending == pending.count && !finished {
                do throws(CaptureError) { try fill() } catch {
                    self.error = error
                    finished = true
                }
            }
        }
        nextPending += 1
        return pending[nextPending - 1]
    }

    /// A raw GDL 90 stream (`format == .raw`) read a part at a time, for `ParallelDecode`: the
    /// next part, from stream offset `offset`, of about `target` bytes unless the stream ends
    /// first, ending where one of its segments begins (before a heartbeat's opening flag, which
    /// always starts a segment, preferably one right after a closing flag); nil at the end. Its
    /// segments are those `RawStreamSegmenter.segments` finds in the whole stream, so a part is
    /// cut into them on its own (`forEachSegment(…, atEnd: true)`). Not mixed with `next()`.
    ///
    /// After the first window, each read is about a part's size, into new storage that starts
    /// with what the last part left; the part takes that storage with it, and only the bytes
    /// after its end (a heartbeat's worth, about) are copied: the stream is neither zeroed
    /// first nor copied again.
    mutating func nextRawPart(target: Int) -> (offset: Int, bytes: [UInt8])? {
        precondition(format == .raw, "raw streams only")
        let target = max(target, 1)
        while !finished {
            if let cut = rawPartEnd(target: target) { return takeRawPart(upTo: cut) }
            if atEnd {
                finished = true
                guard head < window.count else { return nil }
                return takeRawPart(upTo: window.count)
            }
            do throws(CaptureError) { try readRawPart(target: target) } catch {
                // Damaged: the whole segments before the damage, as `next()` gives them.
                self.error = error
                finished = true
                let whole = window.withUnsafeBufferPointer {
                    RawStreamSegmenter.forEachSegment(UnsafeBufferPointer(rebasing: $0[head...]), atEnd: false) { _ in true }
                }
                guard whole > 0 else { return nil }
                return takeRawPart(upTo: head + whole)
            }
        }
        return nil
    }

    /// The window's bytes from `head` to `cut`, as a part: the window's own storage when the part
    /// is most of it (what follows is copied into a new window), else a copy.
    private mutating func takeRawPart(upTo cut: Int) -> (offset: Int, bytes: [UInt8]) {
        let offset = base + head
        if head == 0 && window.count - cut <= cut / 4 {
            var part = window
            window = Array(part[cut...])
            part.removeLast(part.count - cut)  // its storage is the part's alone now: no copy
            base += cut
            return (offset, part)
        }
        defer { head = cut }
        return (offset, Array(window[head..<cut]))
    }

    /// Reads about a part's worth (or, with no cut in sight, as much again as is held) into new
    /// storage after the bytes not yet given; the end of the file is a short read.
    private mutating func readRawPart(target: Int) throws(CaptureError) {
        let kept = window.count - head
        let want = max(target + target / 4, kept, Self.smallestRead)
        let file = self.file!
        var got = 0
        var failure: Int32 = 0
        let next = [UInt8](unsafeUninitializedCapacity: kept + want) { buffer, count in
            let start = buffer.baseAddress!
            window.withUnsafeBufferPointer { w in
                if kept > 0 { start.update(from: w.baseAddress! + head, count: kept) }
            }
            (got, failure) = file.read(into: start + kept, count: want)
            count = kept + got
        }
        base += head
        head = 0
        window = next
        bytesRead += got
        if failure != 0 {
            throw CaptureError(path: path, offset: base + kept + got, reason: "reading failed: \(String(cString: strerror(failure)))")
        }
        if got < want { atEnd = true }
        noteCompressionDamage()
    }

    /// A compressed file's damage, said once: what came before it is read, the error says where
    /// reading stopped.
    private mutating func noteCompressionDamage() {
        guard let why = file?.gzFailure, error == nil else { return }
        error = CaptureError(path: path, offset: nil,
                             reason: "the compressed file is damaged or cut after \(bytesRead) bytes of its contents (zlib: \(why)): read up to there")
    }

    /// Where in the window the next raw part ends (see `nextRawPart`), or nil to read more.
    private func rawPartEnd(target: Int) -> Int? {
        window.withUnsafeBufferPointer { b in
            let limit = b.count - 1  // a heartbeat's start is known by the byte after its flag
            if b.count - head <= 2 * target {
                // A part's worth held: the last cut in its second half, so that little is left over.
                var at = limit - 1
                let lowest = head + max(target / 2, 1)
                var any: Int?
                while at >= lowest {
                    if b[at] == 0x7E && b[at + 1] == 0x00 {
                        if b[at - 1] == 0x7E { return at }
                        if any == nil { any = at }
                    }
                    at -= 1
                }
                if let any { return any }
            } else {
                // A larger window (the first one read): the first cut past `target`.
                var from = head + target
                while from < limit {
                    let at = RawStreamSegmenter.nextHeartbeatStart(b, from: from, to: limit)
                    guard at < limit else { break }
                    if b[at - 1] == 0x7E || at - head >= 8 * target { return at }
                    from = at + 1
                }
            }
            // No heartbeat in sight over many parts' worth (a stream without any): the part ends at
            // the first segment cut past `target`, found by cutting from the part's start.
            guard b.count - head >= 16 * max(target, RawStreamSegmenter.maximumLength) else { return nil }
            let rest = UnsafeBufferPointer(rebasing: b[head...])
            var end: Int?
            _ = RawStreamSegmenter.forEachSegment(rest, atEnd: false) { r in
                if r.upperBound >= target { end = head + r.upperBound }
                return end == nil
            }
            return end
        }
    }

    /// Reads the next window's worth of bytes onto what is left of the last one.
    ///
    /// A window is never larger than what is left of a regular file (and one byte more, so that a
    /// short read says the end was reached), so a small capture does not zero and map a megabyte
    /// it never fills; the array keeps room for the next window beside what is left of this one,
    /// so it is not reallocated at every window.
    private mutating func fill() throws(CaptureError) {
        guard !atEnd else { return }
        let old = window.count
        var want = max(Self.windowSize, old)  // a record larger than the window doubles it
        if let size = sizeAtOpen { want = min(want, max(size - bytesRead + 1, Self.smallestRead)) }
        if window.capacity < old + want { window.reserveCapacity(old + want + Self.smallestRead) }
        window.append(contentsOf: repeatElement(0, count: want))
        let file = self.file!
        let (n, failure) = window.withUnsafeMutableBytes { file.read(into: $0.baseAddress! + old, count: want) }
        if failure != 0 {
            window.removeLast(want)
            throw CaptureError(path: path, offset: base + old, reason: "reading failed: \(String(cString: strerror(failure)))")
        }
        bytesRead += n
        window.removeLast(want - n)
        if n < want { atEnd = true }
        noteCompressionDamage()
    }

    /// Reads into `to` until `count` bytes are read or the file has no more (a short read):
    /// the bytes read, and the `errno` of a failed read (0 when none failed).
    fileprivate static func read(_ fd: Int32, into to: UnsafeMutableRawPointer, count: Int) -> (read: Int, failure: Int32) {
        var total = 0
        while total < count {
            let r = Glibc.read(fd, to + total, count - total)
            if r < 0 {
                if errno == EINTR { continue }
                return (total, errno)
            }
            if r == 0 { break }
            total += r
        }
        return (total, 0)
    }

    /// Turns the whole records of the window into datagrams and drops their bytes.
    private mutating func scan() {
        var out = CaptureContents(format: format, datagrams: [], error: nil, skipped: 0)
        out.datagrams.reserveCapacity(pending.count)
        let consumed: Int
        switch scanner {
        case .pcap(var r):
            consumed = r.scan(window, base: base, atEnd: atEnd, name: path, port: port, into: &out)
            if r.stopped { finished = true }
            scanner = .pcap(r)
        case .pcapng(var r):
            consumed = r.scan(window, base: base, atEnd: atEnd, name: path, port: port, into: &out)
            if r.stopped { finished = true }
            scanner = .pcapng(r)
        case .dump978(var r):
            consumed = r.scan(window, base: base, atEnd: atEnd, name: path, into: &out)
            if atEnd, out.error == nil, error == nil { out.error = r.lineProblems.error(path: path) }
            scanner = .dump978(r)
        case .text(var r):
            consumed = r.scan(window, base: base, atEnd: atEnd, into: &out)
            if atEnd, out.error == nil, error == nil { out.error = r.problems.error(path: path) }
            scanner = .text(r)
        case .raw:
            consumed = RawStreamSegmenter.scan(window, base: base, atEnd: atEnd, into: &out)
        }
        if atEnd { finished = true }
        if let e = out.error { error = e }
        skipped += out.skipped
        channels.merge(out.channels)
        pending = out.datagrams
        nextPending = 0
        window.removeFirst(consumed)
        base += consumed
    }
}

extension RawStreamSegmenter {
    /// The first index in `from..<to` of a flag followed by 0x00 (a heartbeat frame's start: a
    /// flag is never inside a frame), or `to`. The byte after a flag at `to - 1` is read when `b`
    /// has it. Sixteen positions a step with vector compares (the bytes and the bytes one along),
    /// then one at a time in the step that holds a match and at the end.
    @inline(__always)
    static func nextHeartbeatStart(_ b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        guard let start = b.baseAddress else { return to }
        let bytes = UnsafeRawPointer(start)
        let flag = SIMD16<UInt8>(repeating: 0x7E), zero = SIMD16<UInt8>(repeating: 0)
        var i = from
        while i &+ 16 <= to && i &+ 17 <= b.count {
            let here = bytes.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            let next = bytes.loadUnaligned(fromByteOffset: i &+ 1, as: SIMD16<UInt8>.self)
            if any((here .== flag) .& (next .== zero)) { break }
            i &+= 16
        }
        while i < to {
            if b[i] == 0x7E && i &+ 1 < b.count && b[i &+ 1] == 0x00 { return i }
            i &+= 1
        }
        return to
    }

    /// Calls `body` with the range of each whole segment of `b`, whose first segment starts at
    /// index 0, in order, until `body` returns false. The last segment waits for more bytes
    /// unless `atEnd`; returns where the first segment not given starts (`b.count` when all were).
    @inline(__always)
    static func forEachSegment(_ b: UnsafeBufferPointer<UInt8>, atEnd: Bool, _ body: (Range<Int>) -> Bool) -> Int {
        var start = 0
        let limit = atEnd ? b.count : b.count - 1  // a cut needs the byte after the 7E
        var i = 1
        while i < limit {
            // The next heartbeat's opening flag, or the segment's length limit.
            let cap = min(limit, start + maximumLength)
            i = i < cap ? nextHeartbeatStart(b, from: i, to: cap) : cap
            guard i < limit else { break }
            let segment = start..<i
            start = i
            i += 1
            guard body(segment) else { return start }
        }
        guard atEnd else { return start }
        if start < b.count { _ = body(start..<b.count) }
        return b.count
    }

    /// Cuts the whole segments at the start of `bytes` (file offset `base`) into `out`; returns
    /// the bytes consumed. The last segment waits for more, unless `atEnd`: the cuts are those
    /// `segments` makes on the whole stream.
    static func scan(_ bytes: [UInt8], base: Int, atEnd: Bool, into out: inout CaptureContents) -> Int {
        bytes.withUnsafeBufferPointer { b in
            forEachSegment(b, atEnd: atEnd) { r in
                out.datagrams.append(CapturedDatagram(timestamp: nil, bytes: Array(b[r]), fileOffset: base + r.lowerBound))
                return true
            }
        }
    }
}
