import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GDL90
import GatewayDomain
import GatewayCaptures
import GatewayRecords
import GatewayNotams
import GatewayRuntime

/// `gatewayd replay`: a capture through the whole pipeline, alerts printed.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run recorded captures through the live pipeline and print the alerts.",
        discussion: """
            Reads pcap, pcapng (UDP to port 4000), dump978 text lines, raw GDL90 byte streams, Stratux replay logs (a folder such as /var/log/stratux, one start by its stem DIR/0007, or one log: the UAT, 1090ES and GPS logs of a start merged on one clock), SBS BaseStation text and OGN APRS text (one beacon a line, optionally after an ISO time: its beacons as a gateway following that feed with --ogn takes them; in a folder beside a capture, one sky), through the same pipeline and the same once-a-second tick as a live gateway. Time comes from the capture: packet timestamps, or for raw streams the GDL90 heartbeat clock on the day given by --date (else the day its FIS-B products are dated, else the day the file was last written, said in a note). The same capture always gives byte-identical output.

            Airspace is what 'run' would watch: the NOTAMs stored by 'gatewayd notams fetch/import', plus --notams and --airspace files. A receiver that sends no ownship report (a Dynon-style box) can be replayed with the gpsd fixes recorded beside it (--gps, 'gpspipe -w' output).

            Examples:
              gatewayd replay fixtures/demo-flight.pcap
              gatewayd replay fixtures/demo-flight.pcap --notams fixtures/notams-demo.json
              gatewayd replay --json fixtures/demo-flight.pcap | jq .message
              gatewayd replay --speed 1 fixtures/demo-flight.gdl90      (real time)
              gatewayd replay fixtures/scenarios/echo.pcap \\
                --gps fixtures/scenarios/echo.gps.jsonl

            A flight recording ('run --record REC') is replayed by its folder (every hour in order, as one session) or by an hour's stem; the gpsd fixes and session events kept beside each hour are found and replayed with it:
              gatewayd replay REC/
              gatewayd replay REC/gdl90-2026-05-16-14

            A Stratux's own replay logs (Settings: Replay Logs; /var/log/stratux, compressed or not):
              gatewayd replay fixtures/stratux
              gatewayd replay /var/log/stratux/0007

            Hear a flight's callouts (what 'run' says into the headset with [voice] enabled):
              gatewayd replay --callouts fixtures/scenarios/churn.pcap
              gatewayd replay --callouts --json fixtures/demo-flight.pcap
              gatewayd replay --callouts --wav demo.wav fixtures/demo-flight.pcap
              aplay demo.wav
            """
    )

    @Argument(help: ArgumentHelp("Captures, replayed in the order given: files, recording folders, or a recorded hour's stem (REC/gdl90-2026-05-16-14).",
                                 valueName: "capture"))
    var files: [String]

    @Option(help: "Pace: 1 for real time, N (0.1 to 1000) for N times faster, max for as fast as possible.")
    var speed: ReplaySpeed = .max

    @Flag(help: "Print alerts as JSON Lines instead of readable lines.")
    var json = false

    @Option(help: "UDP destination port to extract from pcap/pcapng captures.")
    var port: UInt16 = 4000

    @Option(help: ArgumentHelp(
        "UTC date (YYYY-MM-DD) of raw GDL90 streams, which carry only the time of day. Without it the date comes from the FIS-B products' own dates, else the file's modification time (said in a note)."))
    var date: String?

    @Option(help: ArgumentHelp(
        "gpsd fixes recorded beside the capture (the JSON lines 'gpspipe -w' prints), replayed by their times. For receivers that send no ownship report: ownship then comes from these fixes, as from gpsd in 'run'."))
    var gps: String?

    @Option(help: ArgumentHelp(
        "Airspace sets and acknowledgements a flight recording kept beside its capture (DIR/gdl90-….events.jsonl), replayed by their times. With it the replay is the recorded session: the areas are the ones the session watched (the stored NOTAMs, --notams and --airspace are not read)."))
    var events: String?

    @Option(help: "SQLite database: its stored NOTAMs are watched, as run does; the alerts are appended to its log and the flights to its logbook ('gatewayd flights').")
    var database: String?

    @Option(help: ArgumentHelp("Airspace to watch: a GeoJSON file of areas (what /airspace.geojson serves). Example: --airspace fixtures/demo-airspace.geojson (a TFR on the demo flight's route)."))
    var airspace: String?

    @Option(help: ArgumentHelp("NOTAMs to watch: a JSON file in the FAA NOTAM API's shape (TFRs, restricted areas become airspace alerts). Example: --notams fixtures/notams-demo.json (a TFR on the demo flight's route)."))
    var notams: String?

    @Option(help: "Database whose stored NOTAMs (`notams fetch`/`import`) are watched, as `run` does (default: --database, else $XDG_DATA_HOME/gatewayd/gateway.sqlite when it exists).")
    var notamDatabase: String?

    @Flag(help: "Ignore the stored NOTAMs (only --notams and --airspace).")
    var noStore = false

    @Flag(help: ArgumentHelp(
        "Print the spoken callouts instead of the alerts: 'HH:MM:SS  Traffic! Two o'clock, high, one mile.' Paced as the voice paces them (one at a time, warnings first); [voice] advisories and repeat_warning_sec of the configuration apply. With --json: {\"time\",\"text\",\"alert\",\"kind\",\"level\"} lines."))
    var callouts = false

    @Option(help: ArgumentHelp(
        "With --callouts: also write the replay's audio to this WAV file. 16-bit mono: silence, with each callout at its time in the capture (whatever --speed). Listen with 'aplay OUT.wav' or 'play OUT.wav' (sox)."))
    var wav: String?

    @Flag(help: "Print the summary (messages by type, errors by reason) to stderr.")
    var quiet = false

    func validate() throws {
        if wav != nil && !callouts { throw ValidationError("--wav needs --callouts (the WAV holds the callouts' speech)") }
        if let date, CaptureDate.resolve(given: date, path: "", firstHeartbeatSeconds: nil) == nil {
            throw ValidationError("--date \(date) is not a date like 2026-05-16")
        }
    }

    func run() throws {
        let sessions = try self.sessions()
        if callouts { return try replayCallouts(sessions) }
        let formatter = AlertFormatter(style: json ? .json : .human(colour: Terminal.colourOnStdout))
        let log = try database.map { path in try AlertLog(database: GatewayDatabase(path: path)) }
        var totals = GatewayCounters()
        var alertCount = 0
        var damaged: [String] = []
        var notes: [String] = []
        // The airport table the flights of the replay are named with (--database), found once.
        let airports = log == nil ? nil : AirportTable.located()
        if log != nil, airports == nil { Terminal.warning("note: " + AirportTable.notFound()) }
        var flights: [String] = []
        for session in sessions {
            // One replay a session: a recording's hours follow each other through one pipeline.
            // A session of OGN APRS logs alone has no capture: its beacons are its recorded events.
            var capture: PrefetchingCapture?
            var day: (midnight: Double, note: String?) = (0, nil)
            if let firstPath = session.captures.first {
                var stream = try openCapture(firstPath, port: port)
                day = try rawCaptureDate(date, &stream)
                // Read, deframed and decoded ahead on a second thread while this one runs the core.
                capture = PrefetchingCapture(stream, decoding: FrameDecoder(readingFISB: true))
            } else if session.recorded.isEmpty {
                continue
            }
            var hours = session.captures.dropFirst().makeIterator()
            if let note = day.note { notes.append(note) }
            var replay = CaptureReplay(pipeline: GatewayPipeline(timeSource: capture?.format == .raw ? .heartbeat(midnight: day.midnight) : .given,
                                                                 outputs: .init(flightSamples: log != nil)),
                                       gpsFixes: session.fixes, events: session.recorded)
            let pace = Pacer(speed: speed)
            // With --database the flights of the replay go to its logbook (issue 23), as run keeps them.
            var logbook = log.map { Logbook(store: LogbookStore(database: $0.database), airports: airports, source: session.name) }
            var emit: (GatewayOutputs) throws -> Void = { out in
                notes += out.notices.map { "\(session.name): \($0)" }
                if logbook != nil { flights += try logbook!.receive(samples: out.flightSamples, alerts: out.alerts).map { FlightImport.line($0.0, $0.1) } }
                guard !out.alerts.isEmpty else { return }
                Terminal.out(out.alerts.map(formatter.format))
                try log?.append(out.alerts)
                alertCount += out.alerts.count
            }
            var next = capture?.next()
            if !session.areas.isEmpty {
                var probe = replay  // the first datagram's time, without moving the real pacing clock
                let first = next.flatMap { probe.eventTime(of: $0.datagram) } ?? session.recorded.first?.time
                try emit(replay.process(.airspace(session.areas), at: first ?? replay.pipeline.now ?? 0))
            }
            while let current = capture {
                while let d = next {
                    if pace.isPaced, let t = replay.eventTime(of: d.datagram) { pace.wait(until: t) }
                    try emit(replay.process(d.datagram, decoded: d.decoded))
                    next = current.next()
                }
                if let damage = current.error { damaged.append("\(damage)") }
                guard let path = hours.next() else { break }
                // One recording: the next hour's frames continue where this one's decoder stopped.
                capture = PrefetchingCapture(try openCapture(path, port: port), decoding: current.decoder ?? FrameDecoder(readingFISB: true))
                next = capture?.next()
            }
            var decoder = capture?.decoder ?? FrameDecoder()
            try emit(replay.finish(decoded: decoder.finish()))
            if logbook != nil { flights += try logbook!.finish().map { FlightImport.line($0.0, $0.1) } }
            emit = { _ in }
            totals.merge(replay.pipeline.core.counters)
        }
        if !quiet {
            Terminal.error(Summary.text(totals, alerts: alertCount))
            for d in damaged { Terminal.error("warning: \(d)") }
            for n in notes { Terminal.error("note: \(n)") }
            for f in flights { Terminal.error("logbook: \(f)") }
        }
    }
}

