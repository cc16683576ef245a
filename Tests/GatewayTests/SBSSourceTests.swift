import Foundation
import GDL90
import Synchronization
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayCaptures
@testable import GatewayRuntime

/// A TCP server on loopback that sends each connection the next scripted text (then keeps the
/// connection open, or closes it), as dump1090's port 30003 serves SBS lines.
final class TestLineServer: @unchecked Sendable {
    let port: UInt16
    private let fd: Int32
    private let scripts: Mutex<[(text: String, close: Bool)]>
    let accepted = Mutex(0)
    private let open = Mutex<[Int32]>([])

    init(_ scripts: [(text: String, close: Bool)]) {
        self.scripts = Mutex(scripts)
        (fd, port) = loopbackListener(backlog: 8)
        Thread { [self] in self.serve() }.start()
    }

    private func serve() {
        while true {
            let c = accept(fd, nil, nil)
            // Closed here, not in `stop`: a number closed under a blocked accept could be another
            // test's socket by the time this thread accepts on it again.
            if c < 0 { close(fd); return }
            accepted.withLock { $0 += 1 }
            let script = scripts.withLock { $0.isEmpty ? (text: "", close: false) : $0.removeFirst() }
            let bytes = Array(script.text.utf8)
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                sent += n
            }
            if script.close { close(c) } else { open.withLock { $0.append(c) } }
        }
    }

    /// Stops listening (the serving thread closes the socket) and closes the connections kept open.
    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        for c in open.withLock({ $0 }) { close(c) }
    }
}

@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct SBSSourceTests {
    /// The demo flight's N51TB as dump1090 serves it: every position a traffic report, merged with
    /// the velocity and callsign lines; the garbage counted; the connection lost and made again.
    @Test func readsAReceiversLinesAndReconnects() async throws {
        let fixture = try String(contentsOf: fixtures.appendingPathComponent("demo-flight.sbs"), encoding: .utf8)
        let positions = fixture.split(separator: "\r\n").filter { $0.hasPrefix("MSG,3,") }.count
        let server = TestLineServer([(text: "garbage\r\nMSG,9,1,1,C0FFEE,1\r\n" + fixture, close: true), (text: fixture, close: false)])
        defer { server.stop() }
        let reports = Mutex<[TrafficReport]>([])
        let said = Mutex<[String]>([])
        let client = SBSClient(host: "127.0.0.1", port: server.port, clock: { 1_800_000_000 }, onReports: { frames, _ in
            var deframer = Deframer()
            deframer.feed(frames) { event in
                if case .frame(let f) = event, case .traffic(let r)? = try? Message.decode(f.message) { reports.withLock { $0.append(r) } }
            }
        }, onStatus: { status, tell in
            if tell { said.withLock { $0.append(status.connected ? "connected" : status.reason ?? "") } }
        })
        client.start()
        defer { client.stop() }
        try await eventually(15) { reports.withLock { $0.count } >= 2 * positions }
        let all = reports.withLock { $0 }
        #expect(all.count == 2 * positions)
        #expect(all.allSatisfy { $0.address == 0xC0FFEE && $0.pressureAltitudeFt == 3300 })
        #expect(all.last?.callsign == "N51TB" && all.last?.groundSpeedKt == 150 && all.last?.trackDeg == 90)
        let status = client.status
        #expect(status.connected && status.reports == 2 * positions)
        #expect(status.wrongLines == 2 && status.lastWrong?.contains("MSG,9") == true)
        #expect(server.accepted.withLock { $0 } == 2)
        // Said: connected, lost (the server closed), connected again; nothing more.
        #expect(said.withLock { $0 } == ["connected", "SBS 127.0.0.1:\(server.port) closed the connection", "connected"])
    }

    /// Nothing listening: one line naming the receiver and what to check, then quiet retries.
    @Test func anAbsentReceiverIsSaidOnce() async throws {
        let server = TestLineServer([])
        let port = server.port
        server.stop()  // the port is free again: nothing listens
        let said = Mutex<[String]>([])
        let attempts = Mutex(0)
        let client = SBSClient(host: "127.0.0.1", port: port, clock: { 0 }, onReports: { _, _ in }, onStatus: { status, tell in
            attempts.withLock { $0 += 1 }
            if tell { said.withLock { $0.append(status.reason ?? "connected") } }
        })
        client.start()
        try await eventually(10) { attempts.withLock { $0 } >= 2 }
        client.stop()
        let lines = said.withLock { $0 }
        #expect(lines.count == 1)
        #expect(lines.first?.contains("SBS 127.0.0.1:\(port)") == true && lines.first?.contains("dump1090 or readsb") == true)
    }

    /// The flight recorder keeps the SBS source's positions as GDL 90 traffic reports, at the time
    /// they were read: the replay of the recording is the session it was.
    @Test func theRecorderKeepsWhatTheSourceHandedIn() async throws {
        let fixture = try String(contentsOf: fixtures.appendingPathComponent("demo-flight.sbs"), encoding: .utf8)
        let positions = fixture.split(separator: "\r\n").filter { $0.hasPrefix("MSG,3,") }.count
        let server = TestLineServer([(text: fixture, close: false)])
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sbs-recorder-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let gateway = LiveGateway(log: nil, recorder: try FlightRecorder(directory: directory) { Issue.record("recorder: \($0)") }, onAlerts: { _ in })
        let source = SBSSource(host: "127.0.0.1", port: server.port)
        gateway.add(source)
        try gateway.start(bind: "127.0.0.1", port: 0)
        try await eventually(15) { (source.status?.reports ?? 0) >= positions }
        try await eventually(5) { gateway.status().counters.messages >= positions }
        gateway.stop()
        var reports: [TrafficReport] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
            let contents = try CaptureFile.read(path: directory + "/" + name)
            #expect(contents.error == nil)
            for d in contents.datagrams { reports += StratuxLogTests.traffic(d) }
        }
        #expect(reports.count == positions)
        #expect(reports.last?.callsign == "N51TB" && reports.last?.groundSpeedKt == 150 && reports.last?.address == 0xC0FFEE)
    }

    /// `gatewayd run --sbs`: a readsb feeder's aircraft are traffic on the page's API.
    @Test func runWithSBSShowsItsAircraft() throws {
        guard let executable = gatewaydExecutable() else { return }
        let fixture = try String(contentsOf: fixtures.appendingPathComponent("demo-flight.sbs"), encoding: .utf8)
        let server = TestLineServer([(text: fixture, close: false)])
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sbs-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("gatewayd.toml")
        try "".write(to: config, atomically: true, encoding: .utf8)
        let http = UInt16.random(in: 20_000...29_000)
        let p = Process()
        p.executableURL = executable
        p.arguments = ["run", "--config", config.path, "--sbs", "127.0.0.1:\(server.port)", "--udp-port", "0", "--http-port", "\(http)",
                       "--http-bind", "127.0.0.1", "--nmea-port", "0", "--no-database"]
        let errors = Pipe()
        p.standardError = errors
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { p.terminate() }; p.waitUntilExit() }
        var body = ""
        _ = eventually(10) {
            body = loopbackGET(Int(http), "/api/traffic").body
            return body.contains("\"c0ffee\"")
        }
        #expect(body.contains("\"address\":\"c0ffee\",\"callsign\":\"N51TB\""))
        p.terminate()
        p.waitUntilExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("gatewayd: SBS 127.0.0.1:\(server.port) connected"), "\(said)")
    }
}
