import Foundation
import Testing

@testable import GatewayCaptures

/// A raw GDL 90 stream is cut into segments at each heartbeat's opening flag (`7E 00`) and at
/// the segment length limit. The streamed reader finds the cuts sixteen bytes a step, a window of
/// the file at a time; `RawStreamSegmenter.segments` reads the whole file a byte at a time. The
/// two must cut streams thick with flags, zeros and `7E 00` pairs at every alignment, runs longer
/// than the limit, and pairs split across the reader's windows, in the same places.
@Suite(.timeLimit(.minutes(5))) struct RawStreamCutTests {
    @Test func streamedCutsAreTheByteAtATimeCuts() throws {
        var seed: UInt64 = 0xC075
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var bytes: [UInt8] = [0x7E, 0x00]
        while bytes.count < CaptureStream.windowSize * 5 / 2 {
            switch next(200) {
            case 0..<30: bytes += [0x7E, 0x00]  // a heartbeat's start
            case 30..<60: bytes += [0x7E, 0x7E, 0x00, 0x7E]  // a pair behind a flag, a flag ending on no zero
            case 60..<90: bytes += [UInt8](repeating: 0x00, count: next(40))
            case 90: bytes += [UInt8](repeating: 0x11, count: RawStreamSegmenter.maximumLength + next(3) - 1)  // the limit, either side
            default: bytes += (0..<next(60)).map { _ in [0x7E, 0x00, 0x7D, 0x01, 0xFE][next(5)] }
            }
        }
        // A pair cut by each window's end: the flag the last byte of one window, the zero the first of the next.
        for window in 1...2 { bytes[window * CaptureStream.windowSize - 1] = 0x7E; bytes[window * CaptureStream.windowSize] = 0x00 }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cuts-\(UUID()).gdl90").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        for ending in [[], [0x7E], [0x7E, 0x00]] as [[UInt8]] {  // a stream ending on a flag, on a pair
            let stream = bytes + ending
            try Data(stream).write(to: URL(fileURLWithPath: path))
            let expected = RawStreamSegmenter.segments(stream)
            var reader = try CaptureStream(path: path)
            var cuts: [Range<Int>] = []
            while let d = reader.next() { cuts.append(d.fileOffset..<(d.fileOffset + d.bytes.count)) }
            #expect(reader.format == .raw)
            #expect(cuts.count == expected.count, "ending \(ending)")
            #expect(cuts == expected, "ending \(ending): first difference at \((0..<min(cuts.count, expected.count)).first { cuts[$0] != expected[$0] } ?? -1)")
            #expect(expected.count > 1_000 && expected.contains { $0.count == RawStreamSegmenter.maximumLength })
        }
    }

    /// A window is no larger than what was left of the file when it was opened, yet a capture
    /// still being written (a recording copied while it grows) is read to its new end: the reads
    /// go on past the size seen at opening until one comes back short.
    @Test func aCaptureGrowingWhileReadIsReadToItsNewEnd() throws {
        // Heartbeat-led segments of 1,000 bytes: the file's cuts are known without the segmenter.
        let segment = [0x7E, 0x00] + [UInt8](repeating: 0x11, count: 998)
        let first = CaptureStream.windowSize * 5 / 2 / segment.count, later = CaptureStream.windowSize / segment.count
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("growing-\(UUID()).gdl90").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data((0..<first).flatMap { _ in segment }).write(to: URL(fileURLWithPath: path))
        var reader = try CaptureStream(path: path)
        var offsets: [Int] = []
        while offsets.count < later + 10, let d = reader.next() { offsets.append(d.fileOffset) }
        // The second window is being read, the last of the file as it was not yet: it grows by a megabyte.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((0..<later).flatMap { _ in segment }))
        try handle.close()
        while let d = reader.next() { offsets.append(d.fileOffset) }
        #expect(reader.error == nil)
        #expect(offsets == (0..<(first + later)).map { $0 * segment.count })
    }
}
