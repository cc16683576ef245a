/// Batches passed from one producer thread to one consumer thread, in order, with at most
/// `depth` waiting: the producer waits for room, so memory stays bounded however far the
/// consumer falls behind. Emptied batches go back to the producer to be filled again (their
/// storage kept). What `PrefetchingCapture` runs its second thread on.
/// Unlike `BoundedConsumer`, which drops when full (live output must never stall the core), the
/// producer here waits: nothing of a file being decoded may be lost. Both sides wait on the one
/// lock's condition.
public final class HandOff<Element: Sendable>: Sendable {
    private struct State {
        /// Full batches in order (`nil`: the producer closed).
        var full: [[Element]?] = []
        /// Emptied batches for reuse.
        var spare: [[Element]] = []
        /// Batches that may still be handed over before the producer waits.
        var room: Int
    }

    private let state: Locked<State>

    /// A hand-off holding at most `depth` batches.
    public init(depth: Int) {
        state = Locked(State(room: max(depth, 1)))
    }

    /// Producer: hands `batch` over (waiting for room) and returns an emptied batch to fill.
    public func put(_ batch: [Element]) -> [Element] {
        var spare = state.withLock(when: { $0.room > 0 }, waking: true) { s, _ -> [Element] in
            s.room -= 1
            s.full.append(batch)
            return s.spare.popLast() ?? []
        }
        // Emptied here, not by the consumer: what the producer's thread allocated is freed on it.
        // (glibc frees another thread's memory under that thread's arena lock: consumer and
        // producer fought for it, a futex call per few dozen frees.)
        spare.removeAll(keepingCapacity: true)
        return spare
    }

    /// Producer: nothing more will come.
    public func close() {
        state.withLockWaking { $0.full.append(nil) }
    }

    /// Consumer: the next batch, or nil once the producer has closed (then the hand-off is
    /// spent). Give each batch back with `recycle` when done with it.
    public func take() -> [Element]? {
        state.withLock(when: { !$0.full.isEmpty }) { s, _ in
            // The end marker stays: every later take sees the end too.
            if s.full.first! == nil { return nil }
            return s.full.removeFirst()
        }
    }

    /// Consumer: a batch taken is done with; it goes back to the producer, which empties it.
    public func recycle(_ batch: consuming [Element]) {
        var batch = batch
        state.withLockWaking { s in
            s.spare.append(batch)
            s.room += 1
            batch = []  // under the lock: the producer must find it uniquely referenced, or emptying it copies
        }
    }
}
