import GatewaySupport
import GatewayDomain
import GatewayCaptures
import Dispatch
import ServiceLifecycle
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Capture times as a recording holds them: microseconds. The live gateway stamps each datagram
/// with a quantized time, so the recording's time reads back as the very same `Double`, and the
/// replay of a recording gives byte-identical alerts.
package enum CaptureTime {
    /// Ticks a second in recordings (pcapng `if_tsresol` 6).
    package static let ticksPerSecond: UInt64 = 1_000_000

    /// The ticks `PcapWriter` writes for `time`.
    package static func ticks(_ time: Double) -> UInt64 {
        let whole = time.rounded(.down)
        return UInt64(whole) * ticksPerSecond + UInt64(((time - whole) * Double(ticksPerSecond)).rounded())
    }

    /// `time` as it reads back from a recording (the pcapng reader's own arithmetic).
    package static func quantized(_ time: Double) -> Double {
        guard time.isFinite, time > 0, time < 1e11 else { return time }
        let t = ticks(time)
        return Double(t / ticksPerSecond) + Double(t % ticksPerSecond) / Double(ticksPerSecond)
    }
}

/// The flight recorder of `gatewayd run --record DIR`: one pcapng file an hour
/// (`gdl90-YYYY-MM-DD-HH.pcapng`) holding everything a session was given, each with its time to the
/// microsecond: interface 0 every GDL 90 datagram as it arrived (raw IPv4, UDP to port 4000, as any
/// capture holds them), interface 1 every gpsd fix (`RecordingChannel.gpsd`: a gpspipe TPV JSON
/// line a packet), interface 2 the session's events (`RecordingChannel.events`: airspace sets
/// given and alerts acknowledged, a `RecordedEventLog` line a packet). Wireshark and tshark open it;
/// `gatewayd replay` takes the file, the hour's stem or the folder.
///
/// The folder never holds more than `maximumBytes` of recordings: each block is counted against the
/// cap as it is added (not when it is written), the oldest hours go first to make room, and when
/// only the current hour is left at the cap (a flood) the hour is paused, said once. Blocks wait
/// at most a second (or 64 kB) before they are written; datagrams handed in faster than the card
/// takes them wait in a bounded backlog, past which they are dropped and counted. An hour's file
/// left by an earlier run is continued after its last whole block: the torn tail a power cut
/// leaves is cut first, said once. Writes happen on the recorder's own queue, off the receive path;
/// a full disk or a removed folder stops the recording with one message and never the gateway.
package final class FlightRecorder: Sendable {
    /// The folder.
    package let directory: String
    /// Most bytes kept in the folder (recordings only); the oldest hour goes first.
    package let maximumBytes: Int64
    private let queue = DispatchQueue(label: "gatewayd.recorder")
    private let onError: @Sendable (String) -> Void
    private let clock: any Clock<Duration>
    /// The file being written and what waits for it, behind a lock only `queue` takes (and the
    /// caller of `flushNow` and `close`, through it).
    private let files: Locked<Files>
    /// Bytes handed to `queue` and not yet appended (datagram copies waiting on a slow card).
    private let backlog: Locked<(bytes: Int, dropped: Int)>
    /// The most bytes that may wait on `queue`: past it, datagrams are dropped and counted.
    package static let maximumBacklog = 4 << 20
    fileprivate static let writer = PcapWriter.Writer(bigEndian: false)

    /// Opens (creating) `directory`; throws when it cannot be created or written.
    package init(directory: String, maximumBytes: Int64 = 200 << 20, clock: any Clock<Duration> = ContinuousClock(),
                onError: @escaping @Sendable (String) -> Void) throws(GatewayError) {
        self.directory = directory
        self.maximumBytes = max(1 << 20, maximumBytes)
        self.onError = onError
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw GatewayError.file(path: directory, reason: "cannot create the recording folder (\(describe(error)))")
        }
        guard access(directory, W_OK) == 0 else { throw GatewayError.file(path: directory, reason: "the recording folder is not writable") }
        self.clock = clock
        let backlog = Locked<(bytes: Int, dropped: Int)>((0, 0))
        self.backlog = backlog
        files = Locked(Files(directory: directory, maximumBytes: max(1 << 20, maximumBytes), onError: onError, backlog: backlog))
    }

    /// Pending bytes written once a second: a `PeriodicService` on the injected clock, for the
    /// app's group (off the receive path). Without it, blocks are written at 64 kB and at `close`.
    package var services: [any Service] {
        [PeriodicService("recorder flush", delay: .seconds(1), every: .seconds(1), clock: clock) { [weak self] in
            guard let self else { return }
            self.queue.async { self.files.withLock { $0.flush() } }
        }]
    }

    /// Records one input the gateway was given at `time` (a quantized `CaptureTime`): a datagram,
    /// a gpsd fix, an airspace set or an acknowledgement; the clock's ticks are not recorded
    /// nor EFB announcements (`GatewayInput.isRecorded`: replay makes the ticks again from the inputs' times).
    package func record(_ input: GatewayInput, at time: Double) {
        switch input {
        case .datagram(let bytes):
            guard enqueue(bytes.count) else { return }
            queue.async { self.files.withLock { $0.append(bytes, at: time) } }
        case .gpsFix(let fix): queue.async { self.files.withLock { $0.appendFix(fix, at: time) } }
        case .airspace(let areas): record(RecordedEvent(time: time, change: .airspace(areas)))
        case .acknowledge(let id): record(RecordedEvent(time: time, change: .acknowledge(id)))
        case .ogn(let beacons):
            // A no-tracking sender is used for collision alerts only, never recorded (OGN's terms).
            let kept = beacons.filter { !$0.noTracking }.map(\.line)
            if !kept.isEmpty { record(RecordedEvent(time: time, change: .ogn(kept))) }
        case .tick, .announcement: break
        }
    }

    /// Records one datagram received at `time` (a quantized `CaptureTime`).
    package func record(_ bytes: UnsafeRawBufferPointer, at time: Double) {
        guard enqueue(bytes.count) else { return }
        let copy = Array(bytes)
        queue.async { self.files.withLock { $0.append(copy, at: time) } }
    }

    /// Counts `size` bytes into the backlog; false (the datagram dropped, counted, said at the
    /// first and every 10,000th) when the backlog is full.
    private func enqueue(_ size: Int) -> Bool {
        let dropped: Int? = backlog.withLock { b in
            if b.bytes + size > Self.maximumBacklog {
                b.dropped += 1
                return b.dropped
            }
            b.bytes += size
            return nil
        }
        guard let dropped else { return true }
        if dropped == 1 || dropped % 10_000 == 0 {
            onError("recorder: the card is not keeping up (\(Self.maximumBacklog >> 20) MB waiting to be written): \(dropped) datagram(s) not recorded; alerts are not affected")
        }
        return false
    }

    /// Datagrams dropped because the backlog was full.
    package var droppedDatagrams: Int { backlog.value.dropped }

    /// Records an airspace set given or an alert acknowledged (replay gives them to the core again).
    /// Recorded even while the hour is paused at the cap: they are few and replay needs them.
    private func record(_ event: RecordedEvent) {
        let line = RecordedEventLog.line(event)
        queue.async { self.files.withLock { $0.appendEvent(line, at: event.time) } }
    }

    /// Holds the recorder's queue still, as a card that does not keep up would (tests).
    func holdWrites() { queue.suspend() }

    /// Lets the queue go on after `holdWrites`.
    func releaseWrites() { queue.resume() }

    /// Writes what is buffered now (the recorder does so every second by itself).
    package func flushNow() {
        queue.sync { files.withLock { $0.flush() } }
    }

    /// Writes what is buffered and closes the file.
    package func close() {
        queue.sync { files.withLock { $0.close() } }
    }

    /// The recordings in the folder, oldest first (with the side files of the three-file form
    /// recorded before issue 21, which count against the cap too).
    package func recordings() -> [String] { Self.recordings(in: directory) }

    /// The recordings in `directory`, oldest first.
    static func recordings(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix("gdl90-") && ($0.hasSuffix(".pcapng") || $0.hasSuffix(".gps.jsonl") || $0.hasSuffix(".events.jsonl")) }.sorted()
    }

    /// The gpspipe TPV JSON line (no newline) for `fix` received at `time`, as gpsd reports
    /// (metres, metres a second) with the time to the microsecond.
    static func gpspipeLine(_ fix: GPSFix, at time: Double) -> String {
        var line = "{\"class\":\"TPV\",\"mode\":\(fix.altitudeFt == nil ? 2 : 3),\"time\":\"\(Self.microsecondTime(time))\""
        line += ",\"lat\":\(JSONWriter.format(fix.position.latitude, decimals: 8)),\"lon\":\(JSONWriter.format(fix.position.longitude, decimals: 8))"
        if let a = fix.altitudeFt { line += ",\"altMSL\":\(JSONWriter.format(a * 0.3048, decimals: 3))" }
        if let s = fix.groundSpeedKt { line += ",\"speed\":\(JSONWriter.format(s * 1852 / 3600, decimals: 4))" }
        if let t = fix.trackDeg { line += ",\"track\":\(JSONWriter.format(t, decimals: 2))" }
        if let c = fix.verticalSpeedFpm { line += ",\"climb\":\(JSONWriter.format(c * 0.3048 / 60, decimals: 4))" }
        return line + "}"
    }

    /// Opens `path` for appending, creating it: never through a symbolic link (a planted link
    /// would have our blocks appended to its target), never anything but a regular file, never
    /// truncated. `fresh`: it was empty (a new recording needs its header).
    static func openForAppend(_ path: String) throws(GatewayError) -> (handle: OpenFile, fresh: Bool) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            throw GatewayError.file(path: path, reason: code == ELOOP ? "is a symbolic link: not followed, not written (remove it)"
                                                  : "cannot write (\(String(cString: strerror(code))))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(fd)
            throw GatewayError.file(path: path, reason: "is not a regular file: not written")
        }
        return (OpenFile(descriptor: fd, path: path), info.st_size == 0)
    }

    /// Cuts what follows the last whole block of the recording open as `file` (a torn block, or the
    /// zeros a power cut can leave): nil when it ends in a whole block, else the bytes kept and cut.
    /// A file whose own header is torn is cut to nothing (it holds no datagram).
    static func cutTornTail(_ file: OpenFile) throws(GatewayError) -> (kept: Int, removed: Int)? {
        let size = Self.size(of: file.descriptor)
        guard size > 0 else { return nil }
        // Another writer's file, not pcapng, is left as it is (a section of our own follows).
        guard var stream = try? CaptureStream(path: file.path, port: 4000, readsChannels: true), stream.format == .pcapng else { return nil }
        while stream.next() != nil {}
        let end = min(stream.wholeBlocksEnd ?? 0, size)
        guard end < size else { return nil }
        guard ftruncate(file.descriptor, off_t(end)) == 0 else {
            throw GatewayError.file(path: file.path, reason: "cannot cut its torn tail (\(String(cString: strerror(errno))))")
        }
        return (end, size - end)
    }

    /// The size of the open file `descriptor` (0 when it cannot be read).
    static func size(of descriptor: Int32) -> Int {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
    }

    /// The size of the file at `path`, by `lstat` (0 when it has none): FoundationEssentials'
    /// `attributesOfItem` gives sizes a type a cast to `Int64` does not take, so every file read 0
    /// and the cap was never enforced.
    static func size(atPath path: String) -> Int64 {
        var info = stat()
        return lstat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// `2026-05-16T14:00:03.250000Z`: the time to the microsecond, as recordings keep it.
    static func microsecondTime(_ time: Double) -> String {
        let ticks = CaptureTime.ticks(time)
        let whole = Timestamp.iso8601(Double(ticks / CaptureTime.ticksPerSecond))
        let micros = String(ticks % CaptureTime.ticksPerSecond)
        return whole.dropLast() + "." + String(repeating: "0", count: 6 - micros.count) + micros + "Z"
    }

    /// The section header and the three interfaces of a recording, all with microsecond times:
    /// 0 the GDL 90 datagrams (raw IPv4, link type 101, as captures hold them), then each
    /// `RecordingChannel` (its user link type, name and description, no length limit).
    static func header() -> [UInt8] {
        var out: [UInt8] = []
        PcapWriter.sectionHeaderBlock(writer: writer, into: &out)
        PcapWriter.interfaceDescriptionBlock(linkType: PcapWriter.Link.rawIPv4.linkType, nanoseconds: false, name: "gdl90",
                                             description: "GDL 90 datagrams as received (UDP to port 4000)", writer: writer, into: &out)
        return out + channelInterfaces()
    }

    /// The interface descriptions of `RecordingChannel`s (interfaces 1 and 2 after interface 0).
    static func channelInterfaces() -> [UInt8] {
        var out: [UInt8] = []
        for channel in RecordingChannel.allCases {
            PcapWriter.interfaceDescriptionBlock(linkType: channel.linkType, snapLength: 0, nanoseconds: false, name: channel.name,
                                                 description: channel.summary, writer: writer, into: &out)
        }
        return out
    }

    /// What goes before the blocks appended to the hour's file an earlier run left at `path`:
    /// nothing when it is this recorder's (its last section describes the three interfaces);
    /// the channels' interfaces when it was written by the three-file recorder (one section
    /// describing only interface 0, raw IPv4 in microseconds), so that the hour stays one section,
    /// as Wireshark 4.0 needs (it numbers the interfaces of later sections wrongly); else (another
    /// writer's file, or one it cannot read through) a section of its own, the whole header.
    static func continuation(of path: String) -> [UInt8] {
        if startsWithHeader(path) { return [] }
        guard var stream = try? CaptureStream(path: path, port: 4000, readsChannels: true), stream.format == .pcapng else { return header() }
        while stream.next() != nil {}
        guard stream.error == nil, let interfaces = stream.pcapngInterfaces, let first = interfaces.first,
              first.linkType == PcapWriter.Link.rawIPv4.linkType, first.ticksPerSecond == CaptureTime.ticksPerSecond, first.channel == nil
        else { return header() }
        if interfaces.count == 1 { return channelInterfaces() }
        return interfaces.dropFirst().map(\.channel) == RecordingChannel.allCases.map(Optional.some) ? [] : header()
    }

    /// Whether the file at `path` begins with `header()` (a recording of this recorder).
    static func startsWithHeader(_ path: String) -> Bool {
        let expected = header()
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        var start = [UInt8](repeating: 0, count: expected.count)
        let n = start.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, expected.count, 0) }
        return n == expected.count && start == expected
    }
}

