import GatewaySupport
import GatewayDomain
import GatewayRecords
/// The logbook as a sink (issue 23): ownship's samples and the alert changes go to a `Logbook`
/// on its own queue (at most 4,096 batches waiting, then dropped and said), which keeps each
/// flight in the database when it ends. At the end of the process the open flight is kept as
/// it stands (ended in the air when it has not landed).
package final class LogbookSink: GatewaySink {
    private let writer: BoundedConsumer<([FlightSample], [AlertEvent])>
    private let logbook: Locked<Logbook>
    private let onError: @Sendable (GatewayError) -> Void
    private let onFlight: @Sendable (LoggedFlight) -> Void

    /// A sink into `logbook`; `onTakeoff` hears the sample a flight opened at, `onFlight` each
    /// flight kept, `onError` each failure.
    package init(logbook: Logbook, onTakeoff: @escaping @Sendable (FlightSample) -> Void = { _ in },
                 onFlight: @escaping @Sendable (LoggedFlight) -> Void = { _ in },
                onError: @escaping @Sendable (GatewayError) -> Void) {
        let state = Locked(logbook)
        self.logbook = state
        self.onError = onError
        self.onFlight = onFlight
        writer = BoundedConsumer(label: "gatewayd.logbook", limit: 4_096) { (batch: ([FlightSample], [AlertEvent])) in
            let (result, tookOff) = state.withLock { book in
                let before = book.inFlight
                let r = Result { () throws(GatewayError) in try book.receive(samples: batch.0, alerts: batch.1) }
                return (r, !before && book.inFlight)
            }
            if tookOff, let sample = batch.0.last { onTakeoff(sample) }
            switch result {
            case .success(let kept): for (f, _) in kept { onFlight(f) }
            case .failure(let error): onError(error)
            }
        }
    }

    package func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        guard !outputs.flightSamples.isEmpty || !outputs.alerts.isEmpty else { return }
        guard !writer.submit((outputs.flightSamples, outputs.alerts)) else { return }
        if writer.dropped == 1 || writer.dropped % 1_000 == 0 {
            onError(GatewayError.notKeepingUp(what: "the logbook", lost: "\(writer.dropped) batch(es) of samples not kept"))
        }
    }

    /// Waits for the batches queued, then keeps the open flight.
    package func finish() {
        writer.drain()
        switch logbook.withLock({ book in Result { () throws(GatewayError) in try book.finish() } }) {
        case .success(let kept): for (f, _) in kept { onFlight(f) }
        case .failure(let error): onError(error)
        }
    }
}
