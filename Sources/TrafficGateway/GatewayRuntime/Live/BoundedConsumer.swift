import GatewaySupport
import Dispatch

/// Work handed off the core's queue to one serial consumer (the terminal, the alert log), with at
/// most `limit` items waiting: a consumer that stalls (a paused terminal, a slow SD card) costs
/// dropped items, counted, and never a stalled core or unbounded memory.
package final class BoundedConsumer<Item: Sendable>: Sendable {
    private let queue: DispatchQueue
    private let state = Locked<(waiting: Int, dropped: Int)>((0, 0))
    private let consume: @Sendable (Item) -> Void
    /// Most items waiting at once.
    package let limit: Int

    /// A consumer on its own serial queue named `label`.
    package init(label: String, limit: Int = 1_024, consume: @escaping @Sendable (Item) -> Void) {
        queue = DispatchQueue(label: label)
        self.limit = limit
        self.consume = consume
    }

    /// Hands `item` over; false (and counted) when `limit` items are waiting already.
    @discardableResult
    package func submit(_ item: Item) -> Bool {
        let taken = state.withLock { s -> Bool in
            guard s.waiting < limit else {
                s.dropped += 1
                return false
            }
            s.waiting += 1
            return true
        }
        guard taken else { return false }
        queue.async {
            self.consume(item)
            self.state.withLock { $0.waiting -= 1 }
        }
        return true
    }

    /// Items dropped so far because `limit` were waiting.
    package var dropped: Int { state.withLock { $0.dropped } }

    /// Waits until everything handed over has been consumed.
    package func drain() { queue.sync {} }
}

/// Work where only the latest item matters (a whole set each time: the FIS-B NOTAMs heard so
/// far) handed off the core's queue to one serial consumer: at most one item waits, and a newer
/// one replaces it (the replaced one is counted), so a slow consumer (an SD card, a big set)
/// costs skipped sets, never a growing queue.
package final class LatestConsumer<Item: Sendable>: Sendable {
    private let queue: DispatchQueue
    private let state = Locked<(waiting: Item?, scheduled: Bool, superseded: Int)>((nil, false, 0))
    private let consume: @Sendable (Item) -> Void

    /// A consumer on `queue` (serial).
    package init(queue: DispatchQueue, consume: @escaping @Sendable (Item) -> Void) {
        self.queue = queue
        self.consume = consume
    }

    /// Hands `item` over; false when it replaced one still waiting (counted in `superseded`).
    @discardableResult
    package func submit(_ item: Item) -> Bool {
        let (replaced, schedule) = state.withLock { s -> (Bool, Bool) in
            let replaced = s.waiting != nil
            if replaced { s.superseded += 1 }
            s.waiting = item
            let schedule = !s.scheduled
            s.scheduled = true
            return (replaced, schedule)
        }
        if schedule {
            queue.async {
                let next = self.state.withLock { s -> Item? in
                    defer { s.waiting = nil; s.scheduled = false }
                    return s.waiting
                }
                if let next { self.consume(next) }
            }
        }
        return !replaced
    }

    /// Items replaced by a newer one before they were consumed.
    package var superseded: Int { state.withLock { $0.superseded } }

    /// Waits until the item waiting (if any) has been consumed.
    package func drain() { queue.sync {} }
}