/// One replay: its captures, the gpsd fixes and recorded events interleaved with them, and the
/// airspace watched.
struct ResolvedSession {
    var name: String
    var captures: [String]
    var fixes: [TimedGPSFix]
    var recorded: [RecordedEvent]
    var areas: [AirspaceArea]
}

extension ReplayCommand {
    /// The sessions the arguments name (a capture, a recording hour's stem, a recording folder),
    /// each with its gpsd fixes and recorded events: --gps and --events when given, else the
    /// files the recorder kept beside the capture. Airspace is what `run` sees (--airspace,
    /// --notams, then the stored NOTAMs: one merge rule) unless the session has recorded events,
    /// whose airspace sets are then the ones the recorded session watched.
    func sessions() throws -> [ResolvedSession] {
        do {
            let givenEvents = try events.map { try RecordedEventLog.read(path: $0) }
            let givenFixes = try gps.map { path in
                let log = try GPSLog.read(path: path)
                if let first = log.invalid.first {
                    Terminal.error("warning: --gps \(path): \(log.invalid.count) line(s) are not JSON (line \(first)\(log.invalid.count > 1 ? " and others" : "")): skipped; gpspipe -w writes one JSON report a line")
                }
                if log.fixes.isEmpty { Terminal.error("warning: --gps \(path): no TPV fix with a time in it: no gpsd fixes replayed") }
                return log.fixes
            }
            var watched: [AirspaceArea]?
            func watchedAreas() throws -> [AirspaceArea] {
                if let watched { return watched }
                let store = noStore ? nil : try NotamDatabaseOption.existing(notamDatabase ?? database)
                // The alert levels by kind that run would use ([alerts] level_* of the service's config).
                let levels = (try? GatewayConfig.load(path: GatewayConfig.defaultPath, required: false))?.airspaceLevels ?? AirspaceLevelTable()
                let areas = try AirspaceSet.load(database: store, notamFiles: notams.map { [$0] } ?? [], airspaceFiles: airspace.map { [$0] } ?? [],
                                                 levels: levels)
                watched = areas
                return areas
            }
            return try files.map { argument in
                let session = try ReplaySession.resolve(argument).readable()
                for skipped in session.skipped { Terminal.error("warning: \(skipped): skipped") }
                let kept = givenEvents != nil && givenFixes != nil ? nil : try session.recorded()
                let recorded = givenEvents ?? kept?.events ?? []
                let fixes = givenFixes ?? kept?.fixes ?? []
                let recording = events != nil || kept?.keepsEvents == true
                return ResolvedSession(name: argument, captures: session.captures, fixes: fixes, recorded: recorded,
                                       areas: recording ? [] : try watchedAreas())
            }
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}

/// `--speed`: a factor or `max`.
enum ReplaySpeed: ExpressibleByArgument, Equatable {
    case max
    case factor(Double)

    init?(argument: String) {
        if argument == "max" { self = .max; return }
        // 0.1 to 1000: a pace a person can follow; a tiny factor would make waits infinite.
        guard let v = Double(argument), v >= 0.1, v <= 1_000 else { return nil }
        self = .factor(v)
    }

    var factor: Double? {
        if case .factor(let f) = self { return f }
        return nil
    }
}

/// Sleeps so that events are handled at their capture time divided by the speed factor.
final class Pacer {
    private let factor: Double?
    private var first: Double?
    private var started = Date()

    init(speed: ReplaySpeed) { factor = speed.factor }

    /// False for `--speed max`.
    var isPaced: Bool { factor != nil }

    /// Waits until the event at capture time `time` is due.
    func wait(until time: Double) {
        guard let factor else { return }
        guard let first else {
            self.first = time
            started = Date()
            return
        }
        let wait = (time - first) / factor - Date().timeIntervalSince(started)
        if wait > 0 { Terminal.pause(min(wait, 3600)) }
    }
}

/// The stderr summary of a run.
enum Summary {
    static func text(_ c: GatewayCounters, alerts: Int) -> String {
        let types = c.messagesByType.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let errors = c.errorsByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "summary: \(c.datagrams) datagrams, \(c.bytes) bytes, \(c.messages) messages (\(types)); "
            + (c.ognBeacons > 0 ? "\(c.ognBeacons) OGN beacons; " : "") + "\(c.errors) rejected\(errors.isEmpty ? "" : " (\(errors))"); \(alerts) alert changes"
    }
}
