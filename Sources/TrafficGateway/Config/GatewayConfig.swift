import Foundation

/// Every setting of `gatewayd run`, from defaults, then the configuration file
/// (`/etc/gatewayd/gatewayd.toml` or `--config`), then flags: a flag beats the file, the file
/// beats the default.
public struct GatewayConfig: Sendable, Equatable {
    /// UDP port for GDL90.
    public var udpPort = 4000
    /// Address to bind for GDL90.
    public var bind = "0.0.0.0"
    /// gpsd as host:port.
    public var gpsd: String?
    /// SQLite database path (nil: the XDG default).
    public var database: String?
    /// Keep an alert log and NOTAM store.
    public var databaseEnabled = true
    /// GDL 90 is accepted only from these IPv4 addresses (empty: from anyone on the network; on a
    /// Stratux Wi-Fi set it to the Stratux, 192.168.10.1, so a passenger's phone cannot inject traffic).
    public var acceptFrom: [String] = []
    /// JSON Lines on stdout.
    public var json = false
    /// Seconds between status lines.
    public var statusInterval = 60
    /// Log level: error, warning, info.
    public var logLevel = "info"
    /// HTTP feed port (0: off).
    public var httpPort = 8090
    /// Address for HTTP and NMEA.
    public var httpBind = "0.0.0.0"
    /// Flight recorder folder (`run --record`): nil, no recording.
    public var recordDirectory: String?
    /// Most megabytes of recordings kept (the oldest hour goes first).
    public var recordMaxMB = 200
    /// When set, every HTTP request must carry this token (see `FeedServer.token`).
    public var httpToken: String?
    /// The token the cockpit page's one write (acknowledging an airspace alert) must carry; nil:
    /// acknowledgements over HTTP are refused (`[feeds] ack_token`).
    public var ackToken: String?
    /// FLARM NMEA port (0: off).
    public var nmeaPort = 2000
    /// GDL90 forwarding targets ("host:port" or "auto").
    public var forward: [String] = []
    /// Airspace GeoJSON file.
    public var airspaceFile: String?
    /// NOTAM JSON file.
    public var notamsFile: String?
    /// NOTAM source to refresh from (faa-api, faa-search).
    public var notamSource: String?
    /// ICAO locations to refresh.
    public var notamLocations: [String] = []
    /// Hours between refreshes.
    public var notamRefreshHours = 6.0
    /// Base URL of the NOTAM source (nil: the source's public default), e.g. the FAA's staging API.
    public var notamURL: String?
    /// FAA API credentials file (client_id=…, client_secret=… lines, readable only by its owner).
    public var credentialsFile: String?
    /// FAA API client id written in the file itself (used together with `clientSecret`).
    public var clientID: String?
    /// FAA API client secret written in the file itself (discouraged: the environment or
    /// `credentials_file` keep it out of a file others can read).
    public var clientSecret: String?

    /// Traffic alert thresholds (`[alerts]`; defaults as in the README's table).
    public var traffic = TrafficAlertThresholds()
    /// Airspace alert look-ahead and buffers (`[alerts] airspace_*`).
    public var airspace = AirspaceAlertThresholds()
    /// Alert levels of each airspace kind (`[alerts] level_restricted = "warning,caution,advisory"`).
    public var airspaceLevels = AirspaceLevelTable()

    /// The defaults.
    public init() {}

    /// The core's tunables with this file's alert thresholds.
    public var coreConfiguration: GatewayCore.Configuration {
        var core = GatewayCore.Configuration()
        core.traffic = traffic
        core.airspace = airspace
        return core
    }

    /// `[alerts]` keys: name, allowed range, and where the value lives.
    static var alertKeys: [(key: String, range: ClosedRange<Double>, path: WritableKeyPath<GatewayConfig, Double>)] { [
        ("warning_time_sec", 1...600, \.traffic.warningTimeSec), ("warning_miss_nm", 0.01...20, \.traffic.warningMissNM),
        ("warning_vertical_ft", 50...10_000, \.traffic.warningVerticalFt), ("caution_time_sec", 1...600, \.traffic.cautionTimeSec),
        ("caution_miss_nm", 0.01...20, \.traffic.cautionMissNM), ("caution_vertical_ft", 50...10_000, \.traffic.cautionVerticalFt),
        ("advisory_range_nm", 0.1...50, \.traffic.advisoryRangeNM), ("advisory_vertical_ft", 50...20_000, \.traffic.advisoryVerticalFt),
        ("airspace_look_ahead_sec", 0...3600, \.airspace.lookAheadSec), ("airspace_lateral_buffer_nm", 0...50, \.airspace.lateralBufferNM),
        ("airspace_vertical_buffer_ft", 0...10_000, \.airspace.verticalBufferFt),
    ] }

