import Dispatch

/// Work handed off the core's queue to one serial consumer (the terminal, the alert log), with at
/// most `limit` items waiting: a consumer that stalls (a paused terminal, a slow SD card) costs
/// dropped items, counted, and never a stalled core or unbounded memory.
public final class BoundedConsumer<Item: Sendable>: Sendable {
    private let queue: DispatchQueue
    private let state = Locked<(waiting: Int, dropped: Int)>((0, 0))
    private let consume: @Sendable (Item) -> Void
    /// Most items waiting at once.
    public let limit: Int

    /// A consumer on its own serial queue named `label`.
    public init(label: String, limit: Int = 1_024, consume: @escaping @Sendable (Item) -> Void) {
        queue = DispatchQueue(label: label)
        self.limit = limit
        self.consume = consume
    }

    /// Hands `item` over; false (and counted) when `limit` items are waiting already.
    @discardableResult
    public func submit(_ item: Item) -> Bool {
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
    public var dropped: Int { state.withLock { $0.dropped } }

    /// Waits until everything handed over has been consumed.
    public func drain() { queue.sync {} }
}
