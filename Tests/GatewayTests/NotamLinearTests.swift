import Dispatch
import Foundation
import GDL90
import Synchronization
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayRecords
@testable import GatewayNotams
@testable import GatewayFeeds
@testable import GatewayRuntime
@testable import GatewaySimulation

/// Issue 40, item 3: one NOTAM shape ("1FT", "1 FEET" or "UP TO AND INCLUDING 1 … FEET" then a
/// long run of spaces) made the range pattern quadratic: 10.7 s at 8,000 spaces, half an hour
/// at 100 kB, a start that opened no socket and a FIS-B queue that grew. The engine is linear
/// (a memo of failed states) with a step budget as a belt; costs are counted in engine steps,
/// which are deterministic, never timed.
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct NotamLinearTests {
    /// The issue's shapes, inside real-shaped FDC TFRs: the text that follows the spaces keeps
    /// the range pattern from matching there, so every search backtracks over the whole run.
    static func issueTexts(spaces n: Int) -> [(name: String, raw: String, ceilingAGL: Bool)] {
        let run = String(repeating: " ", count: n)
        let head = "!FDC 6/0040 ZSE OR..AIRSPACE SALEM, OR..TEMPORARY FLIGHT RESTRICTIONS WI AN AREA DEFINED AS 3NM RADIUS OF 445434N1230011W UP TO AND INCLUDING "
        let tail = "EFFECTIVE 2605161300 UTC UNTIL 2605161800 UTC. 2605161300-2605161800"
        return [
            ("1FT", head + "1FT" + run + tail, false),
            ("1 FEET", head + "1 FEET" + run + "AGL " + tail, true),
            ("1 … FEET", head + "1" + run + "FEET" + run + tail, false),
        ]
    }

    /// The three shapes at 20,000 and 100,000 spaces parse to what they say (a 3 NM circle up to
    /// and including 1 ft), read to the end (no search over budget), in a number of engine steps
    /// linear in the text.
    @Test(arguments: [20_000, 100_000]) func issueShapesParseToWhatTheySay(spaces: Int) {
        for (name, raw, agl) in Self.issueTexts(spaces: spaces) {
            var meter = TextPattern.Meter()
            let n = NotamParser.parse(raw, source: "test", meter: &meter)
            #expect(meter.overBudget.isEmpty, "\(name): \(meter.overBudget)")
            #expect(!NotamParser.isKeptAsWritten(n), "\(name): \(n.unparsed)")
            #expect(n.number == "6/0040" && n.issuer == "FDC" && n.kind == .tfr, "\(name)")
            #expect(n.start == Timestamp.parse("2026-05-16T13:00:00Z") && n.end == Timestamp.parse("2026-05-16T18:00:00Z"), "\(name)")
            guard case .circle(let centre, let radius)? = n.geometry?.shape else {
                Issue.record("\(name): expected the text's circle, got \(String(describing: n.geometry))")
                continue
            }
            #expect(radius == 3 && abs(centre.latitude - (44 + 54.0 / 60 + 34.0 / 3600)) < 1e-9 && abs(centre.longitude + (123 + 11.0 / 3600)) < 1e-9, "\(name)")
            #expect(n.limits == NotamLimits(floorFt: nil, ceilingFt: 1, ceilingAGL: agl, origin: "text"), "\(name): \(String(describing: n.limits))")
            #expect(n.geometry?.ceilingFt == 1 && n.geometry?.ceilingAGL == agl, "\(name)")
            // Every search of the parse together (about ten over the whole text).
            #expect(meter.steps <= 256 * raw.utf8.count, "\(name): \(meter.steps) steps for \(raw.utf8.count) bytes")
        }
    }

    /// The engine on every pattern the NOTAM code uses, on 16 and 64 kB runs of each character
    /// class and of the issue's shapes (the benchmark's texts): at most 64 steps a byte, four
    /// times the text is about four times the steps, and no search runs over its budget.
    @Test func everyPatternIsLinearOnLongRunsOfEachClass() {
        let small = PatternBenchmark.texts(bytes: 16 << 10), large = PatternBenchmark.texts(bytes: 64 << 10)
        #expect(NotamPatternProbe.names.count == 15 && small.count == large.count && large.count >= 15)
        for name in NotamPatternProbe.names {
            for (s, l) in zip(small, large) {
                let a = NotamPatternProbe.search(name, in: s.text), b = NotamPatternProbe.search(name, in: l.text)
                #expect(!a.overBudget && !b.overBudget, "\(name) on \(l.name)")
                #expect(b.steps <= 64 * l.text.count, "\(name) on \(l.name): \(b.steps) steps for \(l.text.count) bytes")
                #expect(b.steps <= 5 * a.steps + 1_000, "\(name) on \(l.name): \(a.steps) steps at 16 kB, \(b.steps) at 64 kB")
            }
        }
        // What it was: the plain backtracking machine on the issue's shape (kept small: quadratic).
        let shape = Array("1FT".utf8) + Array(repeating: UInt8(ascii: " "), count: 1_000)
        #expect(NotamPatternProbe.search("range", in: shape, memo: false).steps > 200 * shape.count)
    }

    /// The memo changes no result: every pattern, on generated NOTAM-like texts and the
    /// fixtures' texts, finds the same matches with the same groups with the memo from the first
    /// step, with the memo as the parser runs it, and without it (the plain backtracking machine).
    @Test func theMemoChangesNoMatch() throws {
        let tokens = ["1FT", "1 FEET", " ", "  ", "\n", "FL", "180", "FL 180", "-", "SFC", "GND", "UP TO AND INCLUDING", "UP TO", "UP TO BUT NOT INCLUDING",
                      "TO", "THRU", "AGL", "MSL", "AMSL", "FEET", "FT", "UNL", "AT OR BELOW", "BLW", "NM", "NMR", "5", "0.5", "12", ".", "/", ",", "(", ")",
                      "4500N", "12300W", "445434N1230011W", "4455N/12300W", "RADIUS OF", "CENTERED AT", "EITHER SIDE OF A LINE", "FM", "CLOCKWISE ON A",
                      "ARC CENTERED ON", "KSLE", "NNE", "LAW", "R-2508", "P-56A", "W-291", "A-231B", "MOA", "MOAS", "Q)", "E)", "F)", "2605161300",
                      "2605161300-2605161800", "-PERM", "EST", "1,000", "É"]
        var seed: UInt64 = 40
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var texts = try FoundationFreeTests.texts()
        for _ in 0..<1_500 {
            var t = ""
            for _ in 0..<(1 + next(40)) { t += tokens[next(tokens.count)] + (next(3) == 0 ? "" : " ") }
            texts.append(t)
        }
        texts += PatternBenchmark.texts(bytes: 200).map { String(decoding: $0.text, as: UTF8.self) }
        var compared = 0, memoised = 0
        for (name, pattern) in TextPatterns.all {
            for text in texts {
                let bytes = Array(text.utf8)
                var plain = TextPattern.Meter(tuning: .memoNever), always = TextPattern.Meter(tuning: .memoAlways), standard = TextPattern.Meter()
                let reference = pattern.matches(in: bytes, meter: &plain).map(\.slots)
                #expect(pattern.matches(in: bytes, meter: &always).map(\.slots) == reference, "\(name) on \(text.prefix(120))")
                #expect(pattern.matches(in: bytes, meter: &standard).map(\.slots) == reference, "\(name) on \(text.prefix(120))")
                for from in [0, bytes.count / 3, bytes.count] {
                    var a = TextPattern.Meter(tuning: .memoAlways), p = TextPattern.Meter(tuning: .memoNever)
                    #expect(pattern.firstMatch(in: bytes, from: from, meter: &a)?.slots == pattern.firstMatch(in: bytes, from: from, meter: &p)?.slots)
                }
                #expect(plain.overBudget.isEmpty && always.overBudget.isEmpty && standard.overBudget.isEmpty)
                memoised += always.memoised
                compared += 1
            }
        }
        #expect(compared == texts.count * 15 && memoised > 1_000)
    }

    /// Short texts, the fixtures' NOTAMs among them, never switch the memo on (nothing allocated).
    @Test func shortSearchesAllocateNoMemo() throws {
        for text in try FoundationFreeTests.texts() {
            var meter = TextPattern.Meter()
            _ = NotamParser.parse(text, source: "test", meter: &meter)
            #expect(meter.memoised == 0, "\(text.prefix(120))")
        }
    }

    /// Over budget (here a budget of one step a byte and instruction, no memo: the belt's case):
    /// the search says so, and the parser keeps the NOTAM as written (its text, no limits from
    /// the text it could not read to the end), with a note `notams show` prints and `notams
    /// import` counts.
    @Test func aTextOverItsBudgetIsKeptAsWrittenAndCounted() {
        let tight = TextPattern.Tuning(memoStepsPerByte: nil, budgetStepsPerByteAndInstruction: 1, memoBits: 0)
        let raw = Self.issueTexts(spaces: 3_000)[0].raw
        var meter = TextPattern.Meter(tuning: tight)
        guard case .overBudget = TextPatterns.range.search(in: Array(raw.utf8), meter: &meter) else {
            Issue.record("expected the range search over its budget")
            return
        }
        #expect(meter.overBudget == [TextPatterns.range.source])
        var parsing = TextPattern.Meter(tuning: tight)
        let n = NotamParser.parse(raw, source: "test", meter: &parsing)
        #expect(parsing.overBudget.contains(TextPatterns.range.source))
        #expect(NotamParser.isKeptAsWritten(n))
        #expect(n.unparsed.filter { $0.hasPrefix(NotamParser.keptAsWritten) } == [
            "text kept as written: too costly to read (range over the search budget); no area or limits taken from it"])
        #expect(n.limits == nil && n.geometry?.ceilingFt == nil)
        #expect(n.text.hasPrefix("OR..AIRSPACE SALEM") && n.text.contains("1FT" + String(repeating: " ", count: 3_000) + "EFFECTIVE"))
        #expect(n.number == "6/0040")
        // Finishing again (as the API source does after its fields) notes it once.
        var again = n
        var meter2 = TextPattern.Meter(tuning: tight)
        NotamParser.finish(&again, meter: &meter2)
        #expect(again.unparsed.filter { $0.hasPrefix(NotamParser.keptAsWritten) }.count == 1)
    }
}

