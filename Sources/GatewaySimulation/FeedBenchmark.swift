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
import GatewayFeeds
import GatewayRuntime

extension Benchmarks {
    /// Backpressure: the loopback ingest of `loopback`, at a fixed rate, first with no feed
    /// clients (baseline), then with 20 `/alerts` SSE clients and 5 GDL 90 forwarding targets,
    /// one of each stalled (never reads). Reports the receive-to-delivered latency of each
    /// datagram inside the gateway, p50 and p99, and what the hub did with the stalled client.
    package static func feeds(targets: Int = 500, rate: Int = 5_000, seconds: Double = 2) -> [Result] {
        let field = TargetField(count: targets)
        let datagrams = (0..<60).flatMap { field.datagrams(second: $0) }.map(\.bytes)
        guard let bare = try? feedRun(datagrams: datagrams, rate: rate, seconds: seconds, clients: false),
              let loaded = try? feedRun(datagrams: datagrams, rate: rate, seconds: seconds, clients: true)
        else { return [Result(name: "feeds backpressure", value: 0, unit: "", note: "could not open loopback sockets")] }
        func pct(_ v: [Double], _ p: Double) -> Double { v.isEmpty ? 0 : v[min(v.count - 1, Int(Double(v.count) * p))] }
        return [
            Result(name: "decode latency p50 with 20 SSE + 5 forward clients (1 of each stalled)", value: pct(loaded.latencies, 0.5),
                   unit: "ms", baseline: pct(bare.latencies, 0.5), note: "baseline: no clients"),
            Result(name: "decode latency p99 with 20 SSE + 5 forward clients (1 of each stalled)", value: pct(loaded.latencies, 0.99),
                   unit: "ms", baseline: pct(bare.latencies, 0.99),
                   note: "\(rate) datagrams/s for \(Int(seconds)) s; \(loaded.note)"),
        ]
    }

    private static func feedRun(datagrams: [[UInt8]], rate: Int, seconds: Double, clients: Bool) throws
        -> (latencies: [Double], note: String)
    {
        let hub = FeedHub()
        let probe = LatencyProbe()
        var forwarder: ForwardSink?
        var sinks: [UDPListener] = []
        var stalledSink: Int32 = -1
        var http: FeedServer? = nil
        var readers: [BenchThread] = []
        let stop = Locked(false)
        let events = Locked(0)
        if clients {
            // Four forwarding targets that read, one socket nobody reads.
            var senders: [UDPSender] = []
            let sinkQueue = DispatchQueue(label: "bench.sinks")
            for _ in 0..<4 {
                let l = try UDPListener(address: "127.0.0.1", port: 0, queue: sinkQueue) { _, _ in }
                sinks.append(l)
                senders.append(try UDPSender(host: "127.0.0.1", port: l.port))
            }
            stalledSink = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr)
            _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stalledSink, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            var bound = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(stalledSink, $0, &length) } }
            senders.append(try UDPSender(host: "127.0.0.1", port: UInt16(bigEndian: bound.sin_port)))
            forwarder = ForwardSink(targets: senders, efbs: nil, hub: hub)
            let server = FeedServer(hub: hub)
            try server.start(host: "127.0.0.1", port: 0)
            http = server
            let url = "http://127.0.0.1:\(server.port)/alerts"
            // One stalled SSE client: connects and never reads.
            _ = try? HTTPConnection(HTTPConnection.Target(url)!)
            for _ in 0..<19 {
                let t = BenchThread {
                    guard var c = try? HTTPConnection(HTTPConnection.Target(url)!) else { return }
                    c.setReadTimeout(0.5)
                    var parser = SSEParser()
                    while !stop.value {
                        guard let piece = try? c.readBody() else { continue }
                        let n = parser.feed(piece).count
                        if n > 0 { events.set(events.value + n) }
                    }
                    c.close()
                }
                t.start()
                readers.append(t)
            }
            var waited = 0
            while hub.counters.sseClients < 20 && waited < 200 { usleep(10_000); waited += 1 }  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
        }
        let gateway = LiveGateway(hub: hub, sinks: [AlertHandlerSink { _ in }] + (forwarder.map { [$0] } ?? []), forwarding: forwarder != nil,
                                  latencyProbe: probe)
        try gateway.start(bind: "127.0.0.1", port: 0)
        let sender = try UDPSender(host: "127.0.0.1", port: gateway.port)
        let total = Int(Double(rate) * seconds)
        let start = DispatchTime.now().uptimeNanoseconds
        var sent = 0
        while sent < total {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let due = min(total, Int(elapsed * Double(rate)) + 1)
            while sent < due {
                sender.send(datagrams[sent % datagrams.count])
                sent += 1
            }
            usleep(500)  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
        }
        usleep(300_000)  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
        let counters = hub.counters
        stop.set(true)
        gateway.stop()
        http?.stop()
        for s in sinks { s.cancel() }
        if stalledSink >= 0 { close(stalledSink) }
        let note = clients
            ? "SSE clients \(counters.sseClients + counters.sseDropped), stalled ones dropped \(counters.sseDropped), forwarded \(counters.forwarded) datagrams (\(counters.forwardFailures) refused)"
            : ""
        return (probe.sorted, note)
    }
}
