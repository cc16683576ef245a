import Benchmark
import GDL90
import TrafficStream

/// The codec alone: deframe + CRC + decode of a synthetic 500-target stream, fed in 1 KiB chunks
/// as a reader of a capture file feeds it.
let benchmarks: @Sendable () -> Void = {
    let stream = TrafficStream(megabytes: 4, targets: 500)
    // Every frame of the synthetic stream is whole and decodes.
    var frames = 0
    var deframer = Deframer()
    deframer.feed(stream.bytes) { event in
        guard case .frame(let frame) = event else { preconditionFailure("a rejected frame: \(event)") }
        frames += (try? Message.decode(frame.message)) == nil ? 0 : 1
    }
    precondition(frames > 100_000, "\(frames) frames")
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident]
    let configuration = Benchmark.Configuration(metrics: metrics, warmupIterations: 2, maxDuration: .seconds(3), maxIterations: 200)

    Benchmark("codec: deframe + CRC + decode, 4 MB, 500 targets", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            var deframer = Deframer()
            var messages = 0
            stream.bytes.withUnsafeBytes { raw in
                var i = 0
                while i < raw.count {
                    let end = min(raw.count, i + 1_024)
                    deframer.feed(UnsafeRawBufferPointer(rebasing: raw[i..<end])) { event in
                        guard case .frame(let frame) = event else { return }
                        do {
                            switch try Message.decode(frame.message) {
                            case .unknown: break
                            default: messages += 1
                            }
                        } catch {}
                    }
                    i = end
                }
            }
            blackHole(messages)
        }
    }

    Benchmark("codec: deframe + CRC only, 4 MB, 500 targets", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            var deframer = Deframer()
            var frames = 0
            stream.bytes.withUnsafeBytes { raw in
                var i = 0
                while i < raw.count {
                    let end = min(raw.count, i + 1_024)
                    deframer.feed(UnsafeRawBufferPointer(rebasing: raw[i..<end])) { if case .frame = $0 { frames += 1 } }
                    i = end
                }
            }
            blackHole(frames)
        }
    }
}
