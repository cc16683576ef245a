import Foundation
import GDL90
import Testing
import GatewayTestSupport
import Synchronization
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures
@testable import GatewayRecords
@testable import GatewayFeeds
@testable import GatewayFleet
@testable import GatewayRuntime
@testable import GatewayWeather

/// Issue 52 (keep alerting, round four): each item the probe found, rebuilt as it found it
/// (a crafted dump978 line, a pcapng header, an MQTT payload, a small HTTP server), then its fix.
/// The shared rules first, where they live; then the items through the code that had them.
@Suite(.serialized, .timeLimit(.minutes(5)), .tags(.process), .slow) struct HostileInputRound4Tests {
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("round4-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    // MARK: - The shared rules

    /// Finite numbers from every parsed JSON input (`JSONReader`): items 2 and 4.
    @Test func jsonNumbersAreFinite() throws {
        for text in ["1e400", "-1e400", "[1, 1e999]", "{\"lat\":1e400,\"lon\":-1e400}"] {
            #expect(throws: JSONReader.Failure.self, "\(text)") { try JSONReader.value(Array(text.utf8)) }
        }
        #expect(JSONReader.object(Array("{\"lat\":1e400}".utf8)) == nil)
        // The largest finite numbers are still numbers (a position check refuses them later).
        #expect(try JSONReader.value(Array("1e308".utf8)) as? Double == 1e308)
        #expect(try JSONReader.value(Array("-1.7976931348623157e308".utf8)) as? Double == -Double.greatestFiniteMagnitude)
    }

    /// Plausible times (`Timestamp.plausible`) and places on the Earth (`Position.valid`).
    @Test func timesAndPositionsHaveRanges() {
        #expect(Timestamp.isPlausible(1_778_940_000) && Timestamp.isPlausible(0) && Timestamp.isPlausible(4_102_444_799))
        for bad in [Double.nan, .infinity, -.infinity, -1, -1e300, 1e300, 4_102_444_800, 9_007_199_254_740_992, 1e20] {
            #expect(!Timestamp.isPlausible(bad), "\(bad)")
        }
        #expect(Position.valid(latitude: 44.9, longitude: -123.0) == Position(latitude: 44.9, longitude: -123.0))
        #expect(Position.valid(latitude: 90, longitude: -180) != nil)
        for (lat, lon) in [(44.9, -123_000_000.0), (1e308, 0), (0, .nan), (91, 0), (0, 180.0001)] {
            #expect(Position.valid(latitude: lat, longitude: lon) == nil, "\(lat),\(lon)")
        }
        #expect(Position.valid(latitude: 44.9, longitude: nil) == nil)
    }

    /// Item 7's rule, in the printer: any time prints (as the nearest date written), never traps.
    @Test func theTimePrinterIsTotal() {
        for t in [Double.nan, .infinity, -.infinity, 1e300, -1e300, 1e19] {
            var w = ISO8601Writer()
            var out = OutputBuffer(capacity: 64)
            w.append(t, to: &out)
            #expect(!out.bytes.isEmpty, "\(t)")
        }
        #expect(Timestamp.iso8601(1e300) == "9999-12-31T23:59:59.999Z")
    }

    @Test func percentEncodedIdsAreDecoded() {
        #expect(PercentEncoding.decode("%C3%89sa-1") == "Ésa-1")
        #expect(PercentEncoding.decode("N1") == "N1")
        #expect(PercentEncoding.decode("a%2Fb%") == "a/b%")
        #expect(PercentEncoding.decode("%zz%4") == "%zz%4")
    }

    // MARK: - Items 6, 7: times no capture has

    /// Item 6: the tick rule never loops, whatever time it is handed (2^53 s, 1e300).
    @Test func theTickRuleStepsPastAnyTime() {
        var pipeline = GatewayPipeline()
        let heartbeat = Message.heartbeat(Heartbeat(gpsPositionValid: true, uatInitialized: true, secondsSinceMidnight: 0)).frame()
        _ = pipeline.process(.datagram(heartbeat), at: 1_778_940_000)
        for t in [9_007_199_254_740_992.0, 1e300, .infinity, .nan, -1e300, 1e20] {
            _ = pipeline.process(.datagram(heartbeat), at: t)
            _ = pipeline.process(.tick, at: t)
        }
        // Still on the capture's clock: the absurd times were taken as the latest event's.
        _ = pipeline.process(.tick, at: 1_778_940_005)
        #expect(pipeline.status(at: 1_778_940_005).counters.datagrams == 7)
    }

    /// Items 6 and 7 through `decode`: dump978 lines whose `t=` is no time are skipped and said;
    /// the good line is read. The command ends (it spun forever) and prints (it trapped).
    @Test func dump978TimesOutOfRangeAreSkipped() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let uplink = String(repeating: "00", count: 432)
        let bad = ["99999999999999999999", "1e300", "nan", "inf", "-1e300", "9007199254740993"]
        let text = bad.map { "+\(uplink);rs=1;t=\($0);\n" }.joined() + "+\(uplink);rs=1;t=1778940000.5;\n"
        let file = dir.appendingPathComponent("bad.978").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let contents = CaptureFile.parse(Array(text.utf8), name: "bad.978")
        #expect(contents.datagrams.map(\.timestamp) == [1_778_940_000.5])
        #expect(contents.error?.description.contains("6 lines skipped") == true, "\(String(describing: contents.error))")
        #expect(contents.error?.description.contains("line 1: its time t=99999999999999999999 is not a time between 1970 and 2099") == true)
        for command in [["decode"], ["decode", "--json"], ["fisb", "--json"], ["replay", "--json"]] {
            let run = try runGatewayd(command + [file])
            #expect(run.status == 0, "\(command): \(run.errors)")
            #expect(run.errors.contains("6 lines skipped"), "\(command): \(run.errors)")
        }
        #expect(try runGatewayd(["decode", file]).output.contains("2026-05-16T14:00:00.500Z"))
    }

    /// A pcapng whose `if_tsresol` says 10^0 (1 s ticks) for nanosecond ticks: every time past
    /// 2^53 s. Items 6 and 7: said once, with what to check, never a hang or a trap.
    @Test func aWrongTimestampResolutionIsSaid() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = Array(try Data(contentsOf: fixtures.appendingPathComponent("demo-flight.pcapng")))
        let patched = try #require(Self.setTimestampResolution(&bytes, to: 0))
        #expect(patched >= 1)
        let file = dir.appendingPathComponent("tsresol0.pcapng").path
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        for command in [["decode"], ["decode", "--json"], ["fisb", "--json"], ["replay", "--json"]] {
            let run = try runGatewayd(command + [file])
            #expect(run.errors.contains("not between 1970 and 2099") && run.errors.contains("a wrong if_tsresol?"), "\(command): \(run.errors)")
            #expect(!run.output.contains("9999-12-31"), "\(command)")
        }
    }

    /// Sets every interface description's `if_tsresol` option (code 9) of a little-endian pcapng;
    /// how many it set, nil when the file has none.
    static func setTimestampResolution(_ b: inout [UInt8], to value: UInt8) -> Int? {
        func u32(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24 }
        func u16(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
        var at = 0, set = 0
        while at + 12 <= b.count {
            let type = u32(at), length = u32(at + 4)
            guard length >= 12, at + length <= b.count else { return nil }
            if type == 1 {
                var o = at + 16
                while o + 4 <= at + length - 4 {
                    let code = u16(o), len = u16(o + 2)
                    if code == 0 { break }
                    if code == 9 { b[o + 4] = value; set += 1 }
                    o += 4 + (len + 3) / 4 * 4
                }
            }
            at += length
        }
        return set == 0 ? nil : set
    }

    // MARK: - Items 8, 9 and the Stratux log medium item: what crashes leave in logs

    static let start = "START,Wed Sep 2 04:23:37 +0000 UTC 2015\n"
    static func position(_ ns: Int64, _ address: String = "ABCDEF") -> String {
        "\(ns),MSG,3,,,\(address),,,,,,,35000,,,42.5,-83.5,,,0,0,0,0\n"
    }

    /// Item 8: a 20-digit offset is one line skipped, not an overflow trap.
    @Test func aTwentyDigitOffsetIsOneLineSkipped() throws {
        let text = Self.start + "99999999999999999999,MSG,3,,,ABCDEF,,,,,,,35000,,,42.5,-83.5,,,0,0,0,0\n" + Self.position(2_000_000_000)
        let contents = CaptureFile.parse(Array(text.utf8), name: "0001-es.log")
        #expect(contents.datagrams.count == 1)
        #expect(contents.error?.description.contains("line 2: its offset (99999999999999999999") == true, "\(String(describing: contents.error))")
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("0001-es.log").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        for command in [["decode"], ["replay", "--json"], ["flights", "import", "--database", dir.appendingPathComponent("g.sqlite").path]] {
            let run = try runGatewayd(command + [file])
            #expect(run.status == 0 || command[0] == "flights", "\(command): \(run.errors)")
            #expect(!run.errors.contains("overflow") && !run.errors.contains("Fatal error"), "\(command): \(run.errors)")
        }
    }

    /// The medium item: one absurd offset (+9e18 ns) and one lone step back are each skipped
    /// alone; every other line is read at its time.
    @Test func oneBadOffsetIsSkippedAlone() {
        var text = Self.start
        for i in 1...10 { text += Self.position(Int64(i) * 1_000_000_000) }
        text += Self.position(9_000_000_000_000_000_000)  // lone, absurd
        for i in 11...20 { text += Self.position(Int64(i) * 1_000_000_000) }
        text += Self.position(3_000_000_000)  // lone step back of 18 s
        for i in 21...30 { text += Self.position(Int64(i) * 1_000_000_000) }
        text += Self.position(7_200_000_000_000)  // lone jump two hours ahead
        text += Self.position(31_000_000_000)
        let contents = CaptureFile.parse(Array(text.utf8), name: "0001-es.log")
        let start = 1_441_167_817.0
        #expect(contents.datagrams.map { $0.timestamp! - start } == (1...31).map(Double.init))
        #expect(contents.error?.description.contains("3 lines skipped") == true, "\(String(describing: contents.error))")
    }

    /// The medium item, as Stratux's own test data has it (`cyoung-09062015-noproblem-stratux-es.log`
    /// of the public Stratux repository, an excerpt: `fixtures/stratux-crash/`): a line cut by a
    /// crash with the next session's START glued to it, and later a zero-filled block with a
    /// START after it. Every position is read, those after each crash at their new session's time.
    @Test func stratuxsOwnCrashArtifactsLoseNoPosition() throws {
        let path = fixtures.appendingPathComponent("stratux-crash/cyoung-es-excerpt.log").path
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let positions = lines.filter { l in
            let f = l.split(separator: ",", omittingEmptySubsequences: false)
            return f.count > 17 && f[1] == "MSG" && f[2] == "3" && !f[15].isEmpty && !f[16].isEmpty
        }
        #expect(positions.count == 9)
        let contents = CaptureFile.parse(bytes, name: path)
        #expect(contents.format == .sbs || contents.format == .stratuxUAT || contents.datagrams.count > 0)
        let reports = contents.datagrams.flatMap { StratuxLogTests.traffic($0) }
        #expect(reports.count == positions.count, "\(reports.count) of \(positions.count) positions read")
        // The glued START (04:25:25) and the one after the NUL block (04:25:25 again): the
        // positions after them are timed from it, not skipped as "going back".
        let second = try #require(contents.datagrams.last?.timestamp)
        #expect(second >= 1_441_167_925 && second < 1_441_167_925 + 3600, "\(Timestamp.iso8601(second))")
        #expect(contents.error?.description.contains("with a START glued to it") == true)
    }

    /// A step back with no START (a restart after a crash): a new session, timed on from the line
    /// before, what follows kept (it was all discarded as "time goes back").
    @Test func aStepBackWithoutStartBeginsASession() {
        var text = Self.start
        for i in 1...5 { text += Self.position(Int64(i) * 100_000_000_000) }  // to 500 s
        text += String(repeating: "\0", count: 300)
        for i in 1...5 { text += Self.position(Int64(i) * 1_000_000_000) }  // 1–5 s again
        let contents = CaptureFile.parse(Array(text.utf8), name: "0001-es.log")
        let start = 1_441_167_817.0
        #expect(contents.datagrams.map { $0.timestamp! - start } == [100, 200, 300, 400, 500, 500, 501, 502, 503, 504])
    }

    /// Item 9: a `.log.gz` that is one endless line is skipped to its newline a window at a time,
    /// never held whole; lines after it are read.
    @Test(.ownThread) func anEndlessLineIsNotHeldWhole() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("0001-es.log")
        #expect(FileManager.default.createFile(atPath: plain.path, contents: nil))
        let handle = try FileHandle(forWritingTo: plain)
        handle.write(Data((Self.start + Self.position(1_000_000_000)).utf8))
        let chunk = Data(repeating: UInt8(ascii: "7"), count: 1 << 20)
        for _ in 0..<64 { handle.write(chunk) }  // 64 MB, no newline
        handle.write(Data(("\n" + Self.position(2_000_000_000)).utf8))
        try handle.close()
        let gzip = try runProcess(URL(fileURLWithPath: "/bin/gzip"), ["-1", plain.path])
        #expect(gzip.status == 0)
        var stream = try CaptureStream(path: plain.path + ".gz")
        var times: [Double] = []
        while let d = stream.next() { times.append(d.timestamp ?? 0) }
        #expect(times.count == 2, "\(times)")
        #expect(stream.error?.description.contains("a line of more than 64 kB without a newline") == true, "\(String(describing: stream.error))")
        // Through the command, in bounded memory (it took decode past 3 GB in 7 s).
        let run = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["bash", "-c", "ulimit -v 1500000; exec \"$0\" decode \"$1\"", gatewaydExecutable()!.path, plain.path + ".gz"])
        #expect(run.status == 0 && run.errors.contains("2 messages"), "\(run.errors)")
    }

    // MARK: - Item 4, 5 and the low weather items: weather replies

    static let area = WeatherArea(latitude: 44.9, longitude: -123.0, radiusNM: 60, station: "KSLE")

    /// Item 4: `"obsTime": 1e308` (or 1e300, or 1e400) is no time: the report is skipped, the
    /// others kept (it trapped `WeatherRecord.key`: exit 132, 0 alerts).
    @Test func absurdReportTimesAreSkipped() throws {
        let now = 1_778_940_000.0
        let good = "{\"icaoId\":\"KSLE\",\"rawOb\":\"METAR KSLE 161353Z 34008KT 10SM FEW040 16/06 A3012\",\"obsTime\":1778939580,\"lat\":44.9,\"lon\":-123.0}"
        for time in ["1e308", "1e300", "-5", "\"9999-99-99\""] {
            let bad = "{\"icaoId\":\"KPDX\",\"rawOb\":\"METAR KPDX 161353Z 34008KT 10SM\",\"obsTime\":\(time),\"lat\":45.6,\"lon\":-122.6}"
            let items = try #require(JSONReader.value(Array("[\(bad),\(good)]".utf8)) as? [Any])
            let records = items.compactMap { ($0 as? [String: Any]).flatMap { AviationWeatherClient.record(.metar, $0, area: Self.area, at: now) } }
            #expect(records.map(\.station) == ["KSLE"], "\(time)")
            #expect(records.allSatisfy { !$0.key.isEmpty })
        }
        // A position off the Earth is no position.
        let far = "{\"icaoId\":\"KSLE\",\"rawOb\":\"METAR KSLE 161353Z\",\"obsTime\":1778939580,\"lat\":1e308,\"lon\":-123.0}"
        let o = try #require(JSONReader.object(Array(far.utf8)))
        #expect(AviationWeatherClient.record(.metar, o, area: Self.area, at: now)?.latitude == nil)
    }

    /// Item 4 end to end: `weather fetch` against a server whose METAR reply has `obsTime: 1e308`
    /// ends normally, storing the good report.
    @Test func weatherFetchSurvivesAnAbsurdTime() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let observed = Int(Date().timeIntervalSince1970) - 600
        let metars = "[{\"icaoId\":\"KPDX\",\"rawOb\":\"METAR KPDX 161353Z 00000KT 10SM CLR 10/05 A3000\",\"obsTime\":1e308,\"lat\":45.6,\"lon\":-122.6},"
            + "{\"icaoId\":\"KSLE\",\"rawOb\":\"METAR KSLE 161353Z 34008KT 10SM FEW040 16/06 A3012\",\"obsTime\":\(observed),\"lat\":44.9,\"lon\":-123.0}]"
        let server = try TestHTTPServer([.respond(status: 200, body: metars)] + Array(repeating: .respond(status: 200, body: "[]"), count: 5)
                                        + [.respond(status: 200, body: "no table")])
        defer { server.stop() }
        let run = try runGatewayd(["weather", "fetch", "--near", "KSLE", "--url", server.base + "/api/data", "--database", dir.appendingPathComponent("g.sqlite").path])
        #expect(run.status == 0, "\(run.errors)")
        let list = try runGatewayd(["weather", "list", "--database", dir.appendingPathComponent("g.sqlite").path])
        #expect(list.output.contains("KSLE") && !list.output.contains("KPDX"), "\(list.output) \(run.errors)")
    }

    /// Item 5: a reply past the cap (after decompression: a gzip bomb) is refused naming the cap,
    /// not retried, and nothing is held past it; `Retry-After: 99999` is not waited for.
    @Test func repliesAreCappedAndLongRetryAftersRefused() async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 64 MB of zeros as a gzip body of about 64 kB.
        let raw = dir.appendingPathComponent("zeros")
        let made = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["bash", "-c", "head -c 67108864 /dev/zero | gzip -9 > \"$0\"", raw.path])
        #expect(made.status == 0)
        let bomb = Array(try Data(contentsOf: raw))
        #expect(bomb.count < 200_000)
        let server = try BinaryHTTPServer([(200, ["Content-Encoding": "gzip", "Content-Type": "application/json"], bomb),
                                           (429, ["Retry-After": "99999"], Array("slow down".utf8))])
        defer { server.stop() }
        var http = HTTPClient()
        http.retryDelays = [0, 0, 0]
        let client = AviationWeatherClient(baseURL: server.base, http: http)
        #expect(client.http.maximumBytes == 16 << 20)
        do {
            _ = try await client.fetch(.metar, area: Self.area, at: 1_778_940_000)
            Issue.record("a 64 MB reply was read")
        } catch {
            #expect("\(error)".contains("larger than 16 MB"), "\(error)")
        }
        let started = Date()
        do {
            _ = try await http.get(server.base + "/x")
            Issue.record("a 429 was taken")
        } catch {
            #expect("\(error)".contains("asks to wait 99999 s"), "\(error)")
        }
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(server.requests.value == 2, "neither was tried again")
    }

    // MARK: - Items 1, 2, 3 and the station's medium items: the ground station

    final class Lines: Sendable {
        let lines = Locked<[String]>([])
        func add(_ s: String) { lines.withLock { $0.append(s) } }
        var all: [String] { lines.value }
    }

    static func station(_ dir: URL, lines: Lines) throws -> FleetStation {
        let db = try GatewayDatabase(path: dir.appendingPathComponent("station.sqlite").path)
        return FleetStation(settings: FleetSettings(broker: FleetBroker(url: "mqtt://127.0.0.1:1")!), password: nil, database: db,
                            clientID: "test", clock: { 1_778_940_000 }) { lines.add($0) }
    }

    /// Whether the server at `base` answers `/healthz` within 10 s.
    /// Whether the server at `base` answers `/healthz` within 30 s, asked off the cooperative pool
    /// (the suite's synchronous tests may hold all of its threads).
    static func serving(_ base: String) async -> Bool {
        await Offload.run(on: .global()) { eventually(30) { (try? HTTPConnection.get(base + "/healthz", timeout: 2).status) == 200 } } ?? false
    }

    static func publish(_ station: FleetStation, _ topic: String, _ json: String) {
        station.receive(topic: topic, payload: Array(json.utf8))
    }

    /// Items 1 and 2: an ownship off the Earth (`-123000000`, `1e308`, `1e400`) is refused; the
    /// station keeps the last good one and `/api/fleet` stays JSON a browser reads.
    @Test func ownshipOffTheEarthIsRefused() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = Lines()
        let station = try Self.station(dir, lines: lines)
        Self.publish(station, "skygate/N1/ownship", "{\"lat\":44.9,\"lon\":-123.0,\"altitudeFt\":3000}")
        for bad in ["{\"lat\":44.9,\"lon\":-123000000}", "{\"lat\":1e308,\"lon\":1}", "{\"lat\":1e400,\"lon\":-1e400}",
                    "{\"lat\":44.9}", "{\"lat\":44.9,\"lon\":-123.0,\"altitudeFt\":\"high\"}"] {
            Self.publish(station, "skygate/N1/ownship", bad)
        }
        let json = station.fleetJSON()
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let gateway = try #require((parsed["gateways"] as? [[String: Any]])?.first)
        let ownship = try #require(gateway["ownship"] as? [String: Any])
        #expect(ownship["lon"] as? Double == -123.0)
        #expect((gateway["track"] as? [[Double]])?.allSatisfy { abs($0[0]) <= 90 && abs($0[1]) <= 180 } == true)
        #expect(!json.contains("inf") && !json.contains("nan"))
        #expect(station.refusedMessages == 4, "1e400 is not JSON: ignored, not counted")
        #expect(lines.all.count == 1 && lines.all[0].contains("refused ownship from N1"), "\(lines.all)")
    }

    /// Item 1 end to end: the probe's ownship (`"lon": -123000000`, then `1e308`) published through
    /// a real mosquitto to a running station: `/api/fleet` keeps the gateway's last good position
    /// (it kept the probe's for good, and the page's grid loop never ended on it). The page's own
    /// guard (`onEarth`, `placed`) is checked by node on its script.
    @Test func aPositionOffTheEarthNeverReachesThePage() async throws {
        guard let broker = try fleetBroker(users: [:]) else { return }
        defer { broker.stop() }
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = Lines()
        let db = try GatewayDatabase(path: dir.appendingPathComponent("station.sqlite").path)
        let station = FleetStation(settings: FleetSettings(broker: try #require(FleetBroker(url: broker.url))), password: nil, database: db,
                                   clientID: "round4", clock: { Date().timeIntervalSince1970 }) { lines.add($0) }
        try station.start()
        defer { station.stop() }
        let server = FleetServer(station: station)
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        #expect(await Self.serving(base))
        func publish(_ topic: String, _ json: String) throws {
            let r = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["mosquitto_pub", "-p", "\(broker.port)", "-q", "1", "-t", topic, "-m", json])
            #expect(r.status == 0, "\(r.errors)")
        }
        try await eventually(5) { station.connection.connected }
        #expect(station.connection.connected, "\(lines.all)")
        try publish("skygate/N1/ownship", "{\"lat\":44.9,\"lon\":-123.0,\"altitudeFt\":3000,\"trackDeg\":90}")
        try publish("skygate/N1/ownship", "{\"lat\":44.9,\"lon\":-123000000}")
        try publish("skygate/N1/ownship", "{\"lat\":1e308,\"lon\":5}")
        try await eventually(5) { station.refusedMessages >= 2 }
        #expect(station.refusedMessages == 2)
        let reply = try HTTPConnection.get(base + "/api/fleet")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any])
        let n1 = try #require((parsed["gateways"] as? [[String: Any]])?.first { $0["id"] as? String == "N1" })
        #expect((n1["ownship"] as? [String: Any])?["lon"] as? Double == -123.0, "\(reply.body)")
        #expect((n1["track"] as? [[Double]]) == [[44.9, -123.0]])
        #expect(try HTTPConnection.get(base + "/healthz").body.contains("\"refusedMessages\":2"))
        // The script's own guard, in node: a position off the Earth is not placed.
        let app = fixtures.deletingLastPathComponent().appendingPathComponent("Sources/TrafficGateway/GatewayFleet/Page/app.js").path
        let check = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["node", "-e", """
            const src = require('fs').readFileSync(process.argv[1], 'utf8');
            const fns = ['function num', 'function onEarth', 'function placed'].map((h) => { const i = src.indexOf(h); return i < 0 ? '' : src.slice(i, src.indexOf('\\n', i)); });
            eval(fns.join('\\n'));
            console.log(JSON.stringify([placed({ lat: 44.9, lon: -123000000 }), placed({ lat: 1e308, lon: 0 }), placed({ lat: '44', lon: 1 }), placed(null), placed({ lat: 44.9, lon: -123 })]));
            """, app])
        #expect(check.output.trimmingCharacters(in: .whitespacesAndNewlines) == "[false,false,false,false,true]", "\(check.errors)")
    }

    /// Item 3: halves of flights whose other half never comes are bounded (20,000 each way took
    /// the station from 38 to 465 MB, never freed).
    @Test func halfDeliveredFlightsAreBounded() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let station = try Self.station(dir, lines: Lines())
        for i in 0..<5_000 {
            Self.publish(station, "skygate/N1/flights/u\(i)", "{\"off_block\":\"2026-05-16T14:00:00Z\",\"on_block\":\"2026-05-16T15:00:00Z\",\"pad\":\"\(String(repeating: "x", count: 2000))\"}")
            Self.publish(station, "skygate/N1/flights/d\(i)/detail", "{\"track\":[],\"pad\":\"\(String(repeating: "y", count: 2000))\"}")
        }
        #expect(station.store.waitingHalves == FleetStationStore.mostHalves)
        #expect(station.store.droppedHalves == 10_000 - FleetStationStore.mostHalves)
    }

    /// Medium: the topic names the gateway; a payload naming another is refused.
    @Test func alertsCannotBeAttributedToAnotherGateway() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = Lines()
        let station = try Self.station(dir, lines: lines)
        let alert = { (gateway: String?, event: String, eventId: String) in
            "{\(gateway.map { "\"gateway\":\"\($0)\"," } ?? "")\"event\":\"\(event)\",\"id\":\"traffic-a1\",\"kind\":\"traffic\",\"level\":\"warning\",\"message\":\"Traffic\",\"eventId\":\"\(eventId)\"}"
        }
        Self.publish(station, "skygate/EVIL/alerts", alert("GOOD", "raised", "1-1"))
        #expect(try station.store.eventCount(gateway: "GOOD") == 0 && (try station.store.eventCount(gateway: "EVIL")) == 0)
        #expect(lines.all.contains { $0.contains("refused an alert event from EVIL: its payload names another gateway") }, "\(lines.all)")
        // Its own name in the payload is fine.
        Self.publish(station, "skygate/GOOD/alerts", alert("GOOD", "raised", "1-1"))
        #expect(try station.store.eventCount(gateway: "GOOD") == 1)
        // Medium: a `cleared` that overtakes its `raised` leaves nothing active.
        Self.publish(station, "skygate/N2/alerts", alert(nil, "cleared", "3-8"))
        Self.publish(station, "skygate/N2/alerts", alert(nil, "raised", "3-7"))
        let fleet = try #require(try JSONSerialization.jsonObject(with: Data(station.fleetJSON().utf8)) as? [String: Any])
        let n2 = try #require((fleet["gateways"] as? [[String: Any]])?.first { $0["id"] as? String == "N2" })
        #expect((n2["activeAlerts"] as? [Any])?.isEmpty == true, "\(n2)")
        // And a later raise of the same alert is active again.
        Self.publish(station, "skygate/N2/alerts", alert(nil, "raised", "4-1"))
        let again = try #require(try JSONSerialization.jsonObject(with: Data(station.fleetJSON().utf8)) as? [String: Any])
        #expect(((again["gateways"] as? [[String: Any]])?.first { $0["id"] as? String == "N2" }?["activeAlerts"] as? [Any])?.count == 1)
    }

    /// Medium: payloads past their kind's cap are refused (an 84 MB detail took the station to 1.46 GB).
    @Test func payloadsAreCapped() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = Lines()
        let station = try Self.station(dir, lines: lines)
        Self.publish(station, "skygate/N1/ownship", "{\"lat\":44.9,\"lon\":-123.0,\"pad\":\"\(String(repeating: "x", count: 5000))\"}")
        Self.publish(station, "skygate/N1/flights/u1/detail", "{\"track\":[],\"pad\":\"\(String(repeating: "x", count: 1 << 21))\"}")
        #expect(station.refusedMessages == 2)
        #expect(station.fleetJSON().contains("\"ownship\":null") || !station.fleetJSON().contains("pad"))
        #expect(lines.all.contains { $0.contains("more than the 4096 taken for ownship") }, "\(lines.all)")
    }

    /// Medium: `Last-Event-ID: 0` with more stored events than a page gets every one, in order,
    /// then the live ones; a percent-encoded gateway id in a flight's URL is decoded.
    @Test func resumeDeliversEveryStoredEvent() async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let station = try Self.station(dir, lines: Lines())
        let stored = 5_002
        try station.store.database.write { db in
            for i in 1...stored {
                try db.execute("INSERT INTO fleet_event (gateway, event_id, received, json) VALUES (?, ?, ?, ?)",
                               ["N1", "1-\(i)", 1_778_940_000.0, "{\"event\":\"raised\",\"id\":\"a\(i)\",\"eventId\":\"1-\(i)\"}"])
            }
        }
        let server = FleetServer(station: station)
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        #expect(await Self.serving(url))
        let events = try AlertStreamResumeTests.read(url + "/alerts", after: "0", count: stored)
        #expect(events.count == stored)
        #expect(events.map(\.id) == (1...stored).map { String($0) }, "a gap in the ids")
        let missing = try HTTPConnection.get(url + "/api/fleet/flights/%C3%89sa-1/20260516T140000Z")
        #expect(missing.status == 404 && missing.body.contains("of Ésa-1"), "\(missing.body)")
    }
}

