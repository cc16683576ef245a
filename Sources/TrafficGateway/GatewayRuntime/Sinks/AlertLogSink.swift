import GatewaySupport
import GatewayDomain
import GatewayRecords
/// The alert log in SQLite, written on its own queue (at most 4,096 batches waiting) so a slow
/// disk never stalls decoding; a log that cannot keep up or write is said, never fatal.
///
/// Alert changes that could not be written (another process holding the database's lock past
/// its busy timeout, a full disk) are kept, at most `maximumUnwritten`, and written first with
/// the next batch or at `retryUnwritten` (the app calls it every few seconds): a lock held for a
/// while delays the log, it does not lose it. A failure is said once, with its cause, and the
/// recovery once more.
package final class AlertLogSink: GatewaySink {
    private let writer: BoundedConsumer<[EncodedAlert]>
    private let onError: @Sendable (GatewayError) -> Void
    /// Alert changes not written yet, oldest first, and whether the last write failed.
    private let unwritten: Locked<(alerts: [EncodedAlert], failing: Bool, dropped: Int)>
    /// Most alert changes kept while the database cannot be written (the oldest go first).
    package static let maximumUnwritten = 10_000
    /// Told after each batch written (the fleet publishes from the log).
    private let written = Locked<(@Sendable () -> Void)?>(nil)

    /// A sink appending to `log`; `onError` hears write failures (their cause, said once until a
    /// write succeeds), the recovery, and drops.
    package init(log: AlertLog, onError: @escaping @Sendable (GatewayError) -> Void) {
        self.onError = onError
        let unwritten = Locked<(alerts: [EncodedAlert], failing: Bool, dropped: Int)>(([], false, 0))
        self.unwritten = unwritten
        let written = self.written
        writer = BoundedConsumer(label: "gatewayd.alert-log", limit: 4_096) { (alerts: [EncodedAlert]) in
            let batch = unwritten.withLock { kept -> [EncodedAlert] in
                defer { kept.alerts = [] }
                return kept.alerts + alerts
            }
            guard !batch.isEmpty else { return }
            do throws(GatewayError) {
                try log.append(encoded: batch)
                written.value?()
                let recovered = unwritten.withLock { kept -> Bool in
                    defer { kept.failing = false }
                    return kept.failing
                }
                if recovered {
                    onError(GatewayError.database(path: log.database.path, reason: "the alert log is written again (\(batch.count) alert change(s) that waited were written)"))
                }
            } catch {
                let (first, dropped) = unwritten.withLock { kept -> (Bool, Int) in
                    kept.alerts = batch + kept.alerts
                    let excess = kept.alerts.count - Self.maximumUnwritten
                    if excess > 0 {
                        kept.alerts.removeFirst(excess)
                        kept.dropped += excess
                    }
                    defer { kept.failing = true }
                    return (!kept.failing, excess > 0 ? kept.dropped : 0)
                }
                if first {
                    onError(GatewayError.database(path: log.database.path, reason: "\(error.reason) — alerts are still printed; the \(batch.count) alert change(s) not written wait (at most \(Self.maximumUnwritten)) and are written when the database can be"))
                }
                if dropped > 0, dropped == 1 || dropped % 1_000 == 0 {
                    onError(GatewayError.database(path: log.database.path, reason: "\(dropped) alert change(s) dropped from the alert log while it could not be written (the oldest first)"))
                }
            }
        }
    }

    package func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        guard !alerts.isEmpty, !writer.submit(alerts) else { return }
        if writer.dropped == 1 || writer.dropped % 1_000 == 0 {
            onError(GatewayError.notKeepingUp(what: "the alert log", lost: "\(writer.dropped) batch(es) of alerts not logged"))
        }
    }

    /// Calls `body` after each batch written to the log, on the log's queue (it must not block).
    package func whenWritten(_ body: @escaping @Sendable () -> Void) { written.set(body) }

    /// Alert changes waiting to be written (their write failed).
    package var waiting: Int { unwritten.value.alerts.count }

    /// Tries again to write the alert changes waiting (nothing when none wait).
    package func retryUnwritten() {
        guard waiting > 0 else { return }
        writer.submit([])
    }

    /// Waits for the writes queued, then tries those waiting once more.
    package func finish() {
        writer.drain()
        retryUnwritten()
        writer.drain()
    }
}
