#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import GDL90
#if canImport(Glibc)
import Glibc
#endif
import GatewaySupport
import GatewayRuntime

/// `bench --only hostile`, round two (issue 27): the daemon with 20,000 stored NOTAMs (start
/// memory, CPU a datagram against an empty store in the same run, `/api/traffic` size), eight
/// clients looping `/api/notams` while another address polls `/healthz`, 17 addresses holding
/// 31 idle connections each while an 18th asks `/healthz`, then FIS-B floods over UDP (18,000
/// uplinks of DLAC tab runs, 60 s of hostile gridded blocks) against the unit's 128 MB cap.
extension HostileBenchmark {
    /// Runs round two against `executable`; `progress` hears each step.
    package static func runRound2(executable: String, progress: (String) -> Void = { _ in }) throws -> Report {
        var report = Report()
        func check(_ ok: Bool, _ line: String) {
            report.lines.append((ok ? "ok    " : "MISS  ") + line)
            if !ok { report.passed = false }
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-hostile2-\(UUID())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        progress("writing and importing 20,000 NOTAMs")
        try NotamCorpus.write(count: 20_000, to: dir + "/notams.json")
        // The corpus is dated 2026-05-16/17: moved to now, so every NOTAM is in force and watched.
        var corpus = try String(contentsOfFile: dir + "/notams.json", encoding: .utf8)
        let now = Date().timeIntervalSince1970.rounded(.down)
        let from = now - 3600, to = now + 30 * 3600
        func short(_ t: Double) -> String {  // yymmddhhmm
            let iso = Timestamp.iso8601(t)
            return String(iso.dropFirst(2).prefix(8).filter(\.isNumber)) + String(iso.dropFirst(11).prefix(5).filter(\.isNumber))
        }
        for (old, new) in [("2026-05-15T18:00:00Z", Timestamp.iso8601(from - 3600)), ("2026-05-16T12:00:00Z", Timestamp.iso8601(from)),
                           ("2026-05-16T13:00:00Z", Timestamp.iso8601(from)), ("2026-05-17T23:00:00Z", Timestamp.iso8601(to)),
                           ("2605161300", short(from)), ("2605172300", short(to))] {
            corpus = corpus.replacingAll(old, with: new)
        }
        try corpus.write(toFile: dir + "/notams.json", atomically: true, encoding: .utf8)
        let importer = try ChildProcess(executable, ["notams", "import", dir + "/notams.json", "--database", dir + "/full.sqlite"])
        importer.waitUntilExit()

        // CPU a datagram: the demo flight at 50 datagrams/s for 12 s, empty store, then 20,000.
        var cpu: [Double] = []
        for database in ["empty.sqlite", "full.sqlite"] {
            progress("CPU a datagram with \(database == "empty.sqlite" ? "an empty store" : "20,000 NOTAMs")")
            let d = try Daemon(executable: executable, database: dir + "/" + database)
            defer { d.stop() }
            let sender = try UDPSender(host: "127.0.0.1", port: d.udp)
            let flight = DemoFlight().datagrams()
            for i in 0..<50 { sender.send(flight[i % flight.count].bytes); usleep(20_000) }  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
            let before = d.cpuSeconds
            for i in 0..<600 { sender.send(flight[(50 + i) % flight.count].bytes); usleep(20_000) }  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
            pause(0.5)
            cpu.append((d.cpuSeconds - before) / 600 * 1000)
            if database == "full.sqlite" {
                let rss = residentMB(d.pid) ?? 0
                let traffic = httpGet(d.http, "/api/traffic", from: "127.0.0.2")?.utf8.count ?? 0
                check(rss < 128, "20,000 stored NOTAMs: \(format(rss)) MB resident after start and 13 s of flight (target < 128 MB, the unit's MemoryMax)")
                check(traffic < 1 << 20, "/api/traffic with 20,000 stored NOTAMs: \(traffic / 1024) kB a poll (the areas near ownship, at most 500)")

                progress("8 clients looping /api/notams")
                let stopLoop = Locked(false)
                var loops: [BenchThread] = []
                let port = d.http
                for c in 0..<8 {
                    let t = BenchThread { while !stopLoop.value { _ = httpGet(port, "/api/notams?radius=500&lat=39&lon=-98", from: "127.0.0.\(4 + c)", timeout: 30) } }
                    t.start()
                    loops.append(t)
                }
                pause(1)
                var worst = 0.0, failed = 0
                for _ in 0..<50 {
                    let started = Date()
                    // Answered at all (200, or 503 once the flight has stopped): what a health check needs.
                    if httpGet(d.http, "/healthz", from: "127.0.0.2", timeout: 5)?.hasPrefix("HTTP/1.1 ") != true { failed += 1 }
                    worst = max(worst, Date().timeIntervalSince(started))
                    usleep(100_000)  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
                }
                stopLoop.set(true)
                check(failed == 0 && worst < 1, "/healthz while 8 clients loop /api/notams over 20,000 NOTAMs: 50 polls, \(failed) failed, slowest \(format(worst * 1000)) ms (target < 1 s)")
            }
        }
        check(cpu[1] < max(1, cpu[0] * 3), "CPU a datagram: \(JSONWriter.format(cpu[0], decimals: 3)) ms with an empty store, \(JSONWriter.format(cpu[1], decimals: 3)) ms with 20,000 NOTAMs (same run; target: independent of the store's size)")

        progress("17 addresses × 31 idle connections, /healthz from an 18th")
        do {
            let d = try Daemon(executable: executable, database: nil)
            defer { d.stop() }
            var held: [Int32] = []
            for a in 0..<17 { for _ in 0..<31 { let fd = connectTCP(d.http, from: "127.0.1.\(1 + a)"); if fd >= 0 { held.append(fd) } } }
            pause(0.5)
            let started = Date()
            let ok = httpGet(d.http, "/healthz", from: "127.0.2.1", timeout: 5)?.hasPrefix("HTTP/1.1 ") == true
            let took = Date().timeIntervalSince(started)
            for fd in held { close(fd) }
            check(ok && took < 1, "/healthz from an 18th address while 17 hold 31 idle connections each (\(held.count) connected): \(ok ? "answered" : "not answered") in \(format(took * 1000)) ms (target < 1 s)")
        }

        for (name, uplinks) in [("18,000 uplinks of DLAC tab runs (16 kB of text each, a new station each)", (0..<18_000).map(HostileFISB.dlacTabRun(station:))),
                                ("60 s of hostile gridded blocks (random block numbers, empty-block bitmaps, lone segments)", HostileFISB.griddedFlood(count: 12_000))] {
            progress("FIS-B: \(name)")
            let d = try Daemon(executable: executable, database: nil)
            defer { d.stop() }
            let sender = try UDPSender(host: "127.0.0.1", port: d.udp)
            let start = residentMB(d.pid) ?? 0
            var healthWorst = 0.0
            let began = Date()
            for (i, payload) in uplinks.enumerated() {
                sender.send(Message.uplink(Uplink(timeOfReception: nil, payload: payload)).frame())
                if i % 100 == 99 {
                    // Paced to the duration the issue measured (about 250 uplinks a second, 200 for gridded).
                    let due = Double(i + 1) / Double(uplinks.count) * (name.hasPrefix("60") ? 60 : 70)
                    let ahead = due - Date().timeIntervalSince(began)
                    if ahead > 0 { usleep(UInt32(ahead * 1_000_000)) }  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
                    if i % 2_000 == 1_999 {
                        let t0 = Date()
                        _ = httpGet(d.http, "/healthz", from: "127.0.0.2", timeout: 5)
                        healthWorst = max(healthWorst, Date().timeIntervalSince(t0))
                    }
                }
            }
            pause(2)
            let weather = httpGet(d.http, "/api/weather", from: "127.0.0.2", timeout: 30)?.utf8.count ?? 0
            let peak = peakMB(d.pid) ?? 0, now = residentMB(d.pid) ?? 0
            check(peak < 128 && healthWorst < 1,
                  "FIS-B flood, \(name): resident \(format(start)) → \(format(now)) MB, peak \(format(peak)) MB (target < 128 MB); /healthz slowest \(format(healthWorst * 1000)) ms; /api/weather \(weather / 1024) kB")
        }
        return report
    }

    /// A release daemon on loopback ports with the unit's malloc setting, stopped by `stop`.
    final class Daemon {
        let process: ChildProcess
        let udp = freePort(Int32(SOCK_DGRAM.rawValue)), http = freePort(Int32(SOCK_STREAM.rawValue))
        var pid: Int32 { process.processIdentifier }

        init(executable: String, database: String?) throws {
            process = try ChildProcess("/bin/sh", ["-c", "ulimit -S -n 1024 && exec \"$0\" \"$@\"", executable, "run", "--bind", "127.0.0.1", "--udp-port", "\(udp)",
                                 "--http-bind", "127.0.0.1", "--http-port", "\(http)", "--nmea-port", "0", "--status-interval", "0", "--log-level", "error"]
                + (database.map { ["--database", $0] } ?? ["--no-database"]), extraEnvironment: ["MALLOC_ARENA_MAX": "2"])
            for _ in 0..<100 where httpGet(http, "/healthz", from: "127.0.0.2", timeout: 1) == nil { usleep(100_000) }  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
        }

        /// User and system CPU seconds so far.
        var cpuSeconds: Double {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = text.lastIndex(of: ")") else { return 0 }
            let fields = text[text.index(after: close)...].split(separator: " ")
            guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
            return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }
}
