import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures
@testable import GatewayRecords
@testable import GatewayNotams
@testable import GatewayRuntime

/// Real-shaped NOTAM texts in the wordings the FAA publishes (its NOTAM order's airspace
/// format, FDC TFRs, SUA activations, GPS tests); numbers and places rewritten, wording kept.
enum AirspaceTexts {
    /// A restricted-area activation as the FAA issues it: no "RESTRICTED AREA" words.
    static let restricted = "!ZSE 05/120 ZSE AIRSPACE R4499A ACT SFC-7999FT 2605161330-2605161530"
    static let moa = "!ZKC 05/311 ZKC AIRSPACE VANCE 1A MOA ACT 8000FT-FL180 2605161400-2605162200"
    static let moaBelow = "!ZAB 05/077 ZAB AIRSPACE TAOS MOA ACT UP TO BUT NOT INCLUDING FL225 2605161400-2605162200"
    static let tfr91137 = "!FDC 6/4321 ZLA CA..AIRSPACE SANTA ANA, CA..TEMPORARY FLIGHT RESTRICTIONS WI 3 NMR OF 334805N/1175517W SFC-2000FT. PURSUANT TO 14 CFR SECTION 91.137(A)(2) TEMPORARY FLIGHT RESTRICTIONS ARE IN EFFECT 2605161400-2605162000"
    static let uas997 = "!FDC 6/5511 ZAU IL..AIRSPACE THOMSON, IL..UP TO AND INCLUDING 400FT AGL WI AN AREA DEFINED AS 1NM RADIUS OF 415740N0900600W. PURSUANT TO 49 USC 40103(B)(3) AND 14 CFR 99.7 SPECIAL SECURITY INSTRUCTIONS, UAS OPS ARE PROHIBITED 2605010000-PERM"
    static let gps = "!GPS 05/047 ZAB NAV GPS (WSMR GPS 26-10) (INCLUDING WAAS, GBAS, AND ADS-B) MAY NOT BE AVBL WI A 372NM RADIUS CENTERED AT 330320N1063343W (TCS054036) FL400-UNL 2605161900-2605162300"
    static let pje = "!DEN 05/045 FQF AIRSPACE PJE WI AN AREA DEFINED AS 3NM RADIUS OF 394650N1044500W UP TO AND INCLUDING 17999FT 2605161500-2605170100"
    static let corridor = "!ZLA 05/212 ZLA AIRSPACE UAS WI AN AREA DEFINED AS 0.2NM EITHER SIDE OF A LINE FM 334805N1175517W TO 335000N1175000W TO 335500N1174800W SFC-400FT AGL 2605161500-2605162300"
    static let twoAreas = "!ZOA 05/301 ZOA AIRSPACE AEROBATIC AREA A WI AN AREA DEFINED AS 380000N1220000W-381000N1220000W-381000N1215000W-380000N1220000W AND AREA B WI AN AREA DEFINED AS 382000N1220000W-383000N1220000W-383000N1215000W-382000N1220000W 1000FT-FL180 2605161500-2605162300"
    /// Longitude missing its leading zero; the stated reference confirms it.
    static let missingZero = "!ZFW 05/088 LAW AIRSPACE UAS WI AN AREA DEFINED AS 1NM RADIUS OF 344142N975104W (34.75NM NE LAW) UP TO AND INCLUDING 3000FT AGL 2605161500-2605162300"
    static let prohibited = "!FDC 6/0001 ZDC DC..AIRSPACE WASHINGTON, DC..P-56A ACT SFC-18000FT 2605010000-PERM"
    static let warningArea = "!ZJX 05/400 ZJX AIRSPACE W-157A ACT 3000FT-FL500 2605161200-2605162200"
    static let alertArea = "!ZHU 05/401 ZHU AIRSPACE A-632A ACT 500FT-5000FT 2605161200-2605162200"
}

func parseFeature(_ json: String) throws -> Notam {
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    return try #require(FAANotamAPI.notam(object))
}

private func fix(_ p: Position, altitude: Double, track: Double = 0, speed: Double = 120) -> OwnshipFix {
    OwnshipFix(position: p, altitudeFt: altitude, altitudeIsPressure: true, velocity: PlaneVelocity(speedKt: speed, trackDeg: track),
               groundSpeedKt: speed, trackDeg: track, verticalSpeedFpm: 0, airborne: true, source: .gdl90)
}

private func inside(_ g: NotamGeometry, _ p: Position, altitude: Double? = nil, cutouts: [AirspaceCutout] = []) -> Bool {
    let area = AirspaceArea(id: "x", name: "x", shape: g.shape, cutouts: cutouts)
    return AirspaceGeometry(shape: area.shape(atAltitudeFt: altitude), plane: LocalPlane(origin: p), velocity: PlaneVelocity(speedKt: 0, trackDeg: 0),
                            lookAheadSec: 120).signedDistanceNM < 0
}