/// A loopback HTTP server answering each request with the next scripted reply, bodies as bytes
/// (a gzip body); counts the requests.
final class BinaryHTTPServer: Sendable {
    let port: UInt16
    private let fd: Int32
    let requests = Locked(0)
    private let replies: Locked<[(Int, [String: String], [UInt8])]>

    init(_ replies: [(Int, [String: String], [UInt8])]) throws {
        self.replies = Locked(replies)
        (fd, port) = loopbackListener()
        let fd = self.fd, requests = self.requests, scripted = self.replies
        Thread {
            while true {
                let c = accept(fd, nil, nil)
                if c < 0 { return }
                var buffer = [UInt8](repeating: 0, count: 65536)
                var head = [UInt8]()
                while !String(decoding: head, as: UTF8.self).contains("\r\n\r\n") {
                    let n = buffer.withUnsafeMutableBytes { recv(c, $0.baseAddress, $0.count, 0) }
                    if n <= 0 { break }
                    head += buffer[0..<n]
                }
                requests.withLock { $0 += 1 }
                let (status, headers, body) = scripted.withLock { $0.isEmpty ? (500, [:], Array("none".utf8)) : $0.removeFirst() }
                var text = "HTTP/1.1 \(status) X\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
                for (k, v) in headers { text += "\(k): \(v)\r\n" }
                let bytes = Array((text + "\r\n").utf8) + body
                var sent = 0
                while sent < bytes.count {
                    let n = bytes[sent...].withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if n <= 0 { break }
                    sent += n
                }
                close(c)
            }
        }.start()
    }

