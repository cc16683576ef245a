import Dispatch
import Foundation
import GDL90
import Synchronization
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayRecords
import GatewayCaptures
@testable import GatewayRuntime

@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct LiveGatewayTests {
    /// The real listener on loopback: several frames per datagram, a frame split across two
    /// datagrams, and a conflict that raises a warning from wall-clock receive times.
    @Test func listenerReceivesDatagramsAndRaisesAlerts() throws {
        let collected = Collected()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-live-\(UUID())")
        let database = try GatewayDatabase(path: directory.appendingPathComponent("gateway.sqlite").path)
        let gateway = LiveGateway(log: AlertLog(database: database), onAlerts: { events in collected.alerts.withLock { $0 += events.map(\.event) } })
        try gateway.start(bind: "127.0.0.1", port: 0)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sender = try UDPSender(host: "127.0.0.1", port: gateway.port)
        let plane = LocalPlane(origin: Position(latitude: 45, longitude: -122))
        let own = Message.ownship(TrafficReport(address: 0xA1B2C3, position: plane.unproject(PlanePoint(east: 0, north: 0)),
                                                pressureAltitudeFt: 3000, groundSpeedKt: 100, verticalSpeedFpm: 0, trackDeg: 0)).frame()
        let intruder = Message.traffic(TrafficReport(address: 0xAB4549, position: plane.unproject(PlanePoint(east: 0.05, north: 0.6)),
                                                     pressureAltitudeFt: 3100, groundSpeedKt: 120, verticalSpeedFpm: 0, trackDeg: 180,
                                                     callsign: "N825V")).frame()
        let heartbeat = Message.heartbeat(Heartbeat(gpsPositionValid: true, utcOK: true)).frame()
        // Datagram 1: heartbeat + ownship + the first 10 bytes of the intruder; datagram 2: the rest.
        sender.send(heartbeat + own + Array(intruder.prefix(10)))
        sender.send(Array(intruder.dropFirst(10)))
        _ = eventually(2) { !collected.alerts.withLock { $0.isEmpty } }
        let status = gateway.status()
        gateway.stop()
        let alerts = collected.alerts.withLock { $0 }
        #expect(status.counters.datagrams == 2)
        #expect(status.counters.messagesByType == ["heartbeat": 1, "ownship": 1, "traffic": 1])
        #expect(status.positionSource == .gdl90)
        #expect(alerts.first?.level == .warning)
        #expect(alerts.first?.subject == "ab4549")
        // The alert log got it too (written off the receive path, flushed by stop()).
        let stored = try AlertLog(database: database).events()
        #expect(stored.first?.alertID == alerts.first?.id)
        #expect(stored.first?.level == "warning")
    }

    @Test func portInUseIsAClearError() throws {
        let first = LiveGateway(log: nil, onAlerts: { _ in })
        try first.start(bind: "127.0.0.1", port: 0)
        defer { first.stop() }
        let second = LiveGateway(log: nil, onAlerts: { _ in })
        #expect {
            try second.start(bind: "127.0.0.1", port: first.port)
        } throws: { error in
            "\(error)".contains("already in use")
        }
    }
}

