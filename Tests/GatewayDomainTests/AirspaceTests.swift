import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures
@testable import GatewayFeeds
@testable import GatewaySimulation

/// Ownship at the origin of a plane at 45N 122W, flying north at 120 kt (2 NM a minute).
private struct Sky {
    let plane = LocalPlane(origin: Position(latitude: 45, longitude: -122))
    var engine = AirspaceAlertEngine()

    func at(north: Double, east: Double = 0) -> Position { plane.unproject(PlanePoint(east: east, north: north)) }

    func fix(north: Double, altitude: Double = 3000, speed: Double = 120, track: Double = 0) -> OwnshipFix {
        OwnshipFix(position: at(north: north), altitudeFt: altitude, altitudeIsPressure: true,
                   velocity: PlaneVelocity(speedKt: speed, trackDeg: track), groundSpeedKt: speed, trackDeg: track,
                   verticalSpeedFpm: 0, airborne: true, source: .gdl90)
    }

    /// A 1 NM circle 5 NM north, SFC–4000 ft.
    func tfr(severity: AirspaceArea.Severity = .caution, start: Double? = nil, end: Double? = nil, floor: Int? = nil) -> AirspaceArea {
        AirspaceArea(id: "FDC 6/2174", name: "TFR 6/2174", shape: .circle(center: at(north: 5), radiusNM: 1),
                     floorFt: floor, ceilingFt: 4000, start: start, end: end, severity: severity)
    }
}

@Suite(.timeLimit(.minutes(5))) struct AirspaceGeometryTests {
    /// Circles are exact: the time to entry solves ray against circle.
    @Test func circleEntryIsExact() {
        let sky = Sky()
        // 5 NM north, radius 1: boundary 4 NM ahead; at 120 kt that is 120 s.
        let g = AirspaceGeometry(shape: sky.tfr().shape, plane: LocalPlane(origin: sky.at(north: 0)),
                                 velocity: PlaneVelocity(speedKt: 120, trackDeg: 0), lookAheadSec: 300)
        #expect(abs(g.signedDistanceNM - 4) < 0.001)
        #expect(abs(g.timeToEntrySec! - 120) < 0.2)
        // Offset 0.6 NM east: chord entry at north 5 − √(1 − 0.36) = 4.2 NM → 126 s.
        let off = AirspaceGeometry(shape: .circle(center: sky.at(north: 5, east: 0.6), radiusNM: 1), plane: LocalPlane(origin: sky.at(north: 0)),
                                   velocity: PlaneVelocity(speedKt: 120, trackDeg: 0), lookAheadSec: 300)
        #expect(abs(off.timeToEntrySec! - 126) < 0.3)
        // Heading away: never.
        let away = AirspaceGeometry(shape: sky.tfr().shape, plane: LocalPlane(origin: sky.at(north: 0)),
                                    velocity: PlaneVelocity(speedKt: 120, trackDeg: 180), lookAheadSec: 300)
        #expect(away.timeToEntrySec == nil)
    }

    @Test func polygonInsideDistanceAndEntry() {
        let sky = Sky()
        // A 2 × 2 NM square from north 3 to 5, east −1 to 1.
        let square = AirspaceArea.Shape.polygon([sky.at(north: 3, east: -1), sky.at(north: 3, east: 1), sky.at(north: 5, east: 1), sky.at(north: 5, east: -1)])
        let outside = AirspaceGeometry(shape: square, plane: LocalPlane(origin: sky.at(north: 0)),
                                       velocity: PlaneVelocity(speedKt: 120, trackDeg: 0), lookAheadSec: 120)
        #expect(abs(outside.signedDistanceNM - 3) < 0.01)
        #expect(abs(outside.timeToEntrySec! - 90) < 0.5)
        let inside = AirspaceGeometry(shape: square, plane: LocalPlane(origin: sky.at(north: 4, east: 0.5)),
                                      velocity: PlaneVelocity(speedKt: 120, trackDeg: 0), lookAheadSec: 120)
        #expect(inside.signedDistanceNM < 0 && abs(inside.signedDistanceNM + 0.5) < 0.01)
        #expect(inside.timeToEntrySec == 0)
        // Beyond the look-ahead (90 s needed, 60 s looked at): no entry predicted.
        let short = AirspaceGeometry(shape: square, plane: LocalPlane(origin: sky.at(north: 0)),
                                     velocity: PlaneVelocity(speedKt: 120, trackDeg: 0), lookAheadSec: 60)
        #expect(short.timeToEntrySec == nil)
    }

    @Test func indexFindsOnlyNearbyAreas() {
        var areas: [AirspaceArea] = []
        for i in 0..<5000 {
            let lat = 25 + Double(i % 100) * 0.25, lon = -125 + Double(i / 100) * 1.2
            areas.append(AirspaceArea(id: "A\(i)", name: "A\(i)", shape: .circle(center: Position(latitude: lat, longitude: lon), radiusNM: 2)))
        }
        let index = AirspaceIndex(areas)
        let near = index.candidates(near: Position(latitude: 25.0, longitude: -125.0), radiusNM: 10)
        #expect(near.contains(0))
        #expect(near.count < 20)
        #expect(near.allSatisfy { Geodesy.distanceNM(areas[$0].outline(segments: 4)[0], Position(latitude: 25, longitude: -125)) < 60 })
    }
}

