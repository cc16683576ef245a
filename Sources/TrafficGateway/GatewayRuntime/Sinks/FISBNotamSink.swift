import GatewaySupport
import GatewayDomain
import GatewayRecords
import GatewayNotams
import Dispatch

/// Hands the FIS-B NOTAMs heard in flight, when they changed, to `handle` (which keeps them in
/// the NOTAM store for later flights, on its own queue).
package struct FISBNotamSink: GatewaySink {
    /// The closure; it must not block.
    package let handle: @Sendable ([FISBReport]) -> Void

    /// A sink calling `handle` with each changed set of FIS-B NOTAMs.
    package init(_ handle: @escaping @Sendable ([FISBReport]) -> Void) { self.handle = handle }

    package func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        if let notams = outputs.fisbNOTAMs, !notams.isEmpty { handle(notams) }
    }
}

/// FIS-B NOTAMs heard in flight, written into the NOTAM store (merged with fetched copies) from
/// a queue of their own (issue 40): a set that arrives while one still waits replaces it (latest
/// wins, counted), and only the reports new or changed since the last set are parsed (a NOTAM's
/// text is read once while it stays on the air).
package final class FISBNotamWriter: Sendable {
    private let consumer: LatestConsumer<[FISBReport]>
    private let cache: FISBNotamCache

    /// A writer into `store` on `queue` (serial; drained before the database closes), each set
    /// stored at the time its reports were received (the event time: the capture's under
    /// `run --replay`; the wall clock's was stored before issue 44); `failed` hears a write that failed.
    package init(store: NotamStore, queue: DispatchQueue, failed: @escaping @Sendable (GatewayError) -> Void) {
        let cache = FISBNotamCache()
        self.cache = cache
        consumer = LatestConsumer(queue: queue) { reports in
            let notams = cache.notams(reports)
            guard !notams.isEmpty, let received = reports.lazy.map(\.received).max() else { return }
            do throws(GatewayError) {
                try store.refresh(source: "fisb", notams: notams, at: received) { $0.source == "fisb" }
            } catch {
                failed(error)
            }
        }
    }

    /// The sink handing each changed set to `submit`.
    package var sink: FISBNotamSink { FISBNotamSink { [self] in submit($0) } }

    /// Hands a set over; false when it replaced one still waiting.
    @discardableResult
    package func submit(_ reports: [FISBReport]) -> Bool { consumer.submit(reports) }

    /// Sets replaced by a newer one before they were written.
    package var superseded: Int { consumer.superseded }

    /// Reports parsed so far (each new or changed report once).
    package var parsed: Int { cache.parsed }

    /// Waits until the set waiting (if any) is written.
    package func drain() { consumer.drain() }
}

/// The NOTAMs of the last set of FIS-B reports, by what a report says (its product and content,
/// not when it was heard): a report seen in the last set is not parsed again.
final class FISBNotamCache: Sendable {
    /// What a NOTAM is made from (`Notam(fisb:)` reads nothing else).
    private struct Key: Hashable {
        var productID: Int
        var content: FISBReport.Content
    }

    private let state = Locked<(notams: [Key: Notam?], parsed: Int)>(([:], 0))

    /// Reports parsed so far.
    var parsed: Int { state.withLock { $0.parsed } }

    /// The NOTAMs of `reports`: those of the last set reused, the others parsed. The cache then
    /// holds this set only.
    func notams(_ reports: [FISBReport]) -> [Notam] {
        let known = state.withLock { $0.notams }
        var next: [Key: Notam?] = [:]
        var parsed = 0
        var out: [Notam] = []
        for r in reports {
            let key = Key(productID: r.productID, content: r.content)
            let n: Notam?
            if let seen = next[key] ?? known[key] { n = seen } else { n = Notam(fisb: r); parsed += 1 }
            next[key] = n
            if let n { out.append(n) }
        }
        state.withLock { $0 = (next, $0.parsed + parsed) }
        return out
    }
}
