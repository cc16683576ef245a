import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures

/// `decode` on several threads (`ParallelDecode`): the very bytes and counts of `MessagePrinter`
/// over one `GatewayPipeline` fed the whole capture in order, whatever the number of threads and
/// the size of the parts; parts that a fresh pipeline would print differently (a midnight, a
/// damaged heartbeat at a part's start, a frame open across the cut) are read again in sequence,
/// and parts of a real capture are not.
@Suite(.timeLimit(.minutes(5))) struct ParallelDecodeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let midnight = Timestamp.midnight(year: 2026, month: 5, day: 16)

    static func pipeline(_ capture: CaptureStream) -> GatewayPipeline {
        var counting = GatewayCore.Configuration()
        counting.countsOnly = true
        return GatewayPipeline(core: GatewayCore(configuration: counting), timeSource: capture.format == .raw ? .heartbeat(midnight: midnight) : .given)
    }

    /// One pipeline, one printer, the capture in order: what `decode` printed on one thread.
    static func sequential(_ path: String, json: Bool) throws -> (bytes: [UInt8], counters: GatewayCounters) {
        var capture = try CaptureStream(path: path)
        var pipeline = pipeline(capture)
        var printer = MessagePrinter(json: json)
        while let d = capture.next() {
            _ = d.bytes.withUnsafeBytes { pipeline.process(datagram: $0, at: d.timestamp) { item, t in printer.append(item, at: t) } }
        }
        _ = pipeline.finish(.openFrameOnly) { item, t in printer.append(item, at: t) }
        return (printer.out.withBytes { Array($0) }, pipeline.core.counters)
    }

    static func parallel(_ path: String, json: Bool, threads: Int, partBytes: Int) throws -> (bytes: [UInt8], counters: GatewayCounters, readAgain: Int, writes: Int) {
        var capture = try CaptureStream(path: path)
        let written = Locked<(bytes: [UInt8], writes: Int)>(([], 0))
        let end = ParallelDecode.run(&capture, pipeline: pipeline(capture), json: json, threads: threads, partBytes: partBytes) { buffer in
            written.withLock { w in
                buffer.withBytes { w.bytes += $0 }
                w.writes += 1
            }
            buffer.removeAll()
        }
        let w = written.value
        return (w.bytes, end.pipeline.core.counters, end.partsReadAgain, w.writes)
    }

    /// Where `a` and `b` first differ, and a few lines there (nil when equal).
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> String? {
        guard a != b else { return nil }
        let at = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        func around(_ x: [UInt8]) -> String { String(decoding: x[max(0, at - 120)..<min(x.count, at + 120)], as: UTF8.self) }
        return "\(a.count) vs \(b.count) bytes, first difference at byte \(at):\n\(around(a))\n---\n\(around(b))"
    }

    /// Checks every thread count and part size against the sequential run; returns the parts
    /// read again with one-datagram parts on two threads.
    @discardableResult
    static func check(_ path: String, json: Bool = true, threadCounts: [Int] = [1, 2, 3, 4], partSizes: [Int] = [1, 700, 1 << 16],
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let expected = try sequential(path, json: json)
        var readAgain = 0
        for threads in threadCounts {
            for partBytes in partSizes {
                let got = try parallel(path, json: json, threads: threads, partBytes: partBytes)
                #expect(difference(got.bytes, expected.bytes) == nil, "\(threads) threads, parts of \(partBytes) bytes", sourceLocation: sourceLocation)
                #expect(got.counters == expected.counters, "\(threads) threads, parts of \(partBytes) bytes", sourceLocation: sourceLocation)
                if threads == 2 && partBytes == 1 { readAgain = got.readAgain }
            }
        }
        return readAgain
    }

    static func temporary(_ name: String, _ bytes: [UInt8]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-parallel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    static func heartbeat(_ seconds: Int) -> [UInt8] {
        Message.heartbeat(Heartbeat(gpsPositionValid: true, utcOK: true, secondsSinceMidnight: UInt32(seconds))).frame()
    }

    /// Three traffic reports, framed.
    static func traffic(_ second: Int) -> [UInt8] {
        var out: [UInt8] = []
        for i in 0..<3 {
            let r = TrafficReport(address: UInt32(0xA0_0000 + i),
                                  position: Position(latitude: 45 + Double(second % 60) / 1_000, longitude: -122 + Double(i) / 100),
                                  pressureAltitudeFt: 3_000 + 100 * i, groundSpeedKt: 110, verticalSpeedFpm: 0, trackDeg: 90,
                                  callsign: "N\(100 + i)")
            out += Message.traffic(r).frame()
        }
        return out
    }

    @Test(arguments: [true, false])
    func realCapturesAreReadAheadAndPrintedAsInSequence(json: Bool) throws {
        // Raw (timed by heartbeats), pcap and pcapng (timestamps), dump978 text.
        // With a part a datagram, only the parts after the demo flight's damage (fixtures/README.md)
        // are read again: in the pcap, the datagram that ends a frame split across two (t = 121 s);
        // in the raw stream, that one and the one after the ownship frame cut in half (t = 95 s).
        #expect(try Self.check(Self.root.appendingPathComponent("fixtures/demo-flight.gdl90").path, json: json) == 2)
        #expect(try Self.check(Self.root.appendingPathComponent("fixtures/demo-flight.pcap").path, json: json) == 1)
        try Self.check(Self.root.appendingPathComponent("fixtures/demo-flight.pcapng").path, json: json)
        try Self.check(Self.root.appendingPathComponent("fixtures/fisb-sample.978").path, json: json)
        try Self.check(Self.root.appendingPathComponent("fixtures/fisb-sample.gdl90").path, json: json)
    }

    /// Heartbeats roll over at midnight: the parts after it carry a day offset that a fresh
    /// pipeline does not know, and are read again in sequence.
    @Test func aStreamAcrossMidnight() throws {
        var stream: [UInt8] = []
        for s in [86_396, 86_397, 86_398, 86_399, 0, 1, 2, 3] { stream += Self.heartbeat(s) + Self.traffic(s) }
        let path = try Self.temporary("midnight.gdl90", stream)
        let readAgain = try Self.check(path)
        #expect(readAgain == 4)
        let lines = String(decoding: try Self.sequential(path, json: true).bytes, as: UTF8.self)
        #expect(lines.contains("\"time\":\"2026-05-16T23:59:59Z\""))
        #expect(lines.contains("\"time\":\"2026-05-17T00:00:03Z\""))
    }

    /// A part that starts with a heartbeat damaged in transit: its first lines take the time of
    /// the heartbeat before it, in the part before, so it is read again.
    @Test func aDamagedHeartbeatAtAPartsStart() throws {
        var stream: [UInt8] = []
        for s in 43_200..<43_206 {
            var hb = Self.heartbeat(s)
            if s == 43_203 { hb[hb.count - 2] ^= 0x01 }  // the CRC no longer matches
            stream += hb + Self.traffic(s)
        }
        let path = try Self.temporary("damaged.gdl90", stream)
        #expect(try Self.check(path) == 1)
        let expected = try Self.sequential(path, json: true)
        #expect(expected.counters.errorsByReason["crc"] == 1)
    }

    /// Frames sharing their flags (`7E a 7E b 7E`): no part can start at rest, so parts are cut
    /// where they must be (eight times their size) and read again; nothing is lost or doubled.
    @Test func framesSharingFlagsAreReadInSequence() throws {
        var stream: [UInt8] = [0x7E]
        for s in 0..<40 {
            for frame in [Self.heartbeat(s), Self.traffic(s)] {
                // Each frame without its closing flag: the next frame's opening flag closes it.
                stream += frame.dropFirst().dropLast() + [0x7E]
            }
        }
        let path = try Self.temporary("shared.gdl90", stream)
        try Self.check(path)
        #expect(try Self.sequential(path, json: true).counters.messageCounts.reduce(0, +) == 40 * 4)
    }

    /// Garbage before the first flag, a frame cut by the end of the file, and a file with no flag.
    @Test func damagedEdges() throws {
        var stream: [UInt8] = [0x01, 0x02, 0x03]
        for s in 0..<20 { stream += Self.heartbeat(s) + Self.traffic(s) }
        stream += Self.heartbeat(20).dropLast(3)
        try Self.check(try Self.temporary("edges.gdl90", stream))
        try Self.check(try Self.temporary("noflag.gdl90", [UInt8](repeating: 0x41, count: 5_000)))
    }

    /// A pcap whose frames are split across datagrams: parts that start inside a frame are read
    /// again; timestamps carry each part's times.
    @Test func aPcapWithFramesSplitAcrossDatagrams() throws {
        var datagrams: [(time: Double, bytes: [UInt8])] = []
        for s in 0..<30 {
            let bytes = Self.heartbeat(s) + Self.traffic(s)
            let t = Self.midnight + 36_000 + Double(s)
            if s % 3 == 0 {
                datagrams.append((t, Array(bytes[..<40])))
                datagrams.append((t + 0.1, Array(bytes[40...])))
            } else {
                datagrams.append((t, bytes))
            }
        }
        let path = try Self.temporary("split.pcap", PcapWriter.pcap(datagrams))
        #expect(try Self.check(path) == 10)
    }

    /// A raw stream read in parts (`CaptureStream.nextRawPart`) gives every byte once, in order,
    /// and its parts cut on their own give the segments of the whole stream: also across 1.5 MB
    /// with no heartbeat (segments cut at their length limit, found by cutting from the part's start).
    @Test func rawPartsCutWhereTheWholeStreamsSegmentsBegin() throws {
        var stream: [UInt8] = []
        for s in 0..<200 { stream += Self.heartbeat(s) + Self.traffic(s) }
        while stream.count < 1_800_000 { stream += Self.traffic(stream.count % 60) }  // no heartbeat
        for s in 200..<400 { stream += Self.heartbeat(s) + Self.traffic(s) }
        let path = try Self.temporary("long-silence.gdl90", stream)
        let whole = RawStreamSegmenter.segments(stream)
        for target in [1, 5_000, 1 << 16, 1 << 18] {
            var capture = try CaptureStream(path: path)
            var joined: [UInt8] = []
            var segments: [Range<Int>] = []
            var parts = 0
            while let (offset, bytes) = capture.nextRawPart(target: target) {
                #expect(offset == joined.count, "target \(target)")
                joined += bytes
                parts += 1
                bytes.withUnsafeBufferPointer { b in
                    _ = RawStreamSegmenter.forEachSegment(b, atEnd: true) { r in
                        segments.append((offset + r.lowerBound)..<(offset + r.upperBound))
                        return true
                    }
                }
            }
            #expect(joined == stream, "target \(target)")
            #expect(segments == whole, "target \(target)")
            #expect(parts > 1)
            #expect(capture.error == nil)
        }
        try Self.check(path, threadCounts: [2], partSizes: [1, 1 << 18])
    }

    /// Lines are handed over a part at a time, not all at the end.
    @Test func linesAreWrittenAPartAtATime() throws {
        let path = Self.root.appendingPathComponent("fixtures/demo-flight.gdl90").path
        let got = try Self.parallel(path, json: true, threads: 2, partBytes: 4_096)
        #expect(got.writes > 10)
    }
}
