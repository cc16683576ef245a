import Foundation
import GDL90
import Synchronization
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayRecords
@testable import GatewayNotams
@testable import GatewaySimulation

@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct NotamParsingTests {
    @Test func icaoRestrictedArea() {
        let n = NotamParser.parse(NotamTexts.icaoRestricted, source: "test")
        #expect(n.number == "A0123/26" && n.series == "A" && n.type == "N")
        #expect(n.location == "KZSE")
        #expect(n.q?.code == "QRRCA" && n.q?.traffic == "IV" && n.q?.purpose == "BO" && n.q?.scope == "W")
        #expect(n.q?.lowerFL == 0 && n.q?.upperFL == 60 && n.q?.radiusNM == 4)
        #expect(abs((n.q?.latitude ?? 0) - (44 + 58.0 / 60)) < 1e-9 && abs((n.q?.longitude ?? 0) + (122 + 46.0 / 60)) < 1e-9)
        #expect(n.start == Timestamp.parse("2026-05-16T12:00:00Z") && n.end == Timestamp.parse("2026-05-16T20:00:00Z"))
        #expect(n.severity == "warning")
        let g = n.geometry
        #expect(g?.origin == .text && g?.polygon?.count == 4)
        #expect(abs((g?.polygon?[0][0] ?? 0) - (44 + 56.0 / 60 + 34.0 / 3600)) < 1e-9)
        #expect(g?.floorFt == nil && g?.ceilingFt == 6000 && g?.ceilingAGL == false)
        #expect(n.airspaceArea()?.severity == .warning)
    }

    @Test func fdcTFRCircle() {
        let n = NotamParser.parse(NotamTexts.fdcTFR, source: "test")
        #expect(n.issuer == "FDC" && n.number == "6/2174" && n.id == "FDC:6/2174")
        #expect(n.designator == "ZSE" && n.location == nil)
        #expect(n.kind == .tfr && n.severity == "warning")
        guard case .circle(let c, let r)? = n.geometry?.shape else { Issue.record("no circle"); return }
        #expect(r == 3)
        #expect(abs(c.latitude - (47 + 36.0 / 60 + 24.0 / 3600)) < 1e-9 && abs(c.longitude + (122 + 20.0 / 60 + 7.0 / 3600)) < 1e-9)
        #expect(n.geometry?.ceilingFt == 3000)
        #expect(n.start == Timestamp.parse("2026-05-16T13:00:00Z") && n.end == Timestamp.parse("2026-05-16T18:00:00Z"))
        #expect(n.airspaceArea()?.id == "FDC 6/2174")
    }

    @Test func domesticRunwayPermEstimatedAndCancellation() {
        let rwy = NotamParser.parse(NotamTexts.runway, source: "test")
        #expect(rwy.location == nil && rwy.designator == "SLE" && rwy.text == "RWY 13/31 CLSD" && rwy.severity == "warning")
        #expect(rwy.geometry == nil && rwy.airspaceArea() == nil)
        let perm = NotamParser.parse(NotamTexts.perm, source: "test")
        #expect(perm.permanent && perm.end == nil && perm.isActive(at: Timestamp.parse("2030-01-01")!))
        let est = NotamParser.parse(NotamTexts.estimated, source: "test")
        #expect(est.endEstimated && est.end == Timestamp.parse("2026-05-20T14:00:00Z"))
        #expect(est.severity == "caution")  // a partial closure
        let r = NotamParser.parse(NotamTexts.replacement, source: "test")
        #expect(r.type == "R" && r.refersTo == "A0400/26" && r.endEstimated && r.severity == "warning")
        let c = NotamParser.parse(NotamTexts.cancel, source: "test")
        #expect(c.type == "C" && c.refersTo == "A0456/26" && !c.isActive(at: Timestamp.parse("2026-05-15T12:00:00Z")!))
    }

    @Test func prohibitedIsCriticalAndMessyTextsKeepWhatTheyCan() {
        let p = NotamParser.parse(NotamTexts.prohibited, source: "test")
        #expect(p.severity == "critical" && p.permanent)
        if case .circle(_, let r)? = p.geometry?.shape { #expect(r == 10) } else { Issue.record("no circle") }
        #expect(p.geometry?.ceilingFt == nil)
        let m = NotamParser.parse(NotamTexts.messy, source: "test")
        #expect(m.raw == NotamTexts.messy)
        #expect(m.q?.code == nil && m.q?.traffic == "IV" && m.q?.scope == nil)
        #expect(m.end == nil && !m.permanent)
        #expect(m.location == "KSFO" && m.severity == "info")
        let junk = NotamParser.parse("SOME TEMPLATE JUNK WITHOUT HEADER", source: "test")
        #expect(junk.raw == "SOME TEMPLATE JUNK WITHOUT HEADER" && !junk.unparsed.isEmpty && junk.id.hasPrefix("text:"))
    }

    @Test func translatorSpellsOutContractions() {
        // Sentences since issue 26 (were "runway 13/31 closed", "taxiway C closed except TAX aircraft", …).
        #expect(NotamTranslator.translate("RWY 13/31 CLSD") == "Runway 13/31 is closed.")
        #expect(NotamTranslator.translate("TWY C CLSD EXC TAX ACFT") == "Taxiway C is closed except taxiing aircraft.")
        #expect(NotamTranslator.translate("OBST LGT U/S.") == "Obstacle: the light is out of service.")
        #expect(NotamTranslator.translate("AD CLSD (WIP)") == "The aerodrome is closed (work in progress).")
        #expect(NotamTranslator.abbreviations.count >= 400)
    }

    @Test func faaAPIFixtureParses() throws {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("notams-demo.json"))
        let (notams, pages) = try FAANotamAPI.parse(Array(data), url: "fixture")
        #expect(pages == 1 && notams.count == 5)
        let tfr = try #require(notams.first { $0.number == "6/2174" })
        #expect(tfr.issuer == "FDC" && tfr.id == "NOTAM_1_74112233" && NotamStore.key(tfr) == "FDC:6/2174")
        #expect(tfr.airspaceArea()?.id == "FDC 6/2174")
        #expect(notams.first { $0.number == "05/012" }?.location == "KSLE")
    }
}

