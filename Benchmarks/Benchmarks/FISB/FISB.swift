import Benchmark
import GatewaySimulation

/// The FIS-B product store's ingest of real-shaped uplinks (the weather sample's, repeated):
/// `BenchmarkWorkloads.fisbIngest`, what the core does with every uplink.
let benchmarks: @Sendable () -> Void = {
    let count = 20_000
    let payloads = BenchmarkWorkloads.fisbUplinks(count: count)
    precondition(payloads.count == count)
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident]
    let configuration = Benchmark.Configuration(metrics: metrics, warmupIterations: 1, maxDuration: .seconds(3), maxIterations: 100)
    Benchmark("FISBProductStore ingest, \(count) uplinks", configuration: configuration) { benchmark in
        let step = 4 * 3600 / Double(count)
        for _ in benchmark.scaledIterations {
            blackHole(BenchmarkWorkloads.fisbIngest(payloads, step: step))
        }
    }
}
