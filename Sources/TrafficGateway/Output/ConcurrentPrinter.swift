import Dispatch

/// `MessagePrinter` on a second core: the caller (reading, deframing, decoding, the pipeline)
/// hands items over in batches, and one consumer thread writes their lines and gives each full
/// buffer to `write`, in the order the items came.
///
/// For `gatewayd decode`, where writing the lines costs about as much as producing the items:
/// with the two halves on two cores the wall time is the larger half, not the sum. The lines are
/// the ones `MessagePrinter` writes (the same code), so the output is byte for byte the same.
///
/// At most `depth` batches wait (each `batchSize` items), so memory stays bounded however far
/// the consumer falls behind; the producer waits for room. The producer is one thread (the
/// caller's), which calls `finish` to wait for the last lines (dropping the printer does too).
public final class ConcurrentPrinter: @unchecked Sendable {  // `pending` is the producer's alone; the rest is locked or a semaphore
    /// One item and its time.
    struct Entry {
        var item: PipelineItem
        var time: Double
    }

    /// Items per handed-over batch.
    public let batchSize: Int
    /// The batch being filled (the producer's only).
    private var pending: [Entry]
    /// Full batches in order, `nil` marking the end; and emptied ones for reuse.
    private let queue = Locked<(full: [[Entry]?], spare: [[Entry]])>(([], []))
    /// Batches waiting to be written.
    private let filled = DispatchSemaphore(value: 0)
    /// Room for more batches.
    private let room: DispatchSemaphore
    /// Signalled when the consumer has written everything.
    private let done = DispatchSemaphore(value: 0)
    /// Whether `finish` ran (the producer's only).
    private var finished = false

    /// Starts the consumer. `write` gets the buffer every few hundred kilobytes and must empty it;
    /// it runs on the consumer's thread only.
    public init(json: Bool, batchSize: Int = 2_048, depth: Int = 4, write: @escaping @Sendable (inout OutputBuffer) -> Void) {
        self.batchSize = batchSize
        room = DispatchSemaphore(value: depth)
        pending = []
        pending.reserveCapacity(batchSize)
        let (queue, filled, room, done) = (self.queue, self.filled, self.room, self.done)
        let thread = DispatchQueue(label: "gatewayd.printer", qos: .userInitiated)
        thread.async {
            var printer = MessagePrinter(json: json)
            while true {
                filled.wait()
                guard var batch = queue.withLock({ $0.full.removeFirst() }) else { break }
                for entry in batch {
                    printer.append(entry.item, at: entry.time)
                    if printer.out.count >= 1 << 18 { write(&printer.out) }
                }
                batch.removeAll(keepingCapacity: true)
                queue.withLock { $0.spare.append(batch) }
                room.signal()
            }
            write(&printer.out)
            done.signal()
        }
    }

    /// Adds `item`'s line (written later, on the consumer's thread).
    public func append(_ item: consuming PipelineItem, at time: Double) {
        pending.append(Entry(item: item, time: time))
        if pending.count >= batchSize { handOver() }
    }

    /// A printer dropped unfinished (a command leaving on an error) still writes what it was given
    /// and ends its consumer.
    deinit {
        finish()
    }

    /// Writes everything appended, and returns when it has been given to `write`. Once; later
    /// calls do nothing.
    public func finish() {
        guard !finished else { return }
        finished = true
        if !pending.isEmpty { handOver() }
        room.wait()
        queue.withLock { $0.full.append(nil) }
        filled.signal()
        done.wait()
        room.signal()  // back to its first value: libdispatch traps on freeing a semaphore below it
    }

    private func handOver() {
        room.wait()
        let next = queue.withLock { q -> [Entry] in
            q.full.append(pending)
            return q.spare.popLast() ?? []
        }
        filled.signal()
        pending = next
        if pending.capacity < batchSize { pending.reserveCapacity(batchSize) }
    }
}
