import GatewaySupport
import GatewayRecords
/// Airspace alerts acknowledged: from the cockpit page (`acknowledge`), and from `gatewayd alerts
/// ack ID`, which writes to the database (polled every 5 s on the injected clock).
public final class AcknowledgementSource: GatewaySource {
    private let log: AlertLog?
    private let clock: any Clock<Duration>
    private let onAcknowledged: @Sendable (_ id: String, _ fromPage: Bool) -> Void
    private let inlet = Locked<GatewayInlet?>(nil)
    private let poll = Locked<Task<Void, Never>?>(nil)

    /// A source polling `log` (when given) on `clock`; each acknowledgement is also told to
    /// `onAcknowledged` (a log line).
    public init(log: AlertLog?, clock: any Clock<Duration> = ContinuousClock(),
                onAcknowledged: @escaping @Sendable (_ id: String, _ fromPage: Bool) -> Void = { _, _ in }) {
        self.log = log
        self.clock = clock
        self.onAcknowledged = onAcknowledged
    }

    public func start(_ inlet: GatewayInlet) throws(GatewayError) {
        self.inlet.set(inlet)
        guard let log else { return }
        let seen = Locked<Int64>((try? log.acknowledgements(after: 0).last?.0) ?? 0)
        let onAcknowledged = self.onAcknowledged
        poll.set(PeriodicService("acknowledgement poll", delay: .seconds(5), every: .seconds(5), clock: clock) {
            let new = await Offload.run(on: .global()) { (try? log.acknowledgements(after: seen.value)) ?? [] } ?? []
            for (rowid, target) in new {
                inlet.deliver(.acknowledge(target))
                seen.set(rowid)
                onAcknowledged(target, false)
            }
        }.start())
    }

    /// An acknowledgement from the cockpit page (alert id or area id); ignored before `start`.
    public func acknowledge(_ id: String) {
        guard let inlet = inlet.value else { return }
        inlet.deliver(.acknowledge(id))
        onAcknowledged(id, true)
    }

    public func stop() {
        poll.value?.cancel()
        inlet.set(nil)
    }
}
