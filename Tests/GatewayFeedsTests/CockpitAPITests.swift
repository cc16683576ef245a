import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures
@testable import GatewayRecords
@testable import GatewayNotams
@testable import GatewayFeeds
@testable import GatewayWeather

#if canImport(Glibc)
import Glibc
@testable import GatewaySimulation
#endif

/// A whole HTTP/1.1 request over loopback (`Connection: close`): status code, raw head, body.
private func request(_ port: Int, _ method: String, _ path: String, headers: [String: String] = [:]) -> (status: Int, head: String, body: String) {
    loopbackRequest(port, method, path, headers: headers)
}

private func object(_ body: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "not a JSON object: \(body.prefix(300))")
}

/// A hub holding the bundled flight at 14:03:05Z (N825V head-on, warning; inside the demo TFR's
/// predicted path), the FIS-B sample and a NOTAM store with the demo NOTAMs, behind a real
/// FeedServer on a loopback port.
private final class CockpitRig: @unchecked Sendable {
    let hub = FeedHub()
    let server: FeedServer
    let acknowledged = Locked<[String]>([])
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-cockpit-api-\(UUID())")
    var port: Int { server.port }

    init(ackToken: String? = "s3cret", feedsToken: String? = nil, attempts: Int = 10) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = fixtures.appendingPathComponent("notams-demo.json").path
        var notams: [Notam] = []
        try NotamFile.read(path: path) { notams.append($0) }
        let store = NotamStore(database: try GatewayDatabase(path: directory.appendingPathComponent("g.sqlite").path))
        _ = try store.refresh(source: "faa-api", notams: notams, at: FISBSamples.startTime - 600)
        var pipeline = GatewayPipeline()
        let start = FISBSamples.startTime
        var alerts = pipeline.process(.airspace(try AirspaceSet.load(database: nil, notamFiles: [path], activeAt: start)), at: start).alerts
        for d in try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.pcap").path).datagrams {
            guard let t = d.timestamp, t <= start + 185 else { break }
            alerts += pipeline.process(.datagram(d.bytes), at: t).alerts
        }
        hub.publish(alerts)
        hub.publish(pipeline.core.snapshot(at: start + 185))
        var fisb = FISBProductStore()
        for (i, u) in FISBSamples.uplinks().enumerated() { _ = fisb.ingest(payload: u, at: start + Double(i)) }
        hub.publish(weather: Array(fisb.reports.values))
        let box = acknowledged
        server = FeedServer(hub: hub, token: feedsToken, cockpit: CockpitSources(
            notams: store, fileNotams: notams, acknowledge: { id in box.set(box.value + [id]) }, ackToken: ackToken, ackAttemptsPerMinute: attempts))
        try server.start(host: "127.0.0.1", port: 0)
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// The JSON the cockpit page reads, over real HTTP, as README.md documents it.
@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct CockpitAPITests {
    @Test func pageAndAssetsAreServedSelfContained() throws {
        let rig = try CockpitRig()
        defer { rig.stop() }
        let page = request(rig.port, "GET", "/")
        #expect(page.status == 200)
        #expect(page.head.lowercased().contains("content-type: text/html"))
        #expect(page.head.contains("default-src 'self'"))
        #expect(page.body.contains("/cockpit.js") && page.body.contains("/cockpit.css"))
        for asset in ["/cockpit.js", "/cockpit.css"] {
            let r = request(rig.port, "GET", asset)
            #expect(r.status == 200, "\(asset)")
            #expect(r.head.contains("default-src 'self'"))
        }
        // Nothing in the page may come from elsewhere.
        for text in [CockpitPage.html, CockpitPage.css, CockpitPage.javascript] {
            #expect(!text.contains("http://") && !text.contains("https://") && !text.contains("//cdn"))
        }
        #expect(CockpitPage.weight < 100_000)
        // The old endpoints still answer; the plain list moved to /api.
        #expect(request(rig.port, "GET", "/api").body.contains("/data/aircraft.json"))
        #expect(request(rig.port, "GET", "/data/aircraft.json").status == 200)
        #expect(request(rig.port, "GET", "/alerts/active").body.contains("ab4549"))
    }

    @Test func trafficHasOwnshipTargetsNearestFirstAndAirspace() throws {
        let rig = try CockpitRig()
        defer { rig.stop() }
        let r = request(rig.port, "GET", "/api/traffic")
        #expect(r.status == 200)
        let doc = try object(r.body)
        #expect(doc["time"] as? String == "2026-05-16T14:03:05Z")
        let own = try #require(doc["ownship"] as? [String: Any])
        #expect(own["airborne"] as? Bool == true)
        #expect(own["source"] as? String == "gdl90")
        #expect((own["altitudeFt"] as? Int).map { $0 > 2000 } == true)
        let targets = try #require(doc["targets"] as? [[String: Any]])
        let ranges = targets.compactMap { $0["rangeNM"] as? Double }
        #expect(ranges == ranges.sorted())
        let n825v = try #require(targets.first { $0["address"] as? String == "ab4549" })
        #expect(n825v["callsign"] as? String == "N825V")
        #expect(["caution", "warning"].contains(n825v["alert"] as? String ?? ""))
        #expect(n825v["relativeAltitudeFt"] is Int && n825v["bearingDeg"] is Double && n825v["stale"] as? Bool == false)
        let areas = try #require(doc["airspace"] as? [[String: Any]])
        let tfr = try #require(areas.first { ($0["id"] as? String)?.contains("6/2174") == true })
        #expect(tfr["kind"] as? String == "tfr")
        #expect(tfr["limits"] as? String == "SFC–4000 MSL")
        #expect(((tfr["outline"] as? [[Double]])?.count ?? 0) >= 3)
    }

    @Test func alertsHaveTheTerminalWordingAndAnHourOfHistory() throws {
        let rig = try CockpitRig()
        defer { rig.stop() }
        let doc = try object(request(rig.port, "GET", "/api/alerts").body)
        #expect(doc["acknowledge"] as? Bool == true)
        let active = try #require(doc["active"] as? [[String: Any]])
        let traffic = try #require(active.first { $0["subject"] as? String == "ab4549" })
        #expect((traffic["message"] as? String)?.hasPrefix("Traffic N825V (ab4549)") == true)
        #expect((traffic["message"] as? String)?.contains("o'clock") == true)
        let history = try #require(doc["history"] as? [[String: Any]])
        #expect(!history.isEmpty)
        let times = history.compactMap { $0["time"] as? String }
        #expect(times == times.sorted(by: >))
    }

    @Test func notamsCarryTranslationChangeAndValidity() throws {
        let rig = try CockpitRig()
        defer { rig.stop() }
        let doc = try object(request(rig.port, "GET", "/api/notams?airport=KSLE&radius=50").body)
        #expect(doc["airport"] as? String == "KSLE")
        let list = try #require(doc["notams"] as? [[String: Any]])
        let rwy = try #require(list.first { $0["number"] as? String == "05/012" })
        #expect(rwy["text"] as? String == "RWY 13/31 CLSD")
        #expect((rwy["translation"] as? String)?.contains("Runway 13/31 is closed.") == true)
        #expect(rwy["severity"] as? String == "warning")
        #expect(rwy["heardOn"] as? String == "fetched")
        #expect(rwy["start"] as? String == "2026-05-16T08:00:00Z")
        #expect((rwy["change"] as? [String: Any])?["kind"] as? String == "new")
        #expect(doc["refreshed"] as? [String: String] == ["faa-api": "2026-05-16T13:50:00Z"])
        let tfrs = try #require(try object(request(rig.port, "GET", "/api/notams?kind=tfr&airport=KSLE").body)["notams"] as? [[String: Any]])
        #expect(tfrs.count == 1 && tfrs.first?["number"] as? String == "6/2174")
        #expect(tfrs.first?["limits"] as? String == "SFC–4000 MSL")
        let warnings = try #require(try object(request(rig.port, "GET", "/api/notams?severity=info&airport=KSLE").body)["notams"] as? [[String: Any]])
        #expect(!warnings.isEmpty && warnings.allSatisfy { $0["severity"] as? String == "info" })
    }

    @Test func weatherByStationWithCategoryAndAge() throws {
        let rig = try CockpitRig()
        defer { rig.stop() }
        let doc = try object(request(rig.port, "GET", "/api/weather?lat=44.9095&lon=-123.003").body)
        let stations = try #require(doc["stations"] as? [[String: Any]])
        let ksle = try #require(stations.first { $0["id"] as? String == "KSLE" })
        #expect(ksle["category"] as? String == "VFR")
        let products = try #require(ksle["products"] as? [[String: Any]])
        let metar = try #require(products.first { $0["kind"] as? String == "METAR" })
        #expect((metar["text"] as? String)?.hasPrefix("METAR KSLE 161356Z") == true)
        #expect(metar["ageMin"] as? Double == 7)  // 13:56Z seen at 14:03:05Z
        #expect(metar["old"] as? Bool == false)
        #expect(stations.first { $0["id"] as? String == "KONP" }?["category"] as? String == "MVFR")  // OVC012
        // Each station where it is (the airport table), not where the ground station that sent it is:
        // Eugene about 48 NM south of Salem (47 NM of latitude, 9 of longitude), Salem itself 0.
        let eug = try #require(stations.first { $0["id"] as? String == "KEUG" }?["distanceNM"] as? Double)
        #expect((40...55).contains(eug))
        #expect(ksle["distanceNM"] as? Double == 0)
        let advisories = try #require(doc["advisories"] as? [[String: Any]])
        #expect(advisories.contains { $0["kind"] as? String == "SUA" })
    }

    @Test func statusNamesReceiverFeedsDatabaseAndVersion() throws {
        let rig = try CockpitRig()
        defer { rig.stop() }
        let doc = try object(request(rig.port, "GET", "/api/status").body)
        let receiver = try #require(doc["receiver"] as? [String: Any])
        #expect(receiver["healthy"] as? Bool == true)
        #expect(receiver["positionSource"] as? String == "gdl90")
        #expect(receiver["lastHeartbeat"] is String)
        #expect((receiver["messagesByType"] as? [String: Int])?["traffic"].map { $0 > 0 } == true)
        #expect(doc["feeds"] is [String: Any])
        #expect((doc["database"] as? [String: Any])?["notams"] as? Int == 5)
        #expect((doc["version"] as? String)?.contains("gatewayd") == true)
    }

    @Test func acknowledgementNeedsTokenSameOriginAndIsRateLimited() throws {
        let rig = try CockpitRig(attempts: 5)
        defer { rig.stop() }
        let good = ["Authorization": "Bearer s3cret"]
        #expect(request(rig.port, "POST", "/api/alerts/ack?id=FDC%206/2174").status == 401)
        #expect(request(rig.port, "POST", "/api/alerts/ack?id=FDC%206/2174", headers: ["Authorization": "Bearer nope"]).status == 401)
        #expect(request(rig.port, "POST", "/api/alerts/ack?id=FDC%206/2174", headers: good.merging(["Origin": "http://evil.example"]) { a, _ in a }).status == 403)
        let ok = request(rig.port, "POST", "/api/alerts/ack?id=FDC%206/2174", headers: good.merging(["Origin": "http://127.0.0.1:\(rig.port)"]) { a, _ in a })
        #expect(ok.status == 200)
        #expect(rig.acknowledged.value == ["FDC 6/2174"])
        #expect(request(rig.port, "POST", "/api/alerts/ack?id=ab4549", headers: good).status == 409)  // traffic: no
        #expect(request(rig.port, "GET", "/api/alerts/ack?id=x").status != 200)  // a GET writes nothing
        #expect(request(rig.port, "POST", "/api/alerts/ack?id=x", headers: good).status == 429)  // the 6th this minute
        let off = try CockpitRig(ackToken: nil)
        defer { off.stop() }
        #expect(request(off.port, "POST", "/api/alerts/ack?id=x", headers: good).status == 403)
    }

    @Test func feedsTokenGuardsDataNotThePage() throws {
        let rig = try CockpitRig(feedsToken: "feeds")
        defer { rig.stop() }
        #expect(request(rig.port, "GET", "/").status == 200)
        #expect(request(rig.port, "GET", "/cockpit.js").status == 200)
        #expect(request(rig.port, "GET", "/api/traffic").status == 401)
        #expect(request(rig.port, "GET", "/api/traffic?token=feeds").status == 200)
    }

    /// Issue 27, item 8: with both tokens set (the README's hardening), the page's
    /// acknowledgement (feeds token in the query, acknowledgement token as Bearer) passes.
    @Test func bothTokensAsThePageSendsThem() throws {
        let rig = try CockpitRig(feedsToken: "feeds")
        defer { rig.stop() }
        let r = request(rig.port, "POST", "/api/alerts/ack?id=FDC%206/2174&token=feeds", headers: ["Authorization": "Bearer s3cret"])
        #expect(r.status == 200)
        #expect(rig.acknowledged.value == ["FDC 6/2174"])
        #expect(request(rig.port, "GET", "/api/traffic?token=nope", headers: ["Authorization": "Bearer nope"]).status == 401)
        #expect(request(rig.port, "GET", "/api/traffic", headers: ["Authorization": "Bearer feeds"]).status == 200)
    }

    /// Issue 27, item 10: `radius=NaN` is no radius (the default), not "every NOTAM".
    @Test func notANumberRadiusIsTheDefault() throws {
        let rig = try CockpitRig()
        defer { rig.stop() }
        for given in ["NaN", "nan", "inf", "-inf"] {
            let doc = try object(request(rig.port, "GET", "/api/notams?airport=KSLE&radius=\(given)").body)
            #expect(doc["radiusNM"] as? Double == 50, "radius=\(given)")
        }
    }

    @Test func flightCategoriesFromMETARs() {
        #expect(FlightCategory(metar: "METAR KSLE 161356Z 34008KT 10SM FEW040 16/06 A3012") == .vfr)
        #expect(FlightCategory(metar: "METAR KONP 161355Z AUTO 31012KT 10SM OVC012 12/10 A3009") == .mvfr)
        #expect(FlightCategory(metar: "METAR KX 161355Z 00000KT 2SM BR BKN008 12/10 A3009") == .ifr)
        #expect(FlightCategory(metar: "METAR KX 161355Z 00000KT 1/2SM FG VV002 12/10 A3009") == .lifr)
        #expect(FlightCategory(metar: "METAR KX 161355Z 00000KT 1 1/2SM BR SCT050 12/10 A3009") == .ifr)
        #expect(FlightCategory(metar: "METAR KX 161355Z 00000KT 4SM HZ CLR 12/10 A3009") == .mvfr)
        #expect(FlightCategory(metar: "METAR KX 161355Z AUTO") == nil)
    }
}
