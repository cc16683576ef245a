import ArgumentParser
import Foundation
import GDL90
import TrafficGateway

/// `gatewayd replay`: a capture through the whole pipeline, alerts printed.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run recorded captures through the live pipeline and print the alerts.",
        discussion: """
            Reads pcap, pcapng (UDP to port 4000), dump978 text lines and raw GDL90 byte streams. Time
            comes from the capture: packet timestamps, or for raw streams the GDL90 heartbeat clock on
            the day given by --date. The same capture always gives byte-identical output.

            Examples:
              gatewayd replay fixtures/demo-flight.pcap
              gatewayd replay fixtures/demo-flight.pcap --notams fixtures/notams-demo.json
              gatewayd replay fixtures/demo-flight.pcap --airspace fixtures/demo-airspace.geojson
              gatewayd replay --json fixtures/demo-flight.pcap | jq .message
              gatewayd replay --speed 1 fixtures/demo-flight.gdl90      (real time)
            """
    )

    @Argument(help: "Capture files, replayed in the order given.")
    var files: [String]

    @Option(help: "Pace: 1 for real time, N for N times faster, max for as fast as possible.")
    var speed: ReplaySpeed = .max

    @Flag(help: "Print alerts as JSON Lines instead of readable lines.")
    var json = false

    @Option(help: "UDP destination port to extract from pcap/pcapng captures.")
    var port: UInt16 = 4000

    @Option(help: "UTC date (YYYY-MM-DD) of raw GDL90 streams, which carry only the time of day.")
    var date: String = "1970-01-01"

    @Option(help: "SQLite database: its stored NOTAMs are watched, as run does, and the alerts are appended to its log.")
    var database: String?

    @Option(help: ArgumentHelp("Airspace to watch: a GeoJSON file of areas (what /airspace.geojson serves).",
                               discussion: "Example: --airspace fixtures/demo-airspace.geojson (a TFR on the demo flight's route)."))
    var airspace: String?

    @Option(help: ArgumentHelp("NOTAMs to watch: a JSON file in the FAA NOTAM API's shape (TFRs, restricted areas become airspace alerts).",
                               discussion: "Example: --notams fixtures/notams-demo.json (a TFR on the demo flight's route)."))
    var notams: String?

    @Option(help: "Database whose stored NOTAMs (`notams fetch`/`import`) are watched, as `run` does (default: --database, else $XDG_DATA_HOME/gatewayd/gateway.sqlite when it exists).")
    var notamDatabase: String?

    @Flag(help: "Ignore the stored NOTAMs (only --notams and --airspace).")
    var noStore = false

    @Flag(help: "Print the summary (messages by type, errors by reason) to stderr.")
    var quiet = false

    func validate() throws {
        guard Timestamp.parse(date) != nil, date.count == 10 else { throw ValidationError("--date \(date) is not a date like 2026-05-16") }
    }

    func run() throws {
        let formatter = AlertFormatter(style: json ? .json : .human(colour: Terminal.colourOnStdout))
        let log = try database.map { path in try AlertLog(database: GatewayDatabase(path: path)) }
        var totals = GatewayCounters()
        var alertCount = 0
        var damaged: [String] = []
        // Airspace as `run` sees it: --airspace, --notams, then the stored NOTAMs (one merge rule).
        let areas: [AirspaceArea]
        do {
            let store = noStore ? nil : try NotamDatabaseOption.existing(notamDatabase ?? database)
            // The alert levels by kind that run would use ([alerts] level_* of the service's config).
            let levels = (try? GatewayConfig.load(path: GatewayConfig.defaultPath, required: false))?.airspaceLevels ?? AirspaceLevelTable()
            areas = try AirspaceSet.load(database: store, notamFiles: notams.map { [$0] } ?? [], airspaceFiles: airspace.map { [$0] } ?? [], levels: levels)
        } catch { throw CommandFailure("\(error)") }
        for path in files {
            let capture = try loadCapture(path, port: port)
            let midnight = Timestamp.parse(date)!
            var pipeline = GatewayPipeline(timeSource: capture.isRaw ? .heartbeat(midnight: midnight) : .given)
            var previous: Double?
            let started = Date()
            var first: Double?
            var emit: ([AlertEvent]) throws -> Void = { alerts in
                guard !alerts.isEmpty else { return }
                Terminal.out(alerts.map(formatter.format))
                try log?.append(alerts)
                alertCount += alerts.count
            }
            if !areas.isEmpty {
                try emit(pipeline.setAirspace(areas, at: capture.datagrams.first?.time ?? pipeline.now ?? 0))
            }
            for datagram in capture.datagrams {
                if let factor = speed.factor, let t = datagram.time {
                    if first == nil { first = t }
                    let due = (t - first!) / factor
                    let wait = due - Date().timeIntervalSince(started)
                    if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                }
                try emit(pipeline.ingest(datagram.bytes, at: datagram.time))
                previous = datagram.time ?? pipeline.now
            }
            try emit(pipeline.finish())
            // Let hysteresis timers run out after the last datagram, as a live gateway would.
            if let end = previous ?? pipeline.now {
                for s in 1...70 { try emit(pipeline.tick(at: end + Double(s))) }
            }
            emit = { _ in }
            totals.merge(pipeline.core.counters)
            if let damage = capture.damage { damaged.append(damage) }
        }
        if !quiet {
            Terminal.error(Summary.text(totals, alerts: alertCount))
            for d in damaged { Terminal.error("warning: \(d)") }
        }
    }
}

/// `--speed`: a factor or `max`.
enum ReplaySpeed: ExpressibleByArgument, Equatable {
    case max
    case factor(Double)

    init?(argument: String) {
        if argument == "max" { self = .max; return }
        guard let v = Double(argument), v > 0 else { return nil }
        self = .factor(v)
    }

    var factor: Double? {
        if case .factor(let f) = self { return f }
        return nil
    }
}

/// The stderr summary of a run.
enum Summary {
    static func text(_ c: GatewayCounters, alerts: Int) -> String {
        let types = c.messagesByType.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let errors = c.errorsByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "summary: \(c.datagrams) datagrams, \(c.bytes) bytes, \(c.messages) messages (\(types)); "
            + "\(c.errors) rejected\(errors.isEmpty ? "" : " (\(errors))"); \(alerts) alert changes"
    }
}