@Suite(.timeLimit(.minutes(5))) struct AirspaceClassificationTests {
    @Test func everyKindFromRealWordings() {
        let cases: [(String, AirspaceKind?, String)] = [
            (AirspaceTexts.restricted, .restricted, "warning"), (AirspaceTexts.moa, .moa, "caution"), (AirspaceTexts.moaBelow, .moa, "caution"),
            (AirspaceTexts.tfr91137, .tfr, "warning"), (AirspaceTexts.uas997, .tfr, "warning"), (AirspaceTexts.gps, .gps, "info"),
            (AirspaceTexts.pje, .parachute, "info"), (AirspaceTexts.corridor, .uas, "info"), (AirspaceTexts.twoAreas, .aerobatic, "info"),
            (AirspaceTexts.prohibited, .prohibited, "critical"), (AirspaceTexts.warningArea, .warning, "caution"),
            (AirspaceTexts.alertArea, .alert, "caution"),
            (NotamTexts.runway, nil, "warning"), (NotamTexts.messy, nil, "info"),
            ("!PDX 05/101 PDX TWY N CLSD 2605160600-2605201400EST", nil, "caution"),
        ]
        for (text, kind, severity) in cases {
            let n = NotamParser.parse(text, source: "test")
            #expect(n.kind == kind, "\(text)")
            #expect(n.severity == severity, "\(text)")
        }
    }

    /// The Q-code alone decides where the words do not: QRRCA, QRMCA, QWPLW, QGWAU.
    @Test func qCodesClassify() {
        func kind(_ code: String, _ e: String = "ACT") -> AirspaceKind? {
            NotamParser.parse("A0001/26 NOTAMN\nQ) KZSE/\(code)/IV/BO/W/000/180/4500N12300W010\nA) KZSE B) 2605161200 C) 2605162000\nE) \(e)", source: "t").kind
        }
        #expect(kind("QRRCA") == .restricted && kind("QRMCA") == .moa && kind("QRTCA") == .tfr && kind("QRPCA") == .prohibited)
        #expect(kind("QRDCA") == .danger && kind("QWPLW") == .parachute && kind("QWULW") == .uas && kind("QGWAU") == .gps)
        #expect(kind("QMRLC", "RWY 09/27 CLSD") == nil)
        // The API's selectionCode counts like a Q-line.
        let n = try? parseFeature(apiFeature(number: "05/500", text: "AIRSPACE SALEM ATCAA ACT", selection: "QRDCA"))
        #expect(n?.kind == .danger && n?.selectionCode == "QRDCA")
    }

    /// The issue's case: "AIRSPACE R7001A ACT SFC-7999FT" with its official polygon alerts.
    @Test func restrictedActivationWithOfficialPolygonWarnsInside() throws {
        let polygon = #"{"type":"Polygon","coordinates":[[[-107.5,42.5],[-107.0,42.5],[-107.0,42.8],[-107.5,42.8],[-107.5,42.5]]]}"#
        let n = try parseFeature(apiFeature(number: "05/020", text: "AIRSPACE R7001A ACT SFC-7999FT", geometry: polygon))
        #expect(n.kind == .restricted && n.severity == "warning" && n.geometry?.origin == .official)
        #expect(n.limits == NotamLimits(floorFt: nil, ceilingFt: 7999, origin: "text") && n.geometry?.ceilingFt == 7999)
        let area = try #require(n.airspaceArea())
        #expect(area.levels == AirspaceAlertLevels(inside: .warning, entry: .caution, near: .advisory))
        var engine = AirspaceAlertEngine()
        engine.setAreas([area])
        let events = engine.evaluate(fix: fix(Position(latitude: 42.65, longitude: -107.25), altitude: 6500), at: Timestamp.parse("2026-05-16T14:00:00Z")!)
        #expect(events.map(\.level) == [.warning] && events.first?.subject == "ZSE 05/020")
        // Above the ceiling: no warning, only the vertical buffer's advisory at 8200 ft.
        var above = AirspaceAlertEngine()
        above.setAreas([area])
        #expect(above.evaluate(fix: fix(Position(latitude: 42.65, longitude: -107.25), altitude: 8200), at: Timestamp.parse("2026-05-16T14:00:00Z")!).map(\.level) == [.advisory])
    }

    /// Levels by kind, and `[alerts] level_<kind>` changing them.
    @Test func levelsFollowTheKindTableAndTheConfig() throws {
        let centre = Position(latitude: 45, longitude: -122)
        func level(_ kind: AirspaceKind, table: AirspaceLevelTable = AirspaceLevelTable()) -> AlertLevel? {
            var engine = AirspaceAlertEngine()
            engine.setAreas([AirspaceArea(id: "a", name: "a", shape: .circle(center: centre, radiusNM: 5), kind: kind, levels: table[kind])])
            return engine.evaluate(fix: fix(centre, altitude: 3000), at: 0).first?.level
        }
        #expect(level(.restricted) == .warning && level(.tfr) == .warning && level(.prohibited) == .warning)
        #expect(level(.moa) == .caution && level(.alert) == .caution && level(.parachute) == .advisory && level(.gps) == .advisory)
        let c = try GatewayConfig.parse("[alerts]\nlevel_moa = \"warning\"\nlevel_parachute = \"caution,advisory,none\"\n", file: "t.toml")
        #expect(c.airspaceLevels[.moa] == AirspaceAlertLevels(inside: .warning, entry: .caution, near: .advisory))
        #expect(c.airspaceLevels[.parachute] == AirspaceAlertLevels(inside: .caution, entry: .advisory, near: nil))
        #expect(level(.moa, table: c.airspaceLevels) == .warning)
        #expect(throws: ConfigError.self) { try GatewayConfig.parse("[alerts]\nlevel_moa = \"loud\"\n", file: "t.toml") }
        // What `config show` writes reads back.
        #expect(try GatewayConfig.parse(c.toml, file: "t.toml").airspaceLevels == c.airspaceLevels)
    }
}

