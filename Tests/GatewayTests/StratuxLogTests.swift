import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures
@testable import GatewaySimulation

/// Issue 45: every capture a Stratux user already has (its UAT, 1090ES and GPS replay logs, a
/// folder of them, dump978 text without times, SBS BaseStation text) read by content through the
/// same pipeline, with known decoded values from the formats' own documentation.
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct StratuxLogTests {
    /// The Stratux replay log's START line, as Go prints it (2015-09-07T14:17:41Z).
    static let start = "START,Mon Sep 7 14:17:41 +0000 UTC 2015,Mon Sep 7 14:17:41 +0000 UTC 2015\n"
    /// A UAT downlink with the decoding dump978's uat2text gives for it (quoted in Stratux's
    /// traffic.go): TIS-B track file 2B48FE, NIC 6, 41.4380 N 84.1056 W, 2300 ft barometric,
    /// N/S −65 kt, E/W −98 kt, track 236, speed 117 kt, vertical rate 0, NACp 8, no callsign.
    static let tisbLine = "-0b2b48fe3aef1f88621a0856110a31c01105c4e6c4e6c40a9a820300000000000000;rs=7;"

    static func parse(_ text: String) -> CaptureContents { CaptureFile.parse(Array(text.utf8), name: "log") }

    static func traffic(_ d: CapturedDatagram) -> [TrafficReport] {
        var out: [TrafficReport] = []
        var deframer = Deframer()
        deframer.feed(d.bytes) { event in
            guard case .frame(let f) = event, let m = try? Message.decode(f.message) else { return }
            switch m {
            case .traffic(let r): out.append(r)
            case .basicReport(let u), .longReport(let u): if let r = TrafficReport(uat: u.adsb) { out.append(r) }
            default: break
            }
        }
        return out
    }

    @Test func fixturesAreReproducible() throws {
        let flight = DemoFlight()
        let logs = flight.stratuxLogs()
        #expect(try String(contentsOf: fixtures.appendingPathComponent("stratux/0001-uat.log"), encoding: .utf8) == logs.uat)
        #expect(try String(contentsOf: fixtures.appendingPathComponent("stratux/0001-es.log"), encoding: .utf8) == logs.es)
        #expect(try String(contentsOf: fixtures.appendingPathComponent("stratux/0001-gps.log"), encoding: .utf8) == logs.gps)
        #expect(try String(contentsOf: fixtures.appendingPathComponent("demo-flight.sbs"), encoding: .utf8) == flight.sbsText())
        #expect(try String(contentsOf: fixtures.appendingPathComponent("fisb-undated.978"), encoding: .utf8) == DemoFlight.undatedDump978())
    }

    @Test func goTimesAsStratuxWritesThem() {
        #expect(TextLogReader.goTime("Mon Sep 7 14:17:41 +0000 UTC 2015") == 1_441_635_461)
        // A zone west of UTC: 03:04:05 CDT is 08:04:05Z.
        #expect(TextLogReader.goTime("Mon Jan 2 03:04:05 -0500 EST 2023") == 1_672_646_645)
        for bad in ["", "Mon Sep 31 14:17:41 +0000 UTC 2015", "Mon Sep 7 25:17:41 +0000 UTC 2015", "Mon Sep 7 14:17:41 UTC 2015",
                    "Thu Jan 1 00:00:00 +0000 UTC 1970", "yesterday"] {
            #expect(TextLogReader.goTime(bad) == nil, "\(bad)")
        }
    }

    @Test func uatLogDownlinkHasDump978sDecodedValues() throws {
        let contents = Self.parse(Self.start + "1500000000,\(Self.tisbLine)\n")
        #expect(contents.format == .stratuxUAT)
        #expect(contents.error == nil)
        #expect(contents.datagrams.count == 1)
        let d = try #require(contents.datagrams.first)
        #expect(d.timestamp == 1_441_635_462.5)
        let r = try #require(Self.traffic(d).first)
        #expect(r.address == 0x2B48FE)
        #expect(r.addressType == .tisbTrackFile)
        #expect(r.nic == 6 && r.nacp == 8)
        #expect(abs(r.position!.latitude - 41.4380) < 0.00005)
        #expect(abs(r.position!.longitude - -84.1056) < 0.00005)
        #expect(r.pressureAltitudeFt == 2300)
        #expect(r.groundSpeedKt == 117)  // √(65² + 98²) = 117.6, truncated as dump978 and Stratux give it
        #expect(abs(r.trackDeg - 236.4) < 0.1)
        #expect(r.verticalSpeedFpm == 0)
        #expect(r.airborne)
        #expect(r.callsign == "")
        // decode --json prints it as a traffic object, saying where it came from.
        var out = OutputBuffer(capacity: 1024)
        var clock = ISO8601Writer()
        var deframer = Deframer()
        deframer.feed(d.bytes) { event in
            if case .frame(let f) = event, let m = try? Message.decode(f.message) {
                MessageFormatter.appendJSON(m, time: d.timestamp, to: &out, clock: &clock)
            }
        }
        let line = out.text
        #expect(line.hasPrefix("{\"type\":\"traffic\",\"time\":\"2015-09-07T14:17:42.500Z\""))
        #expect(line.contains("\"address\":\"2b48fe\",\"addressType\":\"tisbTrackFile\""))
        #expect(line.contains("\"from\":\"uat\",\"payloadType\":1,\"addressQualifier\":3"))
    }

    @Test func callsignOnlyWhenTheCSIDBitSaysSo() {
        var a = UATADSBPayload(payloadType: 1, addressQualifier: 0, address: 0xA12345, position: Position(latitude: 45, longitude: -122),
                               altitudeFt: 3000, velocity: .airborne(northKt: 100, eastKt: 0, supersonic: false), verticalRateFpm: 0,
                               emitterCategory: 1, callsign: "N12345", emergency: 0, nacp: 9)
        #expect(TrafficReport(uat: UATADSBPayload(decoding: a.encode()[...]))?.callsign == "N12345")
        // CSID 0: the characters are a Mode 3/A code, not a callsign.
        a.callsign = "1200"
        a.callsignIsFlightID = false
        let decoded = UATADSBPayload(decoding: a.encode()[...])
        #expect(!decoded.callsignIsFlightID)
        #expect(TrafficReport(uat: decoded)?.callsign == "")
        // Qualifier 7 (reserved) is no aircraft; ADS-R (6) is carried as TIS-B ICAO (a relayed copy).
        a.addressQualifier = 7
        #expect(TrafficReport(uat: UATADSBPayload(decoding: a.encode()[...])) == nil)
        a.addressQualifier = 6
        #expect(TrafficReport(uat: UATADSBPayload(decoding: a.encode()[...]))?.addressType == .tisbICAO)
    }

    /// The BaseStation examples of the SBS-1 socket documentation, merged into one report.
    @Test func sbsLinesMergePerAddress() throws {
        var decoder = SBSDecoder()
        func feed(_ line: String, at t: Double) -> SBSDecoder.Outcome {
            Array(line.utf8).withUnsafeBufferPointer { decoder.feed($0, at: t) }
        }
        #expect(feed("MSG,1,145,256,4CA2E6,11267,2008/11/28,23:48:18.611,2008/11/28,23:53:19.161,RJA1118,,,,,,,,,,,", at: 1) == .nothing)
        #expect(feed("MSG,4,496,469,4CA2E6,27854,2010/02/19,17:58:13.039,2010/02/19,17:58:13.368,,,288.6,103.2,,,-832,,,,,", at: 2) == .nothing)
        #expect(feed("MSG,6,1,1,4CA2E6,1,2008/11/28,23:48:18.611,2008/11/28,23:53:19.161,,,,,,,,7700,0,0,0,0", at: 2.5) == .nothing)
        guard case .report(let r) = feed("MSG,3,496,211,4CA2E6,10057,2008/11/28,14:53:49.986,2008/11/28,14:58:51.153,,37000,,,51.45735,-1.02826,,,0,0,0,0", at: 3)
        else { Issue.record("a position makes a report"); return }
        #expect(r.address == 0x4CA2E6 && r.addressType == .adsbICAO)
        #expect(r.callsign == "RJA1118")
        #expect(r.pressureAltitudeFt == 37000)
        #expect(r.position == Position(latitude: 51.45735, longitude: -1.02826))
        #expect(r.groundSpeedKt == 289 && r.trackType == .trueTrack && abs(r.trackDeg - 103.2) < 0.01 && r.verticalSpeedFpm == -832)
        #expect(r.airborne)
        #expect(r.emergency == 1)  // squawk 7700
        #expect(r.nic == 0 && r.nacp == 0)  // SBS does not say: unknown
        // A non-ICAO address (`~`), on the ground.
        guard case .report(let g) = feed("MSG,2,1,1,~A0B1C2,1,2026/05/16,14:00:00.000,2026/05/16,14:00:00.000,,25,12,270,44.9,-123.0,,,,,,-1", at: 4)
        else { Issue.record("a surface position makes a report"); return }
        #expect(g.addressType == .tisbTrackFile && g.address == 0xA0B1C2 && !g.airborne && g.groundSpeedKt == 12)
        // Wrong lines are said, and cost nothing of what was known.
        for (line, why) in [("MSG,9,1,1,4CA2E6,1", "MSG,9 is not"), ("MSG,3,1,1,XYZ,1,,,,,,,,,1,2", "is not 6 hex digits"),
                            ("MSG,3,1,1,4CA2E6,1,,,,,,abc,,,51,-1", "altitude abc is not a number"),
                            ("MSG,3,1,1,4CA2E6,1,,,,,,1000,,,95,-1", "off the Earth"), ("MSG,3,1,1,4CA2E6", "not 22"),
                            ("HELLO,1", "not a BaseStation line type"), ("garbage", "no comma")] {
            guard case .problem(let reason) = feed(line, at: 5) else { Issue.record("\(line) is wrong"); continue }
            #expect(reason.contains(why), "\(line): \(reason)")
        }
        guard case .report(let again) = feed("MSG,3,1,1,4CA2E6,1,,,,,,37025,,,51.46,-1.03,,,0,0,0,0", at: 6) else { Issue.record("report"); return }
        #expect(again.callsign == "RJA1118" && again.groundSpeedKt == 289)
        #expect(feed("SEL,1,1", at: 7) == .nothing)
    }

    @Test func sbsAircraftAreBounded() {
        var decoder = SBSDecoder()
        for i in 0..<(SBSDecoder.maximumTargets * 3) {
            let line = "MSG,3,1,1,\(MessageFormatter.hex6(UInt32(i))),1,,,,,,1000,,,45,-122,,,0,0,0,0"
            _ = Array(line.utf8).withUnsafeBufferPointer { decoder.feed($0, at: Double(i) / 1000) }
            #expect(decoder.count <= SBSDecoder.maximumTargets)
        }
    }

    /// The NMEA reference's own examples (RMC and GGA of 12:35:19 at 48°07.038'N 11°31.000'E).
    @Test func nmeaMakesWhatAStratuxSends() throws {
        var decoder = NMEADecoder()
        func feed(_ line: String, at t: Double) -> NMEADecoder.Outcome {
            Array(line.utf8).withUnsafeBufferPointer { decoder.feed($0, at: t) }
        }
        #expect(feed("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47", at: 100) == .nothing)
        guard case .ownship(let messages) = feed("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A", at: 100.2) else {
            Issue.record("a valid RMC is ownship"); return
        }
        #expect(messages.count == 3)
        guard case .heartbeat(let hb) = messages[0], case .ownship(let own) = messages[1], case .ownshipGeoAltitude(let geo) = messages[2] else {
            Issue.record("heartbeat, ownship, geometric altitude"); return
        }
        #expect(hb.gpsPositionValid && hb.utcOK && hb.secondsSinceMidnight == 12 * 3600 + 35 * 60 + 19)
        #expect(abs(own.position!.latitude - 48.1173) < 0.00001 && abs(own.position!.longitude - 11.516667) < 0.00001)
        #expect(own.groundSpeedKt == 22 && abs(own.trackDeg - 84.4) < 0.01 && own.pressureAltitudeFt == nil && !own.airborne)
        #expect(geo.altitudeFt == 1790)  // 545.4 m = 1789.4 ft, in 5 ft steps
        // A wrong checksum, a void fix, a cut sentence.
        guard case .problem(let why) = feed("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6B", at: 101) else {
            Issue.record("a wrong checksum is said"); return
        }
        #expect(why.contains("checksum"))
        #expect(feed("$GPRMC,123520,V,,,,,,,230394,,", at: 102) == .nothing)  // no fix, no checksum (it is optional)
        if case .problem = feed("$GPRMC,1235", at: 103) {} else { Issue.record("a cut sentence is said") }
    }

    /// Every kind of damage a log can have: counted with its line number, skipped, the rest read.
    @Test func badLinesAreCountedWithTheirNumbers() throws {
        let line = Self.tisbLine
        let text = [
            "1000,\(line)",  // 1: before any START
            Self.start.dropLast(),  // 2
            "1500000000,\(line)",  // 3: good
            "1600000000,-0b2b48fe3aef;rs=7;",  // 4: 6 bytes
            "1700000000,-zz2b48fe3aef1f88621a0856110a31c01105c4e6c4e6c40a9a820300000000000000;",  // 5: not hex
            "100000000,\(line)",  // 6: back 1.6 s
            "1650000000,\(line)",  // 7: back 0.05 s: kept at the previous time
            "START,Tue Sep 8 10:00:00 +0000 UTC 2015,Tue Sep 8 10:00:00 +0000 UTC 2015",  // 8: a second session
            "100,\(line)",  // 9: good, on the new clock
            "1800000000,MSG,3,1,1,4CA2E6,1,,,,,,37000,,,51,-1,,,0,0,0,0",  // 10: SBS in a UAT log
            "START,not a time",  // 11
            "1900000000,\(line)",  // 12: no START in force
            "2000000000,-0b2b48fe3aef1f88621a0856110a31c01105c4e6c4e6c40a9a82030000000000",  // 13: cut at the end, no newline
        ].joined(separator: "\n")
        let contents = Self.parse(text)
        #expect(contents.format == .stratuxUAT)
        #expect(contents.datagrams.map(\.timestamp) == [1_441_635_462.5, 1_441_635_462.7, 1_441_706_400.0])
        let error = try #require(contents.error)
        #expect(error.readOn)
        #expect(error.reason.hasPrefix("9 lines skipped (line 1: no START line before it"))
        #expect(error.reason.contains("line 4: hex of the wrong length (6 bytes; a downlink has 18 or 34)"))
        #expect(error.reason.contains("line 5: not UAT hex"))
        #expect(error.reason.contains("line 6: its time goes back 1.6 s"))
        #expect(error.reason.contains("line 8: a second START (2015-09-08T10:00:00Z)"))
        #expect(error.reason.hasSuffix("; …)"))  // 9 in all, the first five named
    }

    @Test func sbsLogAndPlainSBSText() throws {
        let log = Self.start + "2000000000,MSG,3,1,1,4CA2E6,1,2008/11/28,14:53:49.986,2008/11/28,14:58:51.153,,37000,,,51.45735,-1.02826,,,0,0,0,0\n"
        let stratux = Self.parse(log)
        #expect(stratux.format == .sbs && stratux.datagrams.count == 1)
        #expect(stratux.datagrams[0].timestamp == 1_441_635_463)  // START + 2 s: the log's clock, not the line's fields
        // Plain SBS (what port 30003 serves): each line timed by its own "generated" fields, UTC.
        let plain = Self.parse("MSG,3,496,211,4CA2E6,10057,2008/11/28,14:53:49.986,2008/11/28,14:58:51.153,,37000,,,51.45735,-1.02826,,,0,0,0,0\r\n"
                               + "MSG,3,496,211,4CA2E6,10057,,,,,,37000,,,51.45735,-1.02826,,,0,0,0,0\r\n")
        #expect(plain.format == .sbs)
        #expect(plain.datagrams.map(\.timestamp) == [Timestamp.parse("2008-11-28T14:53:49.986Z")!])
        #expect(plain.error?.reason.contains("line 2: no date and time generated") == true)
    }

    /// dump978 text without `t=` (its example files): dated from its products, never 1970.
    @Test func undatedDump978IsDatedFromItsProducts() throws {
        let path = fixtures.appendingPathComponent("fisb-undated.978").path
        var stream = try CaptureStream(path: path)
        #expect(stream.format == .dump978)
        let note = try #require(stream.undatedNote)
        #expect(note.contains("2026-05-16T14:03:00Z") && note.contains("FIS-B products' dates"))
        var times: [Double?] = []
        while let d = stream.next() { times.append(d.timestamp) }
        #expect(times.count == 12)
        // The latest product issued 14:02: received a minute later.
        #expect(times.allSatisfy { $0 == Timestamp.parse("2026-05-16T14:03:00Z") })
        // --date sets the day.
        var given = try CaptureStream(path: path)
        try given.dateUndatedLines(given: "2026-06-01")
        #expect(given.next()?.timestamp == Timestamp.parse("2026-06-01T14:03:00Z"))
        // Downlinks only (no product to date it by): the file's time, which a recording ends at.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("undated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("downlinks.978")
        try (Self.tisbLine + "\n").write(to: file, atomically: true, encoding: .utf8)
        let modified = Date(timeIntervalSince1970: 1_700_000_000)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
        var downlinks = try CaptureStream(path: file.path)
        #expect(downlinks.next()?.timestamp == 1_700_000_000)
        #expect(downlinks.undatedNote?.contains("the file's modification time") == true)
        // A dated file is left as it is.
        var dated = try CaptureStream(path: fixtures.appendingPathComponent("fisb-sample.978").path)
        #expect(dated.undatedNote == nil)
        #expect(dated.next()?.timestamp == FISBSamples.startTime)
    }

    @Test func decodeOfUndatedTextCarriesNoTimeBefore2001() throws {
        guard gatewaydExecutable() != nil else { return }
        let run = try runGatewayd(["decode", "--json", fixtures.appendingPathComponent("fisb-undated.978").path])
        #expect(run.status == 0)
        let times = run.output.split(separator: "\n").compactMap { line -> String? in
            guard let r = line.range(of: "\"time\":\"") else { return nil }
            return String(line[r.upperBound...].prefix(4))
        }
        #expect(times.count == 12 && times.allSatisfy { $0 == "2026" })
        #expect(run.errors.contains("note: ") && run.errors.contains("dump978 lines without times"))
    }

    /// The demo flight as a Stratux's logs: one session on one clock, the alerts the geometry gives.
    @Test func stratuxFolderReplaysAsOneSession() throws {
        let session = try ReplaySession.resolve(fixtures.appendingPathComponent("stratux").path)
        #expect(session.captures.count == 1 && session.captures[0].hasSuffix("stratux/0001"))
        var stream = try CaptureStream(path: session.captures[0])
        #expect(stream.format == .stratuxSession)
        var datagrams: [CapturedDatagram] = []
        while let d = stream.next() { datagrams.append(d) }
        #expect(stream.error == nil)
        // Merged by time from the three logs.
        #expect(zip(datagrams, datagrams.dropFirst()).allSatisfy { $0.timestamp! <= $1.timestamp! })
        #expect(datagrams.count == 1_124)
        var replay = CaptureReplay(pipeline: GatewayPipeline())
        let lines = replay.replay(datagrams).alerts.map(AlertFormatter.json)
        let golden = try String(contentsOf: fixtures.appendingPathComponent("stratux.alerts.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(lines == golden)
        // The story, as the demo flight tells it: the head-on caution → warning → clear at the same
        // seconds; the crosser heard on 1090 and by UAT TIS-B is one advisory.
        let headOn = lines.filter { $0.contains("\"subject\":\"ab4549\"") }
        #expect(headOn.first?.contains("\"event\":\"raised\"") == true && headOn.first?.contains("\"time\":\"2026-05-16T14:02:40") == true)
        #expect(headOn.contains { $0.contains("\"level\":\"warning\"") && $0.contains("\"time\":\"2026-05-16T14:03:01") })
        #expect(headOn.last?.contains("\"event\":\"cleared\"") == true)
        #expect(lines.filter { $0.contains("\"subject\":\"c0ffee\"") && $0.contains("\"event\":\"raised\"") }.count == 1)
        for quiet in ["a00001", "a99999", "a1b2c3"] {
            #expect(!lines.contains { $0.contains("\"subject\":\"\(quiet)\"") }, "\(quiet) must not alert")
        }
    }

    /// Stratux keeps its replay logs gzip-compressed (`0001-uat.log.gz`) unless in developer
    /// mode: read as they are (through zlib), the same session; a cut one is read up to the cut.
    @Test func compressedLogsAreReadAsTheyAre() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stratux-gz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["0001-uat.log", "0001-es.log", "0001-gps.log"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent("stratux/" + name), to: folder.appendingPathComponent(name))
        }
        let gzip = try #require(["/usr/bin/gzip", "/bin/gzip"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let packed = try runProcess(URL(fileURLWithPath: gzip), ["-n", "0001-uat.log", "0001-es.log", "0001-gps.log"], in: folder)
        #expect(packed.status == 0)
        let session = try ReplaySession.resolve(folder.path)
        #expect(session.captures.map { String($0.split(separator: "/").last!) } == ["0001"])
        var stream = try CaptureStream(path: session.captures[0])
        var datagrams: [CapturedDatagram] = []
        while let d = stream.next() { datagrams.append(d) }
        #expect(stream.error == nil && datagrams.count == 1_124)
        var replay = CaptureReplay(pipeline: GatewayPipeline())
        let golden = try String(contentsOf: fixtures.appendingPathComponent("stratux.alerts.jsonl"), encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(replay.replay(datagrams).alerts.map(AlertFormatter.json) == golden)
        // Cut in half: what came before the cut is read, and the error says where it stopped.
        let whole = try Data(contentsOf: folder.appendingPathComponent("0001-uat.log.gz"))
        let cut = folder.appendingPathComponent("cut.log.gz")
        try whole.prefix(whole.count / 2).write(to: cut)
        var partial = try CaptureStream(path: cut.path)
        var count = 0
        while partial.next() != nil { count += 1 }
        #expect(count > 50 && count < 493, "\(count)")
        #expect(partial.error?.reason.contains("damaged or cut") == true, "\(String(describing: partial.error))")
        // Without zlib: one clear error naming the file and what is missing.
        if let gatewayd = gatewaydExecutable() {
            let run = try runProcess(gatewayd, ["decode", cut.path], environment: ["SKYGATE_LIBZ": "/nonexistent/libz.so.1"])
            #expect(run.status != 0 && run.errors.contains("cut.log.gz: gzip-compressed, and zlib (libz.so.1) cannot be loaded"), "\(run.errors)")
        }
    }
}

/// Issue 44: `flights import DIR` (and `replay DIR`) of a folder of captures (a Stratux user's
/// log folder, a download of old flights) read every capture in it, in time order, each once,
/// saying which files were skipped and why; it refused them ("no recordings in this folder").
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct CaptureFolderTests {
    @Test func everyCaptureInAFolderInTimeOrder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("captures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("more"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["scenarios/go-around.pcap", "scenarios/touch-and-go.pcap", "fisb-sample.978", "stratux/0001-uat.log", "stratux/0001-es.log", "stratux/0001-gps.log"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(String(name.split(separator: "/").last!)))
        }
        try "notes about these flights\n".write(to: folder.appendingPathComponent("README.txt"), atomically: true, encoding: .utf8)
        try Data([0x7E, 0x00, 0x01]).write(to: folder.appendingPathComponent("0003-ahrs.log"))  // Stratux's AHRS log: not read, not damage
        let session = try ReplaySession.resolve(folder.path)
        let names = session.captures.map { String($0.split(separator: "/").last!) }
        #expect(Set(names) == ["go-around.pcap", "touch-and-go.pcap", "fisb-sample.978", "0001"])
        let firsts = session.captures.map(ReplaySession.firstTime)
        #expect(firsts == firsts.sorted(), "in the order of their first times: \(names)")
        let skipped = session.skipped.map { String($0.dropFirst(folder.path.count + 1)) }.sorted()
        #expect(skipped.count == 2, "\(skipped)")
        #expect(skipped.contains { $0.hasPrefix("README.txt: not a capture") })
        #expect(skipped.contains { $0.hasPrefix("more: a folder") })
        // Nothing but what is no capture: refused, saying why for each.
        let none = folder.appendingPathComponent("more")
        try "x".write(to: none.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let refusal = #expect(throws: GatewayError.self) { try ReplaySession.resolve(none.path) }
        #expect("\(refusal!)".contains("no recordings in this folder: nothing in it is a capture (notes.txt: not a capture"))
    }

    @Test func flightsImportOfAFolderOfCaptures() throws {
        guard gatewaydExecutable() != nil else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["scenarios/go-around.pcap", "scenarios/touch-and-go.pcap"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(String(name.split(separator: "/").last!)))
        }
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("stratux"), to: folder.appendingPathComponent("stratux-logs"))
        try "notes\n".write(to: folder.appendingPathComponent("README.txt"), atomically: true, encoding: .utf8)
        let database = folder.appendingPathComponent("logbook.sqlite").path
        let captures = folder.appendingPathComponent("captures").path
        try FileManager.default.createDirectory(atPath: captures, withIntermediateDirectories: true)
        for name in ["go-around.pcap", "touch-and-go.pcap", "README.txt"] {
            try FileManager.default.moveItem(atPath: folder.appendingPathComponent(name).path, toPath: captures + "/" + name)
        }
        let first = try runGatewayd(["flights", "import", captures, folder.appendingPathComponent("stratux-logs").path, "--database", database])
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.errors.contains("README.txt: not a capture") && first.errors.contains(": skipped"))
        #expect(first.errors.contains("imported 3 capture(s)") && first.errors.contains("3 flight(s), 3 new"), "\(first.errors)")
        // Each once: importing the folder again keeps no flight twice.
        let again = try runGatewayd(["flights", "import", captures, "--database", database])
        #expect(again.errors.contains("2 flight(s), 0 new"), "\(again.errors)")
    }
}
