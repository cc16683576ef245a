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
    /// FAA API credentials file (client_id=…, client_secret=…).
    public var credentialsFile: String?
    /// FAA API client secret written in the file itself (discouraged: prefer credentials_file).
    public var clientSecret: String?

    /// The defaults.
    public init() {}

    /// The default configuration file.
    public static let defaultPath = "/etc/gatewayd/gatewayd.toml"

    /// Every key the file may set, as `section.key`, with its type in words.
    public static let keys: [String: String] = [
        "input.udp_port": "integer 0–65535", "input.bind": "IPv4 address", "input.gpsd": "host:port",
        "database.path": "file path", "database.enabled": "true or false",
        "output.json": "true or false", "output.status_interval": "seconds, 0 or more", "log.level": "error, warning or info",
        "feeds.http_port": "integer 0–65535", "feeds.http_bind": "IPv4 address", "feeds.nmea_port": "integer 0–65535",
        "feeds.forward": "array of \"host:port\" or \"auto\"",
        "airspace.file": "GeoJSON file path", "airspace.notams_file": "NOTAM JSON file path",
        "notams.source": "faa-api, faa-nms or faa-search", "notams.locations": "array of ICAO locations",
        "notams.refresh_hours": "hours, at least 0.05", "notams.credentials_file": "file path", "notams.client_secret": "string",
    ]

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
        for e in try TOMLSubset.parse(text, file: file) {
            let name = e.section.isEmpty ? e.key : "\(e.section).\(e.key)"
            guard let expected = keys[name] else {
                let known = keys.keys.filter { $0.hasPrefix(e.section + ".") }.map { $0.split(separator: ".")[1] }.sorted()
                throw ConfigError(file: file, line: e.line, message: "unknown key '\(e.key)' in [\(e.section)]"
                    + (known.isEmpty ? " (sections: input, database, output, log, feeds, airspace, notams)" : " (known: \(known.joined(separator: ", ")))"))
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
            switch name {
            case "input.udp_port": c.udpPort = try int(0...65535)
            case "input.bind": c.bind = try ipv4(try string())
            case "input.gpsd": c.gpsd = try string()
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
                case .integer(let i) where i > 0: c.notamRefreshHours = Double(i)
                case .float(let d) where d >= 0.05: c.notamRefreshHours = d
                default: throw fail()
                }
            case "notams.credentials_file": c.credentialsFile = try string()
            case "notams.client_secret": c.clientSecret = try string()
            default: throw fail()
            }
        }
        return c
    }

    /// The effective configuration as TOML, secrets masked.
    public var toml: String {
        func q(_ s: String?) -> String { s.map { "\"\($0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\"" } ?? "\"\"" }
        func arr(_ a: [String]) -> String { "[" + a.map { q($0) }.joined(separator: ", ") + "]" }
        var lines = ["[input]", "udp_port = \(udpPort)", "bind = \(q(bind))"]
        lines.append(gpsd.map { "gpsd = \(q($0))" } ?? "# gpsd = \"127.0.0.1:2947\"")
        lines += ["", "[database]", database.map { "path = \(q($0))" } ?? "# path = (default) \(GatewayDatabase.defaultPath())", "enabled = \(databaseEnabled)"]
        lines += ["", "[output]", "json = \(json)", "status_interval = \(statusInterval)", "", "[log]", "level = \(q(logLevel))"]
        lines += ["", "[feeds]", "http_port = \(httpPort)", "http_bind = \(q(httpBind))", "nmea_port = \(nmeaPort)", "forward = \(arr(forward))"]
        lines += ["", "[airspace]", airspaceFile.map { "file = \(q($0))" } ?? "# file = \"\"", notamsFile.map { "notams_file = \(q($0))" } ?? "# notams_file = \"\""]
        lines += ["", "[notams]", notamSource.map { "source = \(q($0))" } ?? "# source = \"faa-api\"", "locations = \(arr(notamLocations))",
                  "refresh_hours = \(notamRefreshHours)"]
        if let credentialsFile { lines.append("credentials_file = \(q(credentialsFile))") }
        if clientSecret != nil { lines.append("client_secret = \"****\"") }
        return lines.joined(separator: "\n") + "\n"
    }
}
