import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures
@testable import GatewayRuntime

/// OGN in replays: a live gateway following an APRS server, the replay of its flight recording
/// and the replay of an APRS text log of the same beacons give the same alerts (the no-tracking
/// sender's only where its beacons were: live and in the log, never in the recording).
@Suite(.serialized, .timeLimit(.minutes(5)), .tags(.process), .slow) struct OGNReplayTests {
    static let t0 = Timestamp.parse("2026-05-26T12:00:00Z")!

    /// Ownship from gpsd at 47°N 11°E, 3,000 ft, northbound at 100 kt, `s` seconds after `t0`.
    static func ownship(_ s: Int) -> GPSFix {
        GPSFix(position: Position(latitude: 47 + Double(s) * 100 / 3600 / 60, longitude: 11), altitudeFt: 3000, groundSpeedKt: 100, trackDeg: 0)
    }

    /// The second `s`'s beacons: a FLARM glider head-on from the north, a no-tracking one
    /// crossing from the east, a tow plane far away; all at ownship's altitude.
    static func beacons(_ s: Int) -> [String] {
        let hhmmss = "1200" + (s < 10 ? "0\(s)" : "\(s)")
        let north = 1.2 - Double(s) * 100 / 3600  // minutes of latitude: 100 kt southbound
        let east = 1.0 - Double(s) * 100 / 3600 / cos(47 * .pi / 180)
        func minutes(_ m: Double) -> String { String(format: "%05.2f", m) }
        return [
            "FLRDDA001>OGFLR,qAS,Test:/\(hhmmss)h47\(minutes(north))N/01100.00E'180/100/A=003000 !W00! id06DDA001 -050fpm +0.0rot 10.0dB 0e +0.1kHz",
            "FLRDDA002>OGFLR,qAS,Test:/\(hhmmss)h4700.30N/011\(minutes(east))E'270/100/A=003000 !W00! id46DDA002 +000fpm +0.0rot 10.0dB 0e +0.1kHz",
            "FLRDDA003>OGFLR,qAS,Test:/\(hhmmss)h4730.00N/01130.00E'090/080/A=003000 !W00! id0ADDA003 +000fpm +0.0rot 10.0dB 0e +0.1kHz",
        ]
    }

    @Test(.ownThread) func liveOGNItsRecordingAndItsAPRSLogReplayAlike() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-ogn-replay-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = TestAPRSServer([(text: "# aprsc test\r\n", close: false)])
        defer { server.stop() }
        // The gateway's clock is the test's: each second's beacons are read at that second.
        let now = Locked(Self.t0)
        let live = Locked<[AlertEvent]>([])
        let recorder = try FlightRecorder(directory: directory) { Issue.record("recorder: \($0)") }
        let gateway = LiveGateway(sinks: [AlertHandlerSink { alerts in live.withLock { $0 += alerts.map(\.event) } }], recorder: recorder,
                                  clock: { now.value })
        gateway.add(OGNSource(host: "127.0.0.1", port: server.port))
        try gateway.start()
        try await eventually(15) { server.openConnections == 1 }
        var log = ""
        for s in 0..<8 {
            let t = Self.t0 + Double(s)
            now.set(t)
            gateway.deliver(.gpsFix(Self.ownship(s)), at: t)
            let lines = Self.beacons(s)
            server.push(lines.map { $0 + "\r\n" }.joined())
            log += lines.map { Timestamp.iso8601(t) + " " + $0 + "\n" }.joined()
            try await eventually(15) { gateway.status().counters.ognBeacons == 3 * (s + 1) }
        }
        gateway.stop()
        let liveAlerts = live.withLock { $0 }.map(AlertFormatter.json)
        #expect(liveAlerts.contains { $0.contains("FLARM DDA001") || $0.contains("dda001") }, "the head-on glider should alert: \(liveAlerts)")
        #expect(liveAlerts.contains { $0.contains("anon-000001") }, "the no-tracking glider alerts, under its pseudonym: \(liveAlerts)")
        #expect(!liveAlerts.contains { $0.lowercased().contains("dda002") }, "the no-tracking glider's id is in no alert")
        let end = Self.t0 + 7

        // The recording: the gpsd fixes and the beacons, but the no-tracking sender's.
        let session = try ReplaySession.resolve(directory)
        let kept = try session.recorded()
        let lines = kept.events.flatMap { e -> [String] in if case .ogn(let l) = e.change { l } else { [] } }
        #expect(lines.count == 16 && !lines.contains { $0.contains("DDA002") })
        #expect(kept.fixes.count == 8)
        var recording = CaptureReplay(pipeline: GatewayPipeline(), gpsFixes: kept.fixes, events: kept.events)
        let recorded = recording.replay([]).alerts.filter { $0.time <= end }.map(AlertFormatter.json)
        #expect(recorded == liveAlerts.filter { !$0.contains("anon-") })

        // The APRS log of the same beacons (each after its ISO time), all of them.
        let aprs = directory + "/beacons.aprs"
        try log.write(toFile: aprs, atomically: true, encoding: .utf8)
        let logSession = try ReplaySession.resolve(aprs)
        #expect(logSession == ReplaySession(captures: [], aprsLogs: [aprs]))
        var replay = CaptureReplay(pipeline: GatewayPipeline(), gpsFixes: kept.fixes, events: try logSession.recorded().events)
        let fromLog = replay.replay([]).alerts.filter { $0.time <= end }.map(AlertFormatter.json)
        #expect(fromLog == liveAlerts)

        // `gatewayd replay` of the recording prints the library's replay, and counts its beacons.
        guard let executable = gatewaydExecutable() else { return }
        let output = try runCommand(executable, ["replay", "--json", "--no-store", directory + "/" + (try FileManager.default.contentsOfDirectory(atPath: directory).first { $0.hasSuffix(".pcapng") } ?? "")])
        #expect(output.status == 0, "\(output.stderr)")
        var again = CaptureReplay(pipeline: GatewayPipeline(), gpsFixes: kept.fixes, events: kept.events)
        #expect(output.stdout.split(separator: "\n").map(String.init) == again.replay([]).alerts.map(AlertFormatter.json))
        #expect(output.stderr.contains("16 OGN beacons"), "\(output.stderr)")
    }

    /// `gatewayd run --ogn … --record DIR` as a person runs it: the recording keeps the beacons
    /// read, never a no-tracking sender's, and `gatewayd replay DIR` replays them all.
    @Test(.ownThread) func aGatewayFollowingOGNRecordsItsBeaconsButTheNoTrackingOnes() async throws {
        guard let executable = gatewaydExecutable() else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-ogn-record-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = (0..<3).flatMap { Self.beacons($0) }.map { $0 + "\r\n" }.joined()
        let server = TestAPRSServer([(text: "# aprsc test\r\n" + text, close: false)])
        defer { server.stop() }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["run", "--ogn", "127.0.0.1:\(server.port)", "--record", directory + "/rec", "--udp-port", "0", "--http-port", "0",
                             "--nmea-port", "0", "--database", directory + "/gateway.sqlite", "--status-interval", "0"]
        process.standardError = Pipe()
        process.standardOutput = Pipe()
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            process.waitUntilExit()
        }
        // Recorded once the recorder's second has flushed the beacons.
        func kept() -> [String] {
            guard let session = try? ReplaySession.resolve(directory + "/rec"), let events = try? session.recorded().events else { return [] }
            return events.flatMap { e -> [String] in if case .ogn(let l) = e.change { l } else { [] } }
        }
        try await eventually(30) { kept().count == 6 }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = kept()
        #expect(lines == (0..<3).flatMap { Self.beacons($0) }.filter { !$0.contains("DDA002") })
        let output = try runCommand(executable, ["replay", "--json", "--no-store", directory + "/rec"])
        #expect(output.status == 0 && output.stderr.contains("6 OGN beacons"), "\(output.stderr)")
    }
}
