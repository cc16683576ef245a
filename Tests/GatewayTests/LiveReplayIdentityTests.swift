import Foundation
import GDL90
import Synchronization
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures
@testable import GatewayRuntime

/// One pipeline, one tick rule: a live session over a real UDP socket and the replay of its own
/// flight recording (one pcapng file an hour, the airspace sets and acknowledgements in it) give
/// byte-identical alerts.
@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct LiveReplayIdentityTests {
    @Test(.ownThread) func liveSessionAndTheReplayOfItsRecordingAreIdentical() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-recorder-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let live = Mutex<[AlertEvent]>([])
        let gateway = LiveGateway(log: nil, recorder: try FlightRecorder(directory: directory) { Issue.record("recorder: \($0)") },
                                  onAlerts: { alerts in live.withLock { $0 += alerts.map(\.event) } })
        // The last whole second the live pipeline ticked (its outputs say when the next is due).
        let ticked = Locked(-Double.infinity)
        gateway.add(AlertHandlerSink { _ in })
        gateway.add(TickWatch(ticked))
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
            usleep(40_000)  // a wall-clock wait on purpose: a live session, 25 datagrams a second; their arrival times are what its recording keeps and its replay must reproduce
        }
        // Every datagram received (and recorded); the session then ends 3 s after its last one.
        #expect(eventually(10) { gateway.status().counters.datagrams == capture.datagrams.count })
        usleep(3_000_000)  // a wall-clock wait on purpose: the stop 3 s (of the live clock, the wall's) after the last datagram, so that the cutoff below (stop - 1.5 s) is past the last tick and the flight's last alerts are compared too
        let stopped = Date().timeIntervalSince1970
        gateway.stop()
        let liveAlerts = live.withLock { $0 }
        #expect(liveAlerts.count >= 3, "the flight should alert live: \(liveAlerts.map(\.message))")

        // One file an hour, nothing beside it: the datagrams, and the session's events in it.
        let recordings = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(recordings.count >= 1)
        #expect(recordings.allSatisfy { $0.hasPrefix("gdl90-") && $0.hasSuffix(".pcapng") }, "one pcapng an hour: \(recordings)")
        var datagrams: [CapturedDatagram] = []
        for name in recordings {
            let contents = try CaptureFile.read(path: directory + "/" + name)
            #expect(contents.error == nil && contents.skipped == 0, "the recorder's other interfaces are neither damage nor skipped records")
            datagrams += contents.datagrams
        }
        #expect(datagrams.count == capture.datagrams.count)
        let session = try ReplaySession.resolve(directory)
        #expect(session.gpsLogs.isEmpty && session.eventLogs.isEmpty)
        let kept = try session.recorded()
        #expect(kept.keepsEvents && kept.fixes.isEmpty)
        let events = kept.events
        #expect(events.map(\.change) == [.airspace([tfr]), .airspace([tfr, restricted]), .acknowledge("TEST 1/1")])
        #expect(liveAlerts.contains { $0.kind == .airspace }, "the airspace should alert live: \(liveAlerts.map(\.message))")
        var replay = CaptureReplay(pipeline: GatewayPipeline(), events: events)
        let replayed = replay.replay(datagrams).alerts
        // Both have ticked every whole second up to the live pipeline's last tick (a second and a
        // half before the stop, unless a loaded machine held the tick back).
        let cutoff = min(stopped - 1.5, ticked.withLock { $0 } + 1)
        let a = liveAlerts.filter { $0.time < cutoff }.map(AlertFormatter.json)
        let b = replayed.filter { $0.time < cutoff }.map(AlertFormatter.json)
        #expect(!a.isEmpty)
        #expect(a == b)

        // `gatewayd replay` takes the folder, the hour's stem or the hour's file, and finds the
        // session's events in it: the same alerts as the replay above (issues 21, 28).
        if let executable = gatewaydExecutable() {
            let stem = directory + "/" + String(recordings[0].dropLast(".pcapng".count))
            let whole = replayed.map(AlertFormatter.json)
            for argument in recordings.count == 1 ? [directory, stem, stem + ".pcapng"] : [directory] {
                let output = try runCommand(executable, ["replay", "--json", "--quiet", argument])
                #expect(output.status == 0)
                #expect(output.stdout.split(separator: "\n").map(String.init) == whole, "gatewayd replay \(argument)")
            }
        }
    }
}

