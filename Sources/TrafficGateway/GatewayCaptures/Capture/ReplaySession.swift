import GatewaySupport
import GDL90
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one argument of `gatewayd replay` names: a capture file; a recording hour's stem
/// (`REC/gdl90-2026-05-16-14`: its `.pcapng`); or a recording folder (every hour in it, in order,
/// as one session). One session is one replay: its hours follow each other through the same
/// pipeline, so a flight across an hour boundary stays one. A flight recording keeps the gpsd
/// fixes and the session's events in its pcapng (`RecordingChannel`); one recorded before issue
/// 21 kept them beside it (`.gps.jsonl`, `.events.jsonl`), found for an hour given by its stem, its
/// `.pcapng` or its folder. `gpsFixes()` and `events()` read both forms. An OGN APRS text log (one
/// beacon a line, `APRSLog`) is no capture: its beacons are events (`RecordedEvent.Change.ogn`) at
/// their times, as a recording keeps the beacons a live gateway took, so its replay is what a
/// gateway following that APRS feed would have done.
package struct ReplaySession: Sendable, Equatable {
    /// Capture files, in the order they are fed.
    package var captures: [String]
    /// gpsd logs recorded beside them (`gdl90-….gps.jsonl`).
    package var gpsLogs: [String]
    /// Session events recorded beside them (`gdl90-….events.jsonl`: airspace sets, acknowledgements).
    package var eventLogs: [String]
    /// OGN APRS text logs (`APRSLog`): their beacons replayed as events, by their times.
    package var aprsLogs: [String] = []
    /// Hours of a folder left out, each with why ("PATH: the file is empty"): an empty, unreadable
    /// or dangling hour file does not cost the rest of the folder.
    package var skipped: [String] = []

    /// Creates a session.
    package init(captures: [String], gpsLogs: [String] = [], eventLogs: [String] = [], aprsLogs: [String] = []) {
        self.captures = captures
        self.gpsLogs = gpsLogs
        self.eventLogs = eventLogs
        self.aprsLogs = aprsLogs
    }

    /// The flight recorder's names: `gdl90-YYYY-MM-DD-HH` and one of these endings.
    static let captureEnding = ".pcapng", gpsEnding = ".gps.jsonl", eventsEnding = ".events.jsonl"

    /// The session `argument` names; an error naming it and saying what to give instead when it is
    /// none (a side file given as the capture, a stem or folder without recordings).
    package static func resolve(_ argument: String) throws(GatewayError) -> ReplaySession {
        let manager = FileManager.default
        var info = stat()
        let exists = stat(argument, &info) == 0
        if exists && info.st_mode & S_IFMT == S_IFDIR { return try folder(argument) }
        for (ending, option) in [(gpsEnding, "--gps"), (eventsEnding, "--events")] where argument.hasSuffix(ending) {
            let stem = String(argument.dropLast(ending.count))
            throw GatewayError.setting(
                name: argument, message: "\(argument) is what the recorder keeps beside a capture, not a capture: replay the hour by its stem "
                + "('gatewayd replay \(stem)', which finds it) or give it with \(option) beside the capture")
        }
        if exists && APRSLog.isLog(path: argument) { return ReplaySession(captures: [], aprsLogs: [argument]) }
        if exists {
            // A recording hour's pcapng: its side files, if it was recorded in the three-file form.
            let name = argument.split(separator: "/").last.map(String.init) ?? argument
            guard name.hasPrefix("gdl90-"), argument.hasSuffix(captureEnding) else { return ReplaySession(captures: [argument]) }
            return hour(String(argument.dropLast(captureEnding.count)))
        }
        // A stem: the hour's files by their endings, or a Stratux session's logs.
        if manager.fileExists(atPath: argument + captureEnding) { return hour(argument) }
        if CaptureStream.stratuxLogs(stem: argument) != nil { return ReplaySession(captures: [argument]) }
        throw GatewayError.file(path: argument, reason: "no such file (nor \(argument)\(captureEnding): a recording hour is given by its stem, a recording folder by its path)")
    }

    /// The hour recorded at `stem`: its pcapng and the side files of the three-file form, when there.
    static func hour(_ stem: String) -> ReplaySession {
        let manager = FileManager.default
        return ReplaySession(captures: [stem + captureEnding],
                             gpsLogs: [stem + gpsEnding].filter { manager.fileExists(atPath: $0) },
                             eventLogs: [stem + eventsEnding].filter { manager.fileExists(atPath: $0) })
    }

    /// Every capture in the folder `path` (issue 44: a Stratux user's log folder, a download of
    /// old flights, a recording folder): the recorder's hours (`gdl90-…pcapng`, with the side files
    /// of the three-file form), each Stratux start's logs (by its stem: `DIR/0007`), and every other
    /// file whose content is a capture (pcap, pcapng, dump978 text, raw GDL 90, SBS text). In time
    /// order (each capture's first time; a raw stream's file time), each once; a folder of the
    /// recorder's hours alone keeps their names' order. Files that are not captures are named in
    /// `skipped` with why; the recorder's unreadable hours stay for `readable()` to say why.
    static func folder(_ path: String) throws(GatewayError) -> ReplaySession {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
            throw GatewayError.file(path: path, reason: "cannot list the folder (\(describe(error)))")
        }
        let base = path.hasSuffix("/") ? path : path + "/"
        // The recorder's names sort by time: gdl90-YYYY-MM-DD-HH.
        let hours = names.filter { $0.hasPrefix("gdl90-") }.sorted()
        var session = ReplaySession(
            captures: hours.filter { $0.hasSuffix(captureEnding) }.map { base + $0 },
            gpsLogs: hours.filter { $0.hasSuffix(gpsEnding) }.map { base + $0 },
            eventLogs: hours.filter { $0.hasSuffix(eventsEnding) }.map { base + $0 })
        let stratux = stratuxFolder(base, names: names)
        // Each other file opened once: whether it is a capture, and when it begins.
        var others: [(path: String, first: Double)] = []
        for name in names.sorted() where !name.hasPrefix(".") && !name.hasPrefix("gdl90-") && !(stratux?.consumed.contains(name) ?? false) {
            let file = base + name
            if APRSLog.isLog(path: file) {
                session.aprsLogs.append(file)
                continue
            }
            switch probe(file) {
            case .success(let first): others.append((file, first))
            case .failure(let why): session.skipped.append("\(file): \(why.reason)")
            }
        }
        if stratux != nil || !others.isEmpty {
            // Mixed: everything in the order of its first time (a file without one, by its file time).
            let known = (session.captures + (stratux?.stems ?? [])).map { ($0, firstTime($0)) }
            session.captures = (known + others.map { ($0.path, $0.first) }).sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
        }
        guard !session.captures.isEmpty || !session.aprsLogs.isEmpty else {
            let why = session.skipped.isEmpty ? "" : " (\(session.skipped.map { $0.dropFirst(base.count) }.joined(separator: "; ")))"
            throw GatewayError.file(path: path, reason: "no recordings in this folder: nothing in it is a capture\(why). The recorder writes gdl90-YYYY-MM-DD-HH\(captureEnding) files; pcap, pcapng, dump978 text, raw GDL90, Stratux replay logs, SBS text and OGN APRS text are read too")
        }
        return session
    }

    /// Why a file of a folder is no capture to read.
    struct NotACapture: Error {
        var reason: String
    }

    /// The file at `path` as a capture of a folder, opened once: the time it begins at (`firstTime`)
    /// when it is one, else why not: not a regular file, empty, unreadable, or content that is none
    /// of the formats (a raw GDL 90 stream must hold a whole frame with a good CRC in its first
    /// 64 kB: anything else would pass for one).
    static func probe(_ path: String) -> Result<Double, NotACapture> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(NotACapture(reason: unreadable(path) ?? "cannot be read")) }
        if info.st_mode & S_IFMT == S_IFDIR { return .failure(NotACapture(reason: "a folder (give it as an argument of its own to read it)")) }
        if let why = unreadable(path) { return .failure(NotACapture(reason: why)) }
        var stream: CaptureStream
        do { stream = try CaptureStream(path: path) } catch { return .failure(NotACapture(reason: error.reason)) }
        let first = stream.next()
        guard stream.format == .raw else { return .success(firstTime(of: first, path: path)) }
        var deframer = Deframer()
        var read = 0, frames = 0
        var d = first
        while frames == 0, read < 65_536, let datagram = d {
            read += datagram.bytes.count
            datagram.bytes.withUnsafeBytes { bytes in deframer.feed(bytes) { if case .frame = $0 { frames += 1 } } }
            d = stream.next()
        }
        guard frames > 0 else { return .failure(NotACapture(reason: "not a capture (no GDL90 frame in its first 64 kB, and none of the other formats)")) }
        return .success(firstTime(of: first, path: path))
    }

    /// The time a capture begins at, for ordering: its first datagram's, else (a raw stream) the
    /// file's modification time; infinity when it cannot be opened.
    static func firstTime(_ path: String) -> Double {
        guard var stream = try? CaptureStream(path: path) else { return .infinity }
        return firstTime(of: stream.next(), path: path)
    }

    /// `firstTime` from the capture's first datagram.
    private static func firstTime(of first: CapturedDatagram?, path: String) -> Double {
        first?.timestamp ?? CaptureDate.modificationTime(of: path) ?? .infinity
    }

    /// A folder of Stratux replay logs (`/var/log/stratux`: `NNNN-uat.log`, `NNNN-es.log`,
    /// `NNNN-gps.log` for each start NNNN of the Stratux): a capture for each start, given by its
    /// stem (`DIR/NNNN`, which `CaptureStream` opens as its logs merged on one clock), in the order
    /// of their numbers (compressed logs, `.log.gz`, as a Stratux keeps them, are read as they
    /// are), and the names they take up; nil when the folder has none.
    static func stratuxFolder(_ base: String, names: [String]) -> (stems: [String], consumed: Set<String>)? {
        func number(_ name: String, _ ending: String) -> String? {
            guard name.hasSuffix(ending) else { return nil }
            let stem = name.dropLast(ending.count)
            return !stem.isEmpty && stem.allSatisfy(\.isNumber) ? String(stem) : nil
        }
        // Compressed (how a Stratux keeps them) or not, each start's logs are one capture.
        var starts = Set<String>(), consumed = Set<String>()
        for name in names {
            for ending in CaptureStream.stratuxEndings {
                for form in [ending, ending + ".gz"] {
                    if let n = number(name, form) { starts.insert(n); consumed.insert(name) }
                }
            }
            // Stratux's other logs (AHRS, its dump1090's) are not read: not captures, not damage.
            for other in ["-ahrs.log", "-dump1090.log", "-ahrs.log.gz", "-dump1090.log.gz"] where number(name, other) != nil { consumed.insert(name) }
        }
        guard !starts.isEmpty else { return nil }
        return (starts.sorted { (Int($0) ?? 0, $0) < (Int($1) ?? 0, $1) }.map { base + $0 }, consumed)
    }

    /// The session without the hours that cannot be replayed (empty, unreadable, a dangling or
    /// looping link), each named in `skipped` with why, when it has several: one bad hour does
    /// not cost the rest of a folder. An error when none is left; a session of one capture is
    /// returned as it is (opening it says what is wrong with it).
    package func readable() throws(GatewayError) -> ReplaySession {
        guard captures.count > 1 else { return self }
        var session = self
        session.captures = []
        for capture in captures {
            if let why = Self.unreadable(capture) { session.skipped.append("\(capture): \(why)") } else { session.captures.append(capture) }
        }
        guard !session.captures.isEmpty else {
            throw GatewayError.file(path: captures[0], reason: "no readable recording among the \(captures.count) given (\(session.skipped.joined(separator: "; ")))")
        }
        return session
    }

    /// The first of `captures` that lies in `folder` (both made canonical: links, `..`, a trailing
    /// slash), nil when none does: `run --replay DIR --record DIR` would record into what it plays.
    package static func first(of captures: [String], inFolder folder: String) -> String? {
        func canonical(_ path: String) -> String? {
            guard let resolved = realpath(path, nil) else { return nil }
            defer { free(resolved) }
            return String(cString: resolved)
        }
        guard let folder = canonical(folder) else { return nil }
        return captures.first { canonical($0)?.hasPrefix(folder + "/") == true }
    }

    /// Why the hour file at `path` cannot be replayed (nil when it can): not there (a dangling or
    /// looping link), not a regular file, empty, or unreadable.
    static func unreadable(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            // A Stratux session's stem: readable when one of its logs is.
            if errno == ENOENT, let logs = CaptureStream.stratuxLogs(stem: path) {
                let why = logs.compactMap { unreadable($0) }
                return why.count < logs.count ? nil : why.first
            }
            let code = errno
            return code == ELOOP ? "a symbolic link loop" : code == ENOENT ? "a link to nothing" : String(cString: strerror(code))
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return "not a regular file" }
        guard info.st_size > 0 else { return "the file is empty" }
        guard access(path, R_OK) == 0 else { return "cannot be read (permissions?)" }
        return nil
    }

    /// The gpsd fixes recorded in the session, in time order: those of its captures' gpsd
    /// interfaces (a one-file recording) and of the gpspipe logs beside them (the three-file
    /// form). Lines that are not TPV fixes with a time are skipped, as `GPSLog` skips them.
    package func gpsFixes() throws(GatewayError) -> [TimedGPSFix] {
        try recorded().fixes
    }

    /// The airspace sets and acknowledgements recorded in the session, in time order (those of
    /// equal times in the order recorded): its captures' events interfaces and the events logs
    /// beside them. A line that is not one is an error naming the file.
    package func events() throws(GatewayError) -> [RecordedEvent] {
        try recorded().events
    }

    /// What the session's recording kept besides the datagrams: its gpsd fixes and events (as
    /// `gpsFixes()` and `events()`), and whether it is a recorded session (`keepsEvents`: an events
    /// log beside a capture, or an events interface in one, even without an event in it). A replay
    /// of a recorded session watches the airspace it was given, and no other. A capture that
    /// cannot be opened adds nothing here (reading its datagrams says what is wrong with it).
    package func recorded() throws(GatewayError) -> (fixes: [TimedGPSFix], events: [RecordedEvent], keepsEvents: Bool) {
        var fixes: [TimedGPSFix] = [], events: [RecordedEvent] = []
        var keepsEvents = !eventLogs.isEmpty
        for path in gpsLogs { fixes += try GPSLog.read(path: path).fixes }
        for path in eventLogs { events += try RecordedEventLog.read(path: path) }
        // An APRS log's beacons, one event a beacon; not a recorded session (its airspace is run's).
        for path in aprsLogs { events += try APRSLog.read(path: path).events }
        for path in captures {
            guard let channels = try? CaptureFile.recordingChannels(path: path) else { continue }
            keepsEvents = keepsEvents || channels.described.contains(.events)
            fixes += GPSLog.parse(channels.lines(.gpsd)).fixes
            events += try RecordedEventLog.parse(Data(channels.lines(.events)), path: "\(path) (interface \(RecordingChannel.events.name))")
        }
        return (Self.inTimeOrder(fixes, \.time), Self.inTimeOrder(events, \.time), keepsEvents)
    }

    /// `items` sorted by time, those of equal times in the order given.
    package static func inTimeOrder<T>(_ items: [T], _ time: (T) -> Double) -> [T] {
        items.enumerated().sorted { (time($0.element), $0.offset) < (time($1.element), $1.offset) }.map(\.element)
    }
}
