import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures

/// A capture deframed and decoded ahead (`FrameDecoder`, `PrefetchingCapture(decoding:)`, what
/// `replay` and `fisb` run on their reading thread) gives the pipeline the very items it would
/// find itself: the same alerts, FIS-B products, counters and observed items, whatever the
/// chunking, with a frame left open at the end, and across the files of one recording.
@Suite(.timeLimit(.minutes(5))) struct DecodedAheadTests {
    /// What a replay produced, in order.
    struct Run: Equatable {
        var alerts: [String] = []
        var products: [String] = []
        var items: [String] = []
        var counters = GatewayCounters()
        var fisbCounters = FISBCounters()
    }

    static let midnight = Timestamp.midnight(year: 2026, month: 5, day: 16)

    static func replay(raw: Bool) -> CaptureReplay {
        var configuration = GatewayCore.Configuration()
        configuration.keepsStaleFISBProducts = true
        return CaptureReplay(pipeline: GatewayPipeline(core: GatewayCore(configuration: configuration),
                                                       timeSource: raw ? .heartbeat(midnight: midnight) : .given,
                                                       outputs: .init(fisb: true)))
    }

    static func note(_ out: GatewayOutputs, into run: inout Run) {
        run.alerts += out.alerts.map(AlertFormatter.json)
        run.products += out.fisbProducts.map(FISBFormatter.json)
    }

    static func finish(_ replay: inout CaptureReplay, _ run: inout Run, ending: GatewayPipeline.Ending, decoded: [PipelineItem]?) {
        note(replay.finish(ending, decoded: decoded) { item, _ in run.items.append("\(item)") }, into: &run)
        run.counters = replay.pipeline.core.counters
        run.fisbCounters = replay.pipeline.core.fisb.counters
    }

    /// The pipeline deframing the bytes itself.
    static func direct(_ datagrams: [CapturedDatagram], raw: Bool, ending: GatewayPipeline.Ending) -> Run {
        var replay = replay(raw: raw)
        var run = Run()
        for d in datagrams { note(replay.process(d) { item, _ in run.items.append("\(item)") }, into: &run) }
        finish(&replay, &run, ending: ending, decoded: nil)
        return run
    }

    /// The same datagrams decoded ahead by one decoder (reading uplink payloads too, or not).
    static func ahead(_ datagrams: [CapturedDatagram], raw: Bool, ending: GatewayPipeline.Ending, readingFISB: Bool = true) -> Run {
        var replay = replay(raw: raw)
        var decoder = FrameDecoder(readingFISB: readingFISB)
        var run = Run()
        for d in datagrams {
            let decoded = decoder.decode(d.bytes)
            note(replay.process(d, decoded: decoded) { item, _ in run.items.append("\(item)") }, into: &run)
        }
        finish(&replay, &run, ending: ending, decoded: decoder.finish())
        return run
    }

    @Test(arguments: ["demo-flight.pcap", "demo-flight.pcapng", "demo-flight.gdl90", "fisb-sample.978", "fisb-sample.gdl90",
                      "scenarios/churn.pcap", "scenarios/gaps.pcap"])
    func sameOutputsAsThePipelinesOwnDeframer(file: String) throws {
        let capture = try CaptureFile.read(path: fixtures.appendingPathComponent(file).path)
        let raw = capture.format == .raw
        for ending in [GatewayPipeline.Ending.silence(CaptureReplay.trailingSilence), .products] {
            let expected = Self.direct(capture.datagrams, raw: raw, ending: ending)
            #expect(expected.items.count >= 12, "\(file): a capture with frames")
            #expect(!expected.alerts.isEmpty || !expected.products.isEmpty, "\(file): a capture that says something")
            for readingFISB in [false, true] {
                let got = Self.ahead(capture.datagrams, raw: raw, ending: ending, readingFISB: readingFISB)
                #expect(got == expected, "\(file), \(ending), reading FIS-B ahead: \(readingFISB)")
            }
        }
    }

    /// Read ahead, an uplink carrying a gridded block (or an unknown product) is left to the
    /// store, which keeps such products: the sample has both kinds, and the outputs above are the
    /// same either way.
    @Test func uplinksWithGriddedBlocksAreLeftToTheStore() throws {
        let capture = try CaptureFile.read(path: fixtures.appendingPathComponent("fisb-sample.978").path)
        var decoder = FrameDecoder(readingFISB: true)
        var read = 0, left = 0
        for d in capture.datagrams {
            for u in decoder.decode(d.bytes).uplinks {
                if u == nil { left += 1 } else { read += 1 }
            }
        }
        #expect(read + left == 12)
        #expect(read >= 5)
        #expect(left >= 3)  // three gridded blocks, one unknown product
    }

    /// A raw stream in chunks that cut frames anywhere, ending inside a frame: the decoder carries
    /// the open frame from chunk to chunk, and its `finish()` reports the last one truncated.
    @Test func framesCutAcrossChunksAndOneLeftOpen() throws {
        let whole = try [UInt8](Data(contentsOf: fixtures.appendingPathComponent("demo-flight.gdl90")))
        let cut = Array(whole.dropLast(7))  // inside the last frame
        var chunks: [CapturedDatagram] = []
        var start = 0
        for size in [1, 2, 3, 7, 50, 333, 1_000].cycled(until: cut.count) {
            let end = min(start + size, cut.count)
            chunks.append(CapturedDatagram(timestamp: Double(chunks.count), bytes: Array(cut[start..<end]), fileOffset: start))
            start = end
            if start == cut.count { break }
        }
        let expected = Self.direct(chunks, raw: false, ending: .silence(70))
        #expect(expected.counters.errorsByReason["truncated"] == 1)
        #expect(expected.items.last?.contains("input ended inside a frame") == true)
        #expect(Self.ahead(chunks, raw: false, ending: .silence(70)) == expected)
    }

    /// A recording cut into two files in the middle of a frame, read ahead and decoded: the
    /// second file's capture continues with the first's decoder, as `replay` does with the hours
    /// of a recording, and the frame cut in two is decoded whole.
    @Test func recordingFilesContinueOneDecoder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("decoded-ahead-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try Data(contentsOf: fixtures.appendingPathComponent("demo-flight.gdl90"))
        let middle = whole.count / 2 + 5
        let first = dir.appendingPathComponent("first.gdl90"), second = dir.appendingPathComponent("second.gdl90")
        try whole.prefix(middle).write(to: first)
        try whole.dropFirst(middle).write(to: second)

        var expectedReplay = Self.replay(raw: true)
        var expected = Run()
        var gotReplay = Self.replay(raw: true)
        var got = Run()
        var decoder: FrameDecoder? = FrameDecoder(readingFISB: true)
        for file in [first, second] {
            var stream = try CaptureStream(path: file.path)
            while let d = stream.next() { Self.note(expectedReplay.process(d), into: &expected) }
            let capture = PrefetchingCapture(try CaptureStream(path: file.path), decoding: decoder, batchBytes: 4_096, depth: 2)
            while let d = capture.next() {
                #expect(d.decoded != nil)
                Self.note(gotReplay.process(d.datagram, decoded: d.decoded), into: &got)
            }
            #expect(capture.error == nil)
            decoder = capture.decoder
        }
        #expect(decoder != nil)
        Self.finish(&expectedReplay, &expected, ending: .silence(70), decoded: nil)
        Self.finish(&gotReplay, &got, ending: .silence(70), decoded: decoder?.finish())
        #expect(got == expected)
        #expect(got.counters.messagesByType["heartbeat"] == 300)
    }
}

extension Array {
    /// The elements repeated in turn, at least enough to add up past `total` when summed as sizes.
    fileprivate func cycled(until total: Int) -> [Element] where Element == Int {
        var out: [Int] = []
        var sum = 0
        while sum < total, !isEmpty {
            for e in self { out.append(e); sum += e }
        }
        return out
    }
}