    /// The default configuration file.
    public static let defaultPath = "/etc/gatewayd/gatewayd.toml"

    /// Every key the file may set, as `section.key`, with its type in words.
    public static let keys: [String: String] = [
        "input.udp_port": "integer 0–65535", "input.bind": "IPv4 address", "input.gpsd": "host:port",
        "input.accept_from": "array of IPv4 addresses",
        "database.path": "file path", "database.enabled": "true or false",
        "output.json": "true or false", "output.status_interval": "seconds, 0 or more", "log.level": "error, warning or info",
        "feeds.http_port": "integer 0–65535", "feeds.http_bind": "IPv4 address", "feeds.token": "string (every HTTP request must carry it)",
        "feeds.ack_token": "string (acknowledging an alert from the cockpit page must carry it; unset: refused)",
        "recorder.dir": "folder path", "recorder.max_mb": "megabytes, 1 or more", "feeds.nmea_port": "integer 0–65535",
        "feeds.forward": "array of \"host:port\" or \"auto\"",
        "airspace.file": "GeoJSON file path", "airspace.notams_file": "NOTAM JSON file path",
        "notams.source": "faa-api, faa-nms or faa-search", "notams.locations": "array of ICAO locations",
        "notams.refresh_hours": "hours, 0.05 to 720", "notams.url": "an http:// or https:// URL",
        "notams.credentials_file": "file path", "notams.client_id": "string", "notams.client_secret": "string",
    ].merging(alertKeys.map { ("alerts.\($0.key)", "a number from \(format($0.range.lowerBound)) to \(format($0.range.upperBound))") }) { a, _ in a }
        .merging(AirspaceKind.allCases.map { ("alerts.\($0.configKey)", levelsHelp) }) { a, _ in a }

    static let levelsHelp = "a level (warning, caution, advisory or none: inside, with entry and near one and two steps lower) or three of them \"inside,entry,near\" like \"warning,caution,advisory\""


    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Reads `path` over the defaults. `required`: a missing file is an error (`--config`);
    /// otherwise (the default path) a missing file means defaults.
    public static func load(path: String, required: Bool) throws(ConfigError) -> GatewayConfig {
        guard let data = FileManager.default.contents(atPath: path) else {
            if !required && !FileManager.default.fileExists(atPath: path) { return GatewayConfig() }
            throw ConfigError(file: path, line: 0, message: FileManager.default.fileExists(atPath: path)
                ? "cannot read it (permissions?)" : "no such file")
        }
        return try parse(String(decoding: data, as: UTF8.self), file: path)
    }