@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct NotamFetchTests {
    static let page = """
        {"pageSize":1000,"pageNum":1,"totalCount":1,"totalPages":1,"items":[{"type":"Feature","properties":{"coreNOTAMData":{"notam":{"id":"N2","number":"05/020","type":"N","accountId":"SLE","icaoLocation":"KSLE","location":"SLE","effectiveStart":"2026-05-16T00:00:00Z","effectiveEnd":"2026-05-18T00:00:00Z","text":"TWY A CLSD","classification":"DOM"},"notamTranslation":[{"type":"LOCAL_FORMAT","simpleText":"!SLE 05/020 SLE TWY A CLSD 2605160000-2605180000"}]}},"geometry":{"type":"GeometryCollection","geometries":[]}}]}
        """

    /// A store already holding the demo set.
    func seededStore() throws -> (NotamStore, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notams-\(UUID())")
        let store = NotamStore(database: try GatewayDatabase(path: dir.appendingPathComponent("g.sqlite").path))
        let (notams, _) = try FAANotamAPI.parse(Array(try Data(contentsOf: fixtures.appendingPathComponent("notams-demo.json"))), url: "fixture")
        try store.refresh(source: "faa-api", notams: notams, at: Timestamp.parse("2026-05-16T10:00:00Z")!)
        return (store, dir)
    }

    func client(_ delays: Delays, timeout: Double = 10) -> HTTPClient {
        var http = HTTPClient()
        http.timeout = timeout
        http.sleep = { d in delays.add(d) }
        return http
    }

    func api(_ server: TestHTTPServer, _ http: HTTPClient) -> FAANotamAPI {
        FAANotamAPI(baseURL: server.base, credentials: Credentials(id: "id", secret: "s3cret"), http: http)
    }

    @Test func rateLimitedThenOK() async throws {
        let server = try TestHTTPServer([.respond(status: 429, headers: ["Retry-After": "7"], body: "slow down"), .respond(status: 200, body: Self.page)])
        defer { server.stop() }
        let delays = Delays()
        let notams = try await api(server, client(delays)).fetch(NotamQuery(locations: ["KSLE"]))
        #expect(notams.map(\.number) == ["05/020"])
        #expect(delays.values == [7])  // Retry-After honoured
        let first = server.requests.withLock { $0.first ?? "" }
        #expect(first.hasPrefix("GET /notams?icaoLocation=KSLE&pageSize=1000&pageNum=1"))
        #expect(first.contains("client_id: id") && first.contains("client_secret: s3cret"))
        #expect(first.lowercased().contains("user-agent: skygate-gatewayd"))
        #expect(first.lowercased().contains("accept-encoding:"))
    }

    @Test func serverErrorsExhaustRetriesAndNothingStoredIsLost() async throws {
        let (store, dir) = try seededStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TestHTTPServer(Array(repeating: .respond(status: 500, body: "oops"), count: 4))
        defer { server.stop() }
        let delays = Delays()
        await #expect(throws: FetchError.self) { try await api(server, client(delays)).fetch(NotamQuery(locations: ["KSLE"])) }
        #expect(delays.values == [1, 2, 4])
        #expect(server.requests.withLock { $0.count } == 4)
        #expect(try store.count() == 5)
    }

    @Test func timeoutIsANetworkErrorAndRetried() async throws {
        let server = try TestHTTPServer([.hang, .respond(status: 200, body: Self.page)])
        defer { server.stop() }
        let delays = Delays()
        let notams = try await api(server, client(delays, timeout: 1)).fetch(NotamQuery(locations: ["KSLE"]))
        #expect(notams.count == 1 && delays.values == [1])
        let hanging = try TestHTTPServer([.hang])
        defer { hanging.stop() }
        var once = client(delays, timeout: 1)
        once.retryDelays = []
        do throws(FetchError) {
            _ = try await api(hanging, once).fetch(NotamQuery(locations: ["KSLE"]))
            Issue.record("expected a timeout")
        } catch {
            #expect(error.kind == .network && error.reason.contains("timed out"))
        }
    }

    @Test func htmlBotPageIsNamedAndNotRetried() async throws {
        let server = try TestHTTPServer([.respond(status: 403, headers: ["Content-Type": "text/html"], body: "<!DOCTYPE html><html><body>Access Denied</body></html>")])
        defer { server.stop() }
        let delays = Delays()
        do throws(FetchError) {
            _ = try await FAANotamSearch(baseURL: server.base, http: client(delays)).fetch(NotamQuery(locations: ["KSLE"]))
            Issue.record("expected a refusal")
        } catch {
            #expect(error.status == 403 && error.reason.contains("bot protection"))
        }
        #expect(server.requests.withLock { $0.count } == 1)
        #expect(server.requests.withLock { $0[0] }.contains("searchType=0&designatorsForLocation=KSLE&offset=0"))
    }

    @Test func malformedJSONAndEmptyListsNeverReplaceTheCache() async throws {
        let (store, dir) = try seededStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TestHTTPServer([.respond(status: 200, body: "{\"items\": [truncated"), .respond(status: 200, body: "{\"totalPages\":1,\"items\":[]}")])
        defer { server.stop() }
        let delays = Delays()
        do throws(FetchError) {
            _ = try await api(server, client(delays)).fetch(NotamQuery(locations: ["KSLE"]))
            Issue.record("expected malformed JSON to fail")
        } catch {
            #expect(error.kind == .content && error.reason.contains("not valid JSON"))
        }
        let empty = try await api(server, client(delays)).fetch(NotamQuery(locations: ["KSLE"]))
        #expect(empty.isEmpty)
        #expect(throws: GatewayError.self) { try store.refresh(source: "faa-api", notams: empty, at: Timestamp.parse("2026-05-16T11:00:00Z")!) }
        #expect(try store.count() == 5)
    }
}

