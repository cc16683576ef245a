import Foundation
import Synchronization
import Testing
@testable import TrafficGateway

/// One pipeline, one tick rule: a live session over a real UDP socket and the replay of its own
/// flight recording give byte-identical alerts.
@Suite(.serialized) struct LiveReplayIdentityTests {
    @Test func liveSessionAndTheReplayOfItsRecordingAreIdentical() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-recorder-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let live = Mutex<[AlertEvent]>([])
        let gateway = LiveGateway(log: nil, onAlerts: { alerts in live.withLock { $0 += alerts } })
        gateway.recorder = try FlightRecorder(directory: directory) { Issue.record("recorder: \($0)") }
        try gateway.start(bind: "127.0.0.1", port: 0)
        // The bundled flight, 25 datagrams a second: its alerts (raised, updated, cleared by the
        // tick after the target is gone) depend on arrival times only.
        let capture = try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.pcap").path)
        let sender = try UDPSender(host: "127.0.0.1", port: gateway.port)
        for d in capture.datagrams {
            sender.send(d.bytes)
            usleep(40_000)
        }
        Thread.sleep(forTimeInterval: 3)
        let stopped = Date().timeIntervalSince1970
        gateway.stop()
        let liveAlerts = live.withLock { $0 }
        #expect(liveAlerts.count >= 3, "the flight should alert live: \(liveAlerts.map(\.message))")

        let recordings = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".pcapng") }.sorted()
        #expect(recordings.count >= 1)
        var datagrams: [CapturedDatagram] = []
        for name in recordings { datagrams += try CaptureFile.read(path: directory + "/" + name).datagrams }
        #expect(datagrams.count == capture.datagrams.count)
        var replay = CaptureReplay(pipeline: GatewayPipeline())
        let replayed = replay.replay(datagrams)
        // Both have ticked every whole second up to a second and a half before the stop.
        let cutoff = stopped - 1.5
        let a = liveAlerts.filter { $0.time < cutoff }.map(AlertFormatter.json)
        let b = replayed.filter { $0.time < cutoff }.map(AlertFormatter.json)
        #expect(!a.isEmpty)
        #expect(a == b)
    }
}
