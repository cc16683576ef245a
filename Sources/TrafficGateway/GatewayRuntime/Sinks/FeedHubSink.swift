import GatewaySupport
import GatewayDomain
import GatewayFeeds
/// The feeds' hub (HTTP, SSE, the cockpit page, NMEA read it): alert changes, the picture when
/// one is due, the FIS-B product set when it changed; every 10 s of the clock a keep-alive to the
/// SSE clients, so that those gone during a quiet period are found.
package final class FeedHubSink: GatewaySink {
    /// The hub.
    package let hub: FeedHub
    private let lastKeepAlive = Locked(-Double.infinity)

    /// A sink publishing to `hub`.
    package init(hub: FeedHub) { self.hub = hub }

    package func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        if !alerts.isEmpty { hub.publish(encoded: alerts) }
        if let snapshot = outputs.snapshot { hub.publish(snapshot) }
        if let store = outputs.fisbStore { hub.publish(weather: store) }
        let due = lastKeepAlive.withLock { last in
            guard abs(time - last) >= 10 else { return false }
            last = time
            return true
        }
        if due { hub.keepAlive() }
    }
}
