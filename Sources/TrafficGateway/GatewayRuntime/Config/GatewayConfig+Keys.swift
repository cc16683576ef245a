import GatewaySupport
import GatewayFleet
import GatewayDomain
import GatewayRecords
import GatewayNotams
import GatewayNotify
extension GatewayConfig {
    /// Every key the configuration file may set, in the order `config show` writes them: the one
    /// table that parsing, `config show` and the unknown-key error read.
    package static var keys: [ConfigKey] {
        @Sendable func path(_ s: String) -> String { s }
        // The sockets' own parser: what `config check` accepts, `run` binds (install.sh relies on it).
        @Sendable func ipv4(_ s: String) -> String? { IPv4Socket.isAddress(s) ? s : nil }
        // A token of spaces would be offered by the page and fail every time: refused.
        @Sendable func token(_ s: String) -> String? { s.allSatisfy(\.isWhitespace) ? nil : s }
        var keys: [ConfigKey] = [
            .integer("input", "udp_port", \.udpPort, in: 0...65535, help: "integer 0–65535"),
            .text("input", "bind", \.bind, help: "IPv4 address", parse: ipv4, format: path),
            .optional("input", "gpsd", \.gpsd, help: "host:port", unset: "# gpsd = \"127.0.0.1:2947\"",
                      parse: { HostPort($0, defaultPort: 2947) }, format: \.description),
            .optional("sbs", "address", \.sbs, help: "host:port (dump1090/readsb BaseStation output)", unset: "# address = \"127.0.0.1:30003\"",
                      parse: { HostPort($0, defaultPort: 30003) }, format: \.description),
            .optional("ogn", "address", \.ogn,
                      help: "host:port of OGN's APRS: an APRS-IS server (aprs.glidernet.org:14580) or ogn-decode's APRS output (127.0.0.1:50001)",
                      unset: "# address = \"aprs.glidernet.org:14580\"   (default: no OGN; FLARM, OGN trackers, FANET… as traffic)",
                      parse: { HostPort($0, defaultPort: 14580) }, format: \.description),
            .number("ogn", "range_km", \.ognRangeKm, in: 1...500, help: "km around [ogn] near or ownship asked of an APRS-IS server, 1 to 500"),
            .optional("ogn", "near", \.ognNear, help: "an airport of the airport table (EDDM) or \"LAT,LON\" to centre the range on",
                      unset: "# near = \"47.26,11.34\"   (default: ownship, once it has a fix)", parse: { AirportTable.place($0) == nil ? nil : $0 }, format: path),
            .list("ogn", "ownship_ids", \.ognOwnshipIDs, help: "array of six-hex-digit FLARM or OGN tracker ids of ownship's own devices (\"DD1234\")",
                  unset: "# ownship_ids = [\"DD1234\"]   (ownship's own FLARM, heard through OGN, is its ghost, never traffic)",
                  parse: { $0.count == 6 && UInt32($0, radix: 16) != nil ? $0.uppercased() : nil }, format: path),
            .list("input", "accept_from", \.acceptFrom, help: "array of IPv4 addresses",
                  unset: "# accept_from = [\"192.168.10.1\"]   (default: GDL90 from anyone)", parse: ipv4, format: path),

            .optional("database", "path", \.database, help: "file path", unset: "# path = (default) \(GatewayDatabase.defaultPath())",
                      parse: path, format: path),
            .boolean("database", "enabled", \.databaseEnabled),

            .boolean("output", "json", \.json),
            .integer("output", "status_interval", \.statusInterval, in: 0...86_400, help: "seconds, 0 or more"),

            .text("log", "level", \.logLevel, help: LogLevel.choices, parse: LogLevel.init(rawValue:), format: \.rawValue),

            .integer("feeds", "http_port", \.httpPort, in: 0...65535, help: "integer 0–65535"),
            .text("feeds", "http_bind", \.httpBind, help: "IPv4 address", parse: ipv4, format: path),
            .integer("feeds", "nmea_port", \.nmeaPort, in: 0...65535, help: "integer 0–65535"),
            .list("feeds", "forward", \.forward, help: "array of \"host:port\" or \"auto\"", parse: ForwardTarget.init, format: \.description),
            .optional("feeds", "token", \.httpToken, help: "string (every HTTP request must carry it)", secret: true,
                      unset: "# token = \"…\"   (default: no token; anyone on the network reads the feeds)", parse: token, format: path),
            .optional("feeds", "ack_token", \.ackToken, help: "string, not only spaces (acknowledging an alert from the cockpit page must carry it; unset: refused)",
                      secret: true, unset: "# ack_token = \"…\"   (default: none; the cockpit page cannot acknowledge alerts)", parse: token, format: path),

            .optional("recorder", "dir", \.recordDirectory, help: "folder path",
                      unset: "# dir = \"/var/lib/gatewayd/recordings\"   (default: no recording)", parse: path, format: path),
            .integer("recorder", "max_mb", \.recordMaxMB, in: 1...1_000_000, help: "megabytes, 1 or more"),

            .optional("airspace", "file", \.airspaceFile, help: "GeoJSON file path", unset: "# file = \"\"", parse: path, format: path),
            .optional("airspace", "notams_file", \.notamsFile, help: "NOTAM JSON file path", unset: "# notams_file = \"\"", parse: path, format: path),

            .optional("notams", "source", \.notamSource, help: NotamSourceKind.choices, unset: "# source = \"faa-api\"",
                      parse: NotamSourceKind.init(rawValue:), format: \.rawValue),
            .list("notams", "locations", \.notamLocations, help: "array of ICAO locations",
                  parse: { NotamParser.isICAO($0) ? $0 : nil }, format: path),
            .number("notams", "refresh_hours", \.notamRefreshHours, in: 0.05...720, help: "hours, 0.05 to 720", shown: { "\($0)" }),
            .optional("notams", "url", \.notamURL, help: "an http:// or https:// URL",
                      parse: { ($0.hasPrefix("https://") || $0.hasPrefix("http://")) && $0.count > 8 ? $0 : nil }, format: SecretMasking.url),
            .optional("notams", "credentials_file", \.credentialsFile, help: "file path", parse: path, format: path),
            .optional("notams", "client_id", \.clientID, help: "string", secret: true, parse: path, format: path),
            .optional("notams", "client_secret", \.clientSecret, help: "string", secret: true, parse: path, format: path),

            .optional("weather", "near", \.weatherNear, help: "an airport of the airport table (KSLE) or \"LAT,LON\"",
                      unset: "# near = \"KSLE\"   (default: no weather refresh)", parse: { AirportTable.place($0) == nil ? nil : $0 }, format: path),
            .number("weather", "radius_nm", \.weatherRadiusNM, in: 5...300, help: "NM, 5 to 300"),
            .list("weather", "route", \.weatherRoute, help: "array of airports of the airport table",
                  parse: { AirportTable.place($0) == nil || $0.contains(",") ? nil : $0 }, format: path),
            .number("weather", "refresh_min", \.weatherRefreshMin, in: 5...1440, help: "minutes, 5 to 1440"),
            .optional("weather", "url", \.weatherURL, help: "an http:// or https:// URL",
                      parse: { ($0.hasPrefix("https://") || $0.hasPrefix("http://")) && $0.count > 8 ? $0 : nil }, format: SecretMasking.url),

            .text("forecast", "model", \.forecastModel, help: "hrrr or nam", parse: { ["hrrr", "nam"].contains($0) ? $0 : nil }, format: path),
            .optional("forecast", "near", \.forecastNear, help: "an airport of the airport table (KSLE) or \"LAT,LON\"",
                      unset: "# near = \"KSLE\"   (default: no forecast radar)", parse: { AirportTable.place($0) == nil ? nil : $0 }, format: path),
            .list("forecast", "route", \.forecastRoute, help: "array of airports of the airport table",
                  parse: { AirportTable.place($0) == nil || $0.contains(",") ? nil : $0 }, format: path),
            .number("forecast", "radius_nm", \.forecastRadiusNM, in: 10...400, help: "NM, 10 to 400"),
            .integer("forecast", "hours", \.forecastHours, in: 0...60, help: "the last forecast hour fetched, 1 to 60 (0: the whole run)"),
            .number("forecast", "refresh_min", \.forecastRefreshMin, in: 15...1440, help: "minutes, 15 to 1440"),
            .optional("forecast", "url", \.forecastURL, help: "an http:// or https:// URL (NOMADS or a mirror)",
                      parse: { ($0.hasPrefix("https://") || $0.hasPrefix("http://")) && $0.count > 8 ? $0 : nil }, format: SecretMasking.url),
            .integer("forecast", "keep_runs", \.forecastKeepRuns, in: 1...100, help: "runs a model, 1 to 100"),
            .integer("forecast", "max_mb", \.forecastMaxMB, in: 1...100_000, help: "megabytes, 1 or more"),

            .optional("fleet", "broker", \.fleetBroker, help: "mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (TLS), without credentials",
                      unset: "# broker = \"mqtts://club.example:8883\"   (default: no fleet)", parse: FleetBroker.init(url:), format: \.description),
            .optional("fleet", "id", \.fleetID, help: "this gateway's name in the fleet: 1–64 bytes without / + # spaces or control characters, not starting with $",
                      parse: { FleetSettings.isValidID($0) ? $0 : nil }, format: path),
            .optional("fleet", "username", \.fleetUsername, help: "string", secret: true, parse: { $0.isEmpty ? nil : $0 }, format: path),
            .optional("fleet", "password_file", \.fleetPasswordFile, help: "file path (root-only; its one trailing newline is not part of the password)",
                      parse: { $0.isEmpty ? nil : $0 }, format: path),
            .optional("fleet", "ca_file", \.fleetCA, help: "file path (PEM)", parse: { $0.isEmpty ? nil : $0 }, format: path),
            .optional("fleet", "station_token", \.fleetStationToken, help: "string (every request to the ground station's page and API must carry it)", secret: true,
                      unset: "# station_token = \"…\"   (default: no token; anyone on the station's network reads the fleet)", parse: token, format: path),
            .integer("fleet", "traffic_every_sec", \.fleetTrafficEverySec, in: 0...3600, help: "seconds between traffic pictures, 0 to 3600 (0: never; ownship still every second)"),
            .list("fleet", "ogn_ids", \.fleetOGNGliders, help: "array of \"FLARMID=REGISTRATION\" entries (\"DD1234=D-KABC\"): the club's aircraft the ground station follows through OGN",
                  unset: "# ogn_ids = [\"DD1234=D-KABC\"]   (default: none; with gatewayd fleet --ogn, the club's gliders from OGN)",
                  parse: ClubGlider.init(entry:), format: \.description).explained { value in
                // The first bad entry, named, and what it should be.
                guard case .array(let items) = value else { return nil }
                for item in items {
                    guard case .string(let entry) = item else { return "every entry is a string \"DD1234=D-KABC\"" }
                    if let problem = ClubGlider.problem(entry: entry) { return problem }
                }
                return nil
            },

            .list("notify", "targets", \.notify.targets, help: "array of target URLs: ntfy://[TOKEN@]HOST/TOPIC, mailto://[USER:PASSWORD@]HOST[:PORT]?to=ADDRESS, json://HOST[:PORT]/PATH[?secret=S] (ntfys://, mailtos://, jsons:// over TLS)",
                  unset: "# targets = [\"ntfy://ntfy.sh/my-secret-topic\"]   (default: no notifications)",
                  parse: { try? NotifyTarget(url: $0) }, format: \.description).explained { value in
                // The first bad target, in its own words (the URL masked).
                guard case .array(let items) = value else { return nil }
                for case .string(let url) in items {
                    do { _ = try NotifyTarget(url: url) } catch { return "\(error)" }
                }
                return nil
            },
            .text("notify", "min_severity", \.notify.minSeverity, help: "info, caution, warning or critical (NOTAM changes below it are not sent)",
                  parse: { Notification.severities.contains($0) ? $0 : nil }, format: path),
            .optional("notify", "page_url", \.notify.pageURL, help: "the cockpit page's address as a phone reaches it, http://raspberrypi.local:8090",
                      unset: "# page_url = \"http://raspberrypi.local:8090\"   (default: no links in notifications)",
                      parse: { ($0.hasPrefix("https://") || $0.hasPrefix("http://")) && $0.count > 8 ? $0 : nil }, format: path),
            .integer("notify", "receiver_silent_min", \.notify.receiverSilentMin, in: 0...1440, help: "minutes without GDL90 before it is said, 0 to 1440 (0: never)"),
            .boolean("notify", "flight_events", \.notify.flightEvents),
            .optional("notify", "fleet_alerts", \.notify.fleetAlerts, help: "advisory, caution or warning (the ground station notifies every aircraft's alert at that level or above)",
                      unset: "# fleet_alerts = \"warning\"   (default: the ground station notifies only gateways going offline)",
                      parse: { ["advisory", "caution", "warning"].contains($0) ? $0 : nil }, format: path),

            .boolean("voice", "enabled", \.voiceEnabled),
            .text("voice", "device", \.voiceDevice, help: "an ALSA playback device name ('gatewayd voice list')",
                  parse: { $0.isEmpty ? nil : $0 }, format: path),
            .integer("voice", "volume", \.voiceVolume, in: 0...200, help: "percent 0–200 (100: normal)"),
            .integer("voice", "rate", \.voiceRate, in: 80...450, help: "words per minute, 80–450"),
            .text("voice", "voice", \.voiceName, help: "an espeak-ng voice name like \"en-us\" ('espeak-ng --voices=en')",
                  parse: { $0.isEmpty || $0.contains("/") ? nil : $0 }, format: path),
            .boolean("voice", "advisories", \.voiceAdvisories),
            .number("voice", "repeat_warning_sec", \.voiceRepeatWarningSec, in: 0...600, help: "seconds, 0 to 600 (0: never)"),
            .number("voice", "airspace_reminder_sec", \.voiceAirspaceReminderSec, in: 0...3600, help: "seconds, 0 to 3600 (0: never, the default)"),

            .number("alerts", "warning_time_sec", \.traffic.warningTimeSec, in: 1...600),
            .number("alerts", "warning_miss_nm", \.traffic.warningMissNM, in: 0.01...20),
            .number("alerts", "warning_vertical_ft", \.traffic.warningVerticalFt, in: 50...10_000),
            .number("alerts", "caution_time_sec", \.traffic.cautionTimeSec, in: 1...600),
            .number("alerts", "caution_miss_nm", \.traffic.cautionMissNM, in: 0.01...20),
            .number("alerts", "caution_vertical_ft", \.traffic.cautionVerticalFt, in: 50...10_000),
            .number("alerts", "advisory_range_nm", \.traffic.advisoryRangeNM, in: 0.1...50),
            .number("alerts", "advisory_vertical_ft", \.traffic.advisoryVerticalFt, in: 50...20_000),
            .number("alerts", "airspace_look_ahead_sec", \.airspace.lookAheadSec, in: 0...3600),
            .number("alerts", "airspace_lateral_buffer_nm", \.airspace.lateralBufferNM, in: 0...50),
            .number("alerts", "airspace_vertical_buffer_ft", \.airspace.verticalBufferFt, in: 0...10_000),
        ]
        for (i, kind) in AirspaceKind.allCases.enumerated() {
            var key = ConfigKey.text("alerts", kind.configKey, \.airspaceLevels[kind], help: levelsHelp,
                                     parse: AirspaceAlertLevels.init(config:), format: \.configText)
            if i == 0 { key = key.noted("# airspace alert levels by kind: inside, predicted entry, near") }
            keys.append(key)
        }
        return keys
    }

