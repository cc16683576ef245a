#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import GatewaySupport
import GatewayCaptures

/// `gatewayd bench --only ogn` (issue 56): the Open Glider Network's APRS, each figure beside a
/// baseline measured in the same run, about 80 s in all.
/// - Decoding a text log: the OGN APRS specification's example lines (`fixtures/ogn/spec-examples.aprs`,
///   every dialect) repeated `copies` times, through `OGNBeaconParser` and through `APRSLog` (what
///   `decode` and `replay` read), beside the demo flight's SBS BaseStation text of the same bytes
///   through `SBSDecoder` and beside the raw split into lines; then `gatewayd decode --json` of
///   each file as a child process (wall time, peak memory).
/// - Following APRS-IS: a loopback server that behaves as one (banner, login with its range
///   filter checked, `logresp`, the example lines at `rate` a second, a `# aprsc` keep-alive every
///   20 s) and a child `gatewayd run --ogn` with `[ogn] range_km = 100` near Zurich, its CPU
///   (`/proc/PID/stat`) and memory (`/proc/PID/status`) over `seconds`, beside the same child
///   idle (no `--ogn`) for as long.
package enum OGNBenchmark {
    /// What a busy European summer day sends through APRS-IS inside a 100 km filter: about a
    /// hundred aircraft beacons a second (the figure the issue gives).
    package static let busyDayBeaconsPerSecond = 100.0

    /// The fixture's lines that are not comments or blank.
    static func exampleLines(_ fixture: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: fixture) else {
            throw GatewayError.file(path: fixture, reason: "cannot read the OGN examples (run the benchmark from the repository's folder)")
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map { String($0) }
            .filter { !$0.trimmingWhitespace().isEmpty && !$0.hasPrefix("#") }
    }

    private static func seconds(_ body: () -> Void) -> Double {
        let began = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
    }

    /// Runs both parts.
    package static func run(executable: String, fixture: String = "fixtures/ogn/spec-examples.aprs", sbsFixture: String = "fixtures/demo-flight.sbs",
                            copies: Int = 400, rounds: Int = 3, rate: Int = 100, seconds: Int = 30,
                            progress: (String) -> Void) throws -> [Benchmarks.Result] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-bench-ogn-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lines = try exampleLines(fixture)
        var results = try decoding(executable: executable, lines: lines, sbsFixture: sbsFixture, copies: copies, rounds: rounds, folder: folder, progress: progress)
        results += try following(executable: executable, lines: lines, rate: rate, seconds: seconds, folder: folder, progress: progress)
        return results
    }

    // MARK: - Decoding a text log

    static func decoding(executable: String, lines: [String], sbsFixture: String, copies: Int, rounds: Int, folder: String,
                         progress: (String) -> Void) throws -> [Benchmarks.Result] {
        let once = Array((lines.joined(separator: "\n") + "\n").utf8)
        var aprs: [UInt8] = []
        aprs.reserveCapacity(once.count * copies)
        for _ in 0..<copies { aprs += once }
        guard let sbsOnce = FileManager.default.contents(atPath: sbsFixture).map({ [UInt8]($0) }), !sbsOnce.isEmpty else {
            throw GatewayError.file(path: sbsFixture, reason: "cannot read the SBS fixture (run the benchmark from the repository's folder)")
        }
        var sbs: [UInt8] = []
        sbs.reserveCapacity(aprs.count + sbsOnce.count)
        while sbs.count < aprs.count { sbs += sbsOnce }
        sbs.removeLast(sbs.count - aprs.count)
        if let lastNewline = sbs.lastIndex(of: 0x0A) { sbs.removeLast(sbs.count - lastNewline - 1) }  // whole lines only
        let megabytes = Double(aprs.count) / 1_048_576
        progress("ogn: \(lines.count) example lines ×\(copies) (\(JSONWriter.format(megabytes, decimals: 1)) MB) through the parser, \(rounds) rounds")

        var parseBest = Double.infinity, logBest = Double.infinity, sbsBest = Double.infinity, splitBest = Double.infinity
        var beacons = 0, skipped = 0, problems = 0, aprsLines = 0, sbsLines = 0, sbsReports = 0, logEntries = 0
        let parser = OGNBeaconParser()
        let text = String(decoding: aprs, as: UTF8.self)
        for _ in 0..<rounds {
            splitBest = min(splitBest, seconds {
                var n = 0
                aprs.withUnsafeBufferPointer { b in _ = TextLines.forEach(b, atEnd: true) { _, _ in n += 1 } }
                aprsLines = n
            })
            parseBest = min(parseBest, seconds {
                var (b, s, p) = (0, 0, 0)
                aprs.withUnsafeBufferPointer { buffer in
                    _ = TextLines.forEach(buffer, atEnd: true) { start, end in
                        switch parser.parse(UnsafeBufferPointer(rebasing: buffer[start..<end])) {
                        case .beacon: b += 1
                        case .receiver, .status, .comment: s += 1
                        case .problem: p += 1
                        }
                    }
                }
                (beacons, skipped, problems) = (b, s, p)
            })
            logBest = min(logBest, seconds { logEntries = APRSLog(text: text, day: 1_779_840_000).entries.count })
            sbsBest = min(sbsBest, seconds {
                var decoder = SBSDecoder()
                var (n, r) = (0, 0)
                sbs.withUnsafeBufferPointer { buffer in
                    _ = TextLines.forEach(buffer, atEnd: true) { start, end in
                        n += 1
                        if case .report = decoder.feed(UnsafeBufferPointer(rebasing: buffer[start..<end]), at: 1_779_000_000) { r += 1 }
                    }
                }
                (sbsLines, sbsReports) = (n, r)
            })
        }
        guard logEntries == beacons, beacons > 0 else {
            throw GatewayError.file(path: "spec-examples", reason: "the parser gave \(beacons) beacons and \(problems) problems, APRSLog \(logEntries) entries: the benchmark measures nothing sound")
        }
        var results: [Benchmarks.Result] = []
        let sbsRate = Double(sbs.count) / 1_048_576 / sbsBest
        results.append(Benchmarks.Result(
            name: "ogn: APRS lines parsed (OGNBeaconParser)", value: megabytes / parseBest, unit: "MB/s", baseline: sbsRate,
            note: "\(JSONWriter.format(Double(beacons) / parseBest / 1e6, decimals: 2)) M aircraft beacons/s, \(JSONWriter.format(Double(aprsLines) / parseBest / 1e6, decimals: 2)) M lines/s (\(beacons) beacons, \(skipped) receiver/status lines, \(problems) lines without an altitude (the examples', counted as wrong); baseline: the demo flight's SBS BaseStation text, same bytes, through SBSDecoder, \(JSONWriter.format(Double(sbsLines) / sbsBest / 1e6, decimals: 2)) M lines/s, \(sbsReports) positions)"))
        results.append(Benchmarks.Result(
            name: "ogn: APRS log read as decode and replay read it (APRSLog, beacons kept)", value: Double(logEntries) / logBest / 1e3, unit: "k beacons/s",
            baseline: Double(beacons) / parseBest / 1e3,
            note: "(baseline: the parser alone) \(JSONWriter.format(megabytes / logBest, decimals: 1)) MB/s; the raw split into lines \(JSONWriter.format(megabytes / splitBest, decimals: 0)) MB/s"))

        // The whole command, as a user runs it.
        let aprsPath = folder + "/examples.aprs", sbsPath = folder + "/demo.sbs"
        guard FileManager.default.createFile(atPath: aprsPath, contents: Data(aprs)), FileManager.default.createFile(atPath: sbsPath, contents: Data(sbs)) else {
            throw GatewayError.file(path: folder, reason: "cannot write the benchmark's logs (disk full?)")
        }
        progress("ogn: gatewayd decode --json of the \(JSONWriter.format(megabytes, decimals: 1)) MB log and of the SBS text of the same size, \(rounds) rounds each")
        var aprsRun = CommandBenchmark.Run(seconds: .infinity, peakMB: 0, status: 0), sbsRun = aprsRun
        for _ in 0..<rounds {
            let a = try CommandBenchmark.run(executable, ["decode", "--json", aprsPath])
            let s = try CommandBenchmark.run(executable, ["decode", "--json", sbsPath])
            guard a.status == 0, s.status == 0 else {
                throw GatewayError.file(path: executable, reason: "decode --json exited \(a.status) (APRS log) and \(s.status) (SBS text)")
            }
            aprsRun = CommandBenchmark.Run(seconds: min(aprsRun.seconds, a.seconds), peakMB: max(aprsRun.peakMB, a.peakMB), status: 0)
            sbsRun = CommandBenchmark.Run(seconds: min(sbsRun.seconds, s.seconds), peakMB: max(sbsRun.peakMB, s.peakMB), status: 0)
        }
        let perSecond = Double(beacons) / aprsRun.seconds
        results.append(Benchmarks.Result(
            name: "ogn: gatewayd decode --json of the log (child process, best of \(rounds))", value: aprsRun.seconds, unit: "s", baseline: sbsRun.seconds,
            note: "\(JSONWriter.format(perSecond / 1e3, decimals: 1)) k aircraft beacons/s, \(JSONWriter.format(megabytes / aprsRun.seconds, decimals: 1)) MB/s, peak \(JSONWriter.format(aprsRun.peakMB, decimals: 0)) MB (baseline: decode --json of the SBS text of the same bytes, \(sbsReports) positions, peak \(JSONWriter.format(sbsRun.peakMB, decimals: 0)) MB)"))
        results.append(Benchmarks.Result(
            name: "ogn: that command against a busy European summer day through APRS-IS", value: perSecond, unit: "beacons/s", baseline: busyDayBeaconsPerSecond,
            note: "(baseline: ~100 aircraft beacons/s inside a 100 km filter) a day's 8.6 M beacons in \(JSONWriter.format(busyDayBeaconsPerSecond * 86_400 / perSecond, decimals: 0)) s"))
        return results
    }

    // MARK: - Following APRS-IS

    /// A loopback server that behaves as an APRS-IS server (aprsc) to one client at a time:
    /// banner, the login read and its filter kept, `logresp`, then `lines` at `rate` a second, one
    /// `send` each, and a `# aprsc` comment every 20 s; what the client sends is read and dropped.
    final class APRSServer: Sendable {
        let fd: Int32, port: UInt16
        /// The login line the last client sent.
        let login = Locked<String?>(nil)
        /// Aircraft and receiver lines sent, and comments.
        let sent = Locked<(lines: Int, comments: Int)>((0, 0))
        private let running = Locked(true)
        private let lines: [String]
        private let rate: Int

        init(lines: [String], rate: Int) throws {
            self.lines = lines
            self.rate = rate
            (fd, port) = try IPv4Socket.bound(type: Int32(SOCK_STREAM.rawValue), address: "127.0.0.1", port: 0, what: "benchmark APRS-IS server", inUse: "", reuseAddress: true)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            listen(fd, 4)
            BenchThread { [self] in serve() }.start()
        }

        private static func send(_ c: Int32, _ line: String) -> Bool {
            let bytes = Array((line + "\r\n").utf8)
            return bytes.withUnsafeBytes { Glibc.send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
        }

        private func serve() {
            while running.value {
                let c = accept(fd, nil, nil)
                if c < 0 { return }
                talk(c)
                close(c)
            }
        }

        private func talk(_ c: Int32) {
            guard Self.send(c, "# aprsc 2.1.14-g5e22b37") else { return }
            // The login: one line, within 10 s.
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            _ = setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var got: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !got.contains(0x0A) && got.count < 4096 {
                let n = buffer.withUnsafeMutableBytes { recv(c, $0.baseAddress, $0.count, 0) }
                if n <= 0 { return }
                got += buffer[0..<n]
            }
            let line = String(decoding: got.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
            login.set(line)
            guard Self.send(c, "# logresp NOCALL unverified, server BENCH") else { return }
            let start = DispatchTime.now().uptimeNanoseconds
            var next = 0, lastComment = 0.0
            while running.value {
                let now = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                if now - lastComment >= 20 {
                    guard Self.send(c, "# aprsc 2.1.14-g5e22b37 \(Timestamp.iso8601(Date().timeIntervalSince1970)) BENCH 127.0.0.1:\(port)") else { return }
                    sent.withLock { $0.comments += 1 }
                    lastComment = now
                }
                let due = Int(now * Double(rate))
                while next < due {
                    guard Self.send(c, lines[next % lines.count]) else { return }
                    next += 1
                    sent.withLock { $0.lines += 1 }
                }
                // Whatever the client says (its #keepalive answers) is read and dropped.
                _ = buffer.withUnsafeMutableBytes { recv(c, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                pause(max(0, Double(next + 1) / Double(rate) - Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
            }
        }

        func stop() {
            running.set(false)
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
    }

    /// CPU seconds (utime + stime) of `pid` from /proc/PID/stat.
    static func cpuSeconds(_ pid: Int32) -> Double { FleetBenchmark.process(pid).cpu }

    /// One child `gatewayd run` for `seconds` after `settle` seconds: CPU seconds, resident MB at
    /// the end, and the targets it held (`/metrics`).
    static func follow(executable: String, arguments: [String], http: UInt16, seconds: Int, errors: String,
                       started: () -> Bool) throws -> (cpu: Double, rssMB: Double, targets: Int) {
        let child = try ChildProcess(executable, arguments, errors: errors)
        func said() -> String {
            let text = (FileManager.default.contents(atPath: errors).map { String(decoding: $0, as: UTF8.self) } ?? "").split(separator: "\n").suffix(3)
            return text.isEmpty ? "" : " (it said: \(text.joined(separator: " / ")))"
        }
        defer {
            if child.isRunning { child.terminate() }
            child.waitUntilExit()
        }
        var waited = 0.0
        while !started() {
            guard child.isRunning else { throw GatewayError.file(path: executable, reason: "gatewayd run exited at start (arguments: \(arguments.joined(separator: " ")))\(said())") }
            guard waited < 15 else { throw GatewayError.file(path: executable, reason: "gatewayd run did not start in 15 s") }
            pause(0.1)
            waited += 0.1
        }
        pause(2)  // start-up (the airport table, the first reads) is not the steady state
        let before = cpuSeconds(child.processIdentifier)
        pause(Double(seconds))
        let after = FleetBenchmark.process(child.processIdentifier)
        guard child.isRunning else { throw GatewayError.file(path: executable, reason: "gatewayd run exited during the measurement\(said())") }
        let metrics = HostileBenchmark.httpGet(http, "/metrics", from: "127.0.0.1") ?? ""
        let targets = Int(metrics.split(separator: "\n").first { $0.hasPrefix("gatewayd_targets ") }?.split(separator: " ").last ?? "") ?? -1
        return (after.cpu - before, after.rssMB, targets)
    }

    static func following(executable: String, lines: [String], rate: Int, seconds: Int, folder: String,
                          progress: (String) -> Void) throws -> [Benchmarks.Result] {
        let config = folder + "/ogn.toml"
        let near = "47.4581,8.5481"  // Zurich (LSZH): the examples' Swiss beacons are inside 100 km
        guard FileManager.default.createFile(atPath: config, contents: Data("[ogn]\nrange_km = 100\nnear = \"\(near)\"\n".utf8)) else {
            throw GatewayError.file(path: config, reason: "cannot write the benchmark's configuration")
        }
        let server = try APRSServer(lines: lines, rate: rate)
        defer { server.stop() }
        // The HTTP port is a free loopback one (not 0) only so that /metrics can say how many
        // targets the gateway held at the end; the idle run has it too.
        func arguments(ogn: Bool, http: UInt16) -> [String] {
            (ogn ? ["--ogn", "127.0.0.1:\(server.port)"] : []) + ["--no-database", "--udp-port", "0", "--http-port", String(http), "--http-bind", "127.0.0.1",
                                                                  "--nmea-port", "0", "--status-interval", "0", "--config", config]
        }
        progress("ogn: gatewayd run --ogn following a loopback APRS-IS server at \(rate) lines/s for \(seconds) s")
        let httpA = HostileBenchmark.freePort(Int32(SOCK_STREAM.rawValue))
        let live = try follow(executable: executable, arguments: ["run"] + arguments(ogn: true, http: httpA), http: httpA, seconds: seconds,
                              errors: folder + "/run-ogn.log", started: { server.login.value != nil })
        let sent = server.sent.value
        let login = server.login.value ?? ""
        let filter = login.split(separator: " ").last.map(String.init) ?? ""
        guard login.hasPrefix("user NOCALL pass -1 vers skygate "), login.contains(" filter r/"), filter.hasSuffix("/100") else {
            throw GatewayError.file(path: executable, reason: "the gateway's login was \"\(login)\": not read-only with a 100 km range filter")
        }
        progress("ogn: the same gatewayd run idle (no --ogn) for \(seconds) s")
        let httpB = HostileBenchmark.freePort(Int32(SOCK_STREAM.rawValue))
        let idle = try follow(executable: executable, arguments: ["run"] + arguments(ogn: false, http: httpB), http: httpB, seconds: seconds,
                              errors: folder + "/run-idle.log", started: { HostileBenchmark.httpGet(httpB, "/healthz", from: "127.0.0.1", timeout: 1) != nil })
        let aircraft = lines.filter { if case .beacon = OGNBeaconParser().parse($0) { return true } else { return false } }.count
        let beaconRate = Double(rate) * Double(aircraft) / Double(lines.count)
        return [
            Benchmarks.Result(
                name: "ogn: gatewayd run --ogn following APRS-IS at \(rate) lines/s (~\(Int(beaconRate.rounded())) aircraft beacons/s), CPU", value: live.cpu / Double(seconds) * 100,
                unit: "% of a core", baseline: idle.cpu / Double(seconds) * 100,
                note: "(baseline: the same run idle, no --ogn) \(JSONWriter.format(live.cpu, decimals: 2)) s of CPU in \(seconds) s (idle \(JSONWriter.format(idle.cpu, decimals: 2)) s); \(sent.lines) lines and \(sent.comments) keep-alive comments sent; \(live.targets) targets held; login \"\(login.split(separator: " ").prefix(5).joined(separator: " ")) … filter \(filter)\""),
            Benchmarks.Result(name: "ogn: that gateway's resident memory", value: live.rssMB, unit: "MB", baseline: idle.rssMB, note: "(baseline: the same run idle)"),
        ]
    }
}