@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct AlertLogTests {
    @Test func appendsSurviveReopenAndFilterBySince() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("alerts-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let events = (0..<3).map { i in
            AlertEvent(change: i == 2 ? .cleared : .raised, kind: .traffic, id: "traffic-abc123-\(i)", subject: "abc123",
                       level: .caution, time: 1000 + Double(i), message: "m\(i)")
        }
        try AlertLog(database: GatewayDatabase(path: path)).append(events)
        let reopened = AlertLog(database: try GatewayDatabase(path: path))
        #expect(try reopened.events().map(\.alertID) == events.map(\.id))
        #expect(try reopened.events(since: 1001).map(\.time) == [1001, 1002])
        #expect(try reopened.events().last?.event == "cleared")
    }

    @Test func garbageFileIsAClearError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-db-\(UUID()).sqlite").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x41, count: 4096))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            try GatewayDatabase(path: path)
        } throws: { error in
            "\(error)".contains("not a valid SQLite database") && "\(error)".contains(path)
        }
    }

    @Test func gpsdTPVParsing() {
        let line = Array(#"{"class":"TPV","mode":3,"lat":45.5,"lon":-122.5,"altMSL":1000.0,"speed":51.4444,"track":90.0,"climb":2.54}"#.utf8)
        let fix = GPSDClient.fix(fromJSONLine: line)
        #expect(fix?.position == Position(latitude: 45.5, longitude: -122.5))
        #expect(abs((fix?.groundSpeedKt ?? 0) - 100) < 0.01)
        #expect(abs((fix?.altitudeFt ?? 0) - 3280.84) < 0.01)
        #expect(abs((fix?.verticalSpeedFpm ?? 0) - 500) < 0.1)
        #expect(GPSDClient.fix(fromJSONLine: Array(#"{"class":"TPV","mode":1}"#.utf8)) == nil)
        #expect(GPSDClient.fix(fromJSONLine: Array("garbage".utf8)) == nil)
        #expect(GPSDClient.parse("localhost")! == ("localhost", 2947))
        #expect(GPSDClient.parse("10.0.0.1:3000")! == ("10.0.0.1", 3000))
        #expect(GPSDClient.parse(":") == nil)
    }

    @Test func gpsdFixDrivesAlertsWhenNoGDL90Ownship() {
        var core = GatewayCore()
        let plane = LocalPlane(origin: Position(latitude: 45, longitude: -122))
        _ = core.handle(.gpsFix(GPSFix(position: plane.origin, altitudeFt: 3000, groundSpeedKt: 100, trackDeg: 0)), at: 0)
        #expect(core.ownshipFix?.source == .gpsd)
        let alerts = core.handle(.message(.traffic(TrafficReport(address: 0xAB4549, position: plane.unproject(PlanePoint(east: 0.05, north: 0.6)),
                                                                 pressureAltitudeFt: 3000, groundSpeedKt: 120, verticalSpeedFpm: 0, trackDeg: 180))), at: 0.5)
        #expect(alerts.map(\.level) == [.warning])
    }
}

/// Inputs stamped on their sources' threads reach the core late and out of order under load (an
/// SBS read waits behind the datagrams and ticks stamped meanwhile): the core's clock never steps
/// back for them.
@Suite struct LiveGatewayTimeOrderTests {
    final class Changes: GatewaySink, @unchecked Sendable {
        let events = Mutex<[AlertEvent]>([])
        func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) { events.withLock { $0 += outputs.alerts } }
    }

    /// The demo flight through its head-on warning; meanwhile an SBS read stamped 2 s before the
    /// latest ownship report reaches the core. Handled at its own time it found no ownship fix
    /// "yet" (a report from the future), cleared every alert, and the next report rejoined them
    /// (seen in CI: one alert cleared a hundred times under an SBS flood). Handled at the latest
    /// time, nothing changes: the encounter's alerts are those of the flight alone.
    @Test func aLateReadNeverStepsTheClockBack() throws {
        let capture = try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.pcap").path)
        func run(lateReads: Bool) -> [String] {
            let changes = Changes()
            let gateway = LiveGateway(sinks: [changes])
            // A far aircraft's position, as an SBS read becomes a GDL 90 traffic report.
            let far = Message.traffic(TrafficReport(address: 0xA00001, position: Position(latitude: 10, longitude: 10), pressureAltitudeFt: 10_000, groundSpeedKt: 300, verticalSpeedFpm: 0, trackDeg: 90)).frame()
            for (i, d) in capture.datagrams.enumerated() {
                let t = d.timestamp ?? 0
                gateway.deliver(.datagram(d.bytes), at: t)
                if lateReads, i % 5 == 0 { gateway.deliver(.datagram(far), at: t - 2) }
            }
            gateway.queue.sync {}
            return changes.events.withLock { $0.filter { $0.change != .updated }.map { "\($0.change) \($0.id)" } }
        }
        let alone = run(lateReads: false), withLate = run(lateReads: true)
        #expect(!alone.isEmpty && withLate == alone, "with late reads: \(withLate)\nalone: \(alone)")
        // A clock set back a minute or more is taken as it is (a new start, not a late input).
        let gateway = LiveGateway(sinks: [])
        gateway.deliver(.tick, at: 1_778_940_200)
        gateway.deliver(.tick, at: 1_778_940_000)
        gateway.queue.sync {}
        #expect(gateway.status().counters.datagrams == 0)
    }
}
