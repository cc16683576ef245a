import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayRecords
@testable import GatewayNotams

/// Issue 27, item 4: 20,000 stored NOTAMs or one NOTAM of 1,000,000 vertices must not make
/// every datagram, every snapshot and every `/api/traffic` poll pay for the whole store.
@Suite(.timeLimit(.minutes(5))) struct LargeNotamStoreTests {
    let salem = Position(latitude: 44.9095, longitude: -123.003)

    /// A ring of a million vertices (a 20 NM circle drawn point by point) keeps its shape in at
    /// most 2,000 vertices; rings of real size are kept exactly.
    @Test func hugeRingsAreSimplifiedWhereTheyEnter() async {
        let salem = self.salem
        let (million, g) = await offPool { () -> ([Position], NotamGeometry) in
            let ring = (0..<1_000_000).map { Geodesy.destination(from: salem, bearingDeg: Double($0) * 360 / 1_000_000, distanceNM: 20) }
            return (ring, NotamGeometry.polygon(ring, origin: .official))
        }
        let ring = NotamGeometry.positions(g.polygon ?? [])
        #expect(ring.count <= RingSimplifier.maximumVertices && ring.count > 100)
        // Every kept vertex is one of the given ones, and the outline is still 20 NM out.
        for p in ring.prefix(50) { #expect(abs(Geodesy.distanceNM(salem, p) - 20) < 0.001) }
        let area = AirspaceArea(id: "big", name: "big", shape: .polygon(ring))
        var engine = AirspaceAlertEngine()
        engine.setAreas([area])
        #expect(engine.areas.count == 1)
        let small = Array(million.enumerated().filter { $0.offset % 1_001 == 0 }.map(\.element))
        #expect(small.count == 1_000 && RingSimplifier.simplify(small) == small)
    }

    /// The feeds' snapshot (and so `/api/traffic` and `/airspace.geojson`) holds the areas near
    /// ownship, at most 500, whatever the store holds.
    @Test func snapshotHoldsTheAreasNearOwnship() async {
        let salem = self.salem
        let (s, empty) = await offPool { Self.snapshots(salem: salem) }
        #expect(s.airspace.count <= 500)
        #expect(s.airspace.contains { $0.id == "SLE" })
        #expect(s.airspace.allSatisfy { a in
            guard case .circle(let c, _) = a.shape else { return false }
            return Geodesy.distanceNM(c, salem) < 400
        })
        // Without a position: none to show.
        #expect(empty.airspace.isEmpty)
    }

    static func snapshots(salem: Position) -> (FeedSnapshot, FeedSnapshot) {
        var areas: [AirspaceArea] = []
        var seed: UInt64 = 42
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for i in 0..<20_000 {
            let c = Position(latitude: 25 + next() * 24, longitude: -124 + next() * 57)
            areas.append(AirspaceArea(id: "A\(i)", name: "A\(i)", shape: .circle(center: c, radiusNM: 1 + next() * 3), ceilingFt: 5_000, kind: .tfr))
        }
        areas.append(AirspaceArea(id: "SLE", name: "SLE", shape: .circle(center: salem, radiusNM: 2), ceilingFt: 5_000, kind: .tfr))
        var core = GatewayCore()
        _ = core.handle(.airspace(areas), at: 1)
        _ = core.handle(.gpsFix(GPSFix(position: Position(latitude: 44.8, longitude: -123.0), altitudeFt: 3000, groundSpeedKt: 90, trackDeg: 0)), at: 2)
        return (core.snapshot(at: 2), GatewayCore().snapshot(at: 2))
    }

    /// One NOTAM of 17 MB in a file is refused by name before it is parsed.
    @Test func oversizedNotamIsRefusedBeforeParsing() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let padding = String(repeating: "[-123.0,45.0],", count: 17 << 20 / 14)
        try "{\"items\":[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[\(padding)[-123.0,45.0]]]}}]}"
            .write(toFile: path, atomically: false, encoding: .utf8)
        #expect {
            try NotamFile.read(path: path) { _ in }
        } throws: { error in
            "\(error)".contains("item 1 of \"items\" is 17 MB, over the 16 MB a NOTAM may take")
        }
    }
}
