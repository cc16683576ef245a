import Benchmark
import GatewaySimulation
import GatewaySupport
import GatewayDomain
import GatewayCaptures

/// FIS-B uplink ingest: synthetic uplinks made from `FISBSamples` (half empty, the rest METAR/TAF
/// text, TFR graphics and text, NOTAM-D, as `gatewayd fisb --bench` uses them) decoded into
/// products by a new `FISBProductStore`, spread over the samples' four hours of validity.
let benchmarks: @Sendable () -> Void = {
    let count = 20_000
    let payloads = FISBBenchmark.uplinks(count: count)
    precondition(payloads.count == count)
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident]
    let configuration = Benchmark.Configuration(metrics: metrics, warmupIterations: 1, maxDuration: .seconds(3), maxIterations: 100)

    Benchmark("FISBProductStore ingest, \(count) uplinks", configuration: configuration) { benchmark in
        let step = 4 * 3600 / Double(count)
        for _ in benchmark.scaledIterations {
            var store = FISBProductStore()
            var products = 0
            for (i, payload) in payloads.enumerated() {
                products += store.ingest(payload: payload, at: FISBSamples.startTime + Double(i) * step).count
            }
            blackHole(products)
        }
    }
}
