import Foundation
import GDL90
import Testing
@testable import TrafficGateway

/// `decode`'s lines written on a second thread: the same bytes, in the same order, as
/// `MessagePrinter` writing them on the caller's thread, whatever the batch size, the queue's
/// depth and the writer's pace.
@Suite struct ConcurrentPrinterTests {
    /// Every message type (MessageLineTests' corpus), rejected frames and undecodable messages,
    /// at times that cross seconds and a midnight.
    static func items() -> [(PipelineItem, Double)] {
        var items: [(PipelineItem, Double)] = []
        var t = 1_778_975_990.25
        for (i, m) in MessageLineTests.corpus().enumerated() {
            items.append((.message(m, offset: i * 40), t))
            if i % 97 == 0 { items.append((.rejected(FrameError(reason: .crc, offset: i * 40 + 7, length: 30)), t)) }
            if i % 131 == 0 { items.append((.invalid(MessageError(reason: .length, messageID: 0x14, expected: 28, actual: 3), offset: i * 40 + 9), t)) }
            t += 0.37
        }
        return items
    }

    /// What `MessagePrinter` writes for `items`.
    static func reference(_ items: [(PipelineItem, Double)], json: Bool) -> [UInt8] {
        var printer = MessagePrinter(json: json)
        for (item, t) in items { printer.append(item, at: t) }
        return printer.out.withBytes { Array($0) }
    }

    /// What a `ConcurrentPrinter` hands its writer for `items`, and how many buffers.
    static func concurrent(_ items: [(PipelineItem, Double)], json: Bool, batchSize: Int, depth: Int,
                           slowWriter: Bool = false) -> (bytes: [UInt8], writes: Int) {
        let written = Locked<(bytes: [UInt8], writes: Int)>(([], 0))
        let printer = ConcurrentPrinter(json: json, batchSize: batchSize, depth: depth) { buffer in
            if slowWriter { usleep(2_000) }
            written.withLock { w in
                buffer.withBytes { w.bytes += $0 }
                w.writes += 1
            }
            buffer.removeAll()
        }
        for (item, t) in items { printer.append(item, at: t) }
        printer.finish()
        return written.value
    }

    /// Where `a` and `b` first differ, and a few lines there (nil when equal): a failure names
    /// the place instead of printing two large arrays.
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> String? {
        guard a != b else { return nil }
        let at = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        func around(_ x: [UInt8]) -> String { String(decoding: x[max(0, at - 80)..<min(x.count, at + 80)], as: UTF8.self) }
        return "\(a.count) vs \(b.count) bytes, first difference at byte \(at):\n\(around(a))\n---\n\(around(b))"
    }

    @Test(arguments: [true, false])
    func sameBytesInOrderForEveryBatching(json: Bool) {
        let items = Self.items()
        #expect(items.count > 1_000)
        let expected = Self.reference(items, json: json)
        #expect(expected.count > 100_000)
        for (batchSize, depth) in [(1, 1), (3, 2), (7, 1), (2_048, 4), (100_000, 1)] {
            let got = Self.concurrent(items, json: json, batchSize: batchSize, depth: depth)
            #expect(Self.difference(got.bytes, expected) == nil, "batch \(batchSize), depth \(depth)")
        }
    }

    /// A writer slower than the producer (a pipe to a slow reader): the producer waits for room
    /// in a queue of one batch, and nothing is lost or reordered across the buffers written.
    @Test func slowWriter() {
        let items = Self.items()
        let expected = Self.reference(items, json: true)
        let got = Self.concurrent(items, json: true, batchSize: 16, depth: 1, slowWriter: true)
        #expect(Self.difference(got.bytes, expected) == nil)
        #expect(got.writes == expected.count / (1 << 18) + 1)  // a buffer each 256 kB, and the rest
    }

    /// A printer dropped without `finish` (a command leaving on an error) writes what it was given.
    @Test func droppedUnfinishedStillWrites() {
        let items = Array(Self.items().prefix(300))
        let written = Locked<[UInt8]>([])
        do {
            let printer = ConcurrentPrinter(json: true, batchSize: 64, depth: 2) { buffer in
                written.withLock { w in buffer.withBytes { w += $0 } }
                buffer.removeAll()
            }
            for (item, t) in items { printer.append(item, at: t) }
        }
        #expect(Self.difference(written.value, Self.reference(items, json: true)) == nil)
    }

    /// Nothing appended: the writer is not called with anything, and `finish` returns.
    @Test func emptyFinishes() {
        let got = Self.concurrent([], json: true, batchSize: 4, depth: 2)
        #expect(got.bytes.isEmpty)
    }

    /// The bundled demo flight through the real pipeline, as `decode --json` runs it.
    @Test func demoFlightThroughThePipeline() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent("fixtures/demo-flight.gdl90")))
        var counting = GatewayCore.Configuration()
        counting.countsOnly = true
        var pipeline = GatewayPipeline(core: GatewayCore(configuration: counting), timeSource: .heartbeat(midnight: 1_778_889_600))
        var items: [(PipelineItem, Double)] = []
        _ = bytes.withUnsafeBytes { pipeline.process(datagram: $0, at: nil) { item, t in items.append((item, t)) } }
        #expect(items.count == 2_496)  // 2,493 messages and 3 frames rejected for CRC
        let got = Self.concurrent(items, json: true, batchSize: 2_048, depth: 4)
        #expect(Self.difference(got.bytes, Self.reference(items, json: true)) == nil)
    }
}
