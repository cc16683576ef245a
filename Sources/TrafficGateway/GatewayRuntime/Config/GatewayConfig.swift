import GatewaySupport
import GatewayFleet
import GatewayDomain
import GatewayRecords
import GatewayNotams
import GatewayNotify
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every setting of `gatewayd run`, from defaults, then the configuration file
/// (`/etc/gatewayd/gatewayd.toml` or `--config`), then flags: a flag beats the file, the file
/// beats the default.
package struct GatewayConfig: Sendable, Equatable {
    /// UDP port for GDL90.
    package var udpPort = 4000
    /// Address to bind for GDL90.
    package var bind = "0.0.0.0"
    /// gpsd (port 2947 when the file or flag names only the host).
    package var gpsd: HostPort?
    /// A 1090 MHz receiver's SBS BaseStation output (dump1090, readsb), port 30003 when only the host is named.
    package var sbs: HostPort?
    /// The Open Glider Network's APRS (an APRS-IS server, port 14580 when only the host is named,
    /// or a local ogn-decode's port 50001): FLARM, OGN trackers, FANET… as traffic.
    package var ogn: HostPort?
    /// The range asked of an APRS-IS server around `ognNear` or ownship, km.
    package var ognRangeKm = 50.0
    /// Where the range is centred (an airport of the table or "LAT,LON"); nil: ownship.
    package var ognNear: String?
    /// Ownship's own FLARM and OGN tracker ids (six hex digits): its ghost, never traffic.
    package var ognOwnshipIDs: [String] = []
    /// SQLite database path (nil: the XDG default).
    package var database: String?
    /// Keep an alert log and NOTAM store.
    package var databaseEnabled = true
    /// GDL 90 is accepted only from these IPv4 addresses (empty: from anyone on the network; on a
    /// Stratux Wi-Fi set it to the Stratux, 192.168.10.1, so a passenger's phone cannot inject traffic).
    package var acceptFrom: [String] = []
    /// JSON Lines on stdout.
    package var json = false
    /// Seconds between status lines.
    package var statusInterval = 60
    /// How much goes to stderr.
    package var logLevel = LogLevel.info
    /// HTTP feed port (0: off).
    package var httpPort = 8090
    /// Address for HTTP and NMEA.
    package var httpBind = "0.0.0.0"
    /// Flight recorder folder (`run --record`): nil, no recording.
    package var recordDirectory: String?
    /// Most megabytes of recordings kept (the oldest hour goes first).
    package var recordMaxMB = 200
    /// When set, every HTTP request must carry this token (see `FeedServer.token`).
    package var httpToken: String?
    /// The token the cockpit page's one write (acknowledging an airspace alert) must carry; nil:
    /// acknowledgements over HTTP are refused (`[feeds] ack_token`).
    package var ackToken: String?
    /// FLARM NMEA port (0: off).
    package var nmeaPort = 2000
    /// GDL90 forwarding targets (`host:port`, or `auto`: EFBs that announce themselves).
    package var forward: [ForwardTarget] = []
    /// Airspace GeoJSON file.
    package var airspaceFile: String?
    /// NOTAM JSON file.
    package var notamsFile: String?
    /// NOTAM source to refresh from while running (nil: no refresh).
    package var notamSource: NotamSourceKind?
    /// ICAO locations to refresh.
    package var notamLocations: [String] = []
    /// Hours between refreshes.
    package var notamRefreshHours = 6.0
    /// Weather fetched while running (issue 42): around this airport or LAT,LON (nil: no refresh
    /// unless `weatherRoute` is set).
    package var weatherNear: String?
    /// Radius around `weatherNear`, NM.
    package var weatherRadiusNM = 50.0
    /// A route of airports (the area is a box around them with `weatherRadiusNM` of margin).
    package var weatherRoute: [String] = []
    /// Minutes between weather refreshes.
    package var weatherRefreshMin = 30.0
    /// Base URL replacing the aviationweather.gov Data API's.
    package var weatherURL: String?
    /// The forecast radar (`[forecast]`, issue 55): the model, the place or route and radius, the
    /// hours, how often `run` refreshes it, NOMADS's URL, how many runs and megabytes are kept.
    package var forecastModel = "hrrr"
    package var forecastNear: String?
    package var forecastRoute: [String] = []
    package var forecastRadiusNM = 200.0
    package var forecastHours = 0
    package var forecastRefreshMin = 60.0
    package var forecastURL: String?
    package var forecastKeepRuns = 5
    package var forecastMaxMB = 150
    /// The club's MQTT broker (issue 43; nil: no fleet), this gateway's name in the fleet, the
    /// broker's user, the file holding its password (root-only; never the password itself) and
    /// the CA file for `mqtts://`.
    package var fleetBroker: FleetBroker?
    package var fleetID: String?
    package var fleetUsername: String?
    package var fleetPasswordFile: String?
    package var fleetCA: String?
    /// The ground station's HTTP token (`gatewayd fleet`), nil for none.
    package var fleetStationToken: String?
    /// Seconds between the `traffic` topic's pictures (0: never): the whole `/api/traffic` is
    /// about 144 KB at 500 targets, what an LTE data plan pays for; ownship still goes every second.
    package var fleetTrafficEverySec = 1
    /// The club's aircraft the ground station follows through OGN (`[fleet] ogn_ids`).
    package var fleetOGNGliders: [ClubGlider] = []
    /// Base URL of the NOTAM source (nil: the source's public default), e.g. the FAA's staging API.
    package var notamURL: String?
    /// FAA API credentials file (client_id=…, client_secret=… lines, readable only by its owner).
    package var credentialsFile: String?
    /// FAA API client id written in the file itself (used together with `clientSecret`).
    package var clientID: String?
    /// FAA API client secret written in the file itself (discouraged: the environment or
    /// `credentials_file` keep it out of a file others can read).
    package var clientSecret: String?

    /// Traffic alert thresholds (`[alerts]`; defaults as in the README's table).
    package var traffic = TrafficAlertThresholds()
    /// Airspace alert look-ahead and buffers (`[alerts] airspace_*`).
    package var airspace = AirspaceAlertThresholds()
    /// Alert levels of each airspace kind (`[alerts] level_restricted = "warning,caution,advisory"`).
    package var airspaceLevels = AirspaceLevelTable()

    /// Speak traffic and airspace callouts through ALSA (`[voice] enabled`; off by default).
    package var voiceEnabled = false
    /// ALSA playback device for the callouts ("default", "plughw:1,0"; `gatewayd voice list`).
    package var voiceDevice = "default"
    /// Callout volume, percent of espeak-ng's normal (0–200).
    package var voiceVolume = 100
    /// Callout speech rate, words per minute.
    package var voiceRate = 175
    /// espeak-ng voice name.
    package var voiceName = "en-us"
    /// Speak advisories too (off: cautions and warnings only).
    package var voiceAdvisories = false
    /// While an alert stays a warning it is spoken again this often, seconds (0: never).
    package var voiceRepeatWarningSec = 15.0
    /// Remind of an airspace warning this often while it lasts (seconds; 0: never, the default).
    package var voiceAirspaceReminderSec = 0.0

    /// Notifications (`[notify]`, issue 54): where to, from which severity, the page's address
    /// for the links, the silent-receiver minutes, flights, and the ground station's alerts.
    package var notify = NotifySettings()

    /// The defaults.
    package init() {}

    /// The voice sink's settings from `[voice]`.
    package var voiceSettings: VoiceSink.Settings {
        var v = VoiceSink.Settings()
        v.device = voiceDevice
        v.speech.voice = voiceName
        v.speech.rate = voiceRate
        v.speech.volume = voiceVolume
        v.callouts.advisories = voiceAdvisories
        v.callouts.repeatWarningSec = voiceRepeatWarningSec
        v.callouts.airspaceReminderSec = voiceAirspaceReminderSec
        return v
    }

    /// The core's tunables with this file's alert thresholds.
    package var coreConfiguration: GatewayCore.Configuration {
        var core = GatewayCore.Configuration()
        core.traffic = traffic
        core.airspace = airspace
        core.ognOwnshipIDs = Set(ognOwnshipIDs.compactMap { UInt32($0, radix: 16) })
        return core
    }

    /// The default configuration file.
    package static let defaultPath = "/etc/gatewayd/gatewayd.toml"

    /// A number as the file writes it: 25, 0.5.
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Reads `path` over the defaults. `required`: a missing file is an error (`--config`);
    /// otherwise (the default path) a missing file means defaults.
    package static func load(path: String, required: Bool) throws(ConfigError) -> GatewayConfig {
        guard let data = FileManager.default.contents(atPath: path) else {
            if !required && !FileManager.default.fileExists(atPath: path) { return GatewayConfig() }
            throw ConfigError(file: path, line: 0, message: FileManager.default.fileExists(atPath: path)
                ? "cannot read it (permissions?)" : "no such file")
        }
        return try parse(String(decoding: data, as: UTF8.self), file: path)
    }

    /// Parses configuration text: every key is looked up in `keys`; the first error names the
    /// file, the line and the key, and says what the value must be or which keys there are.
    package static func parse(_ text: String, file: String) throws(ConfigError) -> GatewayConfig {
        var c = GatewayConfig()
        var lines: [String: Int] = [:]
        let keys = Self.keys
        for e in try TOMLSubset.parse(text, file: file) {
            guard let key = keys.first(where: { $0.section == e.section && $0.name == e.key }) else {
                throw ConfigError(file: file, line: e.line, message: unknownKey(e.key, in: e.section, keys: keys))
            }
            guard key.read(e.value, into: &c) else {
                throw ConfigError(file: file, line: e.line, message: key.explain(e.value).map { "'\(e.key)' in [\(e.section)]: \($0)" }
                                  ?? "'\(e.key)' in [\(e.section)] must be \(key.help)")
            }
            lines[key.name] = e.line
        }
        // A warning is the tighter of the two: its limits may not exceed the caution's.
        for (warning, caution, value) in [("warning_time_sec", "caution_time_sec", c.traffic.warningTimeSec <= c.traffic.cautionTimeSec),
                                          ("warning_miss_nm", "caution_miss_nm", c.traffic.warningMissNM <= c.traffic.cautionMissNM),
                                          ("warning_vertical_ft", "caution_vertical_ft", c.traffic.warningVerticalFt <= c.traffic.cautionVerticalFt)]
        where !value {
            let line = max(lines[warning] ?? 0, lines[caution] ?? 0)
            throw ConfigError(file: file, line: line, message: "'\(warning)' in [alerts] must not exceed '\(caution)' (a warning is the tighter level)")
        }
        return c
    }

    /// The error for a key not in `keys`: the keys its section has, or the sections there are.
    static func unknownKey(_ key: String, in section: String, keys: [ConfigKey]) -> String {
        let known = keys.filter { $0.section == section }.map(\.name).sorted()
        return "unknown key '\(key)' in [\(section)]"
            + (known.isEmpty ? " (sections: \(sections(keys).joined(separator: ", ")))" : " (known: \(known.joined(separator: ", ")))")
    }

    /// The fleet's settings when a broker is set (nil: no fleet), or why they cannot work: a
    /// broker needs this gateway's id, and the alert log and logbook it publishes from. Checked
    /// by `run` and `config check` once the flags are applied (a ground station's file sets a
    /// broker without an id).
    package func fleet() throws(GatewayError) -> FleetSettings? {
        guard let broker = fleetBroker else { return nil }
        guard let id = fleetID else {
            throw GatewayError.setting(name: "fleet.id", message: "[fleet] broker is set but not id: name this gateway in the fleet (id = \"N123AB\", or --fleet-id)")
        }
        guard databaseEnabled else {
            throw GatewayError.setting(name: "fleet.broker", message: "[fleet] broker needs the database ([database] enabled = true, no --no-database): the fleet publishes from the alert log and the logbook, so nothing is lost offline")
        }
        return FleetSettings(broker: broker, id: id, username: fleetUsername, passwordFile: fleetPasswordFile, caFile: fleetCA)
    }

    /// The sections, in the order of `keys`.
    static func sections(_ keys: [ConfigKey]) -> [String] {
        var seen: [String] = []
        for key in keys where !seen.contains(key.section) { seen.append(key.section) }
        return seen
    }

    /// FAA NOTAM API credentials: `FAA_CLIENT_ID`/`FAA_CLIENT_SECRET` from the environment (the
    /// service's `/etc/gatewayd/environment`), else `client_id`/`client_secret` from this file, else
    /// `credentials_file`. The error says which of them to provide.
    package func notamCredentials(environment: [String: String] = ProcessInfo.processInfo.environment) throws(FetchError) -> Credentials {
        if let id = environment["FAA_CLIENT_ID"], let secret = environment["FAA_CLIENT_SECRET"], !id.isEmpty, !secret.isEmpty {
            return Credentials(id: id, secret: secret)
        }
        if let clientID, let clientSecret, !clientID.isEmpty, !clientSecret.isEmpty {
            return Credentials(id: clientID, secret: clientSecret)
        }
        if clientID != nil || clientSecret != nil, credentialsFile == nil {
            throw FetchError(.credentials, url: "faa-api", reason: "the configuration sets only one of client_id and client_secret: set both, or neither")
        }
        return try Credentials.load(environment: environment, file: credentialsFile)
    }

    /// A warning when the file at `path` sets `client_secret` but users other than its owner may
    /// read it; nil otherwise. (The service's dynamic user must be able to read the configuration,
    /// so the secret belongs in `/etc/gatewayd/environment` instead.)
    package func secretExposure(path: String) -> String? {
        guard clientSecret != nil, let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let mode = attributes[.posixPermissions] as? Int, mode & 0o077 != 0 else { return nil }
        return "\(path): client_secret is in a file others can read (mode \(String(mode, radix: 8))): put FAA_CLIENT_ID=… and "
            + "FAA_CLIENT_SECRET=… in /etc/gatewayd/environment (root, chmod 600) and remove client_id/client_secret here"
    }

    /// The effective configuration as TOML, every key of `keys` in its section, secrets masked
    /// (`config show`); it parses back to the same configuration but for the secrets.
    package var toml: String {
        let keys = Self.keys
        var lines: [String] = []
        for section in Self.sections(keys) {
            if !lines.isEmpty { lines.append("") }
            lines.append("[\(section)]")
            for key in keys where key.section == section {
                if let note = key.note { lines.append(note) }
                if let line = key.line(self) { lines.append(line) }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
