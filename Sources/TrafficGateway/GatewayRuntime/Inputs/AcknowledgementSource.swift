import GatewaySupport
import GatewayRecords
import ServiceLifecycle
/// Airspace alerts acknowledged: from the cockpit page (`acknowledge`), and from `gatewayd alerts
/// ack ID`, which writes to the database (polled every 5 s on the injected clock).
package final class AcknowledgementSource: GatewaySource {
    private let log: AlertLog?
    private let onAcknowledged: @Sendable (_ id: String, _ fromPage: Bool) -> Void
    private let inlet: Locked<GatewayInlet?>
    /// The last acknowledgement row handed in (read at `start`).
    private let seen: Locked<Int64>
    /// The database's poll, a `PeriodicService` on the injected clock (none without a log).
    package let services: [any Service]

    /// A source polling `log` (when given) on `clock`; each acknowledgement is also told to
    /// `onAcknowledged` (a log line).
    package init(log: AlertLog?, clock: any Clock<Duration> = ContinuousClock(),
                onAcknowledged: @escaping @Sendable (_ id: String, _ fromPage: Bool) -> Void = { _, _ in }) {
        self.log = log
        self.onAcknowledged = onAcknowledged
        let (inlet, seen) = (Locked<GatewayInlet?>(nil), Locked<Int64>(0))
        (self.inlet, self.seen) = (inlet, seen)
        guard let log else { services = []; return }
        services = [PeriodicService("acknowledgement poll", delay: .seconds(5), every: .seconds(5), clock: clock) {
            guard inlet.value != nil else { return }
            let new = await Offload.run(on: .global()) { (try? log.acknowledgements(after: seen.value)) ?? [] } ?? []
            for (rowid, target) in new {
                guard let inlet = inlet.value else { return }
                inlet.deliver(.acknowledge(target))
                seen.set(rowid)
                onAcknowledged(target, false)
            }
        }]
    }

    package func start(_ inlet: GatewayInlet) throws(GatewayError) {
        if let log { seen.set((try? log.acknowledgements(after: 0).last?.0) ?? 0) }
        self.inlet.set(inlet)
    }

    /// An acknowledgement from the cockpit page (alert id or area id); ignored before `start`.
    package func acknowledge(_ id: String) {
        guard let inlet = inlet.value else { return }
        inlet.deliver(.acknowledge(id))
        onAcknowledged(id, true)
    }

    package func stop() { inlet.set(nil) }
}
