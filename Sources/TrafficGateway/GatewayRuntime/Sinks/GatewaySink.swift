import GatewayDomain
/// Where the pipeline's outputs go (see ../shared/DESIGN.md, "sources in, sinks out"): the
/// terminal, the alert log, the feeds, the GDL 90 forwarder, the NOTAM store, the voice, the
/// logbook. Each is one type; `GatewayApp` registers them with the live gateway, which hands
/// every output to each on the core's serial queue, the alert changes encoded once.
package protocol GatewaySink: Sendable {
    /// Carries out what the pipeline decided at `time`; `alerts` are `outputs.alerts` encoded
    /// (the same bytes for every sink). Called on the core's serial queue: it must not block
    /// (slow work goes to the sink's own queue, bounded).
    func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double)
    /// Finishes what is queued; the process is ending (called once, off the core's queue).
    func finish()
}

extension GatewaySink {
    /// Nothing queued by default.
    package func finish() {}
}
