import GatewayDomain
/// Hands each batch of alert changes (encoded once) to a closure on the core's queue: the
/// terminal's formatter, a test's collector, a benchmark's counter.
package struct AlertHandlerSink: GatewaySink {
    /// The closure; it must not block.
    package let handle: @Sendable ([EncodedAlert]) -> Void

    /// A sink calling `handle` with every non-empty batch of alert changes.
    package init(_ handle: @escaping @Sendable ([EncodedAlert]) -> Void) { self.handle = handle }

    package func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        if !alerts.isEmpty { handle(alerts) }
    }
}