/// Issue 40: FIS-B NOTAMs are parsed once while they stay on the air, and the writes into the
/// store wait in a bounded queue (a newer set replaces one still waiting).
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct FISBNotamWriterTests {
    static func report(_ number: String, text: String, received: Double = 1_778_940_000) -> FISBReport {
        var r = FISBReport(key: "notam-\(number)", productID: 8, kind: .notam, location: "KSLE", text: text, received: received, expires: received + 3_600)
        r.number = number
        r.subtype = "D"
        return r
    }

    @Test func aSetWaitingIsReplacedByANewerOne() {
        let queue = DispatchQueue(label: "test.latest")
        let consumed = Mutex<[Int]>([])
        let consumer = LatestConsumer<Int>(queue: queue) { n in consumed.withLock { $0.append(n) } }
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        #expect(consumer.submit(1))
        #expect(!consumer.submit(2) && !consumer.submit(3))
        #expect(consumer.superseded == 2)
        gate.signal()
        consumer.drain()
        #expect(consumed.withLock { $0 } == [3])
        #expect(consumer.submit(4))
        consumer.drain()
        #expect(consumed.withLock { $0 } == [3, 4] && consumer.superseded == 2)
    }

    /// Each set is written whole, but only reports new or changed since the last set are
    /// parsed: heard again (a later receive time) is not a change; a changed text is.
    @Test func eachReportIsParsedOnceWhileItStaysOnTheAir() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fisb-writer-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = NotamStore(database: try GatewayDatabase(path: dir.appendingPathComponent("g.sqlite").path))
        let writer = FISBNotamWriter(store: store, queue: DispatchQueue(label: "test.fisb-notams")) { error in
            Issue.record("write failed: \(error)")
        }
        // The issue's shape as FIS-B carries it (4 kB NOTAM-D texts).
        let long = "AIRSPACE UP TO AND INCLUDING 1FT" + String(repeating: " ", count: 4_000) + "EFFECTIVE"
        let a = Self.report("05/001", text: long), b = Self.report("05/002", text: "RWY 13/31 CLSD"), c = Self.report("05/003", text: "TWY A CLSD")
        var outputs = GatewayOutputs()
        outputs.fisbNOTAMs = [a, b]
        writer.sink.carryOut(outputs, alerts: [], at: 0)
        writer.drain()
        #expect(writer.parsed == 2)
        #expect(try store.count() == 2)
        writer.submit([Self.report("05/001", text: long, received: 1_778_940_060), b, c])
        writer.drain()
        #expect(writer.parsed == 3)
        #expect(try store.count() == 3)
        writer.submit([Self.report("05/001", text: long + " EXTENDED"), b, c])
        writer.drain()
        #expect(writer.parsed == 4)
        #expect(try store.count() == 3)
        let stored = try #require(try store.all().first { $0.number == "05/001" })
        #expect(stored.text.hasSuffix("EFFECTIVE EXTENDED") && stored.limits?.ceilingFt == 1)
        #expect(writer.superseded == 0)
    }

    /// Issue 44: under `run --replay` the FIS-B set was stored at the wall clock's time ("fisb
    /// refreshed 27 17:25Z" on a 2023 recording). It is stored at the time its reports were received.
    @Test func aSetIsStoredAtTheTimeItWasReceived() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fisb-writer-time-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = NotamStore(database: try GatewayDatabase(path: dir.appendingPathComponent("g.sqlite").path))
        let writer = FISBNotamWriter(store: store, queue: DispatchQueue(label: "test.fisb-notams")) { error in
            Issue.record("write failed: \(error)")
        }
        let received = 1_684_245_600.0  // 2023-05-16T14:00Z, the recording's clock
        writer.submit([Self.report("05/001", text: "RWY 13/31 CLSD", received: received), Self.report("05/002", text: "TWY A CLSD", received: received + 30)])
        writer.drain()
        #expect(try store.refreshes()["fisb"] == received + 30)
    }
}

