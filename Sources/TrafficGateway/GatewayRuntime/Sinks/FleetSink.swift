import GatewaySupport
import GatewayDomain
import GatewayFeeds
import GatewayFleet

/// The fleet (issue 43): the live picture once a second of the gateway's clock and the status
/// every minute to `FleetPublisher`; alert events reach it through the alert log (the publisher
/// reads them back from it, so nothing is lost while the broker is away). The picture is encoded
/// on a queue of its own, the latest second only, never on the core's queue.
public final class FleetSink: GatewaySink {
    private let publisher: FleetPublisher
    private let pictures: BoundedConsumer<FeedSnapshot>
    /// The last second a picture went out and the last status refresh (the gateway's clock).
    private let last = Locked<(second: Double, status: Double)>((-1, 0))

    public init(publisher: FleetPublisher) {
        self.publisher = publisher
        pictures = BoundedConsumer(label: "gatewayd.fleet-picture", limit: 2) { (s: FeedSnapshot) in
            publisher.picture(traffic: CockpitAPI.traffic(s), ownship: CockpitAPI.ownship(s))
        }
    }

    public func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        guard let snapshot = outputs.snapshot else { return }
        let second = time.rounded(.down)
        let (picture, status) = last.withLock { l -> (Bool, Bool) in
            guard second != l.second else { return (false, false) }
            l.second = second
            let status = time - l.status >= 60 || time < l.status
            if status { l.status = time }
            return (true, status)
        }
        if picture { _ = pictures.submit(snapshot) }
        if status { publisher.refreshStatus() }
    }

    /// The flight closed at shutdown (kept by the logbook's sink, finished before this one)
    /// reaches the broker before the process ends, when it is there (at most 2 s).
    public func finish() {
        pictures.drain()
        publisher.finish(timeout: 2)
    }
}