@Suite(.timeLimit(.minutes(5))) struct AirspaceAlertTests {
    @Test func cautionThenWarningThenClear() {
        var sky = Sky()
        sky.engine.setAreas([sky.tfr()])
        // 4 NM from the boundary, 120 s at 120 kt: inside the 120 s look-ahead → caution.
        let first = sky.engine.evaluate(fix: sky.fix(north: 0), at: 1000)
        #expect(first.count == 1)
        #expect(first[0].change == .raised && first[0].level == .caution && first[0].kind == .airspace)
        #expect(first[0].subject == "FDC 6/2174")
        #expect(abs(first[0].airspace!.timeToEntrySec! - 120) < 0.5)
        #expect(first[0].airspace?.ceilingFt == 4000)
        let json = AlertFormatter.json(first[0])
        #expect(json.contains(#""kind":"airspace""#) && json.contains(#""distanceNM":4"#) && json.contains(#""timeToEntrySec":120"#))
        // Inside: warning, same id.
        let inside = sky.engine.evaluate(fix: sky.fix(north: 4.5), at: 1135)
        #expect(inside.first?.level == .warning && inside.first?.change == .updated && inside.first?.id == first[0].id)
        // Past it and heading away, 3.5 NM beyond: nothing called for; cleared after the delay.
        #expect(sky.engine.evaluate(fix: sky.fix(north: 9.5), at: 1270).isEmpty)
        let cleared = sky.engine.evaluate(fix: sky.fix(north: 9.7), at: 1276)
        #expect(cleared.first?.change == .cleared && cleared.first?.id == first[0].id)
    }

    @Test func lateralAndVerticalBuffers() {
        var sky = Sky()
        sky.engine.setAreas([sky.tfr()])
        // Passing 2 NM east of the circle's edge (3 NM from centre), heading north: never enters,
        // within the 3 NM buffer → advisory.
        let passing = sky.engine.evaluate(fix: sky.fix(north: 5).with(east: 3, plane: sky.plane), at: 0)
        #expect(passing.first?.level == .advisory)
        // 400 ft above the 4000 ft ceiling, straight over it: within the 500 ft vertical buffer → advisory.
        var over = Sky()
        over.engine.setAreas([over.tfr()])
        #expect(over.engine.evaluate(fix: over.fix(north: 5, altitude: 4400), at: 0).first?.level == .advisory)
        // 1000 ft above: nothing.
        var high = Sky()
        high.engine.setAreas([high.tfr()])
        #expect(high.engine.evaluate(fix: high.fix(north: 5, altitude: 5000), at: 0).isEmpty)
        // Below a 2000 ft floor by 1000 ft: nothing; by 300 ft: advisory.
        var under = Sky()
        under.engine.setAreas([under.tfr(floor: 2000)])
        #expect(under.engine.evaluate(fix: under.fix(north: 5, altitude: 1000), at: 0).isEmpty)
        #expect(under.engine.evaluate(fix: under.fix(north: 5, altitude: 1700), at: 1).first?.level == .advisory)
    }

    @Test func onlyActiveAreasCount() {
        var sky = Sky()
        sky.engine.setAreas([sky.tfr(start: 2000, end: 3000)])
        #expect(sky.engine.evaluate(fix: sky.fix(north: 5), at: 1999).isEmpty)
        #expect(sky.engine.evaluate(fix: sky.fix(north: 5), at: 2000).first?.level == .warning)
        #expect(sky.engine.evaluate(fix: sky.fix(north: 5), at: 3000).isEmpty)  // ended: step-down delay runs
        #expect(sky.engine.evaluate(fix: sky.fix(north: 5), at: 3006).first?.change == .cleared)
    }

    @Test func severityRaisesTheLevelAndAcknowledgementQuietsWarnings() {
        var sky = Sky()
        sky.engine.setAreas([sky.tfr(severity: .critical)])
        // Predicted entry (caution) on a prohibited area → warning.
        #expect(sky.engine.evaluate(fix: sky.fix(north: 0), at: 0).first?.level == .warning)
        sky.engine.acknowledge("FDC 6/2174", at: 1)
        // Acknowledged: shown as caution for 15 minutes (after the step-down delay), then warning again.
        _ = sky.engine.evaluate(fix: sky.fix(north: 0.1), at: 2)
        #expect(sky.engine.evaluate(fix: sky.fix(north: 0.4), at: 8).first?.level == .caution)
        #expect(sky.engine.evaluate(fix: sky.fix(north: 4.5), at: 902).first?.level == .warning)
    }

    @Test func lostFixClearsEverything() {
        var sky = Sky()
        sky.engine.setAreas([sky.tfr()])
        _ = sky.engine.evaluate(fix: sky.fix(north: 4.5), at: 0)
        #expect(sky.engine.evaluate(fix: nil, at: 1).first?.change == .cleared)
    }

    /// The README's main command: the bundled capture with the bundled airspace raises the TFR
    /// caution ahead of it, the warning inside it, and clears.
    @Test func bundledCaptureFliesThroughTheTFR() throws {
        let capture = try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.pcap").path)
        let areas = try AirspaceFile.read(path: fixtures.appendingPathComponent("demo-airspace.geojson").path)
        #expect(areas.count == 3)
        var replay = CaptureReplay(pipeline: GatewayPipeline())
        var alerts = replay.process(.airspace(areas), at: capture.datagrams[0].timestamp!).alerts
        alerts += replay.replay(capture.datagrams).alerts
        let tfr = alerts.filter { $0.kind == .airspace }
        #expect(tfr.map(\.subject) == ["FDC 6/2174", "FDC 6/2174", "FDC 6/2174", "FDC 6/2174"])
        #expect(tfr.map(\.level) == [.caution, .warning, .advisory, .advisory])
        #expect(tfr.map(\.change) == [.raised, .updated, .updated, .cleared])
        // Inside at t = 210 s: 30 s on the ground, then 5 NM north at 100 kt = 180 s.
        #expect(Timestamp.iso8601(tfr[1].time).hasPrefix("2026-05-16T14:03:30"))
    }

    @Test func airspaceFileErrorsNameTheFeature() {
        #expect(throws: GatewayError.self) { try AirspaceFile.parse(Data("nope".utf8), name: "x.geojson") }
        do {
            _ = try AirspaceFile.parse(Data(#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0]]]},"properties":{"id":"A"}}]}"#.utf8), name: "x.geojson")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("x.geojson: feature 0: a polygon needs 3 or more points"))
        }
        // The feed's own output reads back, circles exact.
        var s = FeedSnapshot.empty(at: 0)
        s.airspace = [Sky().tfr()]
        let back = try? AirspaceFile.parse(Data(FeedEncoders.airspaceGeoJSON(s).utf8), name: "feed")
        #expect(back?.first?.shape == .circle(center: Sky().at(north: 5), radiusNM: 1) || {
            if case .circle(let c, let r)? = back?.first?.shape { return abs(c.latitude - Sky().at(north: 5).latitude) < 1e-6 && r == 1 }
            return false
        }())
        #expect(back?.first?.ceilingFt == 4000)
    }
}

