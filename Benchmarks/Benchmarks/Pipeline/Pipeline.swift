import Benchmark
import GatewaySimulation
import TrafficStream

/// The daemon's ingest path in process: whole datagrams of a synthetic 500-target stream through
/// `GatewayPipeline.process` (deframe, decode, the core's picture and traffic rules, alerts), times
/// taken from the stream's heartbeats as a live receiver's are (`BenchmarkWorkloads.pipelineIngest`).
let benchmarks: @Sendable () -> Void = {
    let stream = TrafficStream(megabytes: 2, targets: 500)
    let check = BenchmarkWorkloads.pipelineIngest(stream.datagrams)
    precondition(check.targets == stream.targets, "\(check.targets) targets held")
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident]
    let configuration = Benchmark.Configuration(metrics: metrics, warmupIterations: 1, maxDuration: .seconds(5), maxIterations: 50)
    Benchmark("pipeline ingest, 500 targets, \(stream.datagrams.count) datagrams", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let result = BenchmarkWorkloads.pipelineIngest(stream.datagrams)
            blackHole(result.alerts)
            blackHole(result.targets)
        }
    }
}
