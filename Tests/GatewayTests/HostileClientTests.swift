import Foundation
import Synchronization
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewayCaptures
@testable import GatewayRuntime

#if canImport(Glibc)
import Glibc
@testable import GatewaySimulation
#endif

private func freePort(_ type: Int32) -> UInt16 { HostileBenchmark.freePort(type) }
private func connectTCP(_ port: UInt16, from source: String = "127.0.0.1") -> Int32 { HostileBenchmark.connectTCP(port, from: source, timeout: 10) }

/// Raises this process's soft open-file limit to its hard limit; the soft limit it then has.
private func raiseOpenFileLimit() -> Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 256 }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    return Int(clamping: limit.rlim_cur)
}

/// GET `path` from another loopback address; the status line and the body, or nil.
private func get(_ port: UInt16, _ path: String, from source: String = "127.0.0.2") -> (head: String, body: String)? {
    guard let text = HostileBenchmark.httpGet(port, path, from: source, timeout: 10), let split = text.range(of: "\r\n\r\n") else { return nil }
    return (String(text[..<split.lowerBound].prefix { $0 != "\r" }), String(text[split.upperBound...]))
}

/// The daemon as a hostile neighbour finds it: run with a soft and hard limit of 256 open files,
/// flooded with connections and datagrams, it keeps decoding and answering /healthz, and stops
/// on SIGTERM. How fast it answers and stops is `gatewayd bench --only hostile`'s to measure (a
/// timed unit test fails on a loaded machine); here a bound of 10 s only catches a hang.
@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct HostileClientTests {
    @Test func connectionStormsAndFloodsNeverTakeTheGatewayDown() throws {
        let executable = try #require(gatewaydExecutable(), "build gatewayd first (swift build)")
        let http = freePort(Int32(SOCK_STREAM.rawValue)), nmea = freePort(Int32(SOCK_STREAM.rawValue)), udp = freePort(Int32(SOCK_DGRAM.rawValue))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-hostile-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -n 256 && exec \"$0\" \"$@\"", executable.path, "run", "--bind", "127.0.0.1", "--udp-port", "\(udp)",
                             "--http-bind", "127.0.0.1", "--http-port", "\(http)", "--nmea-port", "\(nmea)",
                             "--database", directory.appendingPathComponent("g.sqlite").path, "--status-interval", "0"]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = Pipe()
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var seen = Data()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !String(decoding: seen, as: UTF8.self).contains("feeds:") { seen.append(stderr.fileHandleForReading.availableData) }
        #expect(String(decoding: seen, as: UTF8.self).contains("only 256 open files allowed"), "gatewayd said: \(String(decoding: seen, as: UTF8.self))")

        // GDL90 keeps arriving throughout (the bundled flight, one datagram each 20 ms).
        let capture = try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.pcap").path)
        let sender = try UDPSender(host: "127.0.0.1", port: udp)
        for d in capture.datagrams.prefix(20) { sender.send(d.bytes) }
        _ = eventually(10) { get(http, "/healthz")?.head.contains("200") == true }  // the datagrams are in: healthy
        let before = get(http, "/healthz")
        #expect(before?.head.contains("200") == true, "healthz before the storm: \(String(describing: before))")

        // 1,000 connection attempts from one neighbour (to HTTP and NMEA), held open; fewer when
        // this test process itself may not open that many (a CI runner's soft limit is often
        // 1,024), so that it keeps descriptors of its own for the requests that follow.
        let attempts = min(1_000, raiseOpenFileLimit() - 128)
        var held: [Int32] = []
        for i in 0..<attempts {
            let fd = connectTCP(i % 4 == 0 ? nmea : http)
            if fd >= 0 { held.append(fd) }
        }
        // Another address still gets /healthz, quickly, while the neighbour holds what it could.
        for d in capture.datagrams.dropFirst(20).prefix(20) { sender.send(d.bytes) }
        let health = get(http, "/healthz")
        #expect(health?.head.contains("200") == true, "healthz during the storm: \(String(describing: health))")
        for fd in held { close(fd) }

        // 300 /alerts clients join and leave during a quiet period: found gone by the keep-alive.
        for _ in 0..<300 {
            let fd = connectTCP(http, from: "127.0.0.3")
            guard fd >= 0 else { continue }
            let request = "GET /alerts HTTP/1.1\r\nHost: x\r\n\r\n"
            _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            close(fd)
        }
        var clients = -1
        _ = eventually(25, every: 0.5) {
            for d in capture.datagrams.dropFirst(40).prefix(2) { sender.send(d.bytes) }
            if let metrics = get(http, "/metrics")?.body,
               let line = metrics.split(separator: "\n").first(where: { $0.hasPrefix("gatewayd_sse_clients ") }) {
                clients = Int(line.split(separator: " ").last ?? "") ?? -1
            }
            return clients == 0
        }
        #expect(clients == 0, "SSE clients still counted after they left: \(clients)")

        // A flood of garbage datagrams, and SIGTERM in the middle of it: out in under 2 s.
        let flooding = Mutex(true)
        let flood = Thread {
            let junk = [UInt8](repeating: 0x7E, count: 1_400)
            while flooding.withLock({ $0 }) { for _ in 0..<100 { sender.send(junk) } }
        }
        flood.start()
        #expect(!eventually(0.5) { !process.isRunning }, "gatewayd gone under a flood of garbage datagrams")
        #expect(process.isRunning, "gatewayd gone under a flood of garbage datagrams")
        let sent = Date()
        kill(process.processIdentifier, SIGTERM)
        _ = waitForExit(process, timeout: 10)
        let took = Date().timeIntervalSince(sent)
        flooding.withLock { $0 = false }
        #expect(!process.isRunning, "still running \(took) s after SIGTERM under a flood")
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0,
                "exit after SIGTERM: \(process.terminationReason == .exit ? "status" : "signal") \(process.terminationStatus)")
    }
}