    /// What an airspace level key takes.
    static let levelsHelp = "a level (warning, caution, advisory or none: inside, with entry and near one and two steps lower) or three of them \"inside,entry,near\" like \"warning,caution,advisory\""
}

extension GatewayConfig {
    /// A setting given on the command line in place of the file's: `flag` names it in errors,
    /// `key` (`section.name`) is the table's key it sets, `value` its value as TOML would give it
    /// (nil: the flag was not given).
    package struct Override: Sendable {
        /// The flag, `--http-port`.
        package var flag: String
        /// The key it sets, `feeds.http_port`.
        package var key: String
        /// The value given, nil when the flag was not.
        package var value: TOMLValue?

        /// An override.
        package init(_ flag: String, _ key: String, _ value: TOMLValue?) {
            self.flag = flag
            self.key = key
            self.value = value
        }
    }

    /// The keys `gatewayd run` takes as flags, and their flags: the one list `run` reads its flags
    /// through (`apply(flags:)`). `ConfigKeyTests` checks it both ways against the key table and
    /// `run --help`, so a misspelt key or a flag without its key fails a test, not a flight.
    package static let runFlags: [(flag: String, key: String)] = [
        ("--udp-port", "input.udp_port"), ("--bind", "input.bind"), ("--gpsd", "input.gpsd"), ("--accept-from", "input.accept_from"),
        ("--sbs", "sbs.address"), ("--ogn", "ogn.address"),
        ("--record", "recorder.dir"), ("--json", "output.json"), ("--database", "database.path"), ("--no-database", "database.enabled"),
        ("--http-port", "feeds.http_port"), ("--http-bind", "feeds.http_bind"), ("--forward", "feeds.forward"), ("--nmea-port", "feeds.nmea_port"),
        ("--airspace", "airspace.file"), ("--notams", "airspace.notams_file"), ("--notam-source", "notams.source"),
        ("--notam-location", "notams.locations"), ("--notam-refresh-hours", "notams.refresh_hours"),
        ("--status-interval", "output.status_interval"), ("--log-level", "log.level"), ("--voice", "voice.enabled"),
        ("--voice-device", "voice.device"), ("--voice-volume", "voice.volume"), ("--voice-advisories", "voice.advisories"),
        ("--fleet", "fleet.broker"), ("--fleet-id", "fleet.id"), ("--fleet-user", "fleet.username"),
        ("--fleet-password-file", "fleet.password_file"), ("--fleet-ca", "fleet.ca_file"),
    ]

