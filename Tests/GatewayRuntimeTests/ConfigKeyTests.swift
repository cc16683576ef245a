import Foundation
import Testing
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayRecords
@testable import GatewayNotams
@testable import GatewayFeeds
@testable import GatewayRuntime
@testable import GatewayNotify

/// The one table of configuration keys, and the typed values it reads.
@Suite(.timeLimit(.minutes(5))) struct ConfigKeyTests {
    /// A value other than the default for every key: a key added to the table without one here fails.
    static let samples: [String: (toml: String, shown: String)] = [
        "input.udp_port": ("4001", "4001"), "input.bind": ("\"127.0.0.1\"", "\"127.0.0.1\""),
        "input.gpsd": ("\"gps.local\"", "\"gps.local:2947\""), "sbs.address": ("\"feeder.local\"", "\"feeder.local:30003\""),
        "ogn.address": ("\"aprs.glidernet.org\"", "\"aprs.glidernet.org:14580\""), "ogn.range_km": ("100", "100"),
        "ogn.near": ("\"47.26,11.34\"", "\"47.26,11.34\""), "ogn.ownship_ids": ("[\"dd1234\"]", "[\"DD1234\"]"), "input.accept_from": ("[\"192.168.10.1\"]", "[\"192.168.10.1\"]"),
        "database.path": ("\"/tmp/g.sqlite\"", "\"/tmp/g.sqlite\""), "database.enabled": ("false", "false"),
        "output.json": ("true", "true"), "output.status_interval": ("5", "5"), "log.level": ("\"warning\"", "\"warning\""),
        "feeds.http_port": ("8091", "8091"), "feeds.http_bind": ("\"127.0.0.1\"", "\"127.0.0.1\""), "feeds.nmea_port": ("0", "0"),
        "feeds.forward": ("[\"[fe80::1]:4000\", \"auto\"]", "[\"[fe80::1]:4000\", \"auto\"]"),
        "feeds.token": ("\"feed-secret\"", "\"****\""), "feeds.ack_token": ("\"ack-secret\"", "\"****\""),
        "recorder.dir": ("\"/tmp/rec\"", "\"/tmp/rec\""), "recorder.max_mb": ("50", "50"),
        "airspace.file": ("\"a.geojson\"", "\"a.geojson\""), "airspace.notams_file": ("\"n.json\"", "\"n.json\""),
        "notams.source": ("\"faa-nms\"", "\"faa-nms\""), "notams.locations": ("[\"KSLE\"]", "[\"KSLE\"]"),
        "notams.refresh_hours": ("0.5", "0.5"), "notams.url": ("\"https://staging.example/v1\"", "\"https://staging.example/v1\""),
        "notams.credentials_file": ("\"/etc/faa\"", "\"/etc/faa\""), "notams.client_id": ("\"id-secret\"", "\"****\""),
        "notams.client_secret": ("\"very-secret\"", "\"****\""),
        "alerts.warning_time_sec": ("15", "15"), "alerts.warning_miss_nm": ("0.25", "0.25"), "alerts.warning_vertical_ft": ("400", "400"),
        "alerts.caution_time_sec": ("35", "35"), "alerts.caution_miss_nm": ("0.4", "0.4"), "alerts.caution_vertical_ft": ("700", "700"),
        "alerts.advisory_range_nm": ("3", "3"), "alerts.advisory_vertical_ft": ("1200", "1200"),
        "alerts.airspace_look_ahead_sec": ("90", "90"), "alerts.airspace_lateral_buffer_nm": ("2.5", "2.5"),
        "alerts.airspace_vertical_buffer_ft": ("300", "300"),
        "voice.enabled": ("true", "true"), "voice.device": ("\"plughw:1,0\"", "\"plughw:1,0\""), "voice.volume": ("150", "150"),
        "voice.rate": ("200", "200"), "voice.voice": ("\"en-gb\"", "\"en-gb\""), "voice.advisories": ("true", "true"),
        "voice.repeat_warning_sec": ("20", "20"), "voice.airspace_reminder_sec": ("120", "120"),
        "weather.near": ("\"KSLE\"", "\"KSLE\""), "weather.radius_nm": ("75", "75"), "weather.route": ("[\"KSLE\", \"KPDX\"]", "[\"KSLE\", \"KPDX\"]"),
        "weather.refresh_min": ("15", "15"), "weather.url": ("\"https://mirror.example/api/data\"", "\"https://mirror.example/api/data\""),
        "fleet.broker": ("\"mqtts://club.example\"", "\"mqtts://club.example:8883\""), "fleet.id": ("\"N123AB\"", "\"N123AB\""),
        "fleet.username": ("\"n123ab\"", "\"****\""), "fleet.password_file": ("\"/etc/gatewayd/fleet-password\"", "\"/etc/gatewayd/fleet-password\""),
        "fleet.ca_file": ("\"/etc/gatewayd/club-ca.pem\"", "\"/etc/gatewayd/club-ca.pem\""), "fleet.station_token": ("\"station-secret\"", "\"****\""), "fleet.traffic_every_sec": ("10", "10"),
        "fleet.ogn_ids": ("[\"dd1234 = D-KABC\", \"3F0A21=LS4\"]", "[\"DD1234=D-KABC\", \"3F0A21=LS4\"]"),
        "forecast.model": ("\"nam\"", "\"nam\""), "forecast.near": ("\"KSLE\"", "\"KSLE\""), "forecast.route": ("[\"KSLE\", \"KPDX\"]", "[\"KSLE\", \"KPDX\"]"),
        "forecast.radius_nm": ("150", "150"), "forecast.hours": ("18", "18"), "forecast.refresh_min": ("30", "30"),
        "forecast.url": ("\"https://mirror.example/nomads\"", "\"https://mirror.example/nomads\""), "forecast.keep_runs": ("3", "3"), "forecast.max_mb": ("80", "80"),
        "notify.targets": ("[\"ntfys://tk_1@ntfy.example.org/hangar\", \"json://ha.local:8123/hook?secret=s3\"]",
                           "[\"ntfys://****@ntfy.example.org/hangar\", \"json://ha.local:8123/hook?secret=****\"]"),
        "notify.min_severity": ("\"warning\"", "\"warning\""), "notify.page_url": ("\"http://pi.local:8090\"", "\"http://pi.local:8090\""),
        "notify.receiver_silent_min": ("5", "5"), "notify.flight_events": ("true", "true"), "notify.fleet_alerts": ("\"warning\"", "\"warning\""),
    ].merging(AirspaceKind.allCases.map { ("alerts.\($0.configKey)", ("\"caution\"", "\"caution,advisory,none\"")) }) { a, _ in a }

    /// Every key set in a file shows in `config show` with its value (secrets masked), and the shown
    /// configuration reads back as the same one (secrets aside).
    @Test func everyKeyParsedShowsInConfigShow() throws {
        let keys = GatewayConfig.keys
        #expect(Set(keys.map(\.path)) == Set(Self.samples.keys), "a key without a sample, or a sample without a key")
        #expect(Set(keys.map(\.path)).count == keys.count, "a key listed twice")
        var text = ""
        for section in GatewayConfig.sections(keys) {
            text += "[\(section)]\n"
            for key in keys where key.section == section { text += "\(key.name) = \(Self.samples[key.path]!.toml)\n" }
        }
        let c = try GatewayConfig.parse(text, file: "every.toml")
        #expect(c != GatewayConfig())
        let shown = c.toml
        for key in keys {
            let line = "\(key.name) = \(Self.samples[key.path]!.shown)"
            #expect(shown.contains("\n" + line + "\n"), "config show lacks \(line)")
            #expect(key.line(c) == line)
        }
        for secret in ["feed-secret", "ack-secret", "id-secret", "very-secret", "n123ab", "station-secret", "tk_1", "secret=s3"] { #expect(!shown.contains(secret)) }
        var back = try GatewayConfig.parse(shown, file: "show")
        #expect(back != c)  // the secrets came back as ****
        for key in keys where key.kind == .secret {
            #expect(key.read(.string("x"), into: &back))
        }
        var expected = c
        expected.httpToken = "x"; expected.ackToken = "x"; expected.clientID = "x"; expected.clientSecret = "x"; expected.fleetUsername = "x"; expected.fleetStationToken = "x"
        // The targets' tokens and secrets are shown masked, and read back as the mask.
        expected.notify.targets = try [NotifyTarget(url: "ntfys://****@ntfy.example.org/hangar"), NotifyTarget(url: "json://ha.local:8123/hook?secret=****")]
        #expect(back == expected)
        // The defaults read back as themselves too.
        #expect(try GatewayConfig.parse(GatewayConfig().toml, file: "defaults") == GatewayConfig())
    }

    /// The shipped example (deploy/gatewayd.toml) names every key of the table, set or commented
    /// out with its section, and its commented-out values are valid ones.
    @Test func theShippedExampleNamesEveryKey() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("deploy/gatewayd.toml")
        let text = try String(contentsOf: example, encoding: .utf8)
        var section = "", found: [String: String] = [:]
        for raw in text.split(separator: "\n") {
            let line = raw.hasPrefix("# ") ? raw.dropFirst(2) : raw[...]
            if line.hasPrefix("[") && line.hasSuffix("]") { section = String(line.dropFirst().dropLast()); continue }
            guard let equals = line.range(of: " = "), !line[..<equals.lowerBound].contains(" ") else { continue }
            found["\(section).\(line[..<equals.lowerBound])"] = "[\(section)]\n" + line
        }
        for key in GatewayConfig.keys {
            let entry = try #require(found[key.path], "deploy/gatewayd.toml does not name \(key.path)")
            #expect(throws: Never.self, "\(entry)") { try GatewayConfig.parse(entry, file: "example") }
        }
    }

    /// The unknown-key error lists the section's keys from the table; an unknown section lists the sections.
    @Test func unknownKeysListTheTable() {
        func error(_ text: String) -> String {
            do { _ = try GatewayConfig.parse(text, file: "g.toml"); return "no error" } catch { return error.description }
        }
        for section in GatewayConfig.sections(GatewayConfig.keys) {
            let names = GatewayConfig.keys.filter { $0.section == section }.map(\.name).sorted().joined(separator: ", ")
            #expect(error("[\(section)]\nnope = 1\n") == "g.toml:2: unknown key 'nope' in [\(section)] (known: \(names))")
        }
        #expect(error("[inputs]\nudp_port = 1\n") == "g.toml:2: unknown key 'udp_port' in [inputs] (sections: input, sbs, ogn, database, output, log, feeds, recorder, airspace, notams, weather, forecast, fleet, notify, voice, alerts)")
        #expect(error("[log]\nlevel = \"debug\"\n") == "g.toml:2: 'level' in [log] must be error, warning or info")
        #expect(error("[notams]\nsource = \"faa\"\n") == "g.toml:2: 'source' in [notams] must be faa-api, faa-nms or faa-search")
        #expect(error("[feeds]\nforward = [\"efb\"]\n") == "g.toml:2: 'forward' in [feeds] must be array of \"host:port\" or \"auto\"")
        #expect(error("[input]\ngpsd = \"gps:0\"\n") == "g.toml:2: 'gpsd' in [input] must be host:port")
    }

    /// One host:port parser: ports, default ports, IPv6 in brackets, and what it refuses.
    @Test func hostPortParsing() {
        #expect(HostPort("127.0.0.1:4000") == HostPort(host: "127.0.0.1", port: 4000))
        #expect(HostPort("efb.local:65535") == HostPort(host: "efb.local", port: 65535))
        #expect(HostPort("[fe80::1]:4000") == HostPort(host: "fe80::1", port: 4000))
        #expect(HostPort("[::1]", defaultPort: 2947) == HostPort(host: "::1", port: 2947))
        #expect(HostPort("gps", defaultPort: 2947) == HostPort(host: "gps", port: 2947))
        #expect(HostPort("gps:3000", defaultPort: 2947)?.port == 3000)
        for bad in ["gps", "", ":4000", "host:", "host:0", "host:65536", "host:-1", "host:+80", "host:４０", "fe80::1:4000", "::1",
                    "[fe80::1]4000", "[fe80::1", "[]:4000", "a b:1", "host:4000 ", "[::1]:", "http://x:80"] {
            #expect(HostPort(bad) == nil, "\(bad) parsed")
        }
        #expect(HostPort("", defaultPort: 2947) == nil)
        #expect(HostPort(host: "fe80::1", port: 4000).description == "[fe80::1]:4000")
        #expect(HostPort(host: "10.0.0.1", port: 4000).description == "10.0.0.1:4000")
        // Every form reads back from its description.
        for text in ["10.0.0.1:4000", "[fe80::1]:4000", "localhost:1"] { #expect(HostPort(text)?.description == text) }
        // The HTTP client's URLs and gpsd use it too.
        #expect(HTTPConnection.Target("http://[::1]:8090/healthz").map { ($0.host, $0.port, $0.path) }! == ("::1", 8090, "/healthz"))
        #expect(HTTPConnection.Target("http://example/x")?.port == 80)
        #expect(GPSDClient.parse("[::1]")! == ("::1", 2947))
    }

    /// The typed values behind strings that used to be checked by hand.
    @Test func typedValues() {
        #expect(ForwardTarget("auto") == .auto && ForwardTarget("10.0.0.2:4000") == .host(HostPort(host: "10.0.0.2", port: 4000)))
        #expect(ForwardTarget("Auto") == nil && ForwardTarget("10.0.0.2") == nil)
        #expect(LogLevel.allCases.sorted() == [.error, .warning, .info] && LogLevel.error < .info)
        #expect(NotamSourceKind.choices == "faa-api, faa-nms or faa-search")
        #expect(NotamSourceKind(rawValue: "faa-search") == .faaSearch)
    }

    /// One switch makes the NOTAM clients: the keyed sources ask for credentials, the search does not.
    @Test func notamSourceClients() throws {
        let noKey: () throws(FetchError) -> Credentials = { () throws(FetchError) in
            throw FetchError(.credentials, url: "faa-api", reason: "no key")
        }
        #expect(try NotamSourceKind.faaSearch.client(baseURL: nil, http: HTTPClient(), credentials: noKey).name == "faa-search")
        #expect(throws: FetchError.self) { try NotamSourceKind.faaAPI.client(baseURL: nil, http: HTTPClient(), credentials: noKey) }
        #expect(throws: FetchError.self) { try NotamSourceKind.faaNMS.client(baseURL: nil, http: HTTPClient(), credentials: noKey) }
        let key: () throws(FetchError) -> Credentials = { Credentials(id: "i", secret: "s") }
        let api = try NotamSourceKind.faaAPI.client(baseURL: "http://127.0.0.1:1/v1", http: HTTPClient(), credentials: key)
        #expect((api as? FAANotamAPI)?.baseURL == "http://127.0.0.1:1/v1")
        #expect((try NotamSourceKind.faaNMS.client(baseURL: nil, http: HTTPClient(), credentials: key) as? FAANotamNMS)?.baseURL == FAANotamNMS(credentials: Credentials(id: "i", secret: "s")).baseURL)
        #expect(NotamRefresh.summary([], source: "faa-api", count: 3) == "notams: 3 from faa-api, no changes")
    }
}