@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct NotamStoreTests {
    func store() throws -> (NotamStore, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notamstore-\(UUID())")
        return (NotamStore(database: try GatewayDatabase(path: dir.appendingPathComponent("g.sqlite").path)), dir)
    }

    @Test func changesNewModifiedCancelledExpired() throws {
        let (s, dir) = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let t0 = Timestamp.parse("2026-05-16T10:00:00Z")!
        let rwy = NotamParser.parse(NotamTexts.runway, source: "faa-api")
        let tfr = NotamParser.parse(NotamTexts.fdcTFR, source: "faa-api")
        let perm = NotamParser.parse(NotamTexts.perm, source: "faa-api")
        let first = try s.refresh(source: "faa-api", notams: [rwy, tfr, perm], at: t0)
        #expect(first.map(\.kind) == ["new", "new", "new"])
        // Same set again: nothing changed.
        #expect(try s.refresh(source: "faa-api", notams: [rwy, tfr, perm], at: t0 + 60).isEmpty)
        // The TFR's text changes; the VOR NOTAM is no longer listed (cancelled).
        var tfr2 = tfr
        tfr2.text += " AMENDED"
        let second = try s.refresh(source: "faa-api", notams: [rwy, tfr2], at: t0 + 120)
        #expect(Set(second.map { "\($0.kind) \($0.key)" }) == ["modified FDC:6/2174", "cancelled UBG:12/001"])
        // After the runway NOTAM's end: expired.
        let third = try s.refresh(source: "faa-api", notams: [tfr2], at: Timestamp.parse("2026-05-17T09:00:00Z")!)
        #expect(third.map { "\($0.kind) \($0.key)" } == ["expired SLE:05/012"])
        let unread = try s.changes(unreadOnly: true)
        #expect(unread.count == 6)
        #expect(try s.changes(unreadOnly: true).isEmpty)  // marked read
    }

    @Test func fisbAndFetchedCopiesMergeAndRTreeFindsAreas() throws {
        let (s, dir) = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let t0 = Timestamp.parse("2026-05-16T14:00:00Z")!
        let fetched = NotamParser.parse(NotamTexts.fdcTFR, source: "faa-api")
        var fisb = NotamParser.parse(NotamTexts.fdcTFR, source: "fisb")
        fisb.geometry = .polygon([Position(latitude: 47.5, longitude: -122.4), Position(latitude: 47.7, longitude: -122.4),
                                  Position(latitude: 47.7, longitude: -122.2)], origin: .fisb)
        try s.refresh(source: "faa-api", notams: [fetched, NotamParser.parse(NotamTexts.icaoRestricted, source: "faa-api")], at: t0)
        try s.refresh(source: "fisb", notams: [fisb], at: t0 + 1) { _ in false }
        #expect(try s.count() == 2)
        let merged = try #require(try s.all().first { NotamStore.key($0) == "FDC:6/2174" })
        #expect(merged.geometry?.origin == .fisb)  // FIS-B graphic beats parsed text
        let near = try s.notams(minLat: 47.5, maxLat: 47.7, minLon: -122.5, maxLon: -122.2)
        #expect(near.map(\.number) == ["6/2174"])
        #expect(try s.activeAreas(at: t0, near: Position(latitude: 47.6, longitude: -122.3), radiusNM: 20).map(\.id) == ["FDC 6/2174"])
        #expect(try s.activeAreas(at: t0).count == 2)
        #expect(try s.isStale(at: t0 + 25 * 3600))
        #expect(try !s.isStale(at: t0 + 3600))
    }
}