@Suite(.timeLimit(.minutes(5))) struct NotamTextGeometryTests {
    @Test func circlesInEveryWording() throws {
        let nmr = NotamParser.parse(AirspaceTexts.tfr91137, source: "t")
        guard case .circle(let c, let r)? = nmr.geometry?.shape else { Issue.record("3 NMR OF …/… not read"); return }
        #expect(r == 3 && abs(c.latitude - (33 + 48.0 / 60 + 5.0 / 3600)) < 1e-9 && abs(c.longitude + (117 + 55.0 / 60 + 17.0 / 3600)) < 1e-9)
        #expect(nmr.geometry?.ceilingFt == 2000)
        let gps = NotamParser.parse(AirspaceTexts.gps, source: "t")
        guard case .circle(let g, let gr)? = gps.geometry?.shape else { Issue.record("RADIUS CENTERED AT not read"); return }
        #expect(gr == 372 && abs(g.latitude - (33 + 3.0 / 60 + 20.0 / 3600)) < 1e-9)
        #expect(gps.limits?.floorFt == 40_000 && gps.limits?.ceilingFt == nil)
        // A radius without its leading zero (".5NM") is half a mile, not five.
        #expect(NotamParser.parse("!SLE 05/210 SLE AIRSPACE UAS WI AN AREA DEFINED AS .5NM RADIUS OF 445500N1230000W SFC-400FT AGL 2605161500-2605162300", source: "t").geometry?.radiusNM == 0.5)
        // Several MOAs in one activation (the FAA order's example): a MOA with its limits.
        let moas = NotamParser.parse("!ZLC 05/500 ZLC AIRSPACE CRYPT NORTH MOA AND REVEILLE MOA ACT 5000FT-16000FT 2605161500-2605162300", source: "t")
        #expect(moas.kind == .moa && moas.limits == NotamLimits(floorFt: 5000, ceilingFt: 16_000, origin: "text"))
        // The AIM's GPS-test wording, spelled out ("MAY NOT BE AVAILABLE WITHIN A … CENTERED AT").
        let aim = NotamParser.parse("!GPS 06/001 ZAB NAV GPS (INCLUDING WAAS, GBAS, AND ADS-B) MAY NOT BE AVAILABLE WITHIN A 468NM RADIUS CENTERED AT 330702N1062540W (TCS 093044) FL400-UNL DECREASING IN AREA WITH A DECREASE IN ALTITUDE 2606010000-2606020000", source: "t")
        #expect(aim.kind == .gps && aim.geometry?.radiusNM == 468 && aim.limits?.floorFt == 40_000)
        let pje = NotamParser.parse(AirspaceTexts.pje, source: "t")
        #expect(pje.geometry?.radiusNM == 3 && pje.limits?.ceilingFt == 17_999 && pje.limits?.floorFt == nil)
    }

    /// "0.2NM EITHER SIDE OF A LINE FM … TO … TO …" is a buffered polyline, not a triangle.
    @Test func corridorIsABufferedLine() throws {
        let n = NotamParser.parse(AirspaceTexts.corridor, source: "t")
        let g = try #require(n.geometry)
        #expect(g.parts?.count == 3)  // two segments and the bend
        let a = Position(latitude: 33 + 48.0 / 60 + 5.0 / 3600, longitude: -(117 + 55.0 / 60 + 17.0 / 3600))
        let b = Position(latitude: 33 + 50.0 / 60, longitude: -(117 + 50.0 / 60))
        let mid = Position(latitude: (a.latitude + b.latitude) / 2, longitude: (a.longitude + b.longitude) / 2)
        #expect(inside(g, mid))
        #expect(inside(g, Geodesy.destination(from: mid, bearingDeg: Geodesy.bearingDeg(a, b) + 90, distanceNM: 0.15)))
        #expect(!inside(g, Geodesy.destination(from: mid, bearingDeg: Geodesy.bearingDeg(a, b) + 90, distanceNM: 0.3)))
        // The triangle the three points make is not the area: its centre is 1+ NM off the line.
        let centroid = Position(latitude: (a.latitude + b.latitude + 33.9166667) / 3, longitude: (a.longitude + b.longitude - 117.8) / 3)
        #expect(!inside(g, centroid))
        #expect(n.limits?.ceilingFt == 400 && n.limits?.ceilingAGL == true && n.geometry?.ceilingAGL == true)
        // Corridor area ≈ length × 0.4 NM (+ the bend's disc).
        #expect(abs(g.areaNM2 - (Geodesy.distanceNM(a, b) + Geodesy.distanceNM(b, Position(latitude: 33.9166667, longitude: -117.8))) * 0.4) < 0.2)
    }

    @Test func severalClosedRingsAreSeveralParts() throws {
        let g = try #require(NotamParser.parse(AirspaceTexts.twoAreas, source: "t").geometry)
        #expect(g.parts?.count == 2)
        #expect(inside(g, Position(latitude: 38.12, longitude: -121.98)) && inside(g, Position(latitude: 38.45, longitude: -121.98)))
        #expect(!inside(g, Position(latitude: 38.25, longitude: -121.95)))
    }

    /// A boundary with an arc: the arc bulges out as far as its radius, not as a straight chord.
    @Test func arcsInPointLists() throws {
        let text = "!ZLA 05/230 ZLA AIRSPACE UAS WI AN AREA DEFINED AS 340000N1174800W TO 341000N1173000W THEN CLOCKWISE ON A 10NM ARC CENTERED ON 340000N1173000W TO 335000N1173000W TO POINT OF ORIGIN SFC-1000FT 2605161500-2605162300"
        let g = try #require(NotamParser.parse(text, source: "t").geometry)
        let centre = Position(latitude: 34, longitude: -117.5)
        #expect(inside(g, Geodesy.destination(from: centre, bearingDeg: 90, distanceNM: 9)))
        #expect(!inside(g, Geodesy.destination(from: centre, bearingDeg: 90, distanceNM: 11)))
        #expect((g.polygon?.count ?? 0) > 30)
    }

    /// "344142N975104W" (leading zero missing) is repaired only when "34.75NM NE LAW" and LAW's
    /// position (the API's coordinates) put it there.
    @Test func missingLeadingZeroRepairedOnlyWithAConfirmingReference() throws {
        let law = #","coordinates":"3434N09825W","icaoLocation":"KLAW""#
        let confirmed = try parseFeature(apiFeature(
            number: "05/088", text: "AIRSPACE UAS WI AN AREA DEFINED AS 1NM RADIUS OF 344142N975104W (34.75NM NE LAW) UP TO AND INCLUDING 3000FT AGL",
            simple: AirspaceTexts.missingZero, extra: law))
        guard case .circle(let c, let r)? = confirmed.geometry?.shape, confirmed.geometry?.origin == .text else {
            Issue.record("not repaired: \(String(describing: confirmed.geometry))"); return
        }
        #expect(r == 1 && abs(c.longitude + (97 + 51.0 / 60 + 4.0 / 3600)) < 1e-9 && abs(c.latitude - (34 + 41.0 / 60 + 42.0 / 3600)) < 1e-9)
        #expect(confirmed.limits?.ceilingFt == 3000 && confirmed.limits?.ceilingAGL == true)
        // Without a position for LAW nothing confirms it: no circle from a guessed coordinate.
        let unconfirmed = NotamParser.parse(AirspaceTexts.missingZero, source: "t")
        #expect(unconfirmed.geometry == nil)
        #expect(unconfirmed.unparsed.contains { $0.hasPrefix("coordinate 344142N975104W:") })
        #expect(!confirmed.unparsed.contains { $0.hasPrefix("coordinate") })
        // A reference to another place than the one whose position is known confirms nothing.
        let elsewhere = try parseFeature(apiFeature(
            number: "05/090", text: "AIRSPACE UAS WI AN AREA DEFINED AS 1NM RADIUS OF 344142N975104W (34.75NM NE OKC) SFC-400FT AGL", extra: law))
        #expect(elsewhere.geometry == nil)
        // A missing hemisphere letter likewise: W is chosen because LAW lies west.
        let noLetter = try parseFeature(apiFeature(number: "05/089", text: "AIRSPACE UAS WI AN AREA DEFINED AS 1NM RADIUS OF 344142N0975104 (34.75NM NE LAW) SFC-400FT AGL", extra: law))
        #expect(noLetter.geometry?.center?[1] ?? 0 < -97.8)
    }

    @Test func limitsFromTheTextAlwaysEvenWithoutAnArea() {
        let moa = NotamParser.parse(AirspaceTexts.moa, source: "t")
        #expect(moa.geometry == nil)
        #expect(moa.limits == NotamLimits(floorFt: 8000, ceilingFt: 18_000, origin: "text"))
        let below = NotamParser.parse(AirspaceTexts.moaBelow, source: "t")
        #expect(below.limits?.floorFt == nil && below.limits?.ceilingFt == 22_500 && below.limits?.ceilingExclusive == true)
        let agl = NotamParser.parse(AirspaceTexts.uas997, source: "t")
        #expect(agl.limits?.ceilingFt == 400 && agl.limits?.ceilingAGL == true && agl.geometry?.ceilingAGL == true)
        #expect(NotamTextGeometry.limits(in: "AIRSPACE FOO MOA ACT 1000FT-FL180")?.ceilingFt == 18_000)
        #expect(NotamTextGeometry.limits(in: "AIRSPACE FOO MOA ACT 1000FT-FL180")?.floorFt == 1000)
        #expect(NotamTextGeometry.limits(in: "FROM SFC UP TO AND INCLUDING 4000 FEET MSL")?.ceilingFt == 4000)
        #expect(NotamTextGeometry.limits(in: "OBST CRANE 350FT (150FT AGL) LGTD") == nil)
        #expect(NotamTextGeometry.limits(in: "AIRSPACE P-40 ACT SFC-UNL") == NotamLimits(floorFt: nil, ceilingFt: nil, origin: "text"))
    }

    /// The API's limits beat the text; "…EST" in the text's validity stays an estimate even when
    /// the API's effectiveEnd is a plain time.
    @Test func apiLimitsAndEstimatedEnds() throws {
        let n = try parseFeature(apiFeature(number: "05/600", text: "AIRSPACE DEMO MOA ACT 1000FT-FL180",
                                            simple: "!ZSE 05/600 ZSE AIRSPACE DEMO MOA ACT 1000FT-FL180 2605161300-2605161800EST",
                                            extra: #","lowerLimit":"1500","upperLimit":"FL170""#))
        #expect(n.limits == NotamLimits(floorFt: 1500, ceilingFt: 17_000, origin: "api"))
        #expect(n.endEstimated && n.end == Timestamp.parse("2026-05-16T18:00:00Z"))
    }
}

@Suite(.timeLimit(.minutes(5))) struct OfficialGeometryTests {
    /// Every part of a MultiPolygon counts, not only the first.
    @Test func multiPolygonKeepsEveryPart() throws {
        let geometry = #"{"type":"MultiPolygon","coordinates":[[[[-122.8,44.93],[-122.75,44.93],[-122.75,44.96],[-122.8,44.96],[-122.8,44.93]]],[[[-123.03,44.93],[-122.97,44.93],[-122.97,44.96],[-123.03,44.96],[-123.03,44.93]]]]}"#
        let n = try parseFeature(apiFeature(number: "05/120", text: "AIRSPACE R4499A ACT SFC-7999FT", geometry: geometry))
        let g = try #require(n.geometry)
        #expect(g.parts?.count == 2 && g.origin == .official)
        #expect(inside(g, Position(latitude: 44.945, longitude: -123.0)) && inside(g, Position(latitude: 44.945, longitude: -122.775)))
        #expect(!inside(g, Position(latitude: 44.945, longitude: -122.9)))
    }

    /// Open boundary pieces are joined into the closed ring (a MOA's 2–3 LineStrings), not a sliver.
    @Test func boundaryPiecesJoinIntoARing() throws {
        // A 30 × 20 NM box drawn as three pieces, the middle one reversed.
        let geometry = #"{"type":"GeometryCollection","geometries":[{"type":"LineString","coordinates":[[-98.0,36.0],[-98.0,36.3333]]},{"type":"LineString","coordinates":[[-97.3819,36.3333],[-98.0,36.3333]]},{"type":"LineString","coordinates":[[-97.3819,36.3333],[-97.3819,36.0],[-98.0,36.0]]}]}"#
        let n = try parseFeature(apiFeature(number: "05/311", text: "AIRSPACE VANCE 1A MOA ACT 8000FT-FL180", geometry: geometry))
        let g = try #require(n.geometry)
        #expect(g.polygon?.count == 4 && g.parts == nil)
        #expect(abs(g.areaNM2 - 600) < 10)
        #expect(n.kind == .moa && n.geometry?.floorFt == 8000 && n.geometry?.ceilingFt == 18_000)
    }

    /// A hand-made several-part feature (issue 26): one boundary drawn as three open pieces
    /// whose corners the source left out (gaps of 0.05°, the third piece reversed), plus a
    /// second area as a Polygon. The pieces join into one ring in the order given (not three
    /// slivers each closed on itself) and the second area stays its own part.
    @Test func openPiecesWithGapsJoinIntoOneRingAndEveryPartStays() throws {
        let geometry = #"{"type":"GeometryCollection","geometries":[{"type":"LineString","coordinates":[[-98.0,36.0],[-98.0,36.5]]},{"type":"LineString","coordinates":[[-97.95,36.5],[-97.45,36.5]]},{"type":"LineString","coordinates":[[-97.95,36.0],[-97.4,36.0],[-97.4,36.45]]},{"type":"Polygon","coordinates":[[[-96.0,35.0],[-95.9,35.0],[-95.9,35.1],[-96.0,35.1],[-96.0,35.0]]]}]}"#
        let n = try parseFeature(apiFeature(number: "05/312", text: "AIRSPACE DEMO MOA ACT 8000FT-FL180", geometry: geometry))
        let g = try #require(n.geometry)
        let parts = try #require(g.parts)
        #expect(parts.count == 2)
        // The joined ring: 2 + 2 + 3 points, in the order given.
        let ring = try #require(parts.first { $0[0].count == 7 }?[0])
        #expect(ring.map { [$0[0], $0[1]] } == [[36.0, -98.0], [36.5, -98.0], [36.5, -97.95], [36.5, -97.45], [36.45, -97.4], [36.0, -97.4], [36.0, -97.95]])
        // 0.5° × 0.6° at 36.25° N less the three cut corners ≈ 868 NM² + the 0.1° square ≈ 29 NM².
        #expect(abs(g.areaNM2 - 898) < 15, "area \(g.areaNM2)")
        #expect(inside(g, Position(latitude: 36.25, longitude: -97.7)) && inside(g, Position(latitude: 35.05, longitude: -95.95)))
        #expect(!inside(g, Position(latitude: 35.6, longitude: -96.7)))
    }

    /// Pieces that would cross themselves when joined in order are each closed on their own.
    @Test func piecesThatWouldCrossStaySeparate() {
        let a = [Position(latitude: 36.0, longitude: -98.0), Position(latitude: 36.5, longitude: -97.4), Position(latitude: 36.5, longitude: -97.3)]
        let b = [Position(latitude: 36.0, longitude: -97.3), Position(latitude: 36.0, longitude: -97.4), Position(latitude: 36.5, longitude: -98.0)]
        #expect(FAANotamAPI.joinRings([a, b]) == [a, b])
        #expect(!FAANotamAPI.isSimple(a + b))
        // Far apart, they are two areas, not one boundary.
        let far = b.map { Position(latitude: $0.latitude + 5, longitude: $0.longitude) }
        #expect(FAANotamAPI.joinRings([a, far]).count == 2)
        // A lone open piece is closed by its last leg, as before.
        #expect(FAANotamAPI.joinRings([a]) == [a])
    }

    /// A SUBTR member is a cut-out within its band, not the area itself; holes are holes.
    @Test func subtractedPartsAndHoles() throws {
        let geometry = #"{"type":"GeometryCollection","geometries":[{"type":"Polygon","operation":"SUBTR","upperLimit":"5000","coordinates":[[[-117.1,35.1],[-117.0,35.1],[-117.0,35.2],[-117.1,35.2],[-117.1,35.1]]]},{"type":"Polygon","coordinates":[[[-117.5,35.0],[-116.5,35.0],[-116.5,35.5],[-117.5,35.5],[-117.5,35.0]],[[-117.4,35.3],[-117.3,35.3],[-117.3,35.4],[-117.4,35.4],[-117.4,35.3]]]}]}"#
        let n = try parseFeature(apiFeature(number: "05/700", text: "AIRSPACE R2508 ACT SFC-FL200", geometry: geometry))
        let g = try #require(n.geometry)
        #expect(g.cutouts?.count == 1 && g.cutouts?.first?.ceilingFt == 5000)
        #expect(g.parts?.count == 1 && g.parts?.first?.count == 2)  // outer ring + hole
        let cut = Position(latitude: 35.15, longitude: -117.05), hole = Position(latitude: 35.35, longitude: -117.35)
        #expect(inside(g, Position(latitude: 35.25, longitude: -116.8)))
        #expect(!inside(g, hole))
        #expect(!inside(g, cut, altitude: 3000, cutouts: g.airspaceCutouts))  // in the cut-out's band
        #expect(inside(g, cut, altitude: 9000, cutouts: g.airspaceCutouts))  // above it
        #expect(inside(g, cut, altitude: nil, cutouts: g.airspaceCutouts))  // no altitude: conservative
        let area = try #require(n.airspaceArea())
        #expect(area.cutouts.count == 1)
    }

    /// The FAA's own shape of a part's band (`heightInformation`: "GND", "01501" in FT, "UNL"):
    /// a SUBTR from the ground to 7,000 ft cuts only that band; a UNION part from 1,501 ft keeps
    /// its own floor, as an area of its own, beside the BASE from the ground; and the bands
    /// survive the store.
    @Test func partsKeepTheirOwnBands() throws {
        let base = #"{"type":"Polygon","operation":"BASE","heightInformation":{"upperLevel":"UNL","uomUpperLevel":"OTHER","lowerLevel":"GND","uomLowerLevel":"FT"},"coordinates":[[[-117.5,35.0],[-117.0,35.0],[-117.0,35.5],[-117.5,35.5],[-117.5,35.0]]]}"#
        let union = #"{"type":"Polygon","operation":"UNION","heightInformation":{"upperLevel":"UNL","uomUpperLevel":"OTHER","lowerLevel":"01501","uomLowerLevel":"FT"},"coordinates":[[[-117.0,35.0],[-116.5,35.0],[-116.5,35.5],[-117.0,35.5],[-117.0,35.0]]]}"#
        let cut = #"{"type":"Polygon","operation":"SUBTR","heightInformation":{"upperLevel":"7000","uomUpperLevel":"FT","lowerLevel":"0","uomLowerLevel":"FT"},"coordinates":[[[-117.4,35.1],[-117.3,35.1],[-117.3,35.2],[-117.4,35.2],[-117.4,35.1]]]}"#
        let geometry = #"{"type":"GeometryCollection","geometries":[\#(base),\#(union),\#(cut)]}"#
        let n = try parseFeature(apiFeature(number: "05/701", text: "AIRSPACE SELLS LOW MOA ACT SFC-FL180", geometry: geometry))
        let g = try #require(n.geometry)
        #expect(g.partBands == [NotamBand(floorFt: nil, ceilingFt: nil), NotamBand(floorFt: 1501, ceilingFt: nil)])
        #expect(g.cutouts?.first?.floorFt == nil && g.cutouts?.first?.ceilingFt == 7000)
        let areas = n.airspaceAreas()
        #expect(areas.count == 2)
        #expect(areas.map(\.floorFt) == [nil, 1501] && areas.allSatisfy { $0.ceilingFt == nil })
        #expect(areas.map(\.id) == ["\(areas[0].id.dropLast(7)) part 1", "\(areas[0].id.dropLast(7)) part 2"])
        // In the cut-out below 7,000 ft: not inside; above it: inside.
        let inCut = Position(latitude: 35.15, longitude: -117.35)
        #expect(!inside(g, inCut, altitude: 5000, cutouts: g.airspaceCutouts))
        #expect(inside(g, inCut, altitude: 9000, cutouts: g.airspaceCutouts))
        // Stored and read back: the bands are kept.
        let back = try JSONDecoder().decode(Notam.self, from: Data(n.storedJSON.utf8))
        #expect(back.geometry?.partBands == g.partBands && back.airspaceAreas().map(\.floorFt) == [nil, 1501])
    }
}

@Suite(.timeLimit(.minutes(5))) struct AirspaceFileRegionTests {
    /// GeoJSON files take MultiPolygons with holes and a `kind` (its levels instead of severity's).
    @Test func multiPolygonWithHoleAndKind() throws {
        let json = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"MOA-X","kind":"moa","ceilingFt":18000},"geometry":{"type":"MultiPolygon","coordinates":[[[[-123,45],[-122,45],[-122,46],[-123,46],[-123,45]],[[-122.6,45.4],[-122.4,45.4],[-122.4,45.6],[-122.6,45.6],[-122.6,45.4]]],[[[-121,45],[-120.5,45],[-120.5,45.5],[-121,45.5],[-121,45]]]]}}]}"#
        let areas = try AirspaceFile.parse(Data(json.utf8), name: "x.geojson")
        let a = try #require(areas.first)
        guard case .region(let parts) = a.shape else { Issue.record("not a region"); return }
        #expect(parts.count == 2 && parts[0].holes.count == 1 && a.kind == .moa && a.levels.inside == .caution)
        var engine = AirspaceAlertEngine()
        engine.setAreas(areas)
        #expect(engine.evaluate(fix: fix(Position(latitude: 45.2, longitude: -120.7), altitude: 5000), at: 0).map(\.level) == [.caution])
        var hole = AirspaceAlertEngine()
        hole.setAreas(areas)
        // In the middle of the hole, 4.2 NM from its nearest edge (beyond the 3 NM buffer): nothing.
        #expect(hole.evaluate(fix: fix(Position(latitude: 45.5, longitude: -122.5), altitude: 5000, speed: 0), at: 0).isEmpty)
        var edge = AirspaceAlertEngine()
        edge.setAreas(areas)
        // 1.2 NM inside the hole from its east edge: near (advisory), not inside.
        #expect(edge.evaluate(fix: fix(Position(latitude: 45.5, longitude: -122.428), altitude: 5000, speed: 0), at: 0).map(\.level) == [.advisory])
        #expect(throws: GatewayError.self) {
            try AirspaceFile.parse(Data(json.replacingOccurrences(of: "\"moa\"", with: "\"blimp\"").utf8), name: "x.geojson")
        }
    }
}

