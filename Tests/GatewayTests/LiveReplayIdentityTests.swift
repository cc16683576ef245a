import Foundation
import GDL90
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
        let gateway = LiveGateway(log: nil, onAlerts: { alerts in live.withLock { $0 += alerts.map(\.event) } })
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

@Suite struct FlightRecorderTests {
    /// An hour a file pair; past the cap the oldest hour goes (never the current one); what was
    /// written reads back with the very times it was stamped with.
    @Test func rotatesHourlyAndKeepsWithinItsCap() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-rec-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorder = try FlightRecorder(directory: directory, maximumBytes: 2 << 20) { Issue.record("recorder: \($0)") }
        let payload = [UInt8](repeating: 0x42, count: 1_000)
        let start = Timestamp.parse("2026-05-16T14:00:00Z")!
        // 700 KB in each of three hours under a 2 MB cap: the first hour goes while the third fills.
        for hour in 0..<3 {
            for i in 0..<700 {
                let t = CaptureTime.quantized(start + Double(hour) * 3600 + Double(i) * 0.5 + 0.123457)
                payload.withUnsafeBytes { recorder.record($0, at: t) }
            }
            recorder.record(GPSFix(position: Position(latitude: 45, longitude: -123), altitudeFt: 3000, groundSpeedKt: 100, trackDeg: 90),
                            at: CaptureTime.quantized(start + Double(hour) * 3600 + 1.5))
        }
        recorder.close()
        let files = recorder.recordings()
        #expect(files == ["gdl90-2026-05-16-15.gps.jsonl", "gdl90-2026-05-16-15.pcapng", "gdl90-2026-05-16-16.gps.jsonl", "gdl90-2026-05-16-16.pcapng"])
        let capture = try CaptureFile.read(path: directory + "/gdl90-2026-05-16-16.pcapng")
        #expect(capture.datagrams.count == 700)
        #expect(capture.datagrams.first?.timestamp == CaptureTime.quantized(start + 7200 + 0.123457))
        #expect(capture.datagrams.first?.bytes == payload)
        let fixes = try GPSLog.read(path: directory + "/gdl90-2026-05-16-16.gps.jsonl").fixes
        #expect(fixes.count == 1 && fixes[0].time == start + 7201.5)
    }

    @Test func anUnwritableFolderIsAClearError() {
        #expect(throws: GatewayError.self) { try FlightRecorder(directory: "/proc/gatewayd-recordings") { _ in } }
    }
}