@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct NotamNMSTests {
    /// The NMS flow against a loopback server: token first (Basic auth, client_credentials), then
    /// the NOTAM query with the bearer token and the GEOJSON format header.
    @Test func tokenThenGeoJSONQuery() async throws {
        let reply = #"{"status":"Success","data":{"geojson":[{"type":"Feature","properties":{"coreNOTAMData":{"notam":{"id":"NMS1","number":"6/2174","type":"N","classification":"FDC","accountId":"FDC","location":"ZSE","effectiveStart":"2026-05-16T13:00:00Z","effectiveEnd":"2026-05-16T18:00:00Z","text":"OR..AIRSPACE SALEM, OR..TEMPORARY FLIGHT RESTRICTIONS WI AN AREA DEFINED AS 1NM RADIUS OF 450034N1230011W SFC-4000FT MSL"},"notamTranslation":[]}},"geometry":{"type":"Polygon","coordinates":[[[-123.0,45.0],[-122.99,45.0],[-122.99,45.01],[-123.0,45.0]]]}}]}}"#
        let server = try TestHTTPServer([.respond(status: 200, body: #"{"access_token":"tok123","expires_in":1799}"#), .respond(status: 200, body: reply)])
        defer { server.stop() }
        let notams = try await FAANotamNMS(baseURL: server.base, credentials: Credentials(id: "me", secret: "pw")).fetch(NotamQuery(locations: ["KSLE"]))
        #expect(notams.count == 1)
        #expect(notams.first?.geometry?.origin == .official)  // the polygon beats the parsed circle
        #expect(NotamStore.key(notams[0]) == "FDC:6/2174")
        let requests = server.requests.withLock { $0 }
        #expect(requests[0].hasPrefix("POST /v1/auth/token") && requests[0].contains("grant_type=client_credentials"))
        #expect(requests[0].contains("Authorization: Basic bWU6cHc="))
        #expect(requests[1].hasPrefix("GET /nmsapi/v1/notams?location=KSLE"))
        #expect(requests[1].contains("Authorization: Bearer tok123") && requests[1].contains("nmsResponseFormat: GEOJSON"))
    }
}

@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct FISBNotamTests {
    /// The sample's FIS-B TFR becomes a NOTAM with the FIS-B graphic, and merges in the store with
    /// a fetched copy of the same FDC NOTAM (one row, both sources, the better geometry kept).
    @Test func fisbTFRMergesWithAFetchedCopy() throws {
        var store = FISBProductStore()
        var reports: [FISBReport] = []
        for (i, p) in FISBSamples.uplinks().enumerated() { reports += store.ingest(payload: p, at: DemoFlight.start + Double(i)) }
        reports += store.flushHeld()
        let tfr = try #require(store.all.first { $0.kind == .notam && $0.number == "6/6101" })
        let n = try #require(Notam(fisb: tfr))
        #expect(NotamStore.key(n) == "FDC:6/6101" && n.source == "fisb")
        // A TFR's severity follows its kind's levels (warning inside).
        #expect(n.kind == .tfr && n.severity == "warning", "\(n.severity): \(n.text.prefix(200))")
        // Both graphics (the 3 NM circle and the box) make the area; the limits span both.
        #expect(n.geometry?.origin == .fisb && n.geometry?.parts?.count == 2)
        #expect(n.geometry?.floorFt == nil && n.geometry?.ceilingFt == 5000)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fisbnotam-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = NotamStore(database: try GatewayDatabase(path: dir.appendingPathComponent("g.sqlite").path))
        let fetched = NotamParser.parse("!FDC 6/6101 ZSE OR..AIRSPACE SALEM, OREGON..TEMPORARY FLIGHT RESTRICTIONS WI AN AREA DEFINED AS 3NM RADIUS OF 445434N1230011W SFC-3000FT AGL 2605161400-2605161800", source: "faa-api")
        try db.refresh(source: "faa-api", notams: [fetched], at: DemoFlight.start)
        try db.refresh(source: "fisb", notams: [n], at: DemoFlight.start + 60) { $0.source == "fisb" }
        #expect(try db.count() == 1)
        #expect(try db.all().first?.geometry?.origin == .fisb)
    }
}

/// The store's JSON, written without `JSONEncoder` (issue 26's import rate), reads back through
/// `Codable` as the very NOTAM that was written: every NOTAM of the real-shaped benchmark set
/// and of the demo file, geometry, limits and Q-line included.
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct NotamStoredJSONTests {
    @Test func storedJSONReadsBackAsTheSameNotam() throws {
        var notams: [Notam] = []
        try NotamFile.read(path: fixtures.appendingPathComponent("notams-demo.json").path) { notams.append($0) }
        let corpus = FileManager.default.temporaryDirectory.appendingPathComponent("stored-json-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: corpus) }
        try NotamCorpus.write(count: 2_000, to: corpus.path)
        try NotamFile.read(path: corpus.path) { notams.append($0) }
        #expect(notams.count > 2_000)
        #expect(notams.contains { $0.geometry?.parts != nil } && notams.contains { $0.q != nil } && notams.contains { $0.limits != nil })
        var mismatched: [String] = []
        for n in notams {
            let back = try JSONDecoder().decode(Notam.self, from: Data(n.storedJSON.utf8))
            if back != n { mismatched.append(n.id) }
        }
        #expect(mismatched.isEmpty, "\(mismatched.count) NOTAMs read back differently, first \(mismatched.prefix(3))")
        // Odd text survives: quotes, backslashes, control characters, non-ASCII.
        var odd = notams[0]
        odd.text = "A \"quoted\" \\ back\u{1}slash — é\n"
        odd.unparsed = ["x\"y", ""]
        odd.reference = [1e-7, -123.456789012345, 0]
        #expect(try JSONDecoder().decode(Notam.self, from: Data(odd.storedJSON.utf8)) == odd)
    }
}