    var base: String { "http://127.0.0.1:\(port)" }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}

/// Items 10, 11 and 12: the live gateway's sources and the fleet, through the real command and a
/// real broker.
@Suite(.serialized, .timeLimit(.minutes(5)), .tags(.process), .slow) struct KeepAlertingRound4LiveTests {
    /// The alerts raised and cleared, in order, without the `updated`s: live, the replay's ticks
    /// are timed by the wall clock, so on a loaded machine an `updated` may fall on another tick
    /// (one more or one fewer than the golden's); what must never change is which alerts were
    /// raised and cleared.
    /// An alert's id ends with the second it was raised (`traffic-ab4549-1778940160`): that second
    /// may also move by a tick on a loaded machine (seen in CI under the SBS flood: …161), so the
    /// ids are compared without it and the seconds within 2 s (`sameSeconds`).
    static func changes(_ lines: [Substring]) -> [String] {
        raisedAndCleared(lines).map { "\($0.event) \($0.id)" }
    }

    /// The raised and cleared changes: event, id without its second, the second.
    static func raisedAndCleared(_ lines: [Substring]) -> [(event: String, id: String, second: Int)] {
        lines.compactMap { JSONReader.object(Array($0.utf8)) }.filter { $0["event"] as? String != "updated" }.map { o in
            let id = o["id"] as? String ?? "", dash = id.lastIndex(of: "-") ?? id.endIndex
            let second = dash < id.endIndex ? Int(id[id.index(after: dash)...]) ?? 0 : 0
            return (o["event"] as? String ?? "", String(id[..<dash]), second)
        }
    }

    /// The raise seconds of `a` and `b` (the same alerts, in order) within 2 s of each other.
    static func sameSeconds(_ a: [Substring], _ b: [Substring]) -> Bool {
        let x = raisedAndCleared(a), y = raisedAndCleared(b)
        return x.count == y.count && zip(x, y).allSatisfy { abs($0.second - $1.second) <= 2 }
    }

    /// Item 10's rule: a fast stream source's offers wait at most `mostOffered`; the rest are
    /// dropped and counted, and the queue never grows.
    @Test func offersAreBounded() {
        let gateway = LiveGateway(sinks: [])
        let blocked = DispatchSemaphore(value: 0)
        gateway.queue.async { blocked.wait() }
        let frame = Message.heartbeat(Heartbeat(secondsSinceMidnight: 1)).frame()
        let taken = (0..<100).filter { _ in gateway.offer(.datagram(frame), at: 1_778_940_000) }.count
        #expect(taken == LiveGateway.mostOffered)
        #expect(gateway.droppedOffers == 100 - LiveGateway.mostOffered)
        blocked.signal()
        gateway.queue.sync {}
        #expect(gateway.status().counters.datagrams == LiveGateway.mostOffered)
        #expect(gateway.offer(.datagram(frame), at: 1_778_940_001), "room again once the core caught up")
    }

    /// Item 10 end to end: `run --sbs` beside a replay while the SBS peer floods as fast as the
    /// loopback takes it: every one of the replay's 16 alert changes comes out, memory stays
    /// bounded, and SIGTERM stops it at once (no queue to drain).
    @Test(.ownThread) func aFloodingSBSPeerNeverStopsTheAlerts() throws {
        let executable = try #require(gatewaydExecutable())
        // Aircraft far from the flight (10° N 10° E), a position line each: traffic to merge, no alert.
        let fixture = Array((0..<500).map { i in
            "MSG,3,1,1,\(String(0xA00000 + i, radix: 16, uppercase: true)),1,2026/05/16,14:00:00.000,2026/05/16,14:00:00.000,,\(10_000 + i * 25),,,10.\(i),10.\(i),,,0,0,0,0\r\n"
        }.joined().utf8)
        let (listener, port) = loopbackListener()
        let flooding = Locked(true)
        let sentBytes = Locked(0)
        Thread {
            let c = accept(listener, nil, nil)
            guard c >= 0 else { return }
            var block: [UInt8] = []
            for _ in 0..<20 { block += fixture }
            let deadline = Date().addingTimeInterval(60)
            while flooding.value && Date() < deadline {
                let n = block.withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                sentBytes.withLock { $0 += n }
            }
            close(c)
        }.start()
        defer { flooding.set(false); shutdown(listener, Int32(SHUT_RDWR)); close(listener) }
        let dir = try HostileInputRound4Tests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("empty.toml")
        try "".write(to: config, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out"), err = dir.appendingPathComponent("err")
        #expect(FileManager.default.createFile(atPath: out.path, contents: nil) && FileManager.default.createFile(atPath: err.path, contents: nil))
        let p = Process()
        p.executableURL = executable
        p.arguments = ["run", "--config", config.path, "--replay", fixtures.appendingPathComponent("demo-flight.pcap").path, "--speed", "20", "--json",
                       "--sbs", "127.0.0.1:\(port)", "--udp-port", "0", "--http-port", "0", "--nmea-port", "0", "--status-interval", "1", "--no-database"]
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        // Until the replay has been played, its memory sampled each 0.2 s.
        var peak = 0
        _ = eventually(60, every: 0.2) {
            if let status = try? String(contentsOfFile: "/proc/\(p.processIdentifier)/status", encoding: .utf8),
               let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
               let kb = Int(line.split(separator: " ").dropFirst().first ?? "") { peak = max(peak, kb) }
            return ((try? String(contentsOf: err, encoding: .utf8)) ?? "").contains("has been played")
        }
        let stopping = Date()
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
        let stopTime = Date().timeIntervalSince(stopping)
        let errors = try String(contentsOf: err, encoding: .utf8)
        let alerts = try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
        #expect(errors.contains("has been played"), "\(errors.suffix(1500))")
        // Every alert raised and cleared as the golden has them (16 changes without the flood).
        // An `updated` may come at another second, and so may the level an alert is first raised
        // at: live, the replay's ticks (every 50 ms at 20×) are timed by the wall clock, and a
        // machine loaded by the flood and other tests evaluates a closing target a tick later,
        // when it may already be a warning (seen: 2 runs in 6 of the whole suite on 2 cores).
        // What the flood must not do is lose or add an alert: the ids raised and cleared, in order.
        let changes = Self.changes
        let golden = try String(contentsOf: fixtures.appendingPathComponent("demo-flight.alerts.jsonl"), encoding: .utf8).split(separator: "\n")
        let got = changes(alerts), want = changes(golden)
        #expect(got == want && !want.isEmpty && Self.sameSeconds(alerts, golden),
                "\(alerts.count) alert changes with the flood (\(golden.count) without it); only with: \(got.filter { !want.contains($0) }), only without: \(want.filter { !got.contains($0) }), order: \(got)")
        #expect(sentBytes.value > 10_000_000, "the peer sent only \(sentBytes.value) bytes: no flood")
        #expect(peak < 400_000, "peak RSS \(peak) kB")
        #expect(stopTime < 5, "took \(stopTime) s to stop")
        print("round4: SBS flood of \(sentBytes.value / 1_000_000) MB; peak RSS \(peak / 1024) MB; stopped in \(String(format: "%.2f", stopTime)) s")
    }

    /// Item 12: a fleet password file that cannot be used (missing, empty, a folder, a link loop,
    /// `${CREDENTIALS_DIRECTORY}` unset) is one line; every alert goes on; `config check` warns.
    @Test(.ownThread) func aBadPasswordFileStopsOnlyTheFleet() throws {
        let executable = try #require(gatewaydExecutable())
        let dir = try HostileInputRound4Tests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "\n".write(to: dir.appendingPathComponent("empty"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("folder"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("loop").path, withDestinationPath: dir.appendingPathComponent("loop").path)
        let cases: [(String, String)] = [(dir.appendingPathComponent("missing").path, "no such file"), (dir.appendingPathComponent("empty").path, "empty"),
                                         (dir.appendingPathComponent("folder").path, "is a folder"), (dir.appendingPathComponent("loop").path, "loop of symbolic links"),
                                         ("${CREDENTIALS_DIRECTORY}/fleet-password", "CREDENTIALS_DIRECTORY is not set")]
        for (file, why) in cases {
            let config = dir.appendingPathComponent("g.toml")
            try "[fleet]\nbroker = \"mqtt://127.0.0.1:1\"\nid = \"N1\"\nusername = \"gw\"\npassword_file = \"\(file)\"\n".write(to: config, atomically: true, encoding: .utf8)
            var environment = ProcessInfo.processInfo.environment
            environment["CREDENTIALS_DIRECTORY"] = nil
            let check = try runProcess(executable, ["config", "check", "--config", config.path], environment: [:])
            #expect(check.errors.contains("warning:") && check.errors.contains(why), "\(file): \(check.errors)")
            let p = Process()
            p.executableURL = executable
            p.environment = environment
            p.arguments = ["run", "--config", config.path, "--replay", fixtures.appendingPathComponent("demo-flight.pcap").path, "--speed", "50", "--json",
                           "--http-port", "0", "--nmea-port", "0", "--status-interval", "0", "--database", dir.appendingPathComponent("g-\(UUID()).sqlite").path]
            let out = dir.appendingPathComponent("out"), err = dir.appendingPathComponent("err")
            #expect(FileManager.default.createFile(atPath: out.path, contents: nil) && FileManager.default.createFile(atPath: err.path, contents: nil))
            p.standardOutput = try FileHandle(forWritingTo: out)
            p.standardError = try FileHandle(forWritingTo: err)
            try p.run()
            _ = eventually(30) { !p.isRunning || ((try? String(contentsOf: err, encoding: .utf8)) ?? "").contains("has been played") }
            kill(p.processIdentifier, SIGTERM)
            p.waitUntilExit()
            let errors = try String(contentsOf: err, encoding: .utf8)
            let alerts = try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
            // Every alert raised and cleared as the golden has them (16 changes, 4 of them raised
            // or cleared); an `updated` may fall on another tick at 50× on a loaded machine (seen
            // once in CI: 17).
            let golden = try String(contentsOf: fixtures.appendingPathComponent("demo-flight.alerts.jsonl"), encoding: .utf8).split(separator: "\n")
            let got = Self.changes(alerts), want = Self.changes(golden)
            #expect(p.terminationStatus == 0 && got == want && Self.sameSeconds(alerts, golden) && want.count == 4 && abs(alerts.count - golden.count) <= 2,
                    "\(why): \(alerts.count) alert changes (\(golden.count) in the golden), raised and cleared: \(got), \(errors)")
            #expect(errors.split(separator: "\n").filter { $0.contains("password_file") }.count == 1
                    && errors.contains("not publishing to the fleet (alerts and every other feed go on)"), "\(errors)")
        }
    }

    /// Item 11: alert events queued while the broker is away are published by the next run on the
    /// same database once the broker is up (the next run chose its start again and skipped them).
    @Test func eventsQueuedWhileAwayArePublishedByTheNextRun() throws {
        guard let broker = try fleetBroker() else { return }
        defer { broker.stop() }
        let dir = try HostileInputRound4Tests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gatewayDB = try GatewayDatabase(path: dir.appendingPathComponent("gw.sqlite").path)
        let stationDB = try GatewayDatabase(path: dir.appendingPathComponent("station.sqlite").path)
        let url = try #require(FleetBroker(url: broker.url))
        let log = AlertLog(database: gatewayDB)
        // The gateway's clock is the wall clock; the events are a replay's (May 2026), older than a day.
        func publisher() -> FleetPublisher {
            FleetPublisher(settings: FleetSettings(broker: url, id: "N1", username: "gw"), password: "pw", database: gatewayDB, version: "test",
                           clock: { Date().timeIntervalSince1970 }) { _ in }
        }
        broker.stop()
        let away = publisher()
        try away.start()
        try log.append(encoded: FleetBrokerTests.events(1...16))
        away.nudge()
        #expect(eventually(5) { away.status.queuedAlerts == 16 }, "the run while away saw the 16 events queued")
        away.finish(timeout: 1)
        away.stop()
        try broker.restart()
        let station = FleetStation(settings: FleetSettings(broker: url, username: "station"), password: "pw2", database: stationDB,
                                   clientID: "round4-station", clock: { Date().timeIntervalSince1970 }) { _ in }
        try station.start()
        defer { station.stop() }
        #expect(eventually(5) { station.connection.connected })
        let back = publisher()
        try back.start()
        defer { back.stop() }
        try log.append(encoded: FleetBrokerTests.events(17...35))
        back.nudge()
        #expect(eventually(20) { (try? station.store.eventCount(gateway: "N1")) == 35 }, "\((try? station.store.eventCount(gateway: "N1")) ?? -1) of 35")
        let kept = try station.store.events(after: 0).map { JSONReader.object(Array($0.json.utf8))?["eventId"] as? String }
        #expect(kept == (1...35).map { "1-\($0)" })
    }
}

