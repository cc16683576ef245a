/// Hands the FIS-B NOTAMs heard in flight, when they changed, to `handle` (which keeps them in
/// the NOTAM store for later flights, on its own queue).
public struct FISBNotamSink: GatewaySink {
    /// The closure; it must not block.
    public let handle: @Sendable ([FISBReport]) -> Void

    /// A sink calling `handle` with each changed set of FIS-B NOTAMs.
    public init(_ handle: @escaping @Sendable ([FISBReport]) -> Void) { self.handle = handle }

    public func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        if let notams = outputs.fisbNOTAMs, !notams.isEmpty { handle(notams) }
    }
}
