import GatewayDomain
import GatewayWeather

/// Hands the gridded FIS-B blocks heard to the radar pictures' store, which assembles them on a
/// queue of its own (never on the core's).
package struct RadarSink: GatewaySink {
    /// The store.
    package let store: RadarStore

    /// A sink into `store`.
    package init(store: RadarStore) { self.store = store }

    package func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        if !outputs.gridBlocks.isEmpty { store.submit(outputs.gridBlocks) }
    }

    package func finish() { store.drain() }
}
