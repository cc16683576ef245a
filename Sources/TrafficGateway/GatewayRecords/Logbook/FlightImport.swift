import GatewaySupport
import GatewayDomain
import GatewayCaptures
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds the logbook from recordings (`gatewayd flights import`): each argument is a capture,
/// a recording hour's stem or a recording folder (`ReplaySession`). The captures are read one
/// window at a time (constant memory), each once (a file given twice is read once), in the
/// order of their first timestamp (whatever order they were given in), through one pipeline
/// with the flight samples on, as `replay` would. A recorder's hour files that follow each
/// other stay one session, so a flight across an hour boundary stays one flight; a silence of
/// more than `FlightDetector.silenceSec` between two captures (an hour file missing, another
/// day) ends the session: a flight still in the air then is kept as ended in the air.
/// Datagrams older than the last one fed (overlapping recordings) are skipped and counted; inside
/// a capture, a lone time out of line is skipped and a step of the clock followed (`CaptureTimeline`).
/// A damaged capture is read up to the damage and named in `Report.damaged`. OGN beacons, those a
/// recording kept and those of an OGN APRS text log given as an argument or found in a folder
/// (`APRSLog`), join the captures by their times: they are traffic of the flights (alerts,
/// encounters), never a flight of their own (an APRS log holds no ownship).
package enum FlightImport {
    /// What an import did.
    package struct Report: Sendable {
        /// Flights closed, with what the store did with each (their tracks left out: they are in
        /// the store, and an import of months of recordings holds none of them in memory).
        package var flights: [(LoggedFlight, LogbookStore.Saved?)] = []
        /// One sentence a damaged or unreadable capture (naming the file).
        package var damaged: [String] = []
        /// Captures read.
        package var captures = 0
        /// Datagrams fed.
        package var datagrams = 0
        /// Datagrams skipped: older than the last one fed (a file overlapping another).
        package var overlapping = 0
        /// Datagrams skipped: a time out of line with the datagrams around it (`CaptureTimeline`).
        package var outOfLine = 0
        /// Steps of a capture's clock followed (back: the session before it ended there).
        package var clockSteps = 0
        /// Files named twice, read once.
        package var duplicates: [String] = []
        /// Files of a folder that are not captures, each with why ("PATH: not a capture (…)").
        package var skipped: [String] = []
    }

    /// The captures `arguments` name, each once, in the order of their first timestamp, with
    /// the gpsd fixes recorded in them or beside them, and the OGN beacons kept in them or read
    /// from APRS logs (as events; an APRS log read once however often it is named).
    static func captures(_ arguments: [String], port: UInt16) throws(GatewayError)
        -> (captures: [(path: String, first: Double?)], gps: [TimedGPSFix], ogn: [RecordedEvent], duplicates: [String], skipped: [String]) {
        var seen = Set<String>(), duplicates: [String] = [], skipped: [String] = []
        var found: [(path: String, first: Double?)] = [], gps: [TimedGPSFix] = [], ogn: [RecordedEvent] = []
        for argument in arguments {
            var session = try ReplaySession.resolve(argument)
            skipped += session.skipped
            session.aprsLogs = session.aprsLogs.filter { path in
                guard seen.insert(canonical(path)).inserted else { duplicates.append(path); return false }
                return true
            }
            let recorded = try session.recorded()
            gps += recorded.fixes
            ogn += recorded.events.filter { if case .ogn = $0.change { true } else { false } }
            for path in session.captures {
                let key = canonical(path)
                guard seen.insert(key).inserted else {
                    duplicates.append(path)
                    continue
                }
                var first: Double?
                if var stream = try? CaptureStream(path: path, port: port) { first = stream.next()?.timestamp }
                found.append((path, first))
            }
        }
        found.sort { a, b in
            switch (a.first, b.first) {
            case let (x?, y?): return (x, a.path) < (y, b.path)
            case (nil, _?): return false
            case (_?, nil): return true
            case (nil, nil): return a.path < b.path
            }
        }
        return (found, gps, ReplaySession.inTimeOrder(ogn, \.time), duplicates, skipped)
    }

    private static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Imports `arguments` into `logbook`; `progress` hears a line a capture and a flight.
    package static func run(_ arguments: [String], into logbook: inout Logbook, port: UInt16 = 4000, date: String? = nil,
                           progress: (String) -> Void = { _ in }) throws(GatewayError) -> Report {
        var report = Report()
        let (captures, gpsFixes, ognEvents, duplicates, skipped) = try captures(arguments, port: port)
        if captures.isEmpty, !ognEvents.isEmpty {
            report.damaged.append("\(arguments.joined(separator: " ")): OGN beacons alone hold no ownship, so no flight: give the APRS log with the captures of the flights (beside them, or in their folder)")
        }
        report.duplicates = duplicates
        report.skipped = skipped
        for d in duplicates { progress("\(d): given twice, read once") }
        for s in skipped { progress("\(s): skipped") }
        let fixes = gpsFixes.sorted { $0.time < $1.time }

        var replay: CaptureReplay?
        var lastTime = -Double.infinity
        func endSession(_ logbook: inout Logbook) throws(GatewayError) {
            guard var r = replay else { return }
            let out = r.finish()
            let kept = try logbook.receive(samples: out.flightSamples, alerts: out.alerts) + logbook.finish()
            for k in kept { progress(Self.line(k.0, k.1)) }
            report.flights += kept.map { ($0.0.withoutTracks, $0.1) }
            replay = nil
        }
        for (index, capture) in captures.enumerated() {
            progress("\(capture.path) (\(index + 1) of \(captures.count))")
            var stream: CaptureStream
            do { stream = try CaptureStream(path: capture.path, port: port) } catch {
                report.damaged.append("\(error)")
                continue
            }
            var midnight = 0.0
            if stream.format == .raw {
                guard let day = try? CaptureDate.ofRawStream(at: capture.path, given: date) else {
                    report.damaged.append("\(capture.path): a raw GDL90 stream whose date is unknown (give --date)")
                    continue
                }
                midnight = day.midnight
                try endSession(&logbook)  // a raw stream has its own clock: its own session
            }
            if let first = capture.first, first - lastTime > FlightDetector.silenceSec { try endSession(&logbook) }
            logbook.setSource(capture.path)
            report.captures += 1
            let timeSource: GatewayPipeline.TimeSource = stream.format == .raw ? .heartbeat(midnight: midnight) : .given
            func startSession(at start: Double) {
                replay = CaptureReplay(pipeline: GatewayPipeline(timeSource: timeSource, outputs: .init(flightSamples: true)),
                                       gpsFixes: fixes.filter { $0.time >= start - 1 }, events: ognEvents.filter { $0.time >= start - 1 })
            }
            if replay == nil { startSession(at: capture.first ?? lastTime) }
            var batch = GatewayOutputs()
            let messagesBefore = replay?.pipeline.core.counters.messages ?? 0
            func feed(_ d: CapturedDatagram) throws(GatewayError) {
                let out = replay!.process(d)
                batch.alerts += out.alerts
                batch.flightSamples += out.flightSamples
                report.datagrams += 1
                if report.datagrams % 64 == 0 || !batch.alerts.isEmpty { try flushBatch() }
            }
            // A clock that jumps inside a capture: a time far from its neighbours is held until the
            // next datagrams say whether the clock stepped (they follow it) or it was a lone bad
            // time (they go on from before it: it is skipped and counted).
            var timeline = CaptureTimeline()
            func flush(_ held: [CapturedDatagram], step: CaptureTimeline.Step) throws(GatewayError) {
                switch step {
                case .outliers:
                    report.outOfLine += held.count
                    return
                case .forward:
                    report.clockSteps += 1
                case .backward:
                    // The flight in the air ends where the clock stepped back; the rest is a session of its own.
                    report.clockSteps += 1
                    try flushBatch()
                    try endSession(&logbook)
                    startSession(at: held[0].timestamp!)
                }
                for d in held { try feed(d) }
                lastTime = held.last!.timestamp!
            }
            func flushBatch() throws(GatewayError) {
                guard !batch.flightSamples.isEmpty || !batch.alerts.isEmpty else { return }
                let kept = try logbook.receive(samples: batch.flightSamples, alerts: batch.alerts)
                for k in kept { progress(Self.line(k.0, k.1)) }
                report.flights += kept.map { ($0.0.withoutTracks, $0.1) }
                batch = GatewayOutputs()
            }
            while let d = stream.next() {
                guard let t = d.timestamp else {
                    try feed(d)
                    continue
                }
                if !timeline.started {
                    // The capture's first time: one older than what was fed came from an overlapping file.
                    if t < lastTime - 1 {
                        report.overlapping += 1
                        continue
                    }
                    timeline.start(at: t)
                    lastTime = max(lastTime, t)
                    try feed(d)
                    continue
                }
                switch timeline.next(d) {
                case .feed:
                    lastTime = max(lastTime, t)
                    try feed(d)
                case .hold:
                    break
                case .release(let held, let step, let then):
                    try flush(held, step: step)
                    if let then {
                        lastTime = max(lastTime, then.timestamp!)
                        try feed(then)
                    }
                }
            }
            if let (held, step) = timeline.end() { try flush(held, step: step) }
            try flushBatch()
            if stream.format == .raw, let now = replay?.pipeline.now { lastTime = max(lastTime, now) }
            if let damage = stream.error {
                report.damaged.append(damage.readOn ? "\(damage)" : "\(damage) (read up to there)")
            } else if replay?.pipeline.core.counters.messages ?? 0 == messagesBefore {
                report.damaged.append("\(capture.path): no GDL90 message in it (not a GDL90 capture, or its UDP port is not \(port): give --port)")
            }
        }
        try endSession(&logbook)
        return report
    }

    /// One progress line for a flight kept.
    package static func line(_ f: LoggedFlight, _ saved: LogbookStore.Saved?) -> String {
        let what: String
        switch saved {
        case .added(let id)?: what = "flight \(id) kept"
        case .replaced(let id)?: what = "flight \(id) replaced (the same flight, more track)"
        case .alreadyKept(let id)?: what = "flight \(id) already kept"
        case nil: what = "flight"
        }
        return "\(what): \(LogbookText.route(f)), \(LogbookText.times(f))"
    }
}