/// Issue 40: the gateway's start never waits for NOTAM texts to be read; a bad file is still an
/// error there, and a load under way is let go of when the gateway stops.
@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct AirspaceStartTests {
    static let area = AirspaceArea(id: "TEST 1/1", name: "test", shape: .circle(center: Position(latitude: 45, longitude: -123), radiusNM: 3), kind: .tfr)

    /// A load that blocks: `start` returns (the socket bound) while it runs; its areas arrive
    /// when it ends.
    @Test func startReturnsWhileTheFirstLoadRuns() throws {
        let gate = DispatchSemaphore(value: 0)
        let loads = Mutex(0)
        let source = AirspaceSource(load: { _ in
            loads.withLock { $0 += 1 }
            gate.wait()
            return [Self.area]
        }, check: {}, firstInBackground: true)
        let hub = FeedHub()
        let gateway = LiveGateway(hub: hub, sinks: [])
        gateway.add(source)
        try gateway.start(bind: "127.0.0.1", port: 0)
        defer { gateway.stop() }
        #expect(gateway.port > 0)
        #expect(eventually(10) { loads.withLock { $0 } == 1 }, "the first load started")
        #expect(hub.snapshot.airspace.isEmpty)
        gate.signal()
        #expect(eventually(10) { hub.snapshot.airspace.map(\.id) == ["TEST 1/1"] })
    }

    /// Stopped during the first load: nothing waits for it, and what it read is not handed in.
    @Test func aLoadUnderWayIsLetGoOfOnStop() throws {
        let begun = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0), ended = DispatchSemaphore(value: 0)
        let source = AirspaceSource(load: { _ in
            begun.signal()
            gate.wait()
            ended.signal()
            return [Self.area]
        }, firstInBackground: true)
        let hub = FeedHub()
        let gateway = LiveGateway(hub: hub, sinks: [])
        gateway.add(source)
        try gateway.start(bind: "127.0.0.1", port: 0)
        #expect(begun.wait(timeout: .now() + 10) == .success)
        gateway.stop()
        gate.signal()
        ended.wait()
        #expect(!eventually(0.3) { !hub.snapshot.airspace.isEmpty })
        #expect(hub.snapshot.airspace.isEmpty)
    }

    /// The check runs at start: a file it refuses stops the start, as before.
    @Test func aFailedCheckStopsTheStart() {
        let source = AirspaceSource(load: { _ in [] }, check: { () throws(GatewayError) in throw .unreadable(what: "NOTAM file", path: "x") },
                                    firstInBackground: true)
        let gateway = LiveGateway(sinks: [])
        gateway.add(source)
        #expect(throws: GatewayError.unreadable(what: "NOTAM file", path: "x")) { try gateway.start() }
    }

    static func config(notams path: String?) -> GatewayConfig {
        var config = GatewayConfig()
        config.bind = "127.0.0.1"
        config.udpPort = 0
        config.httpPort = 0
        config.nmeaPort = 0
        config.statusInterval = 0
        config.databaseEnabled = false
        config.notamsFile = path
        return config
    }

    /// `run --notams FILE` with the issue's NOTAM (100,000 spaces): the UDP socket is bound and
    /// "listening" said when `start` returns; the NOTAM's area follows from the background load.
    @Test func gatewayStartsWithTheIssuesNotamInItsFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("issue40-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let text = "OR..AIRSPACE SALEM, OR..TEMPORARY FLIGHT RESTRICTIONS WI AN AREA DEFINED AS 3NM RADIUS OF 445434N1230011W UP TO AND INCLUDING 1FT"
            + String(repeating: " ", count: 100_000) + "EFFECTIVE"
        try Data(("{\"items\":[" + apiFeature(number: "6/0040", text: text, classification: "FDC", start: "2000-01-01T00:00:00Z", end: "2099-01-01T00:00:00Z") + "]}").utf8)
            .write(to: file)
        let output = ConsoleLines()
        let started = try GatewayApp(config: Self.config(notams: file.path), console: output.console).start()
        defer { started.stop() }
        #expect(started.udpPort > 0)
        #expect(output.text.contains("gatewayd: listening for GDL90 on UDP 127.0.0.1:\(started.udpPort)"))
        #expect(eventually(30) { started.hub.snapshot.airspace.contains { $0.id.hasSuffix("6/0040") } }, "the NOTAM's area arrives")
        let area = try #require(started.hub.snapshot.airspace.first { $0.id.hasSuffix("6/0040") })
        #expect(area.ceilingFt == 1)
        #expect(!output.text.contains("error"))
    }

    /// A NOTAM file that cannot be read, or is not the API's shape, is still an error at start.
    @Test func aBadNotamFileIsStillAnErrorAtStart() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("issue40-bad-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"items":[[1]]}"#.utf8).write(to: file)
        for (path, message) in [("/nonexistent/notams.json", "cannot read NOTAM file /nonexistent/notams.json"),
                                (file.path, "\(file.path): item 1 of \"items\" (at byte 10) is not a NOTAM: at byte 10: not a JSON object")] {
            let output = ConsoleLines()
            do {
                _ = try GatewayApp(config: Self.config(notams: path), console: output.console).start()
                Issue.record("expected \(path) to stop the start")
            } catch {
                #expect(error.description.contains(message), "\(error)")
            }
            #expect(!output.text.contains("listening"))
        }
    }
}
