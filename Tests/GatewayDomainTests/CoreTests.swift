import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain

@Suite(.timeLimit(.minutes(5))) struct CPAGeometryTests {
    @Test func headOnCPA() {
        // Target 2 NM north, closing at 220 kt relative: CPA in 2 / (220/3600) = 32.7 s, miss 0.
        let cpa = ClosestApproach(relative: PlanePoint(east: 0, north: 2), relativeVelocity: PlaneVelocity(east: 0, north: -220))
        #expect(abs(cpa.timeSec - 32.727) < 0.01)
        #expect(cpa.missNM < 1e-9)
        #expect(cpa.closing)
    }

    @Test func crossingCPA() {
        // Target 1 NM east, 1 NM north, moving west at 3600 kt relative (1 NM/s): CPA at t = 1 s, 1 NM north.
        let cpa = ClosestApproach(relative: PlanePoint(east: 1, north: 1), relativeVelocity: PlaneVelocity(east: -3600, north: 0))
        #expect(abs(cpa.timeSec - 1) < 1e-9)
        #expect(abs(cpa.missNM - 1) < 1e-9)
    }

    @Test func divergingIsNow() {
        let cpa = ClosestApproach(relative: PlanePoint(east: 0, north: 1), relativeVelocity: PlaneVelocity(east: 0, north: 100))
        #expect(cpa.timeSec == 0)
        #expect(cpa.missNM == 1)
        #expect(!cpa.closing)
    }

    @Test func localPlaneMatchesGreatCircle() {
        let plane = LocalPlane(origin: Position(latitude: 45, longitude: -122))
        let p = Geodesy.destination(from: plane.origin, bearingDeg: 60, distanceNM: 10)
        let q = plane.project(p)
        #expect(abs(q.length - 10) < 0.05)
        #expect(abs(q.bearingDeg - 60) < 0.2)
    }

    @Test func clockPositions() {
        #expect(TrafficAlertEngine.clock(bearing: 0, track: 0) == 12)
        #expect(TrafficAlertEngine.clock(bearing: 60, track: 0) == 2)
        #expect(TrafficAlertEngine.clock(bearing: 10, track: 280) == 3)
        #expect(TrafficAlertEngine.clock(bearing: 180, track: 0) == 6)
    }
}