/// A recorder's hour file and the blocks waiting for it: what its queue works on.
private struct Files {
    let directory: String
    let maximumBytes: Int64
    let onError: @Sendable (String) -> Void
    /// Bytes handed to the queue and not yet appended (the recorder's, shared).
    let backlog: Locked<(bytes: Int, dropped: Int)>
    var capture: OpenFile?
    var hour: Int64 = -1
    var failed = false
    /// Blocks not yet written, in the order they were recorded.
    var pending: [UInt8] = []
    var stem = ""
    /// Bytes the folder's recordings hold with the blocks not yet written (measured at each hour
    /// and whenever the cap would be passed, plus every block added since).
    var held: Int64 = 0
    /// The current hour reached the cap: nothing more is recorded until the next hour.
    var paused = false

    init(directory: String, maximumBytes: Int64, onError: @escaping @Sendable (String) -> Void, backlog: Locked<(bytes: Int, dropped: Int)>) {
        self.directory = directory
        self.maximumBytes = maximumBytes
        self.onError = onError
        self.backlog = backlog
    }

    /// An event's line (airspace set, acknowledgement): kept even at the cap, replay needs them.
    mutating func appendEvent(_ line: String, at time: Double) {
        guard !failed, rotate(for: time) else { return }
        let before = pending.count
        appendLine(line, on: .events, at: time)
        held += Int64(pending.count - before)
        flushWhenFull()
    }

