import GatewayDomain
import GatewayWeather

/// Hands the gridded FIS-B blocks heard to the radar pictures' store, which assembles them on a
/// queue of its own (never on the core's).
public struct RadarSink: GatewaySink {
    /// The store.
    public let store: RadarStore

    /// A sink into `store`.
    public init(store: RadarStore) { self.store = store }

    public func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        if !outputs.gridBlocks.isEmpty { store.submit(outputs.gridBlocks) }
    }

    public func finish() { store.drain() }
}
