import Foundation
import GDL90
import Testing
@testable import TrafficGateway

#if canImport(Glibc)
import Glibc
@testable import GatewaySimulation
#endif

/// The fixtures are dated 2026-05-16 14:00Z and a live gateway ages everything by this machine's
/// clock, so the NOTAMs (their activity windows) and the FIS-B METARs (their report times) are
/// moved to now before they are fed; the traffic of the bundled capture needs no moving (a live
/// gateway times it by arrival).
enum FixtureClock {
    /// The fixtures' reference time.
    static let reference = FISBSamples.startTime

    /// Every ISO 8601 time and every `YYMMDDHHMM` NOTAM time in `text`, moved by `delta` seconds.
    static func shiftNotamTimes(_ text: String, by delta: Double) -> String {
        var out = text
        let iso = try! NSRegularExpression(pattern: #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z"#)
        for m in iso.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            let r = Range(m.range, in: text)!
            guard let t = Timestamp.parse(String(text[r])) else { continue }
            let shifted = Timestamp.iso8601(t + delta).replacingOccurrences(of: ".000Z", with: "Z")
            out.replaceSubrange(Range(m.range, in: out)!, with: shifted)
        }
        let short = try! NSRegularExpression(pattern: #"(?<![0-9])\d{10}(?![0-9])"#)
        let text2 = out
        for m in short.matches(in: text2, range: NSRange(text2.startIndex..., in: text2)).reversed() {
            let r = Range(m.range, in: text2)!
            guard let t = FISBClock.notamTime(text2[r]) else { continue }
            out.replaceSubrange(Range(m.range, in: out)!, with: yymmddhhmm(t + delta))
        }
        return out
    }

    /// `YYMMDDHHMM` of `t`.
    static func yymmddhhmm(_ t: Double) -> String {
        let iso = Timestamp.iso8601(t)  // 2026-05-16T14:00:00.000Z
        let c = Array(iso)
        return String(c[2...3]) + String(c[5...6]) + String(c[8...9]) + String(c[11...12]) + String(c[14...15])
    }

    /// A METAR's `DDHHMMZ` moved by `delta` seconds (the fixtures' month).
    static func shiftReportTime(_ text: String, by delta: Double) -> String {
        let pattern = try! NSRegularExpression(pattern: #"\b(\d{2})(\d{2})(\d{2})Z\b"#)
        guard let m = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let day = Int(text[Range(m.range(at: 1), in: text)!]), let hour = Int(text[Range(m.range(at: 2), in: text)!]),
              let minute = Int(text[Range(m.range(at: 3), in: text)!]) else { return text }
        let t = Timestamp.midnight(year: 2026, month: 5, day: day) + Double(hour * 3600 + minute * 60) + delta
        let c = Array(Timestamp.iso8601(t))
        return text.replacingCharacters(in: Range(m.range, in: text)!, with: String(c[8...9]) + String(c[11...12]) + String(c[14...15]) + "Z")
    }
}

/// Runs a program, returning its exit status and standard output (standard error is kept in
/// `errors`), killing it after `timeout` seconds.
private func runProgram(_ path: String, _ arguments: [String], timeout: Double) throws -> (status: Int32, output: String, errors: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = arguments
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let collected = Locked<Data>(Data())
    let reader = Thread { collected.set(out.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let errors = Locked<Data>(Data())
    let errReader = Thread { errors.set(err.fileHandleForReading.readDataToEndOfFile()) }
    errReader.start()
    let deadline = Date().addingTimeInterval(timeout)
    while p.isRunning && Date() < deadline { usleep(50_000) }
    if p.isRunning { p.terminate() }
    p.waitUntilExit()
    usleep(200_000)
    return (p.terminationStatus, String(decoding: collected.value, as: UTF8.self), String(decoding: errors.value, as: UTF8.self))
}

/// Where Debian's chromium is, or nil.
private func chromiumPath() -> String? {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// The cockpit page in a real headless browser (Debian's chromium) against the real `gatewayd run`,
/// fed over UDP with the bundled capture, FIS-B METARs of the sample and the demo NOTAMs.
@Suite(.serialized) struct CockpitPageTests {
    @Test func pageShowsTrafficAlertsAirspaceNotamsAndWeatherOffline() throws {
        let chromium = try #require(chromiumPath(), "chromium is not installed: run `bash scripts/setup.sh` (it installs Debian's chromium with apt-get)")
        let executable = try #require(gatewaydExecutable(), "build gatewayd first (swift build)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-cockpit-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let http = HostileBenchmark.freePort(Int32(SOCK_STREAM.rawValue)), udp = HostileBenchmark.freePort(Int32(SOCK_DGRAM.rawValue))

        // The demo NOTAMs, moved so that now is 14:00Z of their day; stored, and watched as a file.
        let now = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60
        let delta = now - FixtureClock.reference
        let original = try String(contentsOf: fixtures.appendingPathComponent("notams-demo.json"), encoding: .utf8)
        let notams = directory.appendingPathComponent("notams-demo-now.json")
        try FixtureClock.shiftNotamTimes(original, by: delta).write(to: notams, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("gateway.sqlite").path
        let imported = try runProgram(executable.path, ["notams", "import", notams.path, "--database", database], timeout: 30)
        #expect(imported.status == 0, "notams import: \(imported.errors)")
        let config = directory.appendingPathComponent("gatewayd.toml")
        try "[feeds]\nack_token = \"cockpit-test\"\n".write(to: config, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = executable
        process.arguments = ["run", "--config", config.path, "--bind", "127.0.0.1", "--udp-port", "\(udp)", "--http-bind", "127.0.0.1",
                             "--http-port", "\(http)", "--nmea-port", "0", "--database", database, "--notams", notams.path, "--status-interval", "0"]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = Pipe()
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            process.waitUntilExit()
        }
        var seen = Data()
        let started = Date().addingTimeInterval(20)
        while Date() < started, !String(decoding: seen, as: UTF8.self).contains("feeds:") { seen.append(stderr.fileHandleForReading.availableData) }
        #expect(String(decoding: seen, as: UTF8.self).contains("HTTP http://127.0.0.1:\(http)/"))

        // FIS-B: the sample as it is (its products are months old for a live gateway: dropped as
        // stale on arrival), then its METARs moved to now.
        let sender = try UDPSender(host: "127.0.0.1", port: udp)
        for d in try CaptureFile.read(path: fixtures.appendingPathComponent("fisb-sample.978").path).datagrams { sender.send(d.bytes) }
        let metars = [FISBSamples.metarKSLE, FISBSamples.metarKEUG, FISBSamples.metarKONP].map { FixtureClock.shiftReportTime($0, by: delta) }
        let uplink = FISBSamples.uplink([FISBSamples.textAPDU([metars[0]]), FISBSamples.textAPDU([metars[1]]), FISBSamples.textAPDU([metars[2]])])
        sender.send(Message.uplink(Uplink(timeOfReception: nil, payload: uplink)).frame())

        // The bundled flight at 10x in the background, until the head-on conflict alerts.
        let capture = try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.pcap").path)
        let stop = Locked(false)
        let pacer = Thread {
            let first = capture.datagrams.first?.timestamp ?? 0
            let began = Date()
            for d in capture.datagrams {
                if stop.value { return }
                let wait = ((d.timestamp ?? first) - first) / 10 - Date().timeIntervalSince(began)
                if wait > 0 { usleep(useconds_t(wait * 1e6)) }
                sender.send(d.bytes)
            }
        }
        pacer.start()
        defer { stop.set(true) }
        let base = "http://127.0.0.1:\(http)"
        var conflict = false
        let until = Date().addingTimeInterval(45)
        while Date() < until, !conflict {
            usleep(250_000)
            if let a = try? HTTPConnection.get(base + "/api/alerts"), a.body.contains("\"subject\":\"ab4549\""),
               a.body.contains("\"level\":\"caution\"") || a.body.contains("\"level\":\"warning\"") { conflict = true }
        }
        #expect(conflict, "the head-on conflict with N825V never alerted")

        // The page in chromium: no name resolves but loopback, and the network log must show no
        // request to anywhere else.
        let netlog = directory.appendingPathComponent("netlog.json").path
        let browserArguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--enable-automation",
                                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                                "--user-data-dir=" + directory.appendingPathComponent("chromium").path]
        let dump = try runProgram(chromium, browserArguments + ["--log-net-log=" + netlog, "--virtual-time-budget=5000", "--dump-dom", base + "/#traffic"], timeout: 45)
        let dom = dump.output
        #expect(dom.contains("N825V"), "the conflict target is not on the page: \(dump.errors.suffix(2000))")
        #expect(dom.contains("Traffic N825V (ab4549)"), "its alert (the terminal's wording) is not on the page")
        #expect(dom.contains("6/2174"), "the TFR is not on the page")
        #expect(dom.contains("SFC–4000 MSL"), "the TFR's limits are not on the page")
        #expect(dom.contains("RWY 13/31 CLSD") && dom.contains("Runway 13/31 is closed."), "a NOTAM with its translation is not on the page")
        #expect(dom.contains("METAR KSLE"), "the FIS-B METAR is not on the page")
        #expect(dom.contains("VFR"), "the flight category is not on the page")
        // Speak alerts (issue 22): off by default; on (?speak=on), it speaks the gateway's callout text.
        #expect(dom.contains("Speak alerts: off") && !dom.contains("data-spoken"), "the speak toggle is not off by default")
        let spoken = try runProgram(chromium, browserArguments + ["--virtual-time-budget=5000", "--dump-dom", base + "/?speak=on#alerts"], timeout: 45).output
        let api = (try? HTTPConnection.get(base + "/api/alerts"))?.body ?? ""
        let said = spoken.range(of: #"data-spoken="[^"]*""#, options: .regularExpression).map { String(spoken[$0].dropFirst(13).dropLast()) }
        #expect(spoken.contains("Speak alerts: on"), "?speak=on did not turn speaking on")
        #expect(said.map { $0.hasPrefix("Traffic") && api.contains("\"callout\":\"\($0.replacingOccurrences(of: "&#39;", with: "'"))\"") } == true,
                "the page did not speak the gateway's callout text: \(said ?? "nothing")")
        let log = (try? String(contentsOfFile: netlog, encoding: .utf8)) ?? ""
        let urls = try NSRegularExpression(pattern: #""url":"([a-z]+://[^"]*)""#)
        var outside: Set<String> = []
        for m in urls.matches(in: log, range: NSRange(log.startIndex..., in: log)) {
            let u = String(log[Range(m.range(at: 1), in: log)!])
            // The browser's own update and account pings (Google hosts) are not the page's; the
            // resolver rule refuses them anyway.
            let browsers = ["googleapis.com/", "google.com/", "gstatic.com/"].contains { u.contains($0) }
            if !(u.hasPrefix("http://127.0.0.1:") || u.hasPrefix("data:") || u.hasPrefix("chrome") || u.hasPrefix("about:") || browsers) { outside.insert(u) }
        }
        #expect(!log.isEmpty, "chromium wrote no network log")
        #expect(outside.isEmpty, "requests left loopback: \(outside.sorted())")

        // A screenshot, tablet-sized, for people to look at.
        let shot = directory.appendingPathComponent("cockpit.png").path
        let screenshot = try runProgram(chromium, browserArguments + ["--window-size=1280,860", "--hide-scrollbars", "--virtual-time-budget=5000",
                                                                       "--screenshot=" + shot, base + "/?speak=on#traffic"], timeout: 45)
        let size = (try? FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0
        #expect(size > 10_000, "no screenshot: \(screenshot.errors.suffix(1000))")
        print("cockpit screenshot: \(shot)")
        stop.set(true)
        kill(process.processIdentifier, SIGTERM)
    }
}
