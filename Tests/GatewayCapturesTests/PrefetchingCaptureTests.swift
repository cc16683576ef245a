import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewayCaptures

/// A capture read ahead on a second thread gives the very datagrams, in the same order, with the
/// same damage report, as the stream read on the caller's thread, whatever the batching.
@Suite(.timeLimit(.minutes(5))) struct PrefetchingCaptureTests {
    /// Every datagram of `path` read directly, and the error at the end.
    static func direct(_ path: String) throws -> (datagrams: [CapturedDatagram], error: String?) {
        var stream = try CaptureStream(path: path)
        var all: [CapturedDatagram] = []
        while let d = stream.next() { all.append(d) }
        return (all, stream.error.map { "\($0)" })
    }

    /// The same read ahead.
    static func prefetched(_ path: String, batchBytes: Int, depth: Int) throws -> (datagrams: [CapturedDatagram], error: String?) {
        let capture = PrefetchingCapture(try CaptureStream(path: path), batchBytes: batchBytes, depth: depth)
        var all: [CapturedDatagram] = []
        while let d = capture.next() { all.append(d.datagram) }
        #expect(capture.next() == nil)  // stays ended
        return (all, capture.error.map { "\($0)" })
    }

    /// Each format the gateway reads: pcap, pcapng, dump978 text and raw GDL 90.
    @Test(arguments: ["demo-flight.pcap", "demo-flight.pcapng", "fisb-sample.978", "demo-flight.gdl90"])
    func sameDatagramsAsTheStream(file: String) throws {
        let path = fixtures.appendingPathComponent(file).path
        let expected = try Self.direct(path)
        #expect(expected.datagrams.count >= 12)
        #expect(expected.error == nil)
        for (batchBytes, depth) in [(1, 1), (4_096, 2), (256 << 10, 4)] {
            let got = try Self.prefetched(path, batchBytes: batchBytes, depth: depth)
            #expect(got.datagrams == expected.datagrams, "\(file), batches of \(batchBytes) bytes, depth \(depth)")
            #expect(got.error == nil)
        }
    }

    /// A capture cut short: what was read before the damage, then the same error naming where.
    @Test func truncatedCaptureGivesTheSameError() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("prefetch-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try Data(contentsOf: fixtures.appendingPathComponent("demo-flight.pcap"))
        let cut = dir.appendingPathComponent("cut.pcap")
        try whole.prefix(whole.count - 5).write(to: cut)
        let expected = try Self.direct(cut.path)
        #expect(expected.error?.contains("cut.pcap") == true)
        let got = try Self.prefetched(cut.path, batchBytes: 1_024, depth: 2)
        #expect(got.datagrams == expected.datagrams)
        #expect(got.error == expected.error)
    }

    /// Dropped after a few datagrams (a command stopping early): the reader stops, nothing hangs.
    @Test func droppedEarlyStopsTheReader() throws {
        let path = fixtures.appendingPathComponent("demo-flight.pcap").path
        for _ in 0..<20 {
            let capture = PrefetchingCapture(try CaptureStream(path: path), batchBytes: 512, depth: 1)
            #expect(capture.next() != nil)
        }
    }
}
