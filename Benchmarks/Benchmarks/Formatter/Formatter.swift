import Benchmark
import GDL90
import GatewaySupport
import GatewayDomain
import GatewayCaptures
import TrafficStream

/// `decode --json`'s writer alone: `MessageFormatter.appendJSON` of the traffic reports of a
/// synthetic 500-target stream (decoded once, before measuring) into one reused `OutputBuffer`.
let benchmarks: @Sendable () -> Void = {
    let stream = TrafficStream(megabytes: 1, targets: 500)
    var reports: [Message] = []
    var deframer = Deframer()
    deframer.feed(stream.bytes) { event in
        guard case .frame(let frame) = event, let message = try? Message.decode(frame.message) else { return }
        if case .traffic = message { reports.append(message) }
    }
    let messages = reports
    precondition(messages.count >= 500, "\(messages.count) traffic reports")
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident]
    let configuration = Benchmark.Configuration(metrics: metrics, warmupIterations: 2, maxDuration: .seconds(3), maxIterations: 200)

    Benchmark("appendJSON, \(messages.count) traffic reports", configuration: configuration) { benchmark in
        var out = OutputBuffer(capacity: 1 << 20)
        var clock = ISO8601Writer()
        let start = Timestamp.midnight(year: 2026, month: 5, day: 16) + 36_000
        for _ in benchmark.scaledIterations {
            var written = 0
            for (i, message) in messages.enumerated() {
                MessageFormatter.appendJSON(message, time: start + Double(i / 500), to: &out, clock: &clock)
                if out.count > 1 << 19 {
                    written += out.count
                    out.removeAll()
                }
            }
            written += out.count
            out.removeAll()
            blackHole(written)
        }
    }
}
