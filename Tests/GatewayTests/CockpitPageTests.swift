import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayRecords
@testable import GatewayFeeds

#if canImport(Glibc)
import Glibc
@testable import GatewaySimulation
#endif

/// Runs a program, returning its exit status and standard output (standard error is kept in
/// `errors`), killing it after `timeout` seconds.
func runProgram(_ path: String, _ arguments: [String], timeout: Double) throws -> (status: Int32, output: String, errors: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = arguments
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let collected = Locked<Data>(Data())
    let read = Locked(0)
    let reader = Thread { collected.set(out.fileHandleForReading.readDataToEndOfFile()); read.withLock { $0 += 1 } }
    reader.start()
    let errors = Locked<Data>(Data())
    let errReader = Thread { errors.set(err.fileHandleForReading.readDataToEndOfFile()); read.withLock { $0 += 1 } }
    errReader.start()
    if !waitForExit(p, timeout: timeout) { p.terminate() }
    p.waitUntilExit()
    // Both pipes read to their end (a child the program left behind may still hold them open).
    _ = eventually(5) { read.value == 2 }
    return (p.terminationStatus, String(decoding: collected.value, as: UTF8.self), String(decoding: errors.value, as: UTF8.self))
}

/// Where Debian's chromium is, or nil.
func chromiumPath() -> String? {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// The cockpit page in a real headless browser (Debian's chromium) against the real `gatewayd run`,
/// playing the bundled capture and the FIS-B sample as its input (`--replay`), with the demo NOTAMs.
@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct CockpitPageTests {
    @Test(.ownThread) func pageShowsTrafficAlertsAirspaceNotamsAndWeatherOffline() throws {
        let chromium = try #require(chromiumPath(), "chromium is not installed: run `bash scripts/setup.sh` (it installs Debian's chromium with apt-get)")
        let executable = try #require(gatewaydExecutable(), "build gatewayd first (swift build)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-cockpit-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let http = HostileBenchmark.freePort(Int32(SOCK_STREAM.rawValue))

        // The demo NOTAMs as they are (dated 2026-05-16, as the captures): stored, and watched as a file.
        let notams = fixtures.appendingPathComponent("notams-demo.json")
        let database = directory.appendingPathComponent("gateway.sqlite").path
        let imported = try runProgram(executable.path, ["notams", "import", notams.path, "--database", database], timeout: 30)
        #expect(imported.status == 0, "notams import: \(imported.errors)")
        let config = directory.appendingPathComponent("gatewayd.toml")
        try "[feeds]\nack_token = \"cockpit-test\"\n".write(to: config, atomically: true, encoding: .utf8)

        // The bundled flight and the FIS-B sample played as the input at ten times real time
        // (`run --replay`): the gateway's clock is theirs, so nothing is re-dated (issue 21).
        let process = Process()
        process.executableURL = executable
        process.arguments = ["run", "--config", config.path, "--replay", fixtures.appendingPathComponent("demo-flight.pcap").path,
                             "--replay", fixtures.appendingPathComponent("fisb-sample.978").path, "--speed", "10", "--http-bind", "127.0.0.1",
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
        #expect(String(decoding: seen, as: UTF8.self).contains("the clock is the capture's, from 2026-05-16T14:00:00"))

        let base = "http://127.0.0.1:\(http)"
        let conflict = eventually(45, every: 0.25) {
            guard let a = try? HTTPConnection.get(base + "/api/alerts"), a.body.contains("\"subject\":\"ab4549\"") else { return false }
            return a.body.contains("\"level\":\"caution\"") || a.body.contains("\"level\":\"warning\"")
        }
        #expect(conflict, "the head-on conflict with N825V never alerted")
        // The API's time is the capture's.
        #expect((try? HTTPConnection.get(base + "/api/traffic"))?.body.contains("\"time\":\"2026-05-16T14:0") == true)

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
        // The alert shows its current numbers: the range in its card is the traffic table's (issue 28).
        let card = dom.range(of: #"Traffic N825V \(ab4549\) [^<]*?, ([0-9.]+) NM"#, options: .regularExpression).map { String(dom[$0]) }
        let row = dom.range(of: #"<strong>N825V</strong>.*?<td>([0-9.]+) NM</td>"#, options: .regularExpression).map { String(dom[$0]) }
        func lastRange(_ s: String?) -> String? { s?.components(separatedBy: " NM").dropLast().last?.components(separatedBy: CharacterSet(charactersIn: " >")).last }
        #expect(lastRange(card) != nil && lastRange(card) == lastRange(row), "the alert's range (\(card ?? "none")) is not the table's (\(row ?? "none"))")
        // The tab and its count badge read as words.
        #expect(dom.contains(#"aria-label="Alerts, "#) && dom.contains(" active\""), "the Alerts tab has no spoken count")
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
        // Traffic or airspace, whichever was active when the page loaded (the flight plays at 10×).
        #expect(said.map { !$0.isEmpty && api.contains("\"callout\":\"\($0.replacingOccurrences(of: "&#39;", with: "'"))\"") } == true,
                "the page did not speak the gateway's callout text: \(said ?? "nothing")")
        // A notification's link (issue 54): #notams/<number> opens the NOTAMs view at that NOTAM,
        // marked aria-current and with its plain English; the tab counts the changes this device
        // (a new browser profile: all of them) has not seen.
        let linked = try runProgram(chromium, browserArguments + ["--virtual-time-budget=5000", "--dump-dom", base + "/#notams/6%2F2174"], timeout: 45).output
        let current = linked.range(of: #"<article class="notam [a-z]+" aria-current="true">.*?</article>"#, options: .regularExpression).map { String(linked[$0]) }
        #expect(current?.contains("6/2174") == true && current?.contains("Plain English") == true, "the linked NOTAM is not marked: \(current ?? "none")")
        #expect(linked.contains("Opened from a notification: 6/2174"))
        #expect(linked.components(separatedBy: #"aria-current="true""#).count == 2, "more than one NOTAM marked")
        #expect(linked.range(of: #"aria-label="NOTAMs, [0-9]+ unread changes?""#, options: .regularExpression) != nil, "the NOTAMs tab has no unread count")
        let gone = try runProgram(chromium, browserArguments + ["--virtual-time-budget=5000", "--dump-dom", base + "/#notams/9%2F9999"], timeout: 45).output
        #expect(gone.contains("NOTAM 9/9999 is no longer stored here (cancelled or expired)."))
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
        kill(process.processIdentifier, SIGTERM)
    }
}

/// The `#flights` panel (issue 23) in chromium against `gatewayd run`: the logbook's flights
/// listed, one flight drawn offline (track over the TFR, altitude profile, encounters), its
/// debrief as text and each export downloadable with the same bytes as `flights export`.
@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct FlightsPageTests {
    @Test func flightsPanelShowsTheLogbook() throws {
        let chromium = try #require(chromiumPath(), "chromium is not installed: run `bash scripts/setup.sh` (it installs Debian's chromium with apt-get)")
        let executable = try #require(gatewaydExecutable(), "build gatewayd first (swift build)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-flights-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = directory.appendingPathComponent("gateway.sqlite").path
        let notams = fixtures.appendingPathComponent("notams-demo.json").path
        // The logbook: the demo flight replayed with its TFR (flight 1, ends in the air), and two scenario flights.
        let replayed = try runProgram(executable.path, ["replay", fixtures.appendingPathComponent("demo-flight.pcap").path, "--notams", notams,
                                                        "--no-store", "--database", database], timeout: 60)
        #expect(replayed.status == 0 && replayed.errors.contains("logbook: flight 1 kept"), "\(replayed.errors.suffix(500))")
        let imported = try runProgram(executable.path, ["flights", "import", fixtures.appendingPathComponent("scenarios/two-flights.pcap").path,
                                                        "--database", database], timeout: 60)
        #expect(imported.status == 0, "\(imported.errors)")

        let http = HostileBenchmark.freePort(Int32(SOCK_STREAM.rawValue))
        let process = Process()
        process.executableURL = executable
        process.arguments = ["run", "--replay", fixtures.appendingPathComponent("demo-flight.pcap").path, "--speed", "10", "--http-bind", "127.0.0.1",
                             "--http-port", "\(http)", "--nmea-port", "0", "--database", database, "--notams", notams, "--status-interval", "0"]
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
        let base = "http://127.0.0.1:\(http)"
        // The TFR is active and in the snapshot (the flight's map draws it), and the flight run
        // plays has taken off (its own logbook has it open: kept at SIGTERM).
        #expect(eventually(30) { (try? HTTPConnection.get(base + "/airspace.geojson"))?.body.contains("6/2174") == true }, "the TFR never became active")
        #expect(eventually(30) {
            guard let body = try? HTTPConnection.get(base + "/api/traffic").body else { return false }
            return (JSONReader.object(Array(body.utf8))?["ownship"] as? [String: Any])?["airborne"] as? Bool == true
        }, "the flight never took off")

        let list = try HTTPConnection.get(base + "/api/flights").body
        #expect(list.contains("\"id\":1,") && list.contains("\"id\":3,") && list.contains("\"departure\":\"7S5\""))
        // A download is the CLI's export, byte for byte.
        let kml = try HTTPConnection.get(base + "/api/flights/1/export/kml")
        let cli = try runProgram(executable.path, ["flights", "export", "1", "--format", "kml", "--database", database], timeout: 30)
        #expect(kml.body == cli.output && kml.body.contains("<gx:Track>"))
        #expect(try HTTPConnection.get(base + "/api/flights/99").status == 404)
        #expect(try HTTPConnection.get(base + "/api/flights/1/export/doc").status == 404)

        let browserArguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--enable-automation",
                                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                                "--user-data-dir=" + directory.appendingPathComponent("chromium").path]
        let dom = try runProgram(chromium, browserArguments + ["--virtual-time-budget=5000", "--dump-dom", base + "/?flight=1#flights"], timeout: 45).output
        #expect(dom.contains("Flight 1: KSLE → (in the air)"), "no flight title: \(dom.suffix(3000))")
        #expect(dom.contains("N825V (ab4549)") && dom.contains("Encounters (closest first):"), "no debrief")
        for format in ["KML", "GPX", "IGC", "GEOJSON", "CSV"] { #expect(dom.contains(">\(format)</a>"), "no \(format) download") }
        #expect(dom.contains("7S5 → KSLE"), "the list misses a flight")
        let shot = directory.appendingPathComponent("flights.png").path
        _ = try runProgram(chromium, browserArguments + ["--window-size=1280,1100", "--hide-scrollbars", "--virtual-time-budget=5000",
                                                         "--screenshot=" + shot, base + "/?flight=1#flights"], timeout: 45)
        let size = (try? FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0
        #expect(size > 10_000)
        #expect(dom.contains("TFR 6/2174 ZSE (tfr): ENTERED, warning"), "the TFR crossed is not in the debrief")
        print("flights screenshot: \(shot)")
        // run keeps its own logbook: at SIGTERM the flight it was playing is kept (the same
        // flight as the replay's: already kept, not a second one).
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        seen.append(stderr.fileHandleForReading.readDataToEndOfFile())
        #expect(String(decoding: seen, as: UTF8.self).contains("gatewayd: logbook: flight: KSLE → "), "\(String(decoding: seen, as: UTF8.self).suffix(800))")
        let after = try runProgram(executable.path, ["flights", "list", "--json", "--database", database], timeout: 30).output
        #expect(after.components(separatedBy: "\"id\":").count - 1 == 3)
    }
}