extension OwnshipFix {
    /// The same fix moved `east` NM east on `plane`.
    func with(east: Double, plane: LocalPlane) -> OwnshipFix {
        var f = self
        var p = plane.project(position)
        p.east += east
        f.position = plane.unproject(p)
        return f
    }
}

@Suite(.timeLimit(.minutes(5))) struct FISBAirspaceTests {
    /// TFR graphics heard in FIS-B uplinks become airspace alerts in flight, with no network:
    /// the sample's TFR 6/6101 (3 NM around KSLE, SFC–3000 ft AGL, 14:00–18:00Z) alerts ownship
    /// flying over KSLE at 2000 ft; an area given from outside with the same id takes precedence.
    @Test func fisbTFRRaisesAnAirspaceAlert() {
        let start = DemoFlight.start + 60
        var pipeline = GatewayPipeline()
        let own = Message.ownship(TrafficReport(address: 0xA1B2C3, position: DemoFlight.origin, pressureAltitudeFt: 2000,
                                                groundSpeedKt: 100, verticalSpeedFpm: 0, trackDeg: 0)).frame()
        var alerts: [AlertEvent] = []
        for (i, payload) in FISBSamples.uplinks().enumerated() {
            let uplink = Message.uplink(Uplink(timeOfReception: nil, payload: payload)).frame()
            alerts += pipeline.process(.datagram(own + uplink), at: start + Double(i)).alerts
        }
        let airspace = alerts.filter { $0.kind == .airspace }
        #expect(airspace.first?.subject.hasPrefix("FDC 6/6101") == true)
        #expect(airspace.first?.level == .warning)
        let area = pipeline.core.airspaceAlerts.areas.first { $0.id == "FDC 6/6101" }
        if case .circle(let c, let r)? = area?.shape {
            #expect(r == 3)
            #expect(Geodesy.distanceNM(c, DemoFlight.origin) < 0.05)
        } else {
            Issue.record("FDC 6/6101 is not a circle: \(String(describing: area))")
        }
        #expect(area?.ceilingIsAGL == true && area?.ceilingFt == 3000)
        // A given area with the same id replaces the FIS-B one.
        let official = AirspaceArea(id: "FDC 6/6101", name: "official", shape: .circle(center: DemoFlight.origin, radiusNM: 1))
        _ = pipeline.process(.airspace([official]), at: start + 20)
        #expect(pipeline.core.airspaceAlerts.areas.filter { $0.id == "FDC 6/6101" }.map(\.name) == ["official"])
    }
}
