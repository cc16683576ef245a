import GatewayDomain
/// The pipeline's notices (an echo of ownship learned or forgotten, gpsd values dropped), one
/// log line each.
package struct NoticeSink: GatewaySink {
    private let log: @Sendable (String) -> Void

    /// A sink handing each notice to `log`.
    package init(_ log: @escaping @Sendable (String) -> Void) { self.log = log }

    package func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        for notice in outputs.notices { log(notice) }
    }
}
