import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayRecords
@testable import GatewayWeather
@testable import GatewayFeeds
@testable import GatewaySimulation

/// `weather fetch` against a real HTTP server on loopback shaped like the aviationweather.gov
/// Data API (no internet in tests), into a real SQLite file.
@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct WeatherFetchTests {
    static let now = FISBSamples.startTime
    static let area = WeatherArea(latitude: 44.9, longitude: -123.0, radiusNM: 60, station: "KSLE")

    static let metars = """
        [{"icaoId":"KSLE","obsTime":\(Int(now) - 1200),"rawOb":"METAR KSLE 161340Z 34008KT 10SM FEW040 16/06 A3012","lat":44.909,"lon":-123.003},
         {"icaoId":"KPDX","reportTime":"2026-05-16T13:53:00.000Z","rawOb":"KPDX 161353Z 32012G20KT 6SM -RA BKN015 OVC030 12/09 A3005","lat":45.59,"lon":-122.6}]
        """
    static let tafs = """
        [{"icaoId":"KPDX","issueTime":"2026-05-16T11:30:00Z","validTimeTo":\(Int(now) + 20 * 3600),"rawTAF":"TAF KPDX 161130Z 1612/1712 32010KT P6SM BKN040 FM161800 30012KT P6SM SCT050","lat":45.59,"lon":-122.6}]
        """
    static let pireps = #"[{"obsTime":\#(Int(now) - 600),"rawOb":"SLE UA /OV SLE090010/TM 1350/FL065/TP C172/TB LGT","lat":44.9,"lon":-122.8}]"#
    static let sigmets = """
        [{"airSigmetType":"SIGMET","rawAirSigmet":"CONVECTIVE SIGMET 41W","validTimeFrom":\(Int(now) - 600),"validTimeTo":\(Int(now) + 3600),
          "coords":[{"lat":45.9,"lon":-123.3},{"lat":45.9,"lon":-122.7},{"lat":44.0,"lon":-123.3}]},
         {"airSigmetType":"SIGMET","rawAirSigmet":"CONVECTIVE SIGMET 12E (FLORIDA)","validTimeFrom":\(Int(now) - 600),"validTimeTo":\(Int(now) + 3600),
          "coords":[{"lat":27.0,"lon":-81.0},{"lat":28.0,"lon":-80.0},{"lat":26.0,"lon":-80.5}]}]
        """
    static let winds = """
        000
        FBUS31 KWNO 161359
        DATA BASED ON 161200Z
        VALID 161800Z   FOR USE 1400-2100Z. TEMPS NEG ABV 24000

        FT  3000    6000    9000   12000   18000   24000  30000  34000  39000
        SLE 3010 3115+08 3120+03 3125-02 3135-15 3145-27 315042 316052 317060
        BOS 2915 3020+07 3025+02 3130-03 3140-16 3150-28 315543 316053 316561
        """

    /// The replies of one whole fetch, in `AviationWeatherClient.Product` order.
    static func replies(gairmet: String = "[]", cwa: String = "[]") -> [TestHTTPServer.Reply] {
        [metars, tafs, pireps, sigmets, gairmet, cwa].map { .respond(status: 200, headers: ["Content-Type": "application/json"], body: $0) }
            + [.respond(status: 200, headers: ["Content-Type": "text/plain"], body: winds)]
    }

    func store() throws -> (WeatherStore, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("weather-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return (WeatherStore(database: try GatewayDatabase(path: dir.appendingPathComponent("g.sqlite").path)), dir)
    }

    func fetch(_ server: TestHTTPServer, _ store: WeatherStore, retries: [Double] = []) -> WeatherFetch {
        var http = HTTPClient()
        http.timeout = 1
        http.retryDelays = retries
        http.sleep = { _ in }
        return WeatherFetch(client: AviationWeatherClient(baseURL: server.base + "/api/data", http: http), store: store, area: Self.area)
    }

    @Test func aWholeFetchIsStoredOnceEachAndAskedAsTheAPIWants() async throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TestHTTPServer(Self.replies() + Self.replies())
        defer { server.stop() }
        let outcomes = await fetch(server, store).run(at: Self.now)
        #expect(outcomes.map(\.error) == Array(repeating: nil, count: 7))
        #expect(outcomes.map(\.fetched) == [2, 1, 1, 1, 0, 0, 1], "the Florida SIGMET and BOS's winds are outside the area")
        let requests = server.requests.withLock { $0.map { String($0.split(separator: "\r\n").first ?? "") } }
        #expect(requests[0] == "GET /api/data/metar?format=json&hours=3&bbox=43.9,-124.412,45.9,-121.588 HTTP/1.1")
        #expect(requests[2] == "GET /api/data/pirep?format=json&age=3&id=KSLE&distance=60 HTTP/1.1")
        #expect(requests[6] == "GET /api/data/windtemp?region=all&level=low&fcst=06 HTTP/1.1")
        let all = try store.all(at: Self.now)
        #expect(all.map(\.kind) == [.metar, .metar, .pirep, .sigmet, .taf, .winds])
        let kpdx = try #require(all.first { $0.station == "KPDX" && $0.kind == .metar })
        #expect(kpdx.time == Timestamp.midnight(year: 2026, month: 5, day: 16) + 13 * 3600 + 53 * 60, "an ISO time read as well as seconds")
        let taf = try #require(all.first { $0.kind == .taf })
        #expect(taf.expires == Self.now + 20 * 3600, "a TAF kept until its validity ends")
        let sigmet = try #require(all.first { $0.kind == .sigmet })
        #expect(sigmet.outline.count == 3 && sigmet.outline[0] == [45.9, -123.3])
        // The winds record reads alone: its station's line under the table's header.
        let windsText = try #require(all.first { $0.kind == .winds }).text
        let decoded = try #require(DecodedWindsAloft.decode(windsText))
        #expect(decoded.station == "SLE" && decoded.levels.first?.directionDeg == 300 && decoded.levels.first?.speedKt == 10)
        // The same answers again: nothing doubled, nothing changed.
        let again = await fetch(server, store).run(at: Self.now + 60)
        #expect(again.compactMap(\.refresh).map(\.added) == [0, 0, 0, 0, 0])
        #expect(try store.count() == 6)
    }

    @Test func badAnswersOfEveryKindLoseNothingStored() async throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = try TestHTTPServer(Self.replies())
        _ = await fetch(good, store).run(at: Self.now)
        good.stop()
        #expect(try store.count() == 6)
        // An HTTP error (after the retry), a maintenance page, garbage JSON, an object for an array,
        // an empty body, a hang (timed out twice), a winds answer without its table.
        let bad = try TestHTTPServer([
            .respond(status: 503, body: "busy"), .respond(status: 503, body: "busy"),
            .respond(status: 200, body: "<html>maintenance</html>"),
            .respond(status: 200, body: "[{\"rawOb\": "),
            .respond(status: 200, body: "{\"error\":\"bad bbox\"}"),
            .respond(status: 200, body: ""),
            .hang, .hang,
            .respond(status: 200, body: "no table today"),
        ])
        defer { bad.stop() }
        let outcomes = await fetch(bad, store, retries: [0]).run(at: Self.now + 600)
        let errors = outcomes.map { $0.error ?? "" }
        #expect(errors[0].contains("HTTP 503"))
        #expect(errors[1].contains("not JSON") && errors[1].contains("<html>maintenance"))
        #expect(errors[2].contains("not JSON"))
        #expect(errors[3].contains("expected a JSON array of reports, got an object"))
        #expect(outcomes[4].error == nil && outcomes[4].refresh == nil, "an empty answer is no news: nothing removed")
        #expect(!errors[5].isEmpty)
        #expect(errors[6].contains("no FT header line"))
        for e in errors where !e.isEmpty { #expect(e.contains("kept the 6 stored reports"), "\(e)") }
        #expect(try store.count() == 6)
        // And the store itself refuses an empty set.
        #expect(throws: GatewayError.self) { try store.refresh(product: "metar", records: [], at: Self.now) }
    }

    @Test func thePageShowsFetchedBesideFISBTheNewerOfEach() throws {
        var fisb = FISBProductStore()
        _ = fisb.ingest(payload: FISBSamples.uplinks()[1], at: FISBSamples.startTime)  // KSLE 13:56 and KEUG METARs
        let fetchedOld = WeatherRecord(kind: .metar, station: "KSLE", time: FISBSamples.startTime - 1200, received: FISBSamples.startTime,
                                       source: AviationWeatherClient.sourceName, text: "METAR KSLE 161340Z 34008KT 10SM FEW040 16/06 A3012")
        let fetchedNew = WeatherRecord(kind: .metar, station: "KPDX", time: FISBSamples.startTime - 400, received: FISBSamples.startTime,
                                       source: AviationWeatherClient.sourceName, text: "METAR KPDX 161353Z 32012G20KT 6SM -RA BKN015 OVC030 12/09 A3005")
        let json = CockpitAPI.weather(Array(fisb.reports.values), fetched: [fetchedOld, fetchedNew].map(WeatherJSON.report), near: nil,
                                      time: FISBSamples.startTime + 60)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let stations = try #require(doc["stations"] as? [[String: Any]])
        func products(_ id: String) -> [[String: Any]] { (stations.first { $0["id"] as? String == id }?["products"] as? [[String: Any]]) ?? [] }
        // KSLE: FIS-B's 13:56 METAR is newer than the fetched 13:40 one: only it.
        #expect(products("KSLE").count == 1)
        #expect(products("KSLE").first?["source"] as? String == "FIS-B")
        #expect((products("KSLE").first?["text"] as? String)?.contains("161356Z") == true)
        // KPDX: only fetched: shown, said so, decoded.
        #expect(products("KPDX").first?["source"] as? String == "aviationweather.gov")
        let decoded = try #require(products("KPDX").first?["decoded"] as? [String: Any])
        #expect(decoded["gustKt"] as? Int == 20 && decoded["ceilingFt"] as? Int == 1500 && decoded["category"] as? String == "MVFR")
    }

    /// The nearest stations and those ahead along ownship's track come first (issue 42): from
    /// Salem, Portland (38 NM north) leads when flying north, Eugene (50 NM south) when flying south.
    @Test func stationsAheadAlongTheTrackComeFirst() throws {
        let table = try #require(AirportTable.shared, "the airport table (data/airports.bin)")
        let sle = try #require(table.airport("KSLE")).position
        let text = ["KPDX": "METAR KPDX 161353Z 32012KT 10SM FEW040 12/09 A3005", "KEUG": "METAR KEUG 161354Z 36006KT 10SM CLR 17/04 A3010",
                    "KSLE": "METAR KSLE 161356Z 34008KT 10SM FEW040 16/06 A3012", "KONP": "METAR KONP 161355Z 31012KT 10SM OVC012 12/10 A3009"]
        let reports = text.map { id, t in
            WeatherJSON.report(WeatherRecord(kind: .metar, station: id, time: Self.now - 300, received: Self.now, source: "test", text: t))
        }
        func order(_ track: Double?) throws -> [String] {
            let json = CockpitAPI.weather([], fetched: reports, near: sle, trackDeg: track, time: Self.now, airports: table)
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            return ((doc["stations"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
        }
        #expect(try order(nil) == ["KSLE", "KPDX", "KONP", "KEUG"].sorted { a, b in
            Geodesy.distanceNM(sle, table.airport(a)!.position) < Geodesy.distanceNM(sle, table.airport(b)!.position)
        })
        #expect(try order(0).prefix(2) == ["KSLE", "KPDX"])
        #expect(try order(180).prefix(2) == ["KSLE", "KEUG"])
    }

    /// A dead network: the first product fails after its retries, the others are not tried (said
    /// at once), nothing stored is lost.
    @Test func aDeadNetworkIsSaidOnceNotWaitedThroughSevenTimes() async throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = try TestHTTPServer(Self.replies())
        _ = await fetch(good, store).run(at: Self.now)
        good.stop()
        // A port nobody listens on: connection refused.
        let (fd, port) = loopbackListener()
        close(fd)
        var http = HTTPClient()
        http.timeout = 1
        http.retryDelays = [0, 0]
        http.sleep = { _ in }
        let dead = WeatherFetch(client: AviationWeatherClient(baseURL: "http://127.0.0.1:\(port)/api/data", http: http), store: store, area: Self.area)
        let outcomes = await dead.run(at: Self.now + 60)
        #expect(outcomes.count == 7)
        #expect(outcomes[0].error?.contains("kept the 6 stored reports") == true)
        for o in outcomes.dropFirst() { #expect(o.error?.hasPrefix("not tried: the Data API could not be reached") == true, "\(o.line)") }
        #expect(try store.count() == 6)
    }
}