    /// Writes what is buffered and closes the file.
    mutating func close() {
        flush()
        capture?.close()
        capture = nil
    }

    mutating func append(_ bytes: [UInt8], at time: Double) {
        backlog.withLock { $0.bytes -= bytes.count }
        guard !failed, rotate(for: time), !paused else { return }
        let before = pending.count
        PcapWriter.enhancedPacketBlock(PcapWriter.wrap(bytes, link: .rawIPv4, port: 4000), ticks: CaptureTime.ticks(time),
                                       writer: FlightRecorder.writer, into: &pending)
        guard admit(since: before) else { return }
        flushWhenFull()
    }

    mutating func appendFix(_ fix: GPSFix, at time: Double) {
        guard !failed, rotate(for: time), !paused else { return }
        let before = pending.count
        appendLine(FlightRecorder.gpspipeLine(fix, at: time), on: .gpsd, at: time)
        if admit(since: before) { flushWhenFull() }
    }

    /// Writes `pending` once it holds 64 kB (else the once-a-second flush does). Called only after
    /// the blocks just added were counted: a write in between would empty `pending` under them.
    mutating func flushWhenFull() {
        if pending.count >= 64 << 10 { flush() }
    }

    /// Counts the blocks added to `pending` since `before` against the cap. When they would take
    /// the folder past it, the oldest hours are removed first; when only this hour is left, the
    /// blocks are taken back and the hour is paused (said once). False when they were taken back.
    mutating func admit(since before: Int) -> Bool {
        let added = Int64(pending.count - before)
        if held + added > maximumBytes {
            enforceCap()  // measures the folder again (and `pending`, which holds the new blocks)
            if held > maximumBytes {
                pending.removeLast(Int(added))
                held -= added
                pause()
                return false
            }
            return true
        }
        held += added
        return true
    }

