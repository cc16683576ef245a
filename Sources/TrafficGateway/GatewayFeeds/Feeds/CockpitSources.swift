import GatewaySupport
import GatewayRecords
import GatewayDomain
import GatewayWeather
/// What the cockpit page reads and may do beyond the hub's snapshot: the NOTAM store (and the
/// NOTAM files `run --notams` watches), the one write (acknowledging an airspace alert), and
/// what the status panel names. Everything is optional: a server without them still serves the
/// page, with those panels saying what is missing.
public struct CockpitSources: Sendable {
    /// The NOTAM store of the gateway's database (nil: `--no-database`).
    public var notams: NotamStore?
    /// NOTAMs read from files at start (`run --notams FILE`), shown beside the stored ones.
    public var fileNotams: [Notam]
    /// NOTAMs from files read after the server started (`run` reads its NOTAM file off the start
    /// path), shown after `fileNotams` once read.
    public var laterFileNotams: LaterNotams?
    /// Passes an acknowledgement (alert id or area id) to the core; nil: acknowledgement off.
    public var acknowledge: (@Sendable (String) -> Void)?
    /// The token an acknowledgement must carry (`[feeds] ack_token`); nil: every one is refused.
    public var ackToken: String?
    /// Version shown on the status panel.
    public var version: String
    /// Most acknowledgement attempts (good or bad) a minute, from all clients together.
    public var ackAttemptsPerMinute: Int
    /// The logbook of the gateway's database (the `#flights` panel; nil: `--no-database`).
    public var logbook: LogbookStore?
    /// The fleet's state in a few words, when the gateway publishes to one (`/healthz`).
    public var fleet: (@Sendable () -> String)?
    /// The radar pictures (`/weather/…`; nil: none served).
    public var radar: RadarStore?
    /// The weather fetched before the flight (`gatewayd weather fetch`, `[weather]`), shown beside
    /// FIS-B's (nil: `--no-database`).
    public var weather: WeatherStore?

    /// The fetched reports not expired at `time`, as the page's weather takes them (a storage
    /// fault reads as none: FIS-B's still show).
    func fetchedWeather(at time: Double) -> [FISBReport] {
        ((try? weather?.all(at: time)) ?? []).map(WeatherJSON.report)
    }

    /// Creates the sources; every one is optional.
    public init(notams: NotamStore? = nil, fileNotams: [Notam] = [], acknowledge: (@Sendable (String) -> Void)? = nil,
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
    public var storageProblem: String? { (notams?.database ?? logbook?.database)?.degradedReason }

    /// `fileNotams` and what `laterFileNotams` holds so far.
    var allFileNotams: [Notam] { fileNotams + (laterFileNotams?.notams ?? []) }

    /// The version string of this build.
    public static let defaultVersion = "gatewayd \(GatewayVersion.current)"
}

/// NOTAMs that arrive after the feeds start (a NOTAM file read off the start path): none until
/// `set`.
public final class LaterNotams: Sendable {
    private let value = Locked<[Notam]>([])

    /// An empty holder.
    public init() {}

    /// What was set, or none yet.
    public var notams: [Notam] { value.value }

    /// Sets the NOTAMs.
    public func set(_ notams: [Notam]) { value.set(notams) }
}