/// Runs `executable` with `arguments`; its exit status and what it printed.
func runCommand(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let r = try runProcess(executable, arguments)
    return (r.status, r.output, r.errors)
}

@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct ReplaySessionTests {
    /// A stem or the hour's pcapng finds the hour's files (the three-file form's side files too);
    /// a folder every hour in order; a side file or a missing one is an error that says what to give.
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
        #expect(try ReplaySession.resolve(dir + "/gdl90-2026-05-16-14.pcapng") == hour)
        #expect(try ReplaySession.resolve(dir + "/gdl90-2026-05-16-15.pcapng")
                == ReplaySession(captures: [dir + "/gdl90-2026-05-16-15.pcapng"], eventLogs: [dir + "/gdl90-2026-05-16-15.events.jsonl"]))
        let folder = try ReplaySession.resolve(dir + "/")
        #expect(folder.captures == [dir + "/gdl90-2026-05-16-14.pcapng", dir + "/gdl90-2026-05-16-15.pcapng"])
        #expect(folder.gpsLogs == [dir + "/gdl90-2026-05-16-14.gps.jsonl"] && folder.eventLogs == [dir + "/gdl90-2026-05-16-15.events.jsonl"])
        #expect(try ReplaySession.resolve(dir + "/notes.txt") == ReplaySession(captures: [dir + "/notes.txt"]))
        do {
            _ = try ReplaySession.resolve(dir + "/gdl90-2026-05-16-15.events.jsonl")
            Issue.record("a side file given as the capture must be an error")
        } catch {
            #expect("\(error)".contains("replay the hour by its stem ('gatewayd replay \(dir)/gdl90-2026-05-16-15'"))
        }
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

