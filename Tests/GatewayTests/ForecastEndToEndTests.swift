import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewaySimulation

/// The forecast radar end to end (issue 55): GRIB2 files made by ecCodes' own Python bindings
/// (scripts/make-forecast-grib.py: a Lambert conformal grid with HRRR's projection parameters,
/// a known field, simple, complex and JPEG 2000 packing, missing points), served by a loopback
/// server in NOMADS's query form (scripts/nomads-fake.py), fetched by `gatewayd weather forecast
/// fetch` as a person runs it; every pixel of each picture checked against the value ecCodes
/// reads at the nearest grid point, the PNG read with its world file by GDAL
/// (scripts/check-forecast-picture.py, gdalinfo).
@Suite(.serialized, .timeLimit(.minutes(5)), .tags(.process), .slow) struct ForecastEndToEndTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// python3 with eccodes and numpy, and GDAL; nil (skipped outside CI) when missing.
    static func tools() throws -> Bool {
        let probe = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import eccodes, numpy"])
        let gdal = FileManager.default.isExecutableFile(atPath: "/usr/bin/gdal_translate")
        if probe.status != 0 || !gdal {
            #expect(ProcessInfo.processInfo.environment["SKYGATE_CI"] == nil, "python3 eccodes/numpy or GDAL missing in CI: \(probe.errors)")
            print("skipped: python3 -m pip install --user eccodes numpy; apt-get install gdal-bin")
            return false
        }
        return true
    }

    static func python(_ script: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", repository.appendingPathComponent("scripts/" + script).path] + arguments)
    }

    /// The loopback NOMADS (scripts/nomads-fake.py) serving `root`.
    final class Server {
        let peer: ScriptPeer
        let port: Int
        init(root: String) throws {
            peer = try ScriptPeer(script: "nomads-fake.py", [root])
            port = Int(peer.firstLine) ?? 0
        }
        func stop() { peer.stop() }
    }

    /// Writes `hours` of `run` (YYYYMMDDHH) into `folder` as NOMADS names them (HRRR), made by
    /// ecCodes on the grid the tests use, around KSLE; `extra` arguments for make-forecast-grib.py.
    static func makeRun(_ folder: String, _ run: String, hours: ClosedRange<Int>, extra: (Int) -> [String] = { _ in [] }) throws {
        for hour in hours {
            let made = try python("make-forecast-grib.py", [folder + "/hrrr.t\(run.suffix(2))z.wrfsfcf0\(hour).grib2", "--run", run, "--hour", "\(hour)",
                                                          "--lat1", "43.5", "--lon1", "-125.0", "--nx", "150", "--ny", "130"] + extra(hour))
            #expect(made.status == 0, "\(made.errors)")
        }
    }

    /// `run` with `[forecast]` keeps the newest complete run, and says so in one line.
    @Test(.ownThread) func runRefreshesTheForecast() throws {
        guard try Self.tools(), let gatewayd = gatewaydExecutable() else { return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-forecast-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let t = (Date().timeIntervalSince1970 / 3600).rounded(.down) * 3600 - 7200
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMddHH"
        let run = f.string(from: Date(timeIntervalSince1970: t))
        let served = dir + "/nomads/" + run.prefix(8)
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        try Self.makeRun(served, run, hours: 0...1)
        let server = try Server(root: dir + "/nomads")
        defer { server.stop() }
        try """
            [forecast]
            near = "KSLE"
            radius_nm = 60
            hours = 1
            url = "http://127.0.0.1:\(server.port)"
            """.write(toFile: dir + "/g.toml", atomically: true, encoding: .utf8)
        // An older run cut short, kept beside: listed as partial, never current.
        let older = f.string(from: Date(timeIntervalSince1970: t - 3600))
        try FileManager.default.createDirectory(atPath: dir + "/forecast/hrrr/" + older, withIntermediateDirectories: true)
        try #"{"model":"hrrr","run":"\#(older)","hours":[0,1],"fetched":[0],"problems":{"1":"HTTP 404"},"bounds":{"west":-124,"south":44,"east":-122,"north":46},"bytesFetched":1}"#
            .write(toFile: dir + "/forecast/hrrr/\(older)/run.json", atomically: true, encoding: .utf8)
        let http = Int(HostileBenchmark.freePort(Int32(SOCK_STREAM.rawValue)))
        let p = Process()
        p.executableURL = gatewayd
        p.arguments = ["run", "--config", dir + "/g.toml", "--udp-port", "0", "--http-port", "\(http)", "--http-bind", "127.0.0.1", "--nmea-port", "0",
                       "--database", dir + "/g.sqlite", "--status-interval", "0"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        try p.run()
        let said = Locked("")
        Thread { while p.isRunning { let d = err.fileHandleForReading.availableData; if d.isEmpty { break }; said.withLock { $0 += String(decoding: d, as: UTF8.self) } } }.start()
        #expect(eventually(60, every: 0.5) { said.value.contains("gatewayd: forecast: HRRR \(run): 2 of 2 hours drawn, current") }, "\(said.value)")
        defer { p.terminate(); p.waitUntilExit() }
        #expect(FileManager.default.fileExists(atPath: dir + "/forecast/hrrr/\(run)/f01.png"))

        // Served: the index, each hour's files with their validators, nothing else.
        let index = loopbackGET(http, "/weather/forecast/")
        #expect(index.status == 200 && index.body.hasPrefix(#"{"current":{"model":"hrrr","label":"HRRR","run":"\#(run)","#), "\(index.body)")
        #expect(index.body.contains(#""png":"/weather/forecast/hrrr/\#(run)/f01.png","pgw":"/weather/forecast/hrrr/\#(run)/f01.pgw","json":"/weather/forecast/hrrr/\#(run)/f01.json"}]}"#), "\(index.body)")
        #expect(index.body.hasSuffix(#""runs":[{"model":"hrrr","run":"\#(run)","state":"complete","missing":[]},{"model":"hrrr","run":"\#(older)","state":"partial","missing":["f01"]}]}"#), "\(index.body)")
        let kept = try #require(FileManager.default.attributesOfItem(atPath: dir + "/forecast/hrrr/\(run)/f01.png")[.size] as? Int)
        let png = loopbackGET(http, "/weather/forecast/hrrr/\(run)/f01.png")
        #expect(png.status == 200 && png.head.lowercased().contains("content-type: image/png") && png.head.contains("Content-Length: \(kept)"), "\(png.head)")
        let etag = String(try #require(png.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }).dropFirst(5)).trimmingCharacters(in: .whitespaces)
        let modified = String(try #require(png.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("last-modified:") }).dropFirst(14)).trimmingCharacters(in: .whitespaces)
        #expect(loopbackRequest(http, "GET", "/weather/forecast/hrrr/\(run)/f01.png", headers: ["If-None-Match": etag]).status == 304)
        #expect(loopbackRequest(http, "GET", "/weather/forecast/hrrr/\(run)/f01.png", headers: ["If-Modified-Since": modified]).status == 304)
        let meta = loopbackGET(http, "/weather/forecast/hrrr/\(run)/f01.json")
        #expect(meta.status == 200 && meta.body.contains(#""forecastHour":1"#) && meta.body.contains(##""color":"#04e9e7""##), "\(meta.body)")
        #expect(loopbackGET(http, "/weather/forecast/hrrr/\(run)/f01.pgw").body.split(separator: "\n").count == 6)
        for path in ["/weather/forecast/hrrr/\(run)/run.json", "/weather/forecast/hrrr/\(run)/f02.png", "/weather/forecast/gfs/\(run)/f00.png",
                     "/weather/forecast/hrrr/\(run)/..%2F..%2F..%2Fg.sqlite", "/weather/forecast/hrrr/\(older)/f01.png"] {
            let r = loopbackGET(http, path)
            #expect(r.status == 404 && r.body.contains("forecast"), "\(path): \(r.status) \(r.body)")
        }

        // The Radar view's forecast layer in a real browser: the hour valid now (run + 1 h), the
        // run's time and age, and the words that it is a model's forecast.
        if let chromium = chromiumPath() {
            let profile = dir + "/chromium"
            let browser = try runProgram(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions", "--disable-background-networking",
                                                    "--disable-component-update", "--disable-sync", "--enable-automation", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                                                    "--user-data-dir=" + profile, "--virtual-time-budget=5000",
                                                    "--dump-dom", "http://127.0.0.1:\(http)/?layer=forecast#radar"], timeout: 45)
            let dom = browser.output
            #expect(browser.status == 0 && !dom.isEmpty, "chromium: \(browser.status) \(browser.errors.suffix(800))")
            let status = dom.components(separatedBy: #"id="radar-status""#).dropFirst().first?.components(separatedBy: "</p>").first ?? ""
            #expect(status.contains("HRRR forecast valid") && status.contains("(+1 h), HRRR run") && status.contains("model forecast, not observed radar"), "\(status)")
            #expect(dom.contains(#"<option value="forecast" id="forecast-option">Forecast (HRRR)</option>"#))
            #expect(dom.contains("composite reflectivity, model forecast, not observed radar") && dom.contains("70–75 dBZ"), "the legend")
        } else {
            #expect(ProcessInfo.processInfo.environment["SKYGATE_CI"] == nil, "chromium missing in CI")
        }
    }

    /// Always ready: a power cut (SIGKILL) in the middle of a run's download leaves the last
    /// complete run current and whole, the run cut short partial with what it had; the next fetch
    /// completes it.
    @Test(.ownThread) func aPowerCutMidFetchLeavesTheCompleteRunCurrent() throws {
        guard try Self.tools(), let gatewayd = gatewaydExecutable() else { return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-forecast-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let served = dir + "/nomads/20261205"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        for run in ["2026120512", "2026120518"] { try Self.makeRun(served, run, hours: 0...2) }
        let server = try Server(root: dir + "/nomads")
        defer { server.stop() }
        let database = dir + "/g.sqlite"
        let arguments = ["weather", "forecast", "fetch", "--near", "KSLE", "--radius", "60", "--hours", "2", "--url", "http://127.0.0.1:\(server.port)", "--database", database]
        let first = try runProcess(gatewayd, arguments + ["--run", "2026120512"])
        #expect(first.status == 0 && first.output.contains("3 of 3 hours drawn"), "\(first.output)\(first.errors)")
        let kept = try (0...2).map { try Data(contentsOf: URL(fileURLWithPath: dir + "/forecast/hrrr/2026120512/f0\($0).png")) }
        // The 18Z run: f01's transfer stalls half-way; the power goes while it hangs.
        _ = FileManager.default.createFile(atPath: served + "/hrrr.t18z.wrfsfcf01.grib2.hang", contents: Data())
        let p = Process()
        p.executableURL = gatewayd
        p.arguments = arguments + ["--run", "2026120518"]
        p.standardOutput = Pipe()
        p.standardError = Pipe()
        try p.run()
        let log = dir + "/nomads/requests.log"
        #expect(eventually(30, every: 0.1) { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("hrrr.t18z.wrfsfcf01") },
                "the fetch never asked for f01")
        Thread.sleep(forTimeInterval: 0.5)
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        var list = try runProcess(gatewayd, ["weather", "forecast", "list", "--json", "--database", database])
        #expect(list.output.contains(#"{"model":"hrrr","run":"2026120512","state":"complete","missing":[],"current":true"#), "\(list.output)")
        #expect(list.output.contains(#"{"model":"hrrr","run":"2026120518","state":"partial","missing":["f01","f02"],"current":false"#), "\(list.output)")
        // The complete run's frames are as they were, byte for byte.
        #expect(try (0...2).map { try Data(contentsOf: URL(fileURLWithPath: dir + "/forecast/hrrr/2026120512/f0\($0).png")) } == kept)
        // The network back: the next fetch completes the 18Z run, which becomes current; this one
        // as a person configures it, with `--config` and its [forecast] and [database] sections.
        try FileManager.default.removeItem(atPath: served + "/hrrr.t18z.wrfsfcf01.grib2.hang")
        try """
            [database]
            path = "\(database)"

            [forecast]
            near = "KSLE"
            radius_nm = 60
            hours = 2
            url = "http://127.0.0.1:\(server.port)"
            """.write(toFile: dir + "/g.toml", atomically: true, encoding: .utf8)
        let again = try runProcess(gatewayd, ["weather", "forecast", "fetch", "--config", dir + "/g.toml", "--run", "2026120518"])
        #expect(again.status == 0 && again.output.contains("3 of 3 hours drawn (2 now)"), "\(again.output)\(again.errors)")
        list = try runProcess(gatewayd, ["weather", "forecast", "list", "--json", "--database", database])
        #expect(list.output.contains(#"{"model":"hrrr","run":"2026120518","state":"complete","missing":[],"current":true"#), "\(list.output)")
    }

    @Test(.ownThread) func aRunIsFetchedDrawnAndCheckedPixelByPixel() throws {
        guard try Self.tools(), let gatewayd = gatewaydExecutable() else { return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-forecast-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let served = dir + "/nomads/20261205"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        // The 12Z run, f00–f03, each hour packed another way; a grid covering KSLE and 60 NM.
        let packings = ["simple", "complex", "jpeg", "complex"]
        try Self.makeRun(served, "2026120512", hours: 0...3) { ["--packing", packings[$0]] }
        let server = try Server(root: dir + "/nomads")
        defer { server.stop() }
        let database = dir + "/g.sqlite"
        func fetch(_ extra: [String]) throws -> (status: Int32, output: String, errors: String) {
            try runProcess(gatewayd, ["weather", "forecast", "fetch", "--near", "KSLE", "--radius", "60", "--hours", "3", "--url", "http://127.0.0.1:\(server.port)",
                                      "--database", database] + extra)
        }
        var run = try fetch(["--run", "2026120512"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("HRRR 2026120512: 4 of 4 hours drawn (4 now)") && run.output.contains("complete"), "\(run.output)")
        let folder = dir + "/forecast/hrrr/2026120512"
        for hour in 0...3 {
            let stem = folder + "/f0\(hour)"
            let check = try Self.python("check-forecast-picture.py", [served + "/hrrr.t12z.wrfsfcf0\(hour).grib2", stem + ".png"])
            #expect(check.status == 0 && check.output.contains(" 0 mismatches"), "f0\(hour): \(check.output)\(check.errors)")
            let info = try runProcess(URL(fileURLWithPath: "/usr/bin/gdalinfo"), [stem + ".png"])
            #expect(info.status == 0 && info.output.contains("Origin = (") && info.output.contains("Pixel Size = (0.02"), "\(info.output)")
            let json = try String(contentsOfFile: stem + ".json", encoding: .utf8)
            #expect(json.contains(#""forecastHour":\#(hour)"#) && json.contains(#""valid":"2026-12-05T1\#(2 + hour):00:00"#), "\(json)")
            #expect(json.contains("model forecast, not observed radar"))
        }
        // A run cut short: f01 truncated, f02 not there (404), f03 an HTML page; f00 fine.
        let later = dir + "/nomads/20261205"
        try Self.makeRun(later, "2026120518", hours: 0...3)
        _ = FileManager.default.createFile(atPath: later + "/hrrr.t18z.wrfsfcf01.grib2.truncate", contents: Data())
        try FileManager.default.removeItem(atPath: later + "/hrrr.t18z.wrfsfcf02.grib2")
        _ = FileManager.default.createFile(atPath: later + "/hrrr.t18z.wrfsfcf03.grib2.html", contents: Data())
        run = try fetch(["--run", "2026120518"])
        #expect(run.status != 0 && run.output.contains("1 of 4 hours drawn") && run.output.contains("partial, missing f01 f02 f03"), "\(run.output)")
        #expect(run.errors.contains("f01: truncated GRIB message") && run.errors.contains("f02: HTTP 404") && run.errors.contains("f03: not a GRIB file"), "\(run.errors)")
        var list = try runProcess(gatewayd, ["weather", "forecast", "list", "--json", "--database", database])
        #expect(list.output.contains(#"{"model":"hrrr","run":"2026120518","state":"partial","missing":["f01","f02","f03"],"current":false"#), "\(list.output)")
        #expect(list.output.contains(#"{"model":"hrrr","run":"2026120512","state":"complete","missing":[],"current":true"#), "\(list.output)")
        // A grid of another template: named, nothing complete replaced.
        try FileManager.default.removeItem(atPath: later + "/hrrr.t18z.wrfsfcf01.grib2.truncate")
        _ = try Self.python("make-forecast-grib.py", [later + "/hrrr.t18z.wrfsfcf02.grib2", "--run", "2026120518", "--hour", "2", "--template", "20"])
        try FileManager.default.removeItem(atPath: later + "/hrrr.t18z.wrfsfcf03.grib2.html")
        run = try fetch(["--run", "2026120518"])
        #expect(run.errors.contains("f02: a grid of template 3.20 (polar_stereographic)"), "\(run.errors)")
        #expect(run.output.contains("3 of 4 hours drawn (2 now)") && run.output.contains("partial, missing f02"), "\(run.output)")
        // The right file back: the run completes and becomes current; --keep-runs 1 removes the older one.
        _ = try Self.python("make-forecast-grib.py", [later + "/hrrr.t18z.wrfsfcf02.grib2", "--run", "2026120518", "--hour", "2",
                                                     "--lat1", "43.5", "--lon1", "-125.0", "--nx", "150", "--ny", "130"])
        run = try fetch(["--run", "2026120518", "--keep-runs", "1"])
        #expect(run.status == 0 && run.output.contains("4 of 4 hours drawn (1 now)"), "\(run.output)\(run.errors)")
        #expect(run.errors.contains("removed HRRR run 2026120512 (more than 1 runs kept)"), "\(run.errors)")
        list = try runProcess(gatewayd, ["weather", "forecast", "list", "--json", "--database", database])
        #expect(list.output.split(separator: "\n").count == 1 && list.output.contains(#""run":"2026120518","state":"complete","missing":[],"current":true"#), "\(list.output)")
        // Without --run: the newest run complete on the server, tried from the current hour
        // backwards: the run of two hours ago is complete, last hour's lacks its f03.
        try FileManager.default.removeItem(atPath: dir + "/nomads")
        let hour = (Date().timeIntervalSince1970 / 3600).rounded(.down) * 3600
        func name(_ t: Double) -> (day: String, hh: String, run: String) {
            let f = DateFormatter()
            f.timeZone = TimeZone(identifier: "UTC")
            f.dateFormat = "yyyyMMddHH"
            let s = f.string(from: Date(timeIntervalSince1970: t))
            return (String(s.prefix(8)), String(s.suffix(2)), s)
        }
        for (t, hours) in [(hour - 7200, 0...3), (hour - 3600, 0...2)] {
            let n = name(t)
            try FileManager.default.createDirectory(atPath: dir + "/nomads/" + n.day, withIntermediateDirectories: true)
            try Self.makeRun(dir + "/nomads/" + n.day, n.run, hours: hours)
        }
        run = try fetch(["--keep-runs", "5"])
        #expect(run.status == 0 && run.output.contains("HRRR \(name(hour - 7200).run): 4 of 4 hours drawn"), "\(run.output)\(run.errors)")
        #expect(run.errors.contains("HRRR \(name(hour - 3600).run) not complete on the server yet"), "\(run.errors)")
        // Nothing on the server at all: said, and what is kept named.
        try FileManager.default.removeItem(atPath: dir + "/nomads")
        try FileManager.default.createDirectory(atPath: dir + "/nomads", withIntermediateDirectories: true)
        run = try fetch([])
        #expect(run.status != 0 && run.errors.contains("no complete HRRR run found") && run.errors.contains("kept: 2026120518") || run.errors.contains("kept: \(name(hour - 7200).run)"), "\(run.errors)")
    }
}