    /// Parses configuration text.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> GatewayConfig {
        var c = GatewayConfig()
        var alertLines: [String: Int] = [:]
        for e in try TOMLSubset.parse(text, file: file) {
            let name = e.section.isEmpty ? e.key : "\(e.section).\(e.key)"
            guard let expected = keys[name] else {
                let known = keys.keys.filter { $0.hasPrefix(e.section + ".") }.map { $0.split(separator: ".")[1] }.sorted()
                throw ConfigError(file: file, line: e.line, message: "unknown key '\(e.key)' in [\(e.section)]"
                    + (known.isEmpty ? " (sections: input, database, output, log, feeds, airspace, notams, alerts)" : " (known: \(known.joined(separator: ", ")))"))
            }
            func fail() -> ConfigError { ConfigError(file: file, line: e.line, message: "'\(e.key)' in [\(e.section)] must be \(expected)") }
            func string() throws(ConfigError) -> String { if case .string(let s) = e.value { return s }; throw fail() }
            func int(_ range: ClosedRange<Int>) throws(ConfigError) -> Int {
                if case .integer(let i) = e.value, range.contains(i) { return i }
                throw fail()
            }
            func bool() throws(ConfigError) -> Bool { if case .bool(let b) = e.value { return b }; throw fail() }
            func strings() throws(ConfigError) -> [String] {
                guard case .array(let items) = e.value else { throw fail() }
                var out: [String] = []
                for item in items { guard case .string(let s) = item else { throw fail() }; out.append(s) }
                return out
            }
            func ipv4(_ s: String) throws(ConfigError) -> String {
                let parts = s.split(separator: ".").compactMap { Int($0) }
                guard parts.count == 4, parts.allSatisfy({ (0...255).contains($0) }) else { throw fail() }
                return s
            }
            if let alert = alertKeys.first(where: { "alerts.\($0.key)" == name }) {
                let value: Double
                switch e.value {
                case .integer(let i): value = Double(i)
                case .float(let d): value = d
                default: throw fail()
                }
                guard alert.range.contains(value) else { throw fail() }
                c[keyPath: alert.path] = value
                alertLines[e.key] = e.line
                continue
            }
            if let kind = AirspaceKind.allCases.first(where: { "alerts.\($0.configKey)" == name }) {
                guard let levels = AirspaceAlertLevels(config: try string()) else { throw fail() }
                c.airspaceLevels[kind] = levels
                continue
            }
            switch name {
            case "input.udp_port": c.udpPort = try int(0...65535)
            case "input.bind": c.bind = try ipv4(try string())
            case "input.gpsd": c.gpsd = try string()
            case "input.accept_from":
                var hosts: [String] = []
                for h in try strings() { hosts.append(try ipv4(h)) }
                c.acceptFrom = hosts
            case "database.path": c.database = try string()
            case "database.enabled": c.databaseEnabled = try bool()
            case "output.json": c.json = try bool()
            case "output.status_interval": c.statusInterval = try int(0...86_400)
            case "log.level":
                let l = try string()
                guard ["error", "warning", "info"].contains(l) else { throw fail() }
                c.logLevel = l
            case "feeds.http_port": c.httpPort = try int(0...65535)
            case "feeds.http_bind": c.httpBind = try ipv4(try string())
            case "feeds.token": c.httpToken = try string()
            case "feeds.ack_token": c.ackToken = try string()
            case "recorder.dir": c.recordDirectory = try string()
            case "recorder.max_mb": c.recordMaxMB = try int(1...1_000_000)
            case "feeds.nmea_port": c.nmeaPort = try int(0...65535)
            case "feeds.forward":
                c.forward = try strings()
                for f in c.forward where f != "auto" && !f.contains(":") { throw fail() }
            case "airspace.file": c.airspaceFile = try string()
            case "airspace.notams_file": c.notamsFile = try string()
            case "notams.source":
                let s = try string()
                guard ["faa-api", "faa-nms", "faa-search"].contains(s) else { throw fail() }
                c.notamSource = s
            case "notams.locations":
                c.notamLocations = try strings()
                for l in c.notamLocations where !NotamParser.isICAO(l) { throw fail() }
            case "notams.refresh_hours":
                switch e.value {
                case .integer(let i) where (1...720).contains(i): c.notamRefreshHours = Double(i)
                case .float(let d) where (0.05...720).contains(d): c.notamRefreshHours = d
                default: throw fail()
                }
            case "notams.url":
                let u = try string()
                guard u.hasPrefix("https://") || u.hasPrefix("http://"), u.count > 8 else { throw fail() }
                c.notamURL = u
            case "notams.credentials_file": c.credentialsFile = try string()
            case "notams.client_id": c.clientID = try string()
            case "notams.client_secret": c.clientSecret = try string()
            default: throw fail()
            }
        }
        // A warning is the tighter of the two: its limits may not exceed the caution's.
        for (warning, caution, value) in [("warning_time_sec", "caution_time_sec", c.traffic.warningTimeSec <= c.traffic.cautionTimeSec),
                                          ("warning_miss_nm", "caution_miss_nm", c.traffic.warningMissNM <= c.traffic.cautionMissNM),
                                          ("warning_vertical_ft", "caution_vertical_ft", c.traffic.warningVerticalFt <= c.traffic.cautionVerticalFt)]
        where !value {
            let line = max(alertLines[warning] ?? 0, alertLines[caution] ?? 0)
            throw ConfigError(file: file, line: line, message: "'\(warning)' in [alerts] must not exceed '\(caution)' (a warning is the tighter level)")
        }
        return c
    }

    /// FAA NOTAM API credentials: `FAA_CLIENT_ID`/`FAA_CLIENT_SECRET` from the environment (the
    /// service's `/etc/gatewayd/environment`), else `client_id`/`client_secret` from this file, else
    /// `credentials_file`. The error says which of them to provide.
    public func notamCredentials(environment: [String: String] = ProcessInfo.processInfo.environment) throws(FetchError) -> Credentials {
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
    public func secretExposure(path: String) -> String? {
        guard clientSecret != nil, let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let mode = attributes[.posixPermissions] as? Int, mode & 0o077 != 0 else { return nil }
        return "\(path): client_secret is in a file others can read (mode \(String(mode, radix: 8))): put FAA_CLIENT_ID=… and "
            + "FAA_CLIENT_SECRET=… in /etc/gatewayd/environment (root, chmod 600) and remove client_id/client_secret here"
    }

    /// The effective configuration as TOML, secrets masked.
    public var toml: String {
        func q(_ s: String?) -> String { s.map { "\"\($0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\"" } ?? "\"\"" }
        func arr(_ a: [String]) -> String { "[" + a.map { q($0) }.joined(separator: ", ") + "]" }
        var lines = ["[input]", "udp_port = \(udpPort)", "bind = \(q(bind))"]
        lines.append(gpsd.map { "gpsd = \(q($0))" } ?? "# gpsd = \"127.0.0.1:2947\"")
        lines.append(acceptFrom.isEmpty ? "# accept_from = [\"192.168.10.1\"]   (default: GDL90 from anyone)" : "accept_from = [\(acceptFrom.map(q).joined(separator: ", "))]")
        lines += ["", "[database]", database.map { "path = \(q($0))" } ?? "# path = (default) \(GatewayDatabase.defaultPath())", "enabled = \(databaseEnabled)"]
        lines += ["", "[output]", "json = \(json)", "status_interval = \(statusInterval)", "", "[log]", "level = \(q(logLevel))"]
        lines += ["", "[feeds]", "http_port = \(httpPort)", "http_bind = \(q(httpBind))", "nmea_port = \(nmeaPort)", "forward = \(arr(forward))"]
        lines.append(httpToken == nil ? "# token = \"…\"   (default: no token; anyone on the network reads the feeds)" : "token = \"****\"")
        lines.append(ackToken == nil ? "# ack_token = \"…\"   (default: none; the cockpit page cannot acknowledge alerts)" : "ack_token = \"****\"")
        lines += ["", "[recorder]", recordDirectory.map { "dir = \(q($0))" } ?? "# dir = \"/var/lib/gatewayd/recordings\"   (default: no recording)", "max_mb = \(recordMaxMB)"]
        lines += ["", "[airspace]", airspaceFile.map { "file = \(q($0))" } ?? "# file = \"\"", notamsFile.map { "notams_file = \(q($0))" } ?? "# notams_file = \"\""]
        lines += ["", "[notams]", notamSource.map { "source = \(q($0))" } ?? "# source = \"faa-api\"", "locations = \(arr(notamLocations))",
                  "refresh_hours = \(notamRefreshHours)"]
        if let notamURL { lines.append("url = \(q(SecretMasking.url(notamURL)))") }
        if let credentialsFile { lines.append("credentials_file = \(q(credentialsFile))") }
        if clientID != nil { lines.append("client_id = \"****\"") }
        if clientSecret != nil { lines.append("client_secret = \"****\"") }
        lines += ["", "[alerts]"] + Self.alertKeys.map { "\($0.key) = \(Self.format(self[keyPath: $0.path]))" }
        lines += ["# airspace alert levels by kind: inside, predicted entry, near"]
        lines += AirspaceKind.allCases.map { "\($0.configKey) = \(q(airspaceLevels[$0].configText))" }
        return lines.joined(separator: "\n") + "\n"
    }
}
