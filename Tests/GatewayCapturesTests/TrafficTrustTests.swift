import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures
@testable import GatewaySimulation

/// Replays a traffic scenario (as `gatewayd replay --json` does) and returns its alert events.
private func replay(_ scenario: TrafficScenario) throws -> (lines: [String], events: [AlertEvent]) {
    let pcap = try CaptureFile.read(path: fixtures.appendingPathComponent("scenarios/\(scenario.name).pcap").path)
    var fixes: [TimedGPSFix] = []
    let gps = fixtures.appendingPathComponent("scenarios/\(scenario.name).gps.jsonl").path
    if FileManager.default.fileExists(atPath: gps) { fixes = try GPSLog.read(path: gps).fixes }
    var replay = CaptureReplay(pipeline: GatewayPipeline(), gpsFixes: fixes)
    let events = replay.replay(pcap.datagrams).alerts
    return (events.map(AlertFormatter.json), events)
}

/// The issue-13 scenarios: each phenomenon real receivers showed, reproduced, with the rules that
/// keep the alerts trustworthy checked on it.
@Suite(.timeLimit(.minutes(5))) struct TrafficScenarioTests {
    @Test func scenarioFixturesAreReproducible() throws {
        for s in TrafficScenario.all {
            let pcap = try Data(contentsOf: fixtures.appendingPathComponent("scenarios/\(s.name).pcap"))
            #expect(pcap == Data(PcapWriter.pcap(s.datagrams())), "\(s.name).pcap differs from TrafficScenario.\(s.name): run gatewayd simulate")
            if !s.gpsLog().isEmpty {
                #expect(try Data(contentsOf: fixtures.appendingPathComponent("scenarios/\(s.name).gps.jsonl")) == Data(s.gpsLog()))
            }
        }
    }

    @Test(arguments: TrafficScenario.all.map(\.name))
    func goldenAndTrustworthy(_ name: String) throws {
        let scenario = TrafficScenario.all.first { $0.name == name }!
        let (lines, events) = try replay(scenario)
        let golden = try String(contentsOf: fixtures.appendingPathComponent("scenarios/\(name).alerts.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(lines == golden, "scenarios/\(name).alerts.jsonl")
        let traffic = events.filter { $0.kind == .traffic }
        // Zero re-raises within 30 s of a clear, and at most one event per alert per second.
        var lastClear: [String: Double] = [:]
        var perSecond: [String: Int] = [:]
        for e in traffic {
            if e.change == .raised, let c = lastClear[e.subject] { #expect(e.time - c >= 30, "\(e.subject) re-raised \(e.time - c) s after its clear") }
            if e.change == .cleared { lastClear[e.subject] = e.time }
            perSecond["\(e.id) \(Int(e.time))", default: 0] += 1
        }
        #expect(perSecond.values.allSatisfy { $0 == 1 }, "two events of one alert in one second")
        // Echoes, twins' copies and frozen copies never raise a caution or a warning.
        for e in traffic where scenario.mustNotAlert.contains(e.subject) { #expect(e.level == .advisory, "\(e.subject) must not alert") }
        for group in scenario.sameAircraft {
            #expect(Set(traffic.filter { $0.change == .raised }.map(\.subject)).intersection(group).count <= 1, "one aircraft, one alert")
        }
        // Every genuine conflict (within 0.5 NM and 300 ft of airborne ownship) is alerted, before it gets that close.
        for conflict in scenario.genuineConflicts() {
            let first = traffic.first { $0.subject == conflict.address }
            #expect(first != nil, "\(conflict.address) is a genuine conflict and was not alerted")
            if let first { #expect(first.time <= scenario.start + Double(conflict.firstSecond) + 1) }
        }
    }

    @Test func parkedRaisesNoCautionOrWarning() throws {
        let traffic = try replay(.parked).events
        #expect(!traffic.contains { $0.level >= .caution })
        // The parked target on the ground and the taxiing one raise nothing at all.
        #expect(!traffic.contains { $0.subject == "a12301" || $0.subject == "a45601" })
    }

    /// Issue 28, 1: the chase's lagging TIS-B copy is N96AN's twin through the whole orbit.
    @Test func turningTwinIsAlertedOnce() throws {
        let traffic = try replay(.turning).events.filter { $0.kind == .traffic }
        #expect(!traffic.isEmpty && traffic.allSatisfy { $0.subject == "ad4f21" })
        #expect(traffic.filter { $0.change == .raised }.count == 1)
    }

    /// Issue 28, 2: a clear and a comeback never fall in one second; the comeback is the next second's.
    @Test func clearAndComebackNeverShareASecond() throws {
        let traffic = try replay(.flicker).events.filter { $0.kind == .traffic }
        let clear = try #require(traffic.firstIndex { $0.change == .cleared })
        let back = traffic[clear + 1]
        #expect(back.id == traffic[clear].id && back.change == .updated)
        #expect(Int(back.time) == Int(traffic[clear].time) + 1)
    }

    @Test func gapsKeepOneAlertForTheFormationPartner() throws {
        let events = try replay(.gaps).events.filter { $0.subject == "a22201" }
        #expect(events.map(\.change) == [.raised, .cleared])
        #expect(Set(events.map(\.id)).count == 1)
    }

    @Test func echoOfOwnshipNeverAlertsAndIsLogged() throws {
        let pcap = try CaptureFile.read(path: fixtures.appendingPathComponent("scenarios/echo.pcap").path)
        let fixes = try GPSLog.read(path: fixtures.appendingPathComponent("scenarios/echo.gps.jsonl").path).fixes
        var replay = CaptureReplay(pipeline: GatewayPipeline(), gpsFixes: fixes)
        let out = replay.replay(pcap.datagrams)
        let events = out.alerts
        #expect(!events.contains { $0.subject == "a5e7c0" })
        #expect(events.contains { $0.subject == "a55501" && $0.level == .warning })
        let notices = out.notices
        #expect(notices.count == 1)
        #expect(notices.first?.contains("a5e7c0 rides with ownship") == true)
    }

    @Test func twinIsAlertedOnce() throws {
        let events = try replay(.twins).events
        #expect(Set(events.map(\.subject)) == ["a44401"])
        #expect(events.contains { $0.level == .warning })
    }

    @Test func frozenCopyNeverCautions() throws {
        let events = try replay(.frozen).events.filter { $0.subject == "~000456" }
        #expect(!events.contains { $0.level >= .caution })
        // Seen for the first time it cannot be told frozen: an advisory, cleared once it is.
        #expect(events.last?.change == .cleared)
    }
}

@Suite(.timeLimit(.minutes(5))) struct FlightStateTests {
    @Test func takeoffAndLandingWithHysteresis() {
        var f = FlightState()
        f.update(groundSpeedKt: 0, verticalSpeedFpm: 0, heightAboveTerrainFt: nil, at: 0)
        #expect(f.phase == .ground)
        f.update(groundSpeedKt: 45, verticalSpeedFpm: 0, heightAboveTerrainFt: nil, at: 1)
        f.update(groundSpeedKt: 45, verticalSpeedFpm: 0, heightAboveTerrainFt: nil, at: 3)
        #expect(f.phase == .ground)  // 2 s of takeoff speed: a fast taxi so far
        f.update(groundSpeedKt: 60, verticalSpeedFpm: 300, heightAboveTerrainFt: nil, at: 4)
        #expect(f.phase == .airborne)
        // Slow flight in the pattern (35 kt ground speed into a headwind) stays airborne.
        f.update(groundSpeedKt: 35, verticalSpeedFpm: 0, heightAboveTerrainFt: nil, at: 30)
        #expect(f.airborne)
        f.update(groundSpeedKt: 10, verticalSpeedFpm: 0, heightAboveTerrainFt: nil, at: 100)
        f.update(groundSpeedKt: 8, verticalSpeedFpm: 0, heightAboveTerrainFt: nil, at: 119)
        #expect(f.airborne)  // 19 s slow
        f.update(groundSpeedKt: 5, verticalSpeedFpm: 0, heightAboveTerrainFt: nil, at: 120)
        #expect(f.phase == .ground)
    }

    @Test func firstFixDecidesAndHeightAboveTerrainWins() {
        var inFlight = FlightState()
        inFlight.update(groundSpeedKt: 110, verticalSpeedFpm: 0, heightAboveTerrainFt: nil, at: 0)
        #expect(inFlight.airborne)
        var hover = FlightState()
        hover.update(groundSpeedKt: 0, verticalSpeedFpm: 0, heightAboveTerrainFt: 800, at: 0)
        #expect(hover.airborne)
        hover.update(groundSpeedKt: 0, verticalSpeedFpm: 0, heightAboveTerrainFt: 700, at: 60)
        #expect(hover.airborne)  // hovering 700 ft above the ground is not parked
    }

    /// Stratux's airborne bit is set on the apron: the core judges from speed instead.
    @Test func boxAirborneBitIsNotTrusted() {
        var core = GatewayCore()
        let own = TrafficReport(address: 0xA1B2C3, position: Position(latitude: 45, longitude: -123), pressureAltitudeFt: 200,
                                airborne: true, groundSpeedKt: 3, verticalSpeedFpm: 0, trackDeg: 0)
        for t in 0..<10 { _ = core.handle(.message(.ownship(own)), at: Double(t)) }
        #expect(core.ownshipFix?.airborne == false)
        #expect(core.ownship.flight.phase == .ground)
    }
}

@Suite(.timeLimit(.minutes(5))) struct TrafficAlertEngineTrustTests {
    let plane = LocalPlane(origin: Position(latitude: 45, longitude: -123))

    /// A target `north` NM ahead at ownship's altitude, closing head-on at `closure` knots.
    func geometry(north: Double, closure: Double = 240) -> TrafficGeometry {
        let own = OwnshipFix(position: plane.origin, altitudeFt: 3000, altitudeIsPressure: true, velocity: PlaneVelocity(speedKt: 120, trackDeg: 0),
                             groundSpeedKt: 120, trackDeg: 0, verticalSpeedFpm: 0, airborne: true, source: .gdl90)
        let target = Target(key: TargetKey(namespace: .icao, address: 1), addressType: .adsbICAO, callsign: nil, position: nil,
                            pressureAltitudeFt: 3000, groundSpeedKt: Int(closure - 120), trackDeg: 180, verticalSpeedFpm: 0, airborne: true,
                            emitterCategory: 1, extrapolated: false, lastSeen: 0, lastReal: 0, lastDirect: 0, reports: 1, mergedSources: false)
        return TrafficGeometry(plane: plane, ownship: own, targetPosition: plane.unproject(PlanePoint(east: 0.05, north: north)), target: target)
    }

    @Test func oneDecisionPerSecond() {
        var engine = TrafficAlertEngine()
        let key = TargetKey(namespace: .icao, address: 1)
        // 2.6 NM at 240 kt closure: 39 s to CPA, caution. Half a second later 1.3 NM: warning due.
        let raised = engine.evaluate(key, target: nil, geometry: geometry(north: 2.6), at: 100.0, ownshipTrack: 0)
        #expect(raised?.change == .raised && raised?.level == .caution)
        #expect(engine.evaluate(key, target: nil, geometry: geometry(north: 1.3), at: 100.5, ownshipTrack: 0) == nil)
        let warning = engine.evaluate(key, target: nil, geometry: geometry(north: 1.25), at: 101.0, ownshipTrack: 0)
        #expect(warning?.level == .warning && warning?.change == .updated && warning?.id == raised?.id)
    }

    @Test func returnWithinThirtySecondsIsTheSameEncounter() {
        var engine = TrafficAlertEngine()
        let key = TargetKey(namespace: .icao, address: 1)
        let raised = engine.evaluate(key, target: nil, geometry: geometry(north: 2.6), at: 0, ownshipTrack: 0)!
        var cleared: AlertEvent?
        for t in 1...30 where cleared == nil {
            cleared = engine.evaluate(key, target: nil, geometry: nil, at: Double(t), ownshipTrack: 0)
        }
        #expect(cleared?.change == .cleared)
        let back = engine.evaluate(key, target: nil, geometry: geometry(north: 2.6), at: cleared!.time + 20, ownshipTrack: 0)
        #expect(back?.change == .updated)
        #expect(back?.id == raised.id)
        // Long after, a new encounter.
        var engine2 = engine
        _ = engine2.clearAll(at: 100)
        #expect(engine2.evaluate(key, target: nil, geometry: geometry(north: 2.6), at: 200, ownshipTrack: 0)?.change == .raised)
    }

    @Test func heldOwnshipFixHoldsTheAlert() {
        var engine = TrafficAlertEngine()
        let key = TargetKey(namespace: .icao, address: 1)
        _ = engine.evaluate(key, target: nil, geometry: geometry(north: 1.3), at: 0, ownshipTrack: 0)
        // Geometry that would clear, but ownship's fix is 9 s old: held, no event at all.
        for t in 1...14 {
            #expect(engine.evaluate(key, target: nil, geometry: geometry(north: 8), heldForSec: Double(t), at: Double(t), ownshipTrack: 0) == nil)
        }
        #expect(engine.activeCount == 1)
    }

    @Test func ownshipGapOfThirteenSecondsIsDeadReckoned() {
        var o = OwnshipState()
        o.report = TrafficReport(address: 1, position: Position(latitude: 45, longitude: -123), pressureAltitudeFt: 3000,
                                 groundSpeedKt: 120, verticalSpeedFpm: 600, trackDeg: 90)
        o.reportTime = 0
        let fix = o.fix(at: 13)!
        #expect(fix.isHeld)
        #expect(abs(Geodesy.distanceNM(Position(latitude: 45, longitude: -123), fix.position) - 120 * 13 / 3600.0) < 0.001)
        #expect(abs(fix.altitudeFt! - 3130) < 0.5)
        #expect(o.fix(at: 2)?.isHeld == false)
        #expect(o.fix(at: 16) == nil)
    }
}

@Suite(.timeLimit(.minutes(5))) struct TrafficPictureTrustTests {
    let origin = Position(latitude: 45, longitude: -123)

    func report(_ address: UInt32, _ type: AddressType, east: Double, north: Double, speed: Int = 130, track: Double = 270) -> TrafficReport {
        TrafficReport(addressType: type, address: address, position: LocalPlane(origin: origin).unproject(PlanePoint(east: east, north: north)),
                      pressureAltitudeFt: 3000, groundSpeedKt: speed, verticalSpeedFpm: 0, trackDeg: track)
    }

    @Test func trackFileCopyBecomesTheTwinOfTheADSBTarget() {
        var picture = TrafficPicture()
        let own = OwnshipState()
        _ = picture.apply(report(0xA44401, .adsbICAO, east: 1, north: 1), at: 0, ownship: own, ownshipFix: nil)
        _ = picture.apply(report(0x000123, .tisbTrackFile, east: 1.04, north: 1.02), at: 0.3, ownship: own, ownshipFix: nil)
        #expect(picture.targets[TargetKey(namespace: .trackFile, address: 0x123)]?.twinOf == TargetKey(namespace: .icao, address: 0xA44401))
        #expect(picture.targets[TargetKey(namespace: .icao, address: 0xA44401)]?.twinOf == nil)
        // A track file 0.5 NM away is another aircraft.
        _ = picture.apply(report(0x000124, .tisbTrackFile, east: 1.5, north: 1), at: 0.4, ownship: own, ownshipFix: nil)
        #expect(picture.targets[TargetKey(namespace: .trackFile, address: 0x124)]?.twinOf == nil)
    }

    /// A track file lags the aircraft it copies: in a turn its track trails behind. Within the arc
    /// the aircraft's tracks swept lately (plus the usual 20°) it is the same aircraft; ahead of the
    /// turn, or while the aircraft flies straight, the old 20° holds.
    @Test func turningTwinMayTrailByTheTurn() {
        // Turning right: the last 6 s swept 48° behind the present track (offsets −48…0).
        #expect(TrafficPicture.trackTrails(copy: 50, of: 90, sweep: (-48, 0), tolerance: 20))
        #expect(TrafficPicture.trackTrails(copy: 25, of: 90, sweep: (-48, 0), tolerance: 20))
        #expect(!TrafficPicture.trackTrails(copy: 20, of: 90, sweep: (-48, 0), tolerance: 20))
        // Ahead of the turn is not where a lagging copy can be.
        #expect(!TrafficPicture.trackTrails(copy: 130, of: 90, sweep: (-48, 0), tolerance: 20))
        // Turning left, across north: 10° now, the copy on 40° (30° behind).
        #expect(TrafficPicture.trackTrails(copy: 40, of: 10, sweep: (0, 30), tolerance: 20))
        #expect(TrafficPicture.trackTrails(copy: 355, of: 10, sweep: (0, 0), tolerance: 20))
        #expect(!TrafficPicture.trackTrails(copy: 40, of: 10, sweep: (0, 0), tolerance: 20))
    }

    /// The arc a target's reported tracks swept, at whatever spacing they came (issue 44: reports
    /// 3–5 s apart), walking back the shorter way between each two, the last before the lag included.
    @Test func trackHistorySweepsTheTracksFlown() {
        var h = TrackHistory()
        // A left turn at 5.7°/s reported 4, 3 and 5 s apart: 112° at 0, 89.2 at 4, 72.1 at 7, 49.3 at 12.
        for (t, track) in [(0.0, 112.0), (4, 89.2), (7, 72.1), (12, 49.3)] { h.add(track, at: t) }
        let arc = h.sweep(since: 12 - 6, current: 49.3)
        #expect(abs(arc.low) < 1e-4 && abs(arc.high - (89.2 - 49.3)) < 1e-4, "back to the report before the lag: \(arc)")
        // Across north, and never further back than one report before the lag.
        var n = TrackHistory()
        for (t, track) in [(0.0, 300.0), (1, 20.0), (10, 350.0), (14, 10.0)] { n.add(track, at: t) }
        let across = n.sweep(since: 8, current: 10)
        #expect(abs(across.low - -20) < 1e-4 && abs(across.high - 10) < 1e-4, "\(across)")
        #expect(TrackHistory().sweep(since: 0, current: 90) == (0, 0))
    }

    /// The picture links the lagging copy from the tracks reported; two aircraft turning together
    /// 0.15 NM apart, or a straight crosser, are still two aircraft.
    @Test func turningTrackFileIsLinkedAndAFormationIsNot() {
        var picture = TrafficPicture()
        let own = OwnshipState()
        let lead = TargetKey(namespace: .icao, address: 0xAD4F21)
        for t in 0...6 { _ = picture.apply(report(0xAD4F21, .adsbICAO, east: 1, north: 1, speed: 100, track: Double(t) * 8), at: Double(t), ownship: own, ownshipFix: nil) }
        // The copy, 40° behind, 0.05 NM off.
        _ = picture.apply(report(0x000960, .tisbTrackFile, east: 1.04, north: 1.03, speed: 100, track: 8), at: 6.3, ownship: own, ownshipFix: nil)
        #expect(picture.targets[TargetKey(namespace: .trackFile, address: 0x960)]?.twinOf == lead)
        // Another radar-tracked aircraft turning with it 0.15 NM abeam is not a copy.
        _ = picture.apply(report(0x000961, .tisbTrackFile, east: 1.15, north: 1, speed: 100, track: 40), at: 6.4, ownship: own, ownshipFix: nil)
        #expect(picture.targets[TargetKey(namespace: .trackFile, address: 0x961)]?.twinOf == nil)
        // Nor is one crossing close by on a track the turn never swept.
        _ = picture.apply(report(0x000962, .tisbTrackFile, east: 1.03, north: 1.02, speed: 100, track: 200), at: 6.5, ownship: own, ownshipFix: nil)
        #expect(picture.targets[TargetKey(namespace: .trackFile, address: 0x962)]?.twinOf == nil)
    }

    /// Issue 44's recording: the leader's reports 3–5 s apart in a 5.7°/s left turn; its TIS-B
    /// copy (another ICAO address) with the track of 4 s before (88.6° against 49.2°) is its twin.
    @Test func sparseReportsInATurnStillLinkTheCopy() {
        var picture = TrafficPicture()
        let own = OwnshipState()
        let lead = TargetKey(namespace: .icao, address: 0xA5C001)
        for (t, track) in [(0.0, 112.0), (4, 89.2), (7, 72.1), (11, 49.3)] {
            _ = picture.apply(report(0xA5C001, .adsbICAO, east: 1, north: 1, speed: 141, track: track), at: t, ownship: own, ownshipFix: nil)
        }
        _ = picture.apply(report(0xA5C0FF, .tisbICAO, east: 1.03, north: 1.04, speed: 135, track: 88.6), at: 11.5, ownship: own, ownshipFix: nil)
        #expect(picture.targets[TargetKey(namespace: .icao, address: 0xA5C0FF)]?.twinOf == lead)
    }

    @Test func frozenPositionIsStaleAfterFiveSeconds() {
        var picture = TrafficPicture()
        let own = OwnshipState()
        for t in 0...7 { _ = picture.apply(report(0xA00001, .adsbICAO, east: 1, north: 1), at: Double(t), ownship: own, ownshipFix: nil) }
        let target = picture.targets[TargetKey(namespace: .icao, address: 0xA00001)]!
        #expect(!target.isFrozen(at: 4))
        #expect(target.isFrozen(at: 7))
        // Meanwhile it is extrapolated along its track: 3 s at 130 kt west.
        let p = target.projectedPosition(at: 3)!
        #expect(abs(Geodesy.distanceNM(target.position!, p) - 130 * 3 / 3600.0) < 0.001)
        // A slow target (a taxiing one, a hovering helicopter) that stays put is not frozen.
        var slow = TrafficPicture()
        for t in 0...9 { _ = slow.apply(report(0xA00002, .adsbICAO, east: 1, north: 1, speed: 10), at: Double(t), ownship: own, ownshipFix: nil) }
        #expect(slow.targets.first?.value.isFrozen(at: 9) == false)
    }
}

@Suite(.timeLimit(.minutes(5))) struct CaptureTimeTests {
    /// A raw stream's day: --date, else the file's modification day, a day earlier when the first
    /// heartbeat is later in the day than the file was written; never 1970.
    @Test func rawStreamDate() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-date-\(getpid()).gdl90").path
        _ = FileManager.default.createFile(atPath: path, contents: Data([0x7E]))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = Timestamp.parse("2026-05-16T00:20:00Z")!
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: written)], ofItemAtPath: path)
        let given = CaptureDate.resolve(given: "2026-05-10", path: path, firstHeartbeatSeconds: nil)!
        #expect(given.midnight == Timestamp.parse("2026-05-10")! && !given.assumed)
        let assumed = CaptureDate.resolve(given: nil, path: path, firstHeartbeatSeconds: 600)!
        #expect(assumed.day == "2026-05-16" && assumed.assumed)
        // Recording began at 23:50Z the day before and was last written at 00:20Z.
        #expect(CaptureDate.resolve(given: nil, path: path, firstHeartbeatSeconds: 85_800)!.day == "2026-05-15")
        #expect(CaptureDate.resolve(given: "16/05/2026", path: path, firstHeartbeatSeconds: nil) == nil)
    }

    /// Raw streams are cut at heartbeats, so `--speed` paces them by the heartbeat clock.
    @Test func rawStreamIsPacedByHeartbeats() throws {
        let raw = try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.gdl90").path)
        #expect(raw.datagrams.count >= 300)
        var replay = CaptureReplay(pipeline: GatewayPipeline(timeSource: .heartbeat(midnight: DemoFlight.start - 14 * 3600)))
        let times = raw.datagrams.compactMap { replay.eventTime(of: $0) }
        #expect(times.first == DemoFlight.start)
        #expect(times.count >= 299)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 0 && $1 - $0 <= 1 })
    }
}
