/// The feeds' hub (HTTP, SSE, the cockpit page, NMEA read it): alert changes, the picture when
/// one is due, the FIS-B product set when it changed.
public struct FeedHubSink: GatewaySink {
    /// The hub.
    public let hub: FeedHub

    /// A sink publishing to `hub`.
    public init(hub: FeedHub) { self.hub = hub }

    public func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        if !alerts.isEmpty { hub.publish(encoded: alerts) }
        if let snapshot = outputs.snapshot { hub.publish(snapshot) }
        if let store = outputs.fisbStore { hub.publish(weather: store) }
    }
}
