import Foundation
import GDL90
import Hummingbird
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayRecords
@testable import GatewayFeeds
import GatewayHTTP
@testable import GatewayRuntime

/// Numbers and inputs a hostile neighbour or a broken device sends: each changes nothing but a
/// counter (and a log line), never traps, never hangs.
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct HostileInputTests {
    let origin = Position(latitude: 45, longitude: -123)

    @Test func gpsdValuesAreCheckedWhereTheyEnter() {
        let absurd = GPSFix(position: origin, altitudeFt: 1e300, groundSpeedKt: 1e308, trackDeg: .nan, verticalSpeedFpm: -.infinity)
        let (fix, rejected) = absurd.validated()
        #expect(fix?.altitudeFt == nil && fix?.groundSpeedKt == nil && fix?.trackDeg == nil && fix?.verticalSpeedFpm == nil)
        #expect(rejected == ["altitude", "speed", "climb"])
        #expect(GPSFix(position: Position(latitude: 91, longitude: 0), altitudeFt: 100, groundSpeedKt: 50, trackDeg: 0).validated().fix == nil)
        let fine = GPSFix(position: origin, altitudeFt: 4500, groundSpeedKt: 110, trackDeg: 45, verticalSpeedFpm: 500)
        #expect(fine.validated().fix == fine && fine.validated().rejected.isEmpty)
    }

    /// A fix at 5,000,000 kt once hung the core (airspace entry prediction) and 1e308 kt trapped:
    /// now the speed is dropped and counted, and the feeds encode what is left.
    @Test func extremeGPSFixesChangeOnlyACounter() {
        var core = GatewayCore()
        _ = core.handle(.airspace([AirspaceArea(id: "R-1", name: "R-1", shape: .circle(center: origin, radiusNM: 1), severity: .warning)]), at: 0)
        for (i, speed) in [5e6, 1e308, Double.nan, -.infinity].enumerated() {
            _ = core.handle(.gpsFix(GPSFix(position: origin, altitudeFt: 1e300, groundSpeedKt: speed, trackDeg: 90)), at: Double(i + 1))
        }
        #expect(core.counters.gpsValuesRejected == 8)
        #expect(core.ownshipFix?.groundSpeedKt == 0)
        let snapshot = core.snapshot(at: 5)
        #expect(FeedEncoders.trafficGeoJSON(snapshot).contains("\"kind\":\"ownship\""))
        #expect(!FeedEncoders.health(snapshot).isEmpty)
    }

    @Test func saturatingConversionIsTotal() {
        #expect(Int(saturating: 1e300) == .max)
        #expect(Int(saturating: -1e300) == .min)
        #expect(Int(saturating: .nan) == 0)
        #expect(Int(saturating: .infinity) == .max)
        #expect(Int(saturating: 2.5) == 3)
        #expect(Int(saturating: -2.4) == -2)
    }

    /// Reports from thousands of invented addresses keep at most 2,000 targets.
    @Test func targetTableIsBounded() {
        var core = GatewayCore()
        var rng = SystemRandomNumberGenerator()
        for i in 0..<12_000 {
            let report = TrafficReport(address: UInt32.random(in: 8...0xFF_FFFF, using: &rng), position: origin, pressureAltitudeFt: 5000,
                                       groundSpeedKt: 100, verticalSpeedFpm: 0, trackDeg: 0)
            _ = core.handle(.message(.traffic(report)), at: Double(i) / 10_000)
        }
        #expect(core.picture.targets.count <= 2_000)
        #expect(core.counters.targetsEvicted >= 10_000)
        // Every one expires after 60 s of silence, and the table's storage is given back.
        _ = core.handle(.tick, at: 100)
        #expect(core.picture.targets.isEmpty)
        #expect(core.picture.targets.capacity < 100)
    }

    @Test func efbAnnouncementsAreCappedAndNeverLoopBack() {
        var registry = EFBRegistry()
        registry.ownPort = 4000
        registry.ownAddresses = ["192.168.10.2"]
        let announce = Array(#"{"App":"ForeFlight","GDL90":{"port":4000}}"#.utf8)
        #expect(registry.announce(from: "192.168.10.2", payload: announce, at: 0) == nil)  // ourselves
        #expect(registry.announce(from: "127.0.0.1", payload: announce, at: 0) == nil)
        for i in 0..<1_000 { registry.announce(from: "10.0.\(i / 250).\(i % 250)", payload: announce, at: 1) }
        #expect(registry.active(at: 2).count == 16)
        #expect(registry.refused == 2 + 1_000 - 16)
        // Silent ones are forgotten after 16 s, making room.
        #expect(registry.announce(from: "192.168.10.9", payload: announce, at: 30) != nil)
    }

    @Test func configurationSurvivesHostileFiles() {
        func error(_ text: String) -> String {
            do { _ = try GatewayConfig.parse(text, file: "g.toml"); return "ok" } catch { return error.description }
        }
        #expect(error("x = " + String(repeating: "[", count: 50_000)) == "g.toml:1: arrays nested more than 8 deep")
        let long = error("[feeds]\nhttp_port = " + String(repeating: "9", count: 1_000_000))
        #expect(long.count < 200)
        #expect(error("[notams]\nrefresh_hours = 1e7\n").contains("0.05 to 720"))
        #expect(error("[notams]\nrefresh_hours = nan\n") != "ok")
        #expect(error("\u{FEFF}[feeds]\r\nhttp_port = 8091\r\n") == "ok")
    }

    /// A redirect to another host gets none of the request's credential headers (libcurl would
    /// have sent them along); one to the same host keeps them; https → http is refused.
    @Test func credentialsNeverCrossARedirectToAnotherHost() async throws {
        let other = try TestHTTPServer([.respond(status: 200, body: "{}")])
        let same = try TestHTTPServer([
            .respond(status: 302, headers: ["Location": "/v1/next"], body: ""),
            .respond(status: 302, headers: ["Location": other.base + "/elsewhere"], body: ""),
        ])
        var http = HTTPClient()
        http.retryDelays = []
        let reply = try await http.get(same.base + "/v1/notams", headers: [("client_id", "ID-123"), ("client_secret", "SECRET-456")])
        #expect(reply.status == 200)
        let first = same.requests.withLock { $0 }
        #expect(first.count == 2)
        #expect(first.allSatisfy { $0.contains("client_secret: SECRET-456") })
        let crossed = other.requests.withLock { $0 }
        #expect(crossed.count == 1)
        #expect(!crossed[0].contains("SECRET-456") && !crossed[0].contains("ID-123"))
        #expect(HTTPClient.redirect(from: "https://external-api.faa.gov/notamapi/v1/notams", to: "http://evil.example/x") == nil)
        #expect(HTTPClient.redirect(from: "https://a.example/x", to: "https://a.example/y")?.keepHeaders == true)
        #expect(HTTPClient.redirect(from: "https://a.example/x", to: "https://b.example/y")?.keepHeaders == false)
    }

    @Test func secretsAreMaskedInEveryPrintedURL() {
        #expect(SecretMasking.url("https://user:hunter2@api.example/v1?a=1&client_secret=XYZ&api_key=K#f")
                == "https://user:****@api.example/v1?a=1&client_secret=****&api_key=****#f")
        #expect(SecretMasking.url("https://external-api.faa.gov/notamapi/v1/notams?icaoLocation=KSLE") == "https://external-api.faa.gov/notamapi/v1/notams?icaoLocation=KSLE")
        #expect(FetchError(.network, url: "https://u:pw@h/x", reason: "down").description == "https://u:****@h/x: down")
    }

    /// With a token configured, every data endpoint refuses a request without it; the cockpit
    /// page and its assets (no data in them) load, then ask for it.
    @Test func tokenGuardsEveryEndpoint() throws {
        let hub = FeedHub(now: Date().timeIntervalSince1970)
        let server = FeedServer(hub: hub, token: "s3cret-token")
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        for path in ["/" , "/cockpit.js", "/cockpit.css"] { #expect(try HTTPConnection.get(base + path).status == 200, "\(path) holds no data") }
        for path in ["/api", "/api/traffic", "/api/notams", "/healthz", "/data/aircraft.json", "/traffic.geojson", "/metrics", "/alerts/active"] {
            #expect(try HTTPConnection.get(base + path).status == 401, "\(path) without a token")
            #expect(try HTTPConnection.get(base + path + "?token=wrong-token!").status == 401)
            #expect(try HTTPConnection.get(base + path + "?token=s3cret-token").status != 401, "\(path) with the token")
        }
        #expect(TokenMiddleware<FeedRequestContext>.same("abc", "abc") && !TokenMiddleware<FeedRequestContext>.same("abc", "abd")
                && !TokenMiddleware<FeedRequestContext>.same("abc", "abcd"))
    }
}
