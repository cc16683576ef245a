import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures
@testable import GatewayRecords
@testable import GatewayNotams

/// Issue 27, item 1: one NOTAM vertex at longitude 1e300 killed `run` at every start (the
/// airspace index converted it to a grid cell and trapped). Every coordinate, radius and limit
/// is range-checked where it enters, and the index's conversions are total.
@Suite(.timeLimit(.minutes(5))) struct HostileAirspaceTests {
    let notamFile = fixtures.appendingPathComponent("hostile/notam-vertex-out-of-range.json").path
    let eventsFile = fixtures.appendingPathComponent("hostile/events-huge-radius.jsonl").path
    let origin = Position(latitude: 45, longitude: -123)

    /// `run --notams FILE`: the two NOTAMs are read, their out-of-range geometry is refused
    /// (the TFR falls back to the area its text describes), and the core watches what is left.
    @Test func notamFileWithOutOfRangeVertexIsWatchedSafely() throws {
        var notams: [Notam] = []
        try NotamFile.read(path: notamFile) { notams.append($0) }
        #expect(notams.map(\.number) == ["6/9001", "6/9002"])
        let areas = try AirspaceSet.load(database: nil, notamFiles: [notamFile])
        #expect(areas.allSatisfy { $0.problem == nil })
        // 6/9001's text describes a triangle near Salem: that is what is watched.
        let tfr = try #require(areas.first { $0.id.hasSuffix("6/9001") })
        guard case .polygon(let ring) = tfr.shape else { Issue.record("expected the text's polygon, got \(tfr.shape)"); return }
        #expect(ring.count == 3 && ring.allSatisfy { abs($0.longitude + 123) < 0.1 })
        var core = GatewayCore()
        _ = core.handle(.airspace(areas), at: 1_778_940_000)
        let inside = GPSFix(position: Position(latitude: 45.012, longitude: -122.995), altitudeFt: 2000, groundSpeedKt: 90, trackDeg: 0)
        let alerts = core.handle(.gpsFix(inside), at: 1_778_940_001)
        #expect(alerts.contains { $0.kind == .airspace })
    }

    /// A database written before the checks (or edited by hand) holds the bad polygon: the
    /// store's re-read every minute refuses it instead of trapping.
    @Test func storedOutOfRangeGeometryIsRefusedOnRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let database = try GatewayDatabase(path: dir.appendingPathComponent("g.sqlite").path)
        var notam = NotamParser.parse(NotamTexts.fdcTFR, source: "file")
        notam.geometry = NotamGeometry.polygon([Position(latitude: 45, longitude: 1e300), Position(latitude: 45.1, longitude: -123),
                                                Position(latitude: 45.1, longitude: -122.9)], origin: .official)
        try NotamStore(database: database).refresh(source: "file", notams: [notam], at: 1_778_900_000) { $0.source == "file" }
        let areas = try AirspaceSet.load(database: database)
        #expect(areas.allSatisfy { $0.problem == nil })
        #expect(!areas.contains { $0.id.hasSuffix(notam.number ?? "?") })
    }

    /// The core is the last guard: areas outside the Earth are refused with a notice, the good
    /// one in the same set still alerts.
    @Test func coreRefusesAreasOutsideTheEarth() {
        let good = AirspaceArea(id: "R-1", name: "R-1", shape: .circle(center: origin, radiusNM: 2), severity: .warning)
        let bad: [AirspaceArea] = [
            AirspaceArea(id: "huge", name: "huge", shape: .circle(center: origin, radiusNM: 1e308)),
            AirspaceArea(id: "nan", name: "nan", shape: .circle(center: Position(latitude: .nan, longitude: 0), radiusNM: 1)),
            AirspaceArea(id: "far", name: "far", shape: .polygon([Position(latitude: 1e300, longitude: 0), origin, Position(latitude: 46, longitude: -123)])),
            AirspaceArea(id: "hole", name: "hole", shape: .region([AirspacePart(outer: [origin, Position(latitude: 46, longitude: -123), Position(latitude: 46, longitude: -122)],
                                                                               holes: [[origin, origin, Position(latitude: 0, longitude: .infinity)]])])),
            AirspaceArea(id: "high", name: "high", shape: .circle(center: origin, radiusNM: 1), ceilingFt: 9_000_000),
        ]
        var core = GatewayCore()
        _ = core.handle(.airspace(bad + [good]), at: 1)
        let notices = core.drainNotices()
        #expect(notices.count == 1 && notices[0].hasPrefix("airspace: 5 area(s) refused: area huge: radius"))
        let alerts = core.handle(.gpsFix(GPSFix(position: origin, altitudeFt: 3000, groundSpeedKt: 80, trackDeg: 0)), at: 2)
        #expect(alerts.map(\.subject) == ["R-1"])
    }

    /// The index's cell numbers are total over any double.
    @Test func indexCellsAreTotal() {
        let everything = AirspaceIndex.keys(minLat: -.infinity, maxLat: .infinity, minLon: -1e300, maxLon: 1e300)
        #expect(everything.count == 361 * 721)
        #expect(AirspaceIndex.keys(minLat: .nan, maxLat: .nan, minLon: .nan, maxLon: .nan).count == 721)
        // An ordinary box is what it was: 2 × 2 cells.
        #expect(AirspaceIndex.keys(minLat: 44.9, maxLat: 45.1, minLon: -123.1, maxLon: -122.9).count == 4)
        // A circle across the antimeridian is found from either side.
        let index = AirspaceIndex([AirspaceArea(id: "dateline", name: "d", shape: .circle(center: Position(latitude: 10, longitude: 179.95), radiusNM: 10))])
        #expect(index.candidates(near: Position(latitude: 10, longitude: -179.95), radiusNM: 5) == [0])
    }

    /// `replay --events`: a recorded airspace set with a radius of 1e308 or a vertex at 1e300 is
    /// refused by name and line, not replayed into a trap.
    @Test func eventsFileWithHugeRadiusIsRefusedByLine() {
        #expect {
            _ = try RecordedEventLog.read(path: eventsFile)
        } throws: { error in
            "\(error)".contains("line 2: area HOSTILE 1: radius 1e+308 NM is not between 0 and 1000 NM")
        }
        // The first line alone is a good recorded event.
        let first = (try? String(contentsOfFile: eventsFile, encoding: .utf8))?.split(separator: "\n").first.map(String.init) ?? ""
        #expect((try? RecordedEventLog.parse(Data(first.utf8), path: "first")).map(\.count) == 1)
    }

    /// Text from outside is printed with its control characters escaped.
    @Test func controlCharactersAreEscapedForPrinting() {
        #expect("R-1\n\u{1B}[2Jgatewayd: stopping".escapingControlCharacters == "R-1\\u{A}\\u{1B}[2Jgatewayd: stopping")
        #expect("plain ° text".escapingControlCharacters == "plain ° text")
        #expect("nul\u{0}del\u{7F}c1\u{85}".escapingControlCharacters == "nul\\u{0}del\\u{7F}c1\\u{85}")
    }
}
