/// The alert log in SQLite, written on its own queue (at most 4,096 batches waiting) so a slow
/// disk never stalls decoding; a log that cannot keep up or write is said, never fatal.
public final class AlertLogSink: GatewaySink {
    private let writer: BoundedConsumer<[EncodedAlert]>
    private let onError: @Sendable (GatewayError) -> Void

    /// A sink appending to `log`; `onError` hears write failures and drops.
    public init(log: AlertLog, onError: @escaping @Sendable (GatewayError) -> Void) {
        self.onError = onError
        writer = BoundedConsumer(label: "gatewayd.alert-log", limit: 4_096) { (alerts: [EncodedAlert]) in
            do throws(GatewayError) { try log.append(encoded: alerts) } catch { onError(error) }
        }
    }

    public func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        guard !alerts.isEmpty, !writer.submit(alerts) else { return }
        if writer.dropped == 1 || writer.dropped % 1_000 == 0 {
            onError(GatewayError.invalidInput("the alert log is not keeping up (\(writer.dropped) batch(es) of alerts not logged so far)"))
        }
    }

    /// Waits for the writes queued.
    public func finish() { writer.drain() }
}