/// Issue 52's medium and low items that are rules of their own.
@Suite(.timeLimit(.minutes(3)), .tags(.process), .slow) struct KeepAlertingRound4RulesTests {
    /// A run of connections dropped right after they are made is said once, with the likely
    /// cause; a steady connection's loss is said; "connected" only outside a run.
    @Test func flappingConnectionsAreSaidOnce() {
        var f = ConnectionFlaps()
        let first = f.connected(at: 0), steady = f.lost(at: 100)
        #expect(first)
        #expect(steady == .lost, "a steady connection lost")
        var said: [String] = []
        var t = 200.0
        for _ in 0..<15 {
            if f.connected(at: t) { said.append("connected") }
            switch f.lost(at: t + 0.5) {
            case .lost: said.append("lost")
            case .flapping(let n): said.append("flapping \(n)")
            case .quiet: break
            }
            t += 2
        }
        #expect(said == ["connected", "lost", "connected", "flapping 3"], "\(said)")
        // A connection that lasts ends the run.
        let quietly = f.connected(at: t), lasted = f.lost(at: t + 60), again = f.connected(at: t + 61)
        #expect(!quietly)
        #expect(lasted == .lost)
        #expect(again)
        let line = ConnectionFlaps.flappingLine(broker: "mqtt://b:1883", id: "N1", count: 3)
        #expect(line.contains("another client using the id N1"))
    }

    /// An SBS peer that accepts and closes at once: a few lines, not two a second.
    @Test func anSBSPeerThatClosesAtOnceIsSaidOnce() async throws {
        let server = TestLineServer((0..<40).map { _ in (text: "", close: true) })
        defer { server.stop() }
        let said = Locked<[String]>([])
        let client = SBSClient(host: "127.0.0.1", port: server.port, clock: { 1_800_000_000 }, onReports: { _, _ in }, onStatus: { status, tell in
            if tell { said.withLock { $0.append(status.connected ? "connected" : status.reason ?? "") } }
        })
        client.start()
        defer { client.stop() }
        // 8 s of reconnects with its backoff (over early if it reconnects more than 6 times),
        // counted off the cooperative pool: a test waiting for a thread of it (the suite's sync
        // tests hold them) would count a longer window.
        let (lines, connections) = try #require(await Offload.run(on: .global()) { () -> ([String], Int) in
            _ = eventually(8) { server.accepted.withLock { $0 } > 6 }
            return (said.value, server.accepted.withLock { $0 })
        })
        #expect(connections >= 3, "it reconnects")
        #expect(connections <= 6, "with a growing backoff: \(connections) connections in 8 s")
        #expect(lines.count <= 4 && lines.last?.contains("closes each connection right after it is made") == true, "\(lines)")
    }

    /// Values no station reports are not read as given: 999 kt, A9999, M99; a visibility group
    /// that is no visibility leaves the flight category unknown, not VFR.
    @Test func metarValuesOutOfRangeAreNotRead() throws {
        let m = try #require(DecodedMETAR.decode("METAR KSLE 161353Z 270999KT 999999999SM FEW040 M99/M99 A9999"))
        #expect(m.conditions.wind == nil)
        #expect(m.temperatureC == nil && m.altimeterInHg == nil)
        #expect(m.flightCategory == nil)
        let good = try #require(DecodedMETAR.decode("METAR KSLE 161353Z 27045G60KT 10SM FEW040 M45/M50 A2992"))
        #expect(good.conditions.wind?.speedKt == 45 && good.conditions.wind?.gustKt == 60)
        #expect(good.temperatureC == -45 && good.altimeterInHg == 29.92 && good.flightCategory == "VFR")
        #expect(try #require(DecodedMETAR.decode("METAR EGLL 161350Z 27010KT 9999 FEW040 12/05 Q0999")).altimeterHPa == 999)
    }

    /// A gridded block's bounds stop at the poles; one outside the grid bounds no composite.
    @Test func griddedBoundsStayOnTheEarth() {
        let last = GriddedBlock.bounds(blockNumber: GriddedBlock.blockLimit - 2, southern: true, scale: 2)
        #expect(last.south >= -90 && last.north <= 90)
        let outside = GriddedBlock.bounds(blockNumber: GriddedBlock.blockLimit + 100_000, southern: false, scale: 0)
        #expect(outside.north <= 90)
    }

    /// `fisb --radar ""` is refused (it wrote into "/"); `--radius -1` names its range.
    @Test func emptyAndNegativeArgumentsAreNamed() throws {
        let radar = try runGatewayd(["fisb", "--radar", "", fixtures.appendingPathComponent("fisb-sample.978").path])
        #expect(radar.status != 0 && radar.errors.contains("--radar needs a folder name"), "\(radar.errors)")
        let radius = try runGatewayd(["weather", "fetch", "--near", "KSLE", "--radius", "-1"])
        #expect(radius.status != 0 && radius.errors.contains("--radius must be 5 to 300 NM"), "\(radius.errors)")
        let margin = try runGatewayd(["weather", "fetch", "--route", "KSLE", "KPDX", "--margin", "-5"])
        #expect(margin.status != 0 && margin.errors.contains("--margin must be 5 to 200 NM"), "\(margin.errors)")
    }
}

