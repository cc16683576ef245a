import Dispatch

/// Batches passed from one producer thread to one consumer thread, in order, with at most
/// `depth` waiting: the producer waits for room, so memory stays bounded however far the
/// consumer falls behind. Emptied batches go back to the producer to be filled again (their
/// storage kept). What `PrefetchingCapture` runs its second thread on.
/// Unlike `BoundedConsumer`, which drops when full (live output must never stall the core), the
/// producer here waits: nothing of a file being decoded may be lost.
package final class HandOff<Element>: @unchecked Sendable {  // the queue is locked; the rest are semaphores
    /// Full batches in order (`nil`: the producer closed), and emptied ones for reuse.
    private let queue = Locked<(full: [[Element]?], spare: [[Element]])>(([], []))
    /// Batches waiting.
    private let filled = DispatchSemaphore(value: 0)
    /// Room for more.
    private let room: DispatchSemaphore

    /// A hand-off holding at most `depth` batches.
    package init(depth: Int) {
        room = DispatchSemaphore(value: depth)
    }

    /// Producer: hands `batch` over (waiting for room) and returns an emptied batch to fill.
    package func put(_ batch: [Element]) -> [Element] {
        room.wait()
        var spare = queue.withLock { q -> [Element] in
            q.full.append(batch)
            return q.spare.popLast() ?? []
        }
        filled.signal()
        // Emptied here, not by the consumer: what the producer's thread allocated is freed on it.
        // (glibc frees another thread's memory under that thread's arena lock: consumer and
        // producer fought for it, a futex call per few dozen frees.)
        spare.removeAll(keepingCapacity: true)
        return spare
    }

    /// Producer: nothing more will come.
    package func close() {
        room.wait()
        queue.withLock { $0.full.append(nil) }
        filled.signal()
    }

    /// Consumer: the next batch, or nil once the producer has closed (then the hand-off is
    /// spent). Give each batch back with `recycle` when done with it.
    package func take() -> [Element]? {
        filled.wait()
        let batch = queue.withLock { $0.full.removeFirst() }
        // The end marker's room back: every semaphore ends at its first value (libdispatch traps
        // when one is freed below it).
        if batch == nil { room.signal() }
        return batch
    }

    /// Consumer: a batch taken is done with; it goes back to the producer, which empties it.
    package func recycle(_ batch: consuming [Element]) {
        var batch = batch
        queue.withLock { q in
            q.spare.append(batch)
            batch = []  // under the lock: the producer must find it uniquely referenced, or emptying it copies
        }
        room.signal()
    }
}