@Suite(.timeLimit(.minutes(5))) struct TrafficAlertTests {
    @Test func levelsFollowThresholds() {
        var s = Scene()
        _ = s.ownship(at: 0)
        // 3 NM ahead, head-on at 120 kt + 100 kt: CPA in 49 s → no alert (range > 2, time > 40).
        #expect(s.target(at: 0, east: 0.1, north: 3).isEmpty)
        // 2.2 NM: CPA in 36 s, miss 0.1 → caution.
        let caution = s.target(at: 1, east: 0.1, north: 2.2)
        #expect(caution.map(\.level) == [.caution])
        #expect(caution.first?.change == .raised)
        #expect(caution.first?.id == "traffic-ab4549-1")
        // 1.1 NM: CPA in 18 s → warning, same id.
        let warning = s.target(at: 2, east: 0.1, north: 1.1)
        #expect(warning.map(\.level) == [.warning])
        #expect(warning.first?.change == .updated)
        #expect(warning.first?.id == "traffic-ab4549-1")
        #expect(warning.first?.traffic?.relativeAltitudeFt == 0)
        #expect(abs((warning.first?.traffic?.cpaMissNM ?? 9) - 0.1) < 0.01)
    }

    @Test func verticalSeparationPreventsAlert() {
        var s = Scene()
        _ = s.ownship(at: 0)
        #expect(s.target(at: 0, east: 0.1, north: 1.1, altitude: 4100).isEmpty)
        // Advisory only within ±1000 ft: 900 ft above, 1.5 NM, diverging.
        var t = Scene()
        _ = t.ownship(at: 0)
        #expect(t.target(at: 0, east: 1.5, north: 0, altitude: 3900, track: 90).map(\.level) == [.advisory])
    }

    @Test func noAlertWithoutOwnshipFix() {
        var s = Scene()
        #expect(s.target(at: 0, east: 0.1, north: 0.5).isEmpty)
        // Once ownship has a fix, the target alerts.
        #expect(s.ownship(at: 0).map(\.level) == [.warning])
        // A fix 3–15 s old is held (dead-reckoned): the alert neither steps down nor clears.
        #expect(s.target(at: 5, east: 0.1, north: 0.5).isEmpty)
        #expect(s.core.ownshipFix?.isHeld == true)
        // A fix older than 15 s no longer counts: the alert clears and new targets raise nothing.
        #expect(s.target(at: 16, east: 0.1, north: 0.5).map(\.change) == [.cleared])
        #expect(s.target(at: 16, address: 0x222222, east: 0.1, north: 0.4).isEmpty)
    }

    @Test func noAlertOnGroundTargetsWhileOwnshipOnGround() {
        var s = Scene()
        _ = s.ownship(at: 0, speed: 0, airborne: false)
        #expect(s.target(at: 0, east: 0.05, north: 0.1, speed: 10, airborne: false).isEmpty)
        // An airborne target over the airport still alerts.
        #expect(!s.target(at: 1, address: 0xBBBBBB, east: 0.05, north: 0.1, altitude: 3000).isEmpty)
    }

    @Test func stratuxAlertBitIsIgnored() {
        var s = Scene()
        _ = s.ownship(at: 0)
        #expect(s.target(at: 0, east: 1.8, north: 0, altitude: 6000, track: 90, alertBit: 1).isEmpty)
    }

    @Test func hysteresisHoldsAndThenClears() {
        var s = Scene()
        _ = s.ownship(at: 0)
        // Advisory at 1.9 NM abeam, not closing (a slow target: a fast one that stays put would be frozen).
        #expect(s.target(at: 0, east: 1.9, north: 0, speed: 30, track: 90).map(\.change) == [.raised])
        // Just outside 2 NM but inside the 2.3 NM exit margin: held.
        var events: [AlertEvent] = []
        for t in 1...20 {
            events += s.ownship(at: Double(t))
            events += s.target(at: Double(t), east: 2.1, north: 0, speed: 30, track: 90)
        }
        #expect(events.allSatisfy { $0.change != .cleared })
        // Beyond the margin: clears only after the step-down delay (4 s), once.
        var cleared: [Double] = []
        for t in 21...30 {
            let events = s.ownship(at: Double(t)) + s.target(at: Double(t), east: 2.5, north: 0, speed: 30, track: 90)
            cleared += events.filter { $0.change == .cleared }.map(\.time)
        }
        #expect(cleared == [25])
    }

    @Test func minimumDurationBeforeStepDown() {
        var s = Scene()
        _ = s.ownship(at: 0)
        #expect(s.target(at: 0, east: 1.0, north: 0, track: 90).map(\.change) == [.raised])
        var cleared: [Double] = []
        for t in 1...12 {
            let events = s.ownship(at: Double(t)) + s.target(at: Double(t), east: 3, north: 0, track: 90)
            cleared += events.filter { $0.change == .cleared }.map(\.time)
        }
        #expect(cleared == [8])
    }

    @Test func ownshipGhostByAddressIsDropped() {
        var s = Scene()
        _ = s.ownship(at: 0)
        #expect(s.target(at: 0, address: 0xA1B2C3, type: .tisbICAO, east: 0, north: 0.01, speed: 100, track: 0).isEmpty)
        #expect(s.core.picture.targets.isEmpty)
        #expect(s.core.picture.ghostsDropped == 1)
    }

    @Test func anonymousOwnshipGhostMatchedByKinematics() {
        var s = Scene()
        _ = s.ownship(at: 0, address: 0, type: .adsbSelfAssigned)
        #expect(s.target(at: 0, address: 0x2D1E7F, type: .tisbTrackFile, east: 0.05, north: 0.05, speed: 104, track: 3).isEmpty)
        #expect(s.core.picture.ghostsDropped == 1)
        // Same place, other direction: a real aircraft, kept (and it alerts).
        #expect(!s.target(at: 1, address: 0x2D1E7F, type: .tisbTrackFile, east: 0.05, north: 0.3, speed: 104, track: 180).isEmpty)
    }

    @Test func tisbAndADSBCopiesMerge() {
        var s = Scene()
        _ = s.ownship(at: 0)
        _ = s.target(at: 0, address: 0xC0FFEE, type: .adsbICAO, east: 1.5, north: 0, track: 90)
        _ = s.target(at: 0.5, address: 0xC0FFEE, type: .tisbICAO, east: 1.6, north: 0, track: 90)
        #expect(s.core.picture.targets.count == 1)
        let t = try! #require(s.core.picture.targets[TargetKey(namespace: .icao, address: 0xC0FFEE)])
        #expect(t.mergedSources)
        // The direct report's position is kept while it is fresh.
        #expect(abs(s.plane.project(t.position!).east - 1.5) < 0.001)
        #expect(s.core.trafficAlerts.activeCount == 1)
    }

    @Test func staleAndDropped() {
        var s = Scene()
        _ = s.ownship(at: 0)
        _ = s.target(at: 0, address: 0x111111, east: 10, north: 0, track: 90)
        _ = s.ownship(at: 21)
        let target = s.core.picture.targets.values.first!
        #expect(s.core.picture.isStale(target, at: 21))
        _ = s.ownship(at: 61)
        #expect(s.core.picture.targets.isEmpty)
    }

    @Test func extrapolatedPositionsUntrustedAfterTenSeconds() {
        var s = Scene()
        _ = s.ownship(at: 0)
        _ = s.target(at: 0, east: 0.1, north: 5)
        var levels: [AlertLevel] = []
        for t in 1...15 {
            _ = s.ownship(at: Double(t))
            levels += s.target(at: Double(t), east: 0.1, north: 5 - Double(t) * 0.3, extrapolated: true).map(\.level)
        }
        // Until t = 10 the extrapolated reports count; the caution they cause is not upgraded after.
        #expect(!levels.contains(.warning))
    }

    @Test func modeSRingCollapsesAndNeverAlerts() {
        var s = Scene()
        _ = s.ownship(at: 0)
        var events: [AlertEvent] = []
        for i in 0..<8 {
            let angle = Double(i) * 45
            events += s.target(at: 0, address: UInt32(i), east: 0.8 * sinDeg(angle), north: 0.8 * cosDeg(angle), speed: 0, callsign: "MODE S")
        }
        #expect(events.isEmpty)
        #expect(s.core.picture.targets.isEmpty)
        #expect(abs((s.core.picture.modeSRing?.rangeNM ?? 0) - 0.8) < 0.01)
    }
}