    /// Applies the flags given (flag → its value as TOML would give it; nil: not given), through
    /// `runFlags` and the same table of keys as the file (one parser, one range check, one message
    /// per key): flag > file > default. A flag `runFlags` does not know is an error naming it.
    package mutating func apply(flags: [String: TOMLValue?]) throws(GatewayError) {
        let keyOf = Dictionary(uniqueKeysWithValues: Self.runFlags.map { ($0.flag, $0.key) })
        try apply(flags.sorted { $0.key < $1.key }.map { flag, value throws(GatewayError) in
            guard let key = keyOf[flag] else { throw GatewayError.setting(name: flag, message: "\(flag) is not a flag of run (GatewayConfig.runFlags)") }
            return Override(flag, key, value)
        })
    }

    /// Applies the flags given, through the same table of keys as the file (one parser, one range
    /// check, one message per key): flag > file > default.
    package mutating func apply(_ overrides: [Override]) throws(GatewayError) {
        let table = Dictionary(uniqueKeysWithValues: Self.keys.map { ($0.path, $0) })
        for o in overrides {
            guard let value = o.value else { continue }
            guard let key = table[o.key] else { throw GatewayError.setting(name: o.flag, message: "\(o.flag) names \(o.key), which is not in GatewayConfig.keys") }
            guard key.read(value, into: &self) else { throw GatewayError.setting(name: o.flag, message: "\(o.flag) must be \(key.help)") }
        }
    }
}
