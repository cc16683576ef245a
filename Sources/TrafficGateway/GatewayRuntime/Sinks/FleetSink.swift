import GatewaySupport
import GatewayDomain
import GatewayFeeds
import GatewayFleet

/// The fleet (issue 43): the live picture once a second of the gateway's clock and the status
/// every minute to `FleetPublisher`; alert events reach it through the alert log (the publisher
/// reads them back from it, so nothing is lost while the broker is away). The picture is encoded
/// on a queue of its own, the latest second only, never on the core's queue.
package final class FleetSink: GatewaySink {
    private let publisher: FleetPublisher
    private let pictures: BoundedConsumer<(snapshot: FeedSnapshot, traffic: Bool)>
    /// Seconds between traffic pictures (0: never).
    private let trafficEvery: Double
    /// The last second ownship went out, the last traffic picture and the last status refresh
    /// (the gateway's clock).
    private let last = Locked<(second: Double, traffic: Double, status: Double)>((-1, -.infinity, 0))

    /// A sink publishing through `publisher`: ownship every second, the traffic picture every
    /// `trafficEverySec` seconds (0: never).
    package init(publisher: FleetPublisher, trafficEverySec: Int = 1) {
        self.publisher = publisher
        trafficEvery = Double(trafficEverySec)
        pictures = BoundedConsumer(label: "gatewayd.fleet-picture", limit: 2) { (p: (snapshot: FeedSnapshot, traffic: Bool)) in
            publisher.picture(traffic: p.traffic ? CockpitAPI.traffic(p.snapshot) : nil, ownship: CockpitAPI.ownship(p.snapshot))
        }
    }

    package func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        guard let snapshot = outputs.snapshot else { return }
        let second = time.rounded(.down)
        let (picture, traffic, status) = last.withLock { l -> (Bool, Bool, Bool) in
            guard second != l.second else { return (false, false, false) }
            l.second = second
            let status = time - l.status >= 60 || time < l.status
            if status { l.status = time }
            let traffic = trafficEvery > 0 && (second - l.traffic >= trafficEvery || second < l.traffic)
            if traffic { l.traffic = second }
            return (true, traffic, status)
        }
        if picture { _ = pictures.submit((snapshot, traffic)) }
        if status { publisher.refreshStatus() }
    }

    /// The flight closed at shutdown (kept by the logbook's sink, finished before this one)
    /// reaches the broker before the process ends, when it is there (at most 2 s).
    package func finish() {
        pictures.drain()
        publisher.finish(timeout: 2)
    }
}
