import Benchmark
import GDL90
import GatewaySimulation
import TrafficStream

/// `decode --json`'s formatter on the synthetic stream's traffic reports
/// (`BenchmarkWorkloads.JSONFormatting`: `MessageFormatter.appendJSON` into one reused buffer).
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
        var formatting = BenchmarkWorkloads.JSONFormatting(messages: messages)
        for _ in benchmark.scaledIterations {
            blackHole(formatting.run())
        }
    }
}
