import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GatewaySupport
import GatewayRuntime

extension Benchmarks {
    /// Sustained ingest over real UDP on loopback: a sender thread paces `targets`-target traffic
    /// (Stratux-sized ~1 kB datagrams) at rising rates into a `LiveGateway` (listener, pipeline,
    /// core: the `run` path) and counts what the gateway received. The figure is the highest rate
    /// with no datagram lost; the baseline is the same for a listener that only counts datagrams.
    package static func loopback(targets: Int = 500, secondsPerRate: Double = 1.5,
                                rates: [Int] = [10_000, 20_000, 30_000, 40_000, 60_000, 80_000]) -> [Result] {
        let field = TargetField(count: targets)
        let datagrams = (0..<60).flatMap { field.datagrams(second: $0) }.map(\.bytes)
        let full = highestLosslessRate(datagrams: datagrams, seconds: secondsPerRate, rates: rates, countOnly: false)
        let bare = highestLosslessRate(datagrams: datagrams, seconds: secondsPerRate, rates: rates, countOnly: true)
        var note = "highest paced rate tried without loss; \(full.detail)"
        if full.rate == nil { note = "lost datagrams even at \(rates[0])/s; \(full.detail)" }
        return [
            Result(name: "loopback UDP ingest, \(targets) targets, whole pipeline", value: Double(full.rate ?? 0),
                   unit: "datagrams/s", baseline: bare.rate.map(Double.init),
                   note: note + "; baseline: listener that only counts"),
        ]
    }

    private static func highestLosslessRate(datagrams: [[UInt8]], seconds: Double, rates: [Int], countOnly: Bool)
        -> (rate: Int?, detail: String)
    {
        var best: Int? = nil
        var detail = ""
        for rate in rates {
            guard let (sent, received) = try? runLoopback(datagrams: datagrams, rate: rate, seconds: seconds, countOnly: countOnly)
            else { return (best, "could not open a loopback socket") }
            detail = "at \(rate)/s: sent \(sent), received \(received)"
            if received < sent { break }
            best = rate
        }
        return (best, detail)
    }

    /// Sends at `rate` datagrams/s for `seconds`; returns (sent, received by the gateway).
    private static func runLoopback(datagrams: [[UInt8]], rate: Int, seconds: Double, countOnly: Bool) throws -> (Int, Int) {
        let counter = ReceiveCounter()
        let queue = DispatchQueue(label: "bench.loopback")
        var listener: UDPListener? = nil
        var gateway: LiveGateway? = nil
        let port: UInt16
        if countOnly {
            let l = try UDPListener(address: "127.0.0.1", port: 0, queue: queue) { _, _ in counter.add() }
            listener = l
            port = l.port
        } else {
            let g = LiveGateway(log: nil, onAlerts: { _ in })
            try g.start(bind: "127.0.0.1", port: 0)
            gateway = g
            port = g.port
        }
        let sender = try UDPSender(host: "127.0.0.1", port: port)
        let total = Int(Double(rate) * seconds)
        let done = DispatchSemaphore(value: 0)  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
        let sentBox = ReceiveCounter()
        let thread = BenchThread {
            // Pace in 1 ms slices: send what is due, then sleep to the next slice.
            let start = DispatchTime.now().uptimeNanoseconds
            var sent = 0
            while sent < total {
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                let due = min(total, Int(elapsed * Double(rate)) + 1)
                while sent < due {
                    if sender.send(datagrams[sent % datagrams.count]) { sentBox.add() }
                    sent += 1
                }
                usleep(500)  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
            }
            done.signal()
        }
        thread.start()
        done.wait()
        // Let the receiver drain what is queued in the socket buffer.
        var last = -1
        while true {
            usleep(100_000)  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
            let now = countOnly ? counter.value : (gateway?.status().counters.datagrams ?? 0)
            if now == last { break }
            last = now
        }
        listener?.cancel()
        gateway?.stop()
        return (sentBox.value, last)
    }
}

/// A thread-safe counter for the loopback benchmark.
private final class ReceiveCounter: Sendable {
    private let count = Locked(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.value }
}