/// Low: a junk CA file is named as such before any connection (it was reported as the broker's
/// certificate failing its check).
@Suite(.timeLimit(.minutes(5))) struct FleetCAFileTests {
    @Test func aJunkCAFileIsNamed() throws {
        let dir = try HostileInputRound4Tests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let junk = dir.appendingPathComponent("ca.pem").path
        try "not a certificate\n".write(toFile: junk, atomically: true, encoding: .utf8)
        #expect(throws: GatewayError.self) { try FleetSettings.checkCAFile(junk) }
        do { try FleetSettings.checkCAFile(junk) } catch { #expect(error.reason.contains("not a PEM certificate file"), "\(error.reason)") }
        do { try FleetSettings.checkCAFile(dir.appendingPathComponent("gone.pem").path) } catch { #expect(error.reason.contains("no such file"), "\(error.reason)") }
        let pem = dir.appendingPathComponent("real.pem").path
        try "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".write(toFile: pem, atomically: true, encoding: .utf8)
        try FleetSettings.checkCAFile(pem)
        // Through the client: the junk file refuses to make it, naming the file.
        var options = MQTTClient.Options(clientID: "round4-ca")
        options.tls = true
        options.caFile = junk
        #expect(throws: GatewayError.self) { _ = try MQTTClient(options) { _ in } }
    }
}

/// The one SSE follower (issue 53) through `gatewayd fleet tail`: a station's stored events, each
/// led by its gateway, then it stops at --count; `--json` gives the station's JSON with "gateway".
@Suite(.timeLimit(.minutes(5)), .tags(.process), .slow) struct FleetTailTests {
    @Test func fleetTailFollowsTheStation() async throws {
        let dir = try HostileInputRound4Tests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let station = try HostileInputRound4Tests.station(dir, lines: HostileInputRound4Tests.Lines())
        let server = FleetServer(station: station)
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        #expect(await HostileInputRound4Tests.serving(base))
        func publish(_ first: Int) {
            for (i, gateway) in ["N1", "N2", "N1"].enumerated() {
                let n = first + i
                HostileInputRound4Tests.publish(station, "skygate/\(gateway)/alerts",
                    "{\"event\":\"raised\",\"id\":\"traffic-a\(n)\",\"kind\":\"traffic\",\"level\":\"warning\",\"time\":\"2026-05-16T14:0\(i):00Z\",\"message\":\"Traffic \(n)\",\"eventId\":\"1-\(n)\"}")
            }
        }
        // Each follower: started, its subscription awaited, then three events published live.
        func follow(_ arguments: [String], first: Int) async throws -> (status: Int32, output: String, errors: String) {
            let before = station.subscriberCount  // a departed follower's stream may linger a moment
            let executable = try #require(gatewaydExecutable())
            let tail = Task {
                await Offload.run(on: .global()) { try? runProcess(URL(fileURLWithPath: "/usr/bin/timeout"), ["30", executable.path, "fleet", "tail", base] + arguments) } ?? nil
            }
            let subscribed = await Offload.run(on: .global()) { eventually(20) { station.subscriberCount > before } } ?? false
            #expect(subscribed)
            publish(first)
            return try #require(await tail.value)
        }
        let human = try await follow(["--count", "3"], first: 1)
        let lines = human.output.split(separator: "\n").map(String.init)
        #expect(human.status == 0 && lines.count == 3, "\(human.errors)")
        #expect(lines.map { String($0.prefix(4)) } == ["N1  ", "N2  ", "N1  "], "\(lines)")
        #expect(lines[1].contains("Traffic 2"))
        #expect(human.errors.contains("fleet tail: following \(base)"))
        let json = try await follow(["--json", "--count", "2"], first: 4)
        #expect(json.output.split(separator: "\n").first?.hasPrefix("{\"gateway\":\"N1\",\"event\":\"raised\"") == true, "\(json.output)")
    }
}
