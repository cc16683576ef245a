import GatewaySupport
import GatewayRecords
import GatewayNotams
import GatewayDomain
import GatewayWeather
import GDL90
/// What the cockpit page reads and may do beyond the hub's snapshot: the NOTAM store (and the
/// NOTAM files `run --notams` watches), the one write (acknowledging an airspace alert), and
/// what the status panel names. Everything is optional: a server without them still serves the
/// page, with those panels saying what is missing.
package struct CockpitSources: Sendable {
    /// The NOTAM store of the gateway's database (nil: `--no-database`).
    package var notams: NotamStore?
    /// NOTAMs read from files at start (`run --notams FILE`), shown beside the stored ones.
    package var fileNotams: [Notam]
    /// NOTAMs from files read after the server started (`run` reads its NOTAM file off the start
    /// path), shown after `fileNotams` once read.
    package var laterFileNotams: LaterNotams?
    /// Passes an acknowledgement (alert id or area id) to the core; nil: acknowledgement off.
    package var acknowledge: (@Sendable (String) -> Void)?
    /// The token an acknowledgement must carry (`[feeds] ack_token`); nil: every one is refused.
    package var ackToken: String?
    /// Version shown on the status panel.
    package var version: String
    /// Most acknowledgement attempts (good or bad) a minute, from all clients together.
    package var ackAttemptsPerMinute: Int
    /// The logbook of the gateway's database (the `#flights` panel; nil: `--no-database`).
    package var logbook: LogbookStore?
    /// The fleet's state in a few words, when the gateway publishes to one (`/healthz`).
    package var fleet: (@Sendable () -> String)?
    /// The radar pictures (`/weather/…`; nil: none served).
    package var radar: RadarStore?
    /// The weather fetched before the flight (`gatewayd weather fetch`, `[weather]`), shown beside
    /// FIS-B's (nil: `--no-database`).
    package var weather: WeatherStore?
    /// The forecast runs kept beside the database (`/weather/forecast/…`; nil: none served).
    package var forecast: ForecastFiles?
    /// The gateway's home (`[weather] near`), where the Weather view centres without a position.
    package var home: (name: String, position: Position)?

    /// Where the gateway last landed: the newest flight of the logbook with an arrival airport
    /// the airport table knows (the Weather view's place after a flight, with no fix).
    package func lastLanding() -> (airport: String, position: Position)? {
        guard let flights = try? logbook?.list() else { return nil }
        for f in flights.reversed() {
            if let id = f.arrival, let a = AirportTable.shared?.airport(id) { return (id, a.position) }
        }
        return nil
    }

    /// The fetched reports not expired at `time`, as the page's weather takes them (a storage
    /// fault reads as none: FIS-B's still show).
    func fetchedWeather(at time: Double) -> [FISBReport] {
        ((try? weather?.all(at: time)) ?? []).map(WeatherJSON.report)
    }

    /// Creates the sources; every one is optional.
    package init(notams: NotamStore? = nil, fileNotams: [Notam] = [], acknowledge: (@Sendable (String) -> Void)? = nil,
                ackToken: String? = nil, version: String = CockpitSources.defaultVersion, ackAttemptsPerMinute: Int = 10,
                logbook: LogbookStore? = nil) {
        self.notams = notams
        self.logbook = logbook
        self.fileNotams = fileNotams
        self.acknowledge = acknowledge
        self.ackToken = ackToken.flatMap { $0.isEmpty ? nil : $0 }
        self.version = version
        self.ackAttemptsPerMinute = ackAttemptsPerMinute
    }

    /// Why the gateway's database runs in memory (a storage fault at start), nil when on its file
    /// or when there is none.
    package var storageProblem: String? { (notams?.database ?? logbook?.database)?.degradedReason }

    /// `fileNotams` and what `laterFileNotams` holds so far.
    var allFileNotams: [Notam] { fileNotams + (laterFileNotams?.notams ?? []) }

    /// The version string of this build.
    package static let defaultVersion = "gatewayd \(GatewayVersion.current)"
}

/// NOTAMs that arrive after the feeds start (a NOTAM file read off the start path): none until
/// `set`.
package final class LaterNotams: Sendable {
    private let value = Locked<[Notam]>([])

    /// An empty holder.
    package init() {}

    /// What was set, or none yet.
    package var notams: [Notam] { value.value }

    /// Sets the NOTAMs.
    package func set(_ notams: [Notam]) { value.set(notams) }
}

/// What the feeds server reads of the forecast radar's store (issue 55), handed in by the runtime
/// (the store is a module of the feeds' own layer): the index `/weather/forecast/` answers, and the
/// path of a served file, nil for any name the store does not write.
package struct ForecastFiles: Sendable {
    /// The index's JSON.
    package var index: @Sendable () -> String
    /// The file of `<model>/<run>/<name>`, nil when not one of the store's own names.
    package var path: @Sendable (_ model: String, _ run: String, _ name: String) -> String?

    /// Creates the two readers.
    package init(index: @escaping @Sendable () -> String, path: @escaping @Sendable (String, String, String) -> String?) {
        self.index = index
        self.path = path
    }
}