@Suite(.timeLimit(.minutes(5))) struct NotamTranslatorContextTests {
    @Test func tokensInContext() {
        // Sentences since issue 26; designators stay names, NM after a number is nautical miles.
        #expect(NotamTranslator.translate("TWY N CLSD") == "Taxiway N is closed.")
        #expect(NotamTranslator.translate("TWY A, B AND N CLSD") == "Taxiways A, B and N are closed.")
        #expect(NotamTranslator.translate("RWY 13L/31R CLSD") == "Runway 13L/31R is closed.")
        // The FDC place stays as written (the state is a name there); the distance is nautical miles.
        #expect(NotamTranslator.translate("NM..AIRSPACE ALBUQUERQUE, NM..TEMPORARY FLIGHT RESTRICTIONS WI 5 NM")
            == "Temporary flight restriction, Albuquerque, NM: within 5 nautical miles.")
        #expect(NotamTranslator.translate("OBST TWR 1 NM N OF AD") == "Obstacle: a tower 1 nautical mile north of aerodrome.")
    }
}

@Suite(.serialized, .timeLimit(.minutes(5))) struct NotamStoreRefreshTests {
    func store() throws -> (NotamStore, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notamrefresh-\(UUID())")
        return (NotamStore(database: try GatewayDatabase(path: dir.appendingPathComponent("g.sqlite").path)), dir)
    }

    /// A NOTAMC ahead of the NOTAM it cancels in the same reply: the NOTAM is not stored, and
    /// later identical fetches log nothing.
    @Test func cancellationIndependentOfOrder() throws {
        let (s, dir) = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let t0 = Timestamp.parse("2026-05-15T09:00:00Z")!
        let replaced = NotamParser.parse(NotamTexts.replacement, source: "faa-api")
        let cancel = NotamParser.parse(NotamTexts.cancel, source: "faa-api")
        let other = NotamParser.parse(NotamTexts.icaoRestricted, source: "faa-api")
        #expect(try s.refresh(source: "faa-api", notams: [cancel, replaced, other], at: t0).map(\.kind) == ["new"])
        #expect(try s.all().map(\.number) == ["A0123/26"])
        #expect(try s.refresh(source: "faa-api", notams: [cancel, replaced, other], at: t0 + 60).isEmpty)
        // Stored first, cancelled later with the C listed first: one "cancelled", then quiet.
        let (s2, dir2) = try store()
        defer { try? FileManager.default.removeItem(at: dir2) }
        try s2.refresh(source: "faa-api", notams: [replaced, other], at: t0)
        #expect(try s2.refresh(source: "faa-api", notams: [cancel, replaced, other], at: t0 + 60).map { "\($0.kind) \($0.key)" } == ["cancelled EGLL:A0456/26"])
        #expect(try s2.refresh(source: "faa-api", notams: [cancel, replaced, other], at: t0 + 120).isEmpty)
    }

    /// A `--near` refresh cancels what it no longer lists inside the queried circle: circles,
    /// polygons, and NOTAMs without an area by their location's position; not those outside.
    @Test func nearRefreshCancelsPolygonsAndNoGeometryNotams() throws {
        let (s, dir) = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let t0 = Timestamp.parse("2026-05-16T10:00:00Z")!
        let query = NotamQuery(near: (44.91, -123.0, 30))
        let polygon = try parseFeature(apiFeature(number: "05/120", text: "AIRSPACE R4499A ACT SFC-7999FT",
                                                  geometry: #"{"type":"Polygon","coordinates":[[[-123.03,44.93],[-122.97,44.93],[-122.97,44.96],[-123.03,44.96],[-123.03,44.93]]]}"#))
        let noGeometry = try parseFeature(apiFeature(number: "05/121", text: "SVC TWR CLSD", extra: #","coordinates":"4455N12300W""#))
        let far = try parseFeature(apiFeature(number: "05/122", text: "SVC TWR CLSD", extra: #","coordinates":"4730N12220W""#))
        let kept = try parseFeature(apiFeature(number: "05/123", text: "RWY 13/31 CLSD", extra: #","coordinates":"4454N12301W""#))
        #expect(query.covers(polygon) && query.covers(noGeometry) && !query.covers(far))
        try s.refresh(source: "faa-api", notams: [polygon, noGeometry, far, kept], at: t0) { query.covers($0) }
        let changes = try s.refresh(source: "faa-api", notams: [kept], at: t0 + 60) { query.covers($0) }
        #expect(Set(changes.map { "\($0.kind) \($0.key)" }) == ["cancelled ZSE:05/120", "cancelled ZSE:05/121"])
        #expect(Set(try s.all().compactMap(\.number)) == ["05/122", "05/123"])
    }

    @Test func showListsEveryNotamSharingANumber() throws {
        let (s, dir) = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = NotamParser.parse("!SLE 05/012 SLE RWY 13/31 CLSD 2605160800-2605170800", source: "faa-api")
        let b = NotamParser.parse("!PDX 05/012 PDX TWY C CLSD 2605160800-2605170800", source: "faa-api")
        try s.refresh(source: "faa-api", notams: [a, b], at: Timestamp.parse("2026-05-16T09:00:00Z")!)
        #expect(try s.notams(matching: "05/012").map(NotamStore.key) == ["PDX:05/012", "SLE:05/012"])
        #expect(try s.notams(matching: "SLE:05/012").count == 1)
    }
}

@Suite(.timeLimit(.minutes(5))) struct NotamFileStreamTests {
    /// Members split the same whatever the chunking, strings with brackets and escapes intact.
    @Test func splitterHandlesChunksStringsAndEscapes() throws {
        let doc = #"{"pageSize":2,"note":"items [x]","nested":{"items":[1]},"items":[{"a":"}\"]{"},{"b":[1,{"c":2}]}],"totalPages":1}"#
        for size in [1, 2, 7, 1000] {
            var splitter = JSONItemSplitter(arrayKey: "items")
            var items: [String] = []
            let bytes = Array(doc.utf8)
            for start in stride(from: 0, to: bytes.count, by: size) {
                splitter.feed(Data(bytes[start..<min(bytes.count, start + size)])) { items.append(String(decoding: $0, as: UTF8.self)) }
            }
            #expect(items == [#"{"a":"}\"]{"}"#, #"{"b":[1,{"c":2}]}"#], "chunk \(size)")
            #expect(splitter.sawArray)
        }
    }

    @Test func fileErrorsAreActionable() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notamfile-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("x.json").path
        try Data(#"{"features":[]}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: GatewayError.self) { try NotamFile.read(path: path) }
        #expect(throws: GatewayError.self) { try NotamFile.read(path: dir.appendingPathComponent("missing.json").path) }
        let notams = try NotamFile.read(path: fixtures.appendingPathComponent("notams-demo.json").path)
        #expect(notams.count == 5 && notams.allSatisfy { $0.source == "file" })
    }
}

/// Replay reads the stored set: import the fixture into a temporary database, replay the demo
/// flight with that database (no --notams), and the restricted area and the MOA on its path alert.
@Suite(.serialized, .timeLimit(.minutes(5))) struct StoredAirspaceReplayTests {
    func replay(_ areas: [AirspaceArea]) throws -> [AlertEvent] {
        let capture = try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.pcap").path)
        var pipeline = GatewayPipeline()
        var alerts = pipeline.process(.airspace(areas), at: capture.datagrams[0].timestamp!).alerts
        for d in capture.datagrams { alerts += pipeline.process(.datagram(d.bytes), at: d.timestamp).alerts }
        alerts += pipeline.finish(.silence(70)).alerts
        return alerts.filter { $0.kind == .airspace }
    }

    @Test func restrictedAreaAndMOAFromTheStoreAlert() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("storedreplay-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let database = try GatewayDatabase(path: dir.appendingPathComponent("g.sqlite").path)
        let notams = try NotamFile.read(path: fixtures.appendingPathComponent("notams-airspace.json").path)
        try NotamStore(database: database).refresh(source: "file", notams: notams, at: Timestamp.parse("2026-05-16T12:00:00Z")!) { _ in false }
        let areas = try AirspaceSet.load(database: database)
        #expect(areas.map(\.id) == ["ZSE 05/120", "ZSE 05/140"])
        #expect(areas.map(\.kind) == [.restricted, .moa])
        let alerts = try replay(areas)
        let restricted = alerts.filter { $0.subject == "ZSE 05/120" }
        #expect(restricted.map(\.level) == [.advisory, .caution, .warning, .advisory, .advisory])
        #expect(restricted.map(\.change) == [.raised, .updated, .updated, .updated, .cleared])
        // Inside from 1.5 NM north: 30 s on the ground + 54 s at 100 kt.
        #expect(Timestamp.iso8601(restricted[2].time).hasPrefix("2026-05-16T14:01:2"))
        let moa = alerts.filter { $0.subject == "ZSE 05/140" }
        #expect(moa.first?.level == .caution && moa.first?.change == .raised && moa.allSatisfy { $0.level != .warning })
        // The same file given with --notams and stored: one area each (the merge rule).
        let both = try AirspaceSet.load(database: database, notamFiles: [fixtures.appendingPathComponent("notams-airspace.json").path])
        #expect(both.map(\.id) == ["ZSE 05/120", "ZSE 05/140"])
    }

    /// The README's first command, `replay … --notams fixtures/notams-demo.json`, still shows the
    /// TFR's caution, warning and clear.
    @Test func readmeDemoTFRUnchanged() throws {
        let areas = try AirspaceSet.load(database: nil, notamFiles: [fixtures.appendingPathComponent("notams-demo.json").path])
        let tfr = try replay(areas).filter { $0.subject == "FDC 6/2174" }
        #expect(tfr.map(\.level) == [.caution, .warning, .advisory, .advisory])
        #expect(tfr.map(\.change) == [.raised, .updated, .updated, .cleared])
        #expect(Timestamp.iso8601(tfr[1].time).hasPrefix("2026-05-16T14:03:30"))
    }
}
