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
        let gateway = LiveGateway(log: nil, recorder: try FlightRecorder(directory: directory) { Issue.record("recorder: \($0)") },
                                  onAlerts: { alerts in live.withLock { $0 += alerts.map(\.event) } })
        try gateway.start(bind: "127.0.0.1", port: 0)
        // Airspace given while it runs (as a NOTAM refresh would): an area around the flight's
        // start, then a second set half-way with an acknowledgement. The recorder keeps both.
        let origin = Position(latitude: 44.9095, longitude: -123.0030)
        let tfr = AirspaceArea(id: "TEST 1/1", name: "test TFR", shape: .circle(center: origin, radiusNM: 3), ceilingFt: 18_000,
                               severity: .critical, kind: .tfr)
        let restricted = AirspaceArea(id: "R-TEST", name: "test restricted area",
                                      shape: .region([AirspacePart(outer: [Position(latitude: 44.95, longitude: -123.05), Position(latitude: 44.95, longitude: -122.95),
                                                                           Position(latitude: 45.05, longitude: -122.95), Position(latitude: 45.05, longitude: -123.05)]),
                                                      AirspacePart(outer: [Position(latitude: 44.80, longitude: -123.05), Position(latitude: 44.80, longitude: -122.95),
                                                                           Position(latitude: 44.85, longitude: -123.0)])]),
                                      kind: .restricted)
        gateway.setAirspace([tfr])
        // The bundled flight, 25 datagrams a second: its alerts (raised, updated, cleared by the
        // tick after the target is gone) depend on arrival times only.
        let capture = try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.pcap").path)
        let sender = try UDPSender(host: "127.0.0.1", port: gateway.port)
        for (i, d) in capture.datagrams.enumerated() {
            sender.send(d.bytes)
            if i == capture.datagrams.count / 2 {
                gateway.setAirspace([tfr, restricted])
                gateway.acknowledge("TEST 1/1")
            }
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
        let eventFiles = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".events.jsonl") }.sorted()
        var events: [RecordedEvent] = []
        for name in eventFiles { events += try RecordedEventLog.read(path: directory + "/" + name) }
        #expect(events.map(\.change) == [.airspace([tfr]), .airspace([tfr, restricted]), .acknowledge("TEST 1/1")])
        #expect(liveAlerts.contains { $0.kind == .airspace }, "the airspace should alert live: \(liveAlerts.map(\.message))")
        var replay = CaptureReplay(pipeline: GatewayPipeline(), events: events)
        let replayed = replay.replay(datagrams).alerts
        // Both have ticked every whole second up to a second and a half before the stop.
        let cutoff = stopped - 1.5
        let a = liveAlerts.filter { $0.time < cutoff }.map(AlertFormatter.json)
        let b = replayed.filter { $0.time < cutoff }.map(AlertFormatter.json)
        #expect(!a.isEmpty)
        #expect(a == b)

        // `gatewayd replay` finds the hour's files itself, by the folder or by the hour's stem:
        // the same alerts as the replay above (issue 28).
        if let executable = gatewaydExecutable() {
            let stem = directory + "/" + String(recordings[0].dropLast(".pcapng".count))
            let whole = replayed.map(AlertFormatter.json)
            for argument in recordings.count == 1 ? [directory, stem] : [directory] {
                let output = try runCommand(executable, ["replay", "--json", "--quiet", argument])
                #expect(output.status == 0)
                #expect(output.stdout.split(separator: "\n").map(String.init) == whole, "gatewayd replay \(argument)")
            }
            let sideFile = try runCommand(executable, ["replay", stem + ".events.jsonl"])
            #expect(sideFile.status != 0 && sideFile.stderr.contains("replay the hour by its stem ('gatewayd replay \(stem)'"))
        }
    }
}

/// Runs `executable` with `arguments`; its exit status and what it printed.
func runCommand(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let p = Process()
    p.executableURL = executable
    p.arguments = arguments
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    // Read before waiting: a full pipe would block the child.
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}

@Suite struct ReplaySessionTests {
    /// A stem finds the hour's files; a folder every hour in order; a side file or a missing one
    /// is an error that says what to give.
    @Test func stemsFoldersAndSideFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-sessions-\(UUID())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["gdl90-2026-05-16-15.pcapng", "gdl90-2026-05-16-14.pcapng", "gdl90-2026-05-16-14.gps.jsonl",
                     "gdl90-2026-05-16-15.events.jsonl", "notes.txt"] {
            #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data()))
        }
        let hour = try ReplaySession.resolve(dir + "/gdl90-2026-05-16-14")
        #expect(hour == ReplaySession(captures: [dir + "/gdl90-2026-05-16-14.pcapng"], gpsLogs: [dir + "/gdl90-2026-05-16-14.gps.jsonl"]))
        let folder = try ReplaySession.resolve(dir + "/")
        #expect(folder.captures == [dir + "/gdl90-2026-05-16-14.pcapng", dir + "/gdl90-2026-05-16-15.pcapng"])
        #expect(folder.gpsLogs == [dir + "/gdl90-2026-05-16-14.gps.jsonl"] && folder.eventLogs == [dir + "/gdl90-2026-05-16-15.events.jsonl"])
        #expect(try ReplaySession.resolve(dir + "/notes.txt") == ReplaySession(captures: [dir + "/notes.txt"]))
        #expect(throws: GatewayError.self) { try ReplaySession.resolve(dir + "/gdl90-2026-05-16-14.gps.jsonl") }
        do {
            _ = try ReplaySession.resolve(dir + "/gdl90-2026-05-16-13")
            Issue.record("a missing hour must be an error")
        } catch {
            #expect("\(error)".contains("a recording hour is given by its stem"))
        }
        let empty = dir + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        do {
            _ = try ReplaySession.resolve(empty)
            Issue.record("a folder without recordings must be an error")
        } catch {
            #expect("\(error)".contains("no recordings in this folder"))
        }
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

    /// Airspace sets and acknowledgements go to the hour's events file and read back exactly;
    /// a damaged line is an error naming the file and the line.
    @Test func eventsReadBackExactly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-rec-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorder = try FlightRecorder(directory: directory) { Issue.record("recorder: \($0)") }
        let start = Timestamp.parse("2026-05-16T14:00:00Z")!
        let area = AirspaceArea(id: "FDC 6/2174", name: "TFR", shape: .circle(center: Position(latitude: 44.123456789, longitude: -123.1), radiusNM: 3.3),
                                floorFt: 0, ceilingFt: 17_999, ceilingIsAGL: true, start: start - 60, end: start + 3600.5, severity: .critical, kind: .tfr)
        let events = [RecordedEvent(time: CaptureTime.quantized(start + 0.123456), change: .airspace([area])),
                      RecordedEvent(time: CaptureTime.quantized(start + 61.5), change: .acknowledge("FDC 6/2174")),
                      RecordedEvent(time: CaptureTime.quantized(start + 62), change: .airspace([]))]
        for e in events { recorder.record(e) }
        recorder.close()
        #expect(recorder.recordings().contains("gdl90-2026-05-16-14.events.jsonl"))
        let path = directory + "/gdl90-2026-05-16-14.events.jsonl"
        #expect(try RecordedEventLog.read(path: path) == events)
        try "{\"time\":1}\nnot json\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: GatewayError.file(path: path, reason: "line 1 is not a recorded event (airspace or acknowledgement)")) {
            try RecordedEventLog.read(path: path)
        }
    }

    @Test func anUnwritableFolderIsAClearError() {
        #expect(throws: GatewayError.self) { try FlightRecorder(directory: "/proc/gatewayd-recordings") { _ in } }
    }
}