    /// Pauses the hour at the cap (a flood of datagrams, or a cap smaller than an hour).
    mutating func pause() {
        guard !paused else { return }
        paused = true
        onError("recorder: this hour's recording reached the cap of \(maximumBytes >> 20) MB (a flood of datagrams?): recording paused until the next hour; raise [recorder] max_mb to keep more")
    }

    /// `line` and its newline as packets of `channel`: one, unless the line is longer than a
    /// packet may be (a large airspace set), then several, only the last ending with the newline.
    mutating func appendLine(_ line: String, on channel: RecordingChannel, at time: Double) {
        let bytes = Array(line.utf8) + [0x0A]
        let ticks = CaptureTime.ticks(time)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + RecordingChannel.maximumPacket)
            PcapWriter.enhancedPacketBlock(Array(bytes[start..<end]), interface: channel.interfaceID, ticks: ticks, writer: FlightRecorder.writer, into: &pending)
            start = end
        }
    }

    /// Opens the hour's file when `time` starts a new hour; false once recording has failed.
    mutating func rotate(for time: Double) -> Bool {
        let h = Int64(time / 3600)
        if h == hour, capture != nil { return true }
        flush()
        capture?.close()
        capture = nil
        hour = h
        paused = false
        // A folder removed while recording is made again (its removal was said when noticed).
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let stem = directory + "/gdl90-" + Timestamp.iso8601(Double(h) * 3600).prefix(13).replacingAll("T", with: "-").replacingAll(":", with: "")
        self.stem = stem
        let path = stem + ".pcapng"
        let opened: (handle: OpenFile, fresh: Bool)
        do throws(GatewayError) {
            opened = try FlightRecorder.openForAppend(path)
            // The hour's file of an earlier run goes on after its last whole block (a power cut
            // leaves a torn one, which would hide everything appended after it).
            if !opened.fresh, let cut = try FlightRecorder.cutTornTail(opened.handle) {
                onError("recorder: \(path) ended in a torn block (a power cut?): its last \(cut.removed) byte(s), after byte \(cut.kept), were cut; recording goes on after its last whole block")
            }
        } catch { return fail("\(error)") }
        capture = opened.handle
        // A new file (or one cut to nothing) starts with the header; the hour's file of an earlier run goes on.
        let fresh = opened.fresh || FlightRecorder.size(of: opened.handle.descriptor) == 0
        pending = (fresh ? FlightRecorder.header() : FlightRecorder.continuation(of: path)) + pending
        enforceCap()
        return true
    }

    /// Whether the open capture file is still in the folder (a removed folder or file leaves
    /// writes going to a deleted inode).
    var captureStillLinked: Bool {
        guard let capture else { return true }
        var info = stat()
        return fstat(capture.descriptor, &info) != 0 || info.st_nlink > 0
    }

    mutating func flush() {
        guard !failed else { return }
        do {
            if !pending.isEmpty, let capture {
                let before = FlightRecorder.size(of: capture.descriptor)
                do throws(GatewayError) {
                    try capture.write(pending)
                } catch {
                    // A write cut short (the disk filled) would leave a torn block: cut it off again.
                    _ = ftruncate(capture.descriptor, off_t(before))
                    throw error
                }
                pending.removeAll(keepingCapacity: true)
            }
            if !captureStillLinked {
                onError("recorder: \(stem).pcapng was removed while recording (the folder or the file): up to a second of recording lost; recording again into a new file")
                capture?.close()
                capture = nil
                hour = -1
            }
        } catch {
            _ = fail("\(error) (disk full?)")
        }
    }

    /// Removes the oldest recordings while the folder, with the blocks not yet written, holds
    /// more than `maximumBytes`; `held` is then what it holds.
    mutating func enforceCap() {
        var files = FlightRecorder.recordings(in: directory).map { name -> (String, Int64) in
            let path = directory + "/" + name
            return (path, FlightRecorder.size(atPath: path))
        }
        var total = files.reduce(Int64(pending.count)) { $0 + $1.1 }
        let current = hour >= 0 ? Timestamp.iso8601(Double(hour) * 3600).prefix(13).replacingAll("T", with: "-").replacingAll(":", with: "") : ""
        while total > maximumBytes, let oldest = files.first, !oldest.0.contains(current) {
            try? FileManager.default.removeItem(atPath: oldest.0)
            total -= oldest.1
            files.removeFirst()
        }
        held = total
    }

    mutating func fail(_ reason: String) -> Bool {
        failed = true
        pending = []
        onError("recorder: \(reason); recording stopped, the gateway goes on")
        return false
    }
}