@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct FlightRecorderTests {
    /// One file an hour; past the cap the oldest hour goes (never the current one); what was
    /// written reads back with the very times it was stamped with, the gpsd fixes too.
    @Test func rotatesHourlyAndKeepsWithinItsCap() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-rec-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorder = try FlightRecorder(directory: directory, maximumBytes: 2 << 20) { Issue.record("recorder: \($0)") }
        let payload = [UInt8](repeating: 0x42, count: 1_000)
        let start = Timestamp.parse("2026-05-16T14:00:00Z")!
        // 700 KB in each of three hours under a 2 MB cap: the first hour goes while the third fills.
        let fix = GPSFix(position: Position(latitude: 45, longitude: -123), altitudeFt: 3000, groundSpeedKt: 100, trackDeg: 90)
        for hour in 0..<3 {
            for i in 0..<700 {
                let t = CaptureTime.quantized(start + Double(hour) * 3600 + Double(i) * 0.5 + 0.123457)
                // The live gateway's one call, and the older one (both write the same).
                if i % 2 == 0 { recorder.record(.datagram(payload), at: t) } else { payload.withUnsafeBytes { recorder.record($0, at: t) } }
            }
            recorder.record(.gpsFix(fix), at: CaptureTime.quantized(start + Double(hour) * 3600 + 1.5))
            recorder.record(.tick, at: CaptureTime.quantized(start + Double(hour) * 3600 + 2))
        }
        recorder.close()
        let files = recorder.recordings()
        #expect(files == ["gdl90-2026-05-16-15.pcapng", "gdl90-2026-05-16-16.pcapng"])
        let capture = try CaptureFile.read(path: directory + "/gdl90-2026-05-16-16.pcapng")
        #expect(capture.datagrams.count == 700 && capture.skipped == 0 && capture.error == nil)
        #expect(capture.datagrams.first?.timestamp == CaptureTime.quantized(start + 7200 + 0.123457))
        #expect(capture.datagrams.first?.bytes == payload)
        let kept = try ReplaySession.resolve(directory + "/gdl90-2026-05-16-16").recorded()
        #expect(kept.fixes.count == 1 && kept.fixes[0].time == start + 7201.5 && kept.events.isEmpty)
        #expect(kept.fixes.first.map { $0.fix.position == fix.position && $0.fix.trackDeg == 90 } == true)
    }

    /// Airspace sets and acknowledgements go to the hour's file and read back exactly, a set
    /// larger than a packet may be too; a damaged one is an error naming the file and the line,
    /// in the events interface as in the three-file form's events file.
    @Test func eventsReadBackExactly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-rec-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorder = try FlightRecorder(directory: directory) { Issue.record("recorder: \($0)") }
        let start = Timestamp.parse("2026-05-16T14:00:00Z")!
        let area = AirspaceArea(id: "FDC 6/2174", name: "TFR", shape: .circle(center: Position(latitude: 44.123456789, longitude: -123.1), radiusNM: 3.3),
                                floorFt: 0, ceilingFt: 17_999, ceilingIsAGL: true, start: start - 60, end: start + 3600.5, severity: .critical, kind: .tfr)
        // Hundreds of areas (a store's re-read): one line of several packets.
        let many = (0..<400).map { i in
            AirspaceArea(id: "R-\(i)", name: "restricted area \(i)",
                         shape: .region([AirspacePart(outer: (0..<12).map { k in
                             Position(latitude: 44 + Double(i) / 1000 + Double(k) / 10_000, longitude: -123 + Double(k % 3) / 1000)
                         })]), kind: .restricted)
        }
        let events = [RecordedEvent(time: CaptureTime.quantized(start + 0.123456), change: .airspace([area])),
                      RecordedEvent(time: CaptureTime.quantized(start + 61.5), change: .acknowledge("FDC 6/2174")),
                      RecordedEvent(time: CaptureTime.quantized(start + 61.5), change: .airspace(many)),
                      RecordedEvent(time: CaptureTime.quantized(start + 62), change: .airspace([]))]
        #expect(RecordedEventLog.line(events[2]).utf8.count > 2 * RecordingChannel.maximumPacket)
        recorder.record(events[0].input, at: events[0].time)
        recorder.record(.acknowledge("FDC 6/2174"), at: events[1].time)
        recorder.record(.airspace(many), at: events[2].time)
        recorder.record(.airspace([]), at: events[3].time)
        recorder.close()
        #expect(recorder.recordings() == ["gdl90-2026-05-16-14.pcapng"])
        let capturePath = directory + "/gdl90-2026-05-16-14.pcapng"
        let session = try ReplaySession.resolve(capturePath)
        #expect(try session.events() == events)
        #expect(try CaptureFile.read(path: capturePath).datagrams.isEmpty)

        // A damaged event in the interface: the file, the interface and the line are named.
        var damaged = FlightRecorder.header()
        PcapWriter.enhancedPacketBlock(Array("not json\n".utf8), interface: RecordingChannel.events.interfaceID, ticks: CaptureTime.ticks(start),
                                       writer: PcapWriter.Writer(bigEndian: false), into: &damaged)
        let damagedPath = directory + "/damaged.pcapng"
        try Data(damaged).write(to: URL(fileURLWithPath: damagedPath))
        #expect(throws: GatewayError.file(path: damagedPath + " (interface gatewayd-events)", reason: "line 1 is not a recorded event (airspace, acknowledgement or OGN beacons)")) {
            try ReplaySession(captures: [damagedPath]).events()
        }

        // The three-file form's events file.
        let path = directory + "/gdl90-2026-05-16-13.events.jsonl"
        try "{\"time\":1}\nnot json\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: GatewayError.file(path: path, reason: "line 1 is not a recorded event (airspace, acknowledgement or OGN beacons)")) {
            try RecordedEventLog.read(path: path)
        }
    }

    @Test func anUnwritableFolderIsAClearError() {
        #expect(throws: GatewayError.self) { try FlightRecorder(directory: "/proc/gatewayd-recordings") { _ in } }
    }
}

/// Keeps the last whole second a live pipeline ticked (`nextTick - 1` of its outputs).
private struct TickWatch: GatewaySink {
    let ticked: Locked<Double>
    init(_ ticked: Locked<Double>) { self.ticked = ticked }
    func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        if let next = outputs.nextTick { ticked.withLock { $0 = max($0, next - 1) } }
    }
}
