import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures
@testable import GatewayRuntime

/// Issue 21, one recording file an hour: a recording in the three-file form (the committed
/// fixture, `fixtures/recordings/three-file`, written by the recorder before the change) replays
/// as it did; the same inputs recorded in the one-file form replay the same; tshark reads the
/// one-file form's three interfaces; an hour recorded across the change, and a recording cut
/// short, still read.
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct OneFileRecordingTests {
    static let threeFile = fixtures.appendingPathComponent("recordings/three-file").path
    static let stem = threeFile + "/gdl90-2026-05-16-16"

    /// The alerts `gatewayd replay --json` printed for the fixture before the change.
    func golden() throws -> [String] {
        try String(contentsOf: fixtures.appendingPathComponent("recordings/three-file.alerts.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
    }

    func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-onefile-\(UUID())").path
    }

    /// What a session holds: its datagrams, gpsd fixes and events.
    func contents(_ session: ReplaySession) throws -> (datagrams: [CapturedDatagram], fixes: [TimedGPSFix], events: [RecordedEvent]) {
        var datagrams: [CapturedDatagram] = []
        for path in session.captures {
            let capture = try CaptureFile.read(path: path)
            #expect(capture.error == nil && capture.skipped == 0, "\(path): \(String(describing: capture.error)), \(capture.skipped) skipped")
            datagrams += capture.datagrams
        }
        let kept = try session.recorded()
        return (datagrams, kept.fixes, kept.events)
    }

    /// The session's alerts as `replay --json` prints them, through the one replay driver.
    func alerts(_ session: ReplaySession) throws -> [String] {
        let (datagrams, fixes, events) = try contents(session)
        var replay = CaptureReplay(pipeline: GatewayPipeline(), gpsFixes: fixes, events: events)
        return replay.replay(datagrams).alerts.map(AlertFormatter.json)
    }

    /// The fixture's inputs given to today's recorder, in time order, through its one call.
    func recordOneFile(into directory: String) throws -> (datagrams: [CapturedDatagram], fixes: [TimedGPSFix], events: [RecordedEvent]) {
        let source = try contents(ReplaySession.resolve(Self.threeFile))
        var inputs: [(time: Double, input: GatewayInput)] = source.datagrams.map { ($0.timestamp!, .datagram($0.bytes)) }
        inputs += source.fixes.map { ($0.time, .gpsFix($0.fix)) }
        inputs += source.events.map { event in
            switch event.change {
            case .airspace(let areas): (event.time, .airspace(areas))
            case .acknowledge(let id): (event.time, .acknowledge(id))
            case .ogn: (event.time, event.input)
            }
        }
        let recorder = try FlightRecorder(directory: directory) { Issue.record("recorder: \($0)") }
        for (_, item) in inputs.enumerated().sorted(by: { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }) {
            recorder.record(item.input, at: item.time)
        }
        recorder.close()
        return source
    }

    /// The three-file fixture replays with the alerts it gave before the change, found by its
    /// folder, its stem or its pcapng, in the library and through `gatewayd replay`.
    @Test func threeFileRecordingReplaysAsBefore() throws {
        let golden = try golden()
        #expect(golden.contains { $0.contains("\"kind\":\"airspace\"") } && golden.contains { $0.contains("\"kind\":\"traffic\"") })
        for argument in [Self.threeFile, Self.stem, Self.stem + ".pcapng"] {
            let session = try ReplaySession.resolve(argument)
            #expect(session.gpsLogs.count == 1 && session.eventLogs.count == 1, "\(argument)")
            #expect(try session.recorded().keepsEvents)
            #expect(try alerts(session) == golden, "\(argument)")
        }
        guard let executable = gatewaydExecutable() else { return }
        for argument in [Self.threeFile, Self.stem, Self.stem + ".pcapng"] {
            let output = try runCommand(executable, ["replay", "--json", "--quiet", "--no-store", argument])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.split(separator: "\n").map(String.init) == golden, "gatewayd replay \(argument)")
        }
        // The explicit side-file options still work: the capture with --gps and --events.
        let explicit = try runCommand(executable, ["replay", "--json", "--quiet", "--no-store", Self.stem + ".pcapng",
                                                   "--gps", Self.stem + ".gps.jsonl", "--events", Self.stem + ".events.jsonl"])
        #expect(explicit.stdout.split(separator: "\n").map(String.init) == golden)
    }

    /// The same inputs recorded today make one file an hour holding all three, which reads
    /// back the very datagrams, fixes and events and replays with the same alerts.
    @Test func oneFileRecordingOfTheSameInputsReplaysTheSame() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = try recordOneFile(into: directory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["gdl90-2026-05-16-16.pcapng"])
        let session = try ReplaySession.resolve(directory)
        #expect(session == ReplaySession(captures: [directory + "/gdl90-2026-05-16-16.pcapng"]))
        let copy = try contents(session)
        #expect(copy.datagrams.map(\.bytes) == source.datagrams.map(\.bytes))
        #expect(copy.datagrams.map(\.timestamp) == source.datagrams.map(\.timestamp))
        #expect(copy.fixes == source.fixes && copy.events == source.events)
        #expect(try alerts(session) == golden())
        guard let executable = gatewaydExecutable() else { return }
        for argument in [directory, directory + "/gdl90-2026-05-16-16", directory + "/gdl90-2026-05-16-16.pcapng"] {
            let output = try runCommand(executable, ["replay", "--json", "--quiet", "--no-store", argument])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(try output.stdout.split(separator: "\n").map(String.init) == golden(), "gatewayd replay \(argument)")
        }
    }

    /// Debian's tshark opens the one-file recording: three interfaces by name, the GDL 90
    /// datagrams as UDP to port 4000 on the first, and on the others the very lines recorded.
    @Test func tsharkReadsTheThreeInterfaces() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = try recordOneFile(into: directory)
        let path = directory + "/gdl90-2026-05-16-16.pcapng"
        let run = try runCommand(URL(fileURLWithPath: "/usr/bin/env"),
                                 ["tshark", "-r", path, "-T", "fields", "-E", "separator=/t", "-e", "frame.interface_id",
                                  "-e", "frame.interface_name", "-e", "udp.dstport", "-e", "data.data"])
        if run.status == 127 {
            // Not installed here (scripts/setup.sh installs it; CI must have it).
            #expect(ProcessInfo.processInfo.environment["SKYGATE_CI"] == nil, "tshark is missing in CI (scripts/setup.sh installs it)")
            print("skipped: tshark is not installed (apt-get install tshark, or scripts/setup.sh)")
            return
        }
        #expect(run.status == 0, "tshark: \(run.stderr)")
        var names: [String: String] = [:], packets: [String: [[UInt8]]] = [:], ports: Set<String> = []
        for line in run.stdout.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4 else {
                Issue.record("tshark line: \(line)")
                continue
            }
            names[fields[0]] = fields[1]
            if fields[0] == "0" { ports.insert(fields[2]) }
            packets[fields[0], default: []].append(Self.bytes(hex: fields[3]))
        }
        #expect(names == ["0": "gdl90", "1": "gpsd", "2": "gatewayd-events"])
        #expect(ports == ["4000"])
        #expect(packets["0"]?.count == source.datagrams.count)
        #expect(packets["1"]?.count == source.fixes.count)
        #expect(packets["2"]?.count == source.events.count)
        #expect(packets["0"] == source.datagrams.map(\.bytes))
        #expect(GPSLog.parse(packets["1"]?.flatMap { $0 } ?? []).fixes == source.fixes)
        #expect(try RecordedEventLog.parse(Data(packets["2"]?.flatMap { $0 } ?? []), path: "tshark") == source.events)
    }

    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8).compactMap { c -> UInt8? in
            switch c {
            case 48...57: c - 48
            case 97...102: c - 87
            default: nil
            }
        }
        return stride(from: 0, to: digits.count - 1, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// The hour's file of a run before the change goes on in its one section, the recorder's two
    /// other interfaces described after its packets: all of it reads (the side files too), and
    /// tshark numbers the interfaces as we do. A file of today's recorder goes on without a header.
    @Test func anHourRecordedAcrossTheChangeReadsWhole() throws {
        let directory = folder()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for ending in [".pcapng", ".gps.jsonl", ".events.jsonl"] {
            try FileManager.default.copyItem(atPath: Self.stem + ending, toPath: directory + "/gdl90-2026-05-16-16" + ending)
        }
        let before = try contents(ReplaySession.resolve(directory))
        let later = Timestamp.parse("2026-05-16T16:50:00Z")!
        let fix = GPSFix(position: Position(latitude: 45, longitude: -122.5), altitudeFt: 4500, groundSpeedKt: 110, trackDeg: 45)
        let recorder = try FlightRecorder(directory: directory) { Issue.record("recorder: \($0)") }
        recorder.record(.datagram([0x7E, 0x00, 0x81, 0x41, 0xDB, 0xD0, 0x08, 0x02, 0xB3, 0x8B, 0x7E]), at: later)
        recorder.record(.gpsFix(fix), at: later + 0.5)
        recorder.record(.acknowledge("TEST 6/1"), at: later + 1)
        recorder.close()
        let after = try contents(ReplaySession.resolve(directory))
        #expect(after.datagrams.count == before.datagrams.count + 1 && after.datagrams.last?.timestamp == later)
        #expect(after.fixes.count == before.fixes.count + 1 && after.fixes.last?.time == later + 0.5)
        #expect(after.events == before.events + [RecordedEvent(time: later + 1, change: .acknowledge("TEST 6/1"))])
        let hour = directory + "/gdl90-2026-05-16-16.pcapng"
        let described = try FileManager.default.attributesOfItem(atPath: hour)[.size] as? Int ?? 0
        // A second run in that hour finds the interfaces described and adds none.
        let second = try FlightRecorder(directory: directory) { Issue.record("recorder: \($0)") }
        second.record(.acknowledge("TEST 6/1"), at: later + 1.5)
        second.close()
        let ack = RecordedEventLog.line(RecordedEvent(time: later + 1.5, change: .acknowledge("TEST 6/1")))
        #expect(try FileManager.default.attributesOfItem(atPath: hour)[.size] as? Int == described + 32 + (ack.utf8.count + 1 + 3) / 4 * 4)
        let tshark = try runCommand(URL(fileURLWithPath: "/usr/bin/env"), ["tshark", "-r", hour, "-T", "fields", "-e", "frame.interface_id"])
        if tshark.status != 127 {
            let counts = Dictionary(grouping: tshark.stdout.split(separator: "\n"), by: { String($0) }).mapValues(\.count)
            #expect(counts == ["0": after.datagrams.count, "1": 1, "2": 2], "tshark: \(tshark.stderr)")
        }

        // Today's file goes on as it is: the next run appends packets, no header.
        let next = later + 600
        let first = try FlightRecorder(directory: directory) { Issue.record("recorder: \($0)") }
        first.record(.acknowledge("TEST 6/1"), at: next)
        first.close()
        let path = directory + "/gdl90-2026-05-16-17.pcapng"
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(size > FlightRecorder.header().count)
        let again = try FlightRecorder(directory: directory) { Issue.record("recorder: \($0)") }
        again.record(.acknowledge("TEST 6/1"), at: next + 1)
        again.close()
        let line = RecordedEventLog.line(RecordedEvent(time: next + 1, change: .acknowledge("TEST 6/1")))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == size + 32 + (line.utf8.count + 1 + 3) / 4 * 4)
        #expect(try ReplaySession.resolve(directory).events().count == after.events.count + 3)
    }

    /// Power lost mid-write: the recording ends inside a block. What came before reads (the
    /// datagrams say where the file was cut); the fixes and events before it are kept.
    @Test func aRecordingCutShortKeepsWhatCameBefore() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = try recordOneFile(into: directory)
        let path = directory + "/gdl90-2026-05-16-16.pcapng"
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // Cut off the last block and half of the one before (each block ends with its length).
        func length(endingAt end: Int) -> Int { Int(whole[end - 4]) | Int(whole[end - 3]) << 8 | Int(whole[end - 2]) << 16 | Int(whole[end - 1]) << 24 }
        let last = length(endingAt: whole.count)
        let before = length(endingAt: whole.count - last)
        try Data(whole.prefix(whole.count - last - before / 2)).write(to: URL(fileURLWithPath: path))
        let capture = try CaptureFile.read(path: path)
        #expect(capture.error?.reason.contains("cut short") == true)
        let kept = try ReplaySession.resolve(path).recorded()
        // The two blocks cut are lost, whichever they held; everything before them is kept.
        #expect(capture.datagrams.map(\.bytes) == Array(source.datagrams.prefix(capture.datagrams.count)).map(\.bytes))
        #expect(kept.fixes == Array(source.fixes.prefix(kept.fixes.count)))
        #expect(kept.events == Array(source.events.prefix(kept.events.count)))
        #expect(capture.datagrams.count + kept.fixes.count + kept.events.count == source.datagrams.count + source.fixes.count + source.events.count - 2)
    }
}
