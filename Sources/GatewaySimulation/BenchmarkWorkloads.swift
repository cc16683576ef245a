import GDL90
import GatewaySupport
import GatewayDomain
import GatewayCaptures

/// What the ordo-one benchmarks (the `Benchmarks/` package, a package of its own) run: the one
/// deliberately public face of the gateway's modules besides GDL90. Everything else in them is
/// `package`: the benchmarks call these, and each does the very work the daemon does (the
/// pipeline's `process`, the formatter, the FIS-B store), so what is measured is the product's code.
public enum BenchmarkWorkloads {
    /// Writes GatewaySimulation's synthetic stream (`megabytes` of raw GDL 90 from `targets`
    /// moving targets, heartbeats each second) to `path`.
    public static func writeTrafficStream(path: String, megabytes: Int, targets: Int) throws {
        try CommandBenchmark.writeTrafficStream(path: path, megabytes: megabytes, targets: targets)
    }

    /// The stream's date: its heartbeats are read on 2026-05-16.
    public static let streamMidnight = Timestamp.midnight(year: 2026, month: 5, day: 16)

    /// Feeds `datagrams` through a new pipeline timed by the heartbeats (as `decode` and
    /// `replay` read a raw stream): the alert changes made and the targets held at the end.
    public static func pipelineIngest(_ datagrams: [[UInt8]]) -> (alerts: Int, targets: Int) {
        var pipeline = GatewayPipeline(timeSource: .heartbeat(midnight: streamMidnight))
        var alerts = 0
        for datagram in datagrams { alerts += pipeline.process(.datagram(datagram), at: nil).alerts.count }
        return (alerts, pipeline.core.picture.targets.count)
    }

    /// `count` FIS-B uplink payloads of the weather sample, as the FIS-B store takes them.
    public static func fisbUplinks(count: Int) -> [[UInt8]] { FISBBenchmark.uplinks(count: count) }

    /// Feeds `payloads` into a new FIS-B product store, `step` seconds apart from the sample's
    /// start: the product changes made.
    public static func fisbIngest(_ payloads: [[UInt8]], step: Double) -> Int {
        var store = FISBProductStore()
        var products = 0
        for (i, payload) in payloads.enumerated() {
            products += store.ingest(payload: payload, at: FISBSamples.startTime + Double(i) * step).count
        }
        return products
    }

    /// `decode --json`'s formatting of messages, its buffer kept between runs (as the command's).
    public struct JSONFormatting {
        private var out = OutputBuffer(capacity: 1 << 20)
        private var clock = ISO8601Writer()
        private let messages: [Message]
        private let start: Double

        /// Formats `messages`, 500 a second from 10:00Z of the stream's day.
        public init(messages: [Message]) {
            self.messages = messages
            start = BenchmarkWorkloads.streamMidnight + 36_000
        }

        /// Formats every message once: the bytes written.
        public mutating func run() -> Int {
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
            return written
        }
    }
}
