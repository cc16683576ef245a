import Benchmark
import GatewaySupport
import GatewayDomain
import GatewayCaptures
import TrafficStream

/// The daemon's ingest path in process: whole datagrams of a synthetic 500-target stream through
/// `GatewayPipeline` (deframe, decode, the core's picture and traffic rules, alerts), times taken
/// from the stream's heartbeats as a live receiver's are.
let benchmarks: @Sendable () -> Void = {
    let stream = TrafficStream(megabytes: 2, targets: 500)
    let midnight = Timestamp.midnight(year: 2026, month: 5, day: 16)
    // What each iteration does, checked once: every target held, every message taken.
    var check = GatewayPipeline(timeSource: .heartbeat(midnight: midnight))
    for datagram in stream.datagrams { _ = check.ingest(datagram, at: nil) }
    precondition(check.core.picture.targets.count == stream.targets, "\(check.core.picture.targets.count) targets held")
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident]
    let configuration = Benchmark.Configuration(metrics: metrics, warmupIterations: 1, maxDuration: .seconds(5), maxIterations: 50)

    Benchmark("pipeline ingest, 500 targets, \(stream.datagrams.count) datagrams", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            var pipeline = GatewayPipeline(timeSource: .heartbeat(midnight: midnight))
            var alerts = 0
            for datagram in stream.datagrams {
                alerts += pipeline.ingest(datagram, at: nil).count
            }
            blackHole(alerts)
            blackHole(pipeline.core.picture.targets.count)
        }
    }
}
