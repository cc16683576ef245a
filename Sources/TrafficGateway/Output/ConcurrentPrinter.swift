import Dispatch
import GDL90

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
public final class ConcurrentPrinter: @unchecked Sendable {  // `pending` and `finished` are the producer's alone
    /// One item and its time.
    struct Entry {
        var item: PipelineItem
        var time: Double
    }

    /// Items per handed-over batch.
    public let batchSize: Int
    /// The batch being filled. Touched by the producer alone (see the type's note), so Swift's
    /// run-time exclusivity check on a class's stored property, half of `append`'s cost per item
    /// in a profile of `decode --json`, buys nothing here and is left out.
    @exclusivity(unchecked) private var pending: [Entry] = []
    private let handOff: HandOff<Entry>
    /// Signalled when the consumer has written everything.
    private let done = DispatchSemaphore(value: 0)
    /// Whether `finish` ran.
    private var finished = false

    /// Starts the consumer. `write` gets the buffer every few hundred kilobytes and must empty it;
    /// it runs on the consumer's thread only.
    public init(json: Bool, batchSize: Int = 2_048, depth: Int = 4, write: @escaping @Sendable (inout OutputBuffer) -> Void) {
        self.batchSize = batchSize
        handOff = HandOff(depth: depth)
        pending.reserveCapacity(batchSize)
        let (handOff, done) = (self.handOff, self.done)
        DispatchQueue(label: "gatewayd.printer", qos: .userInitiated).async {
            var printer = MessagePrinter(json: json)
            while var batch = handOff.take() {
                // Each item is moved out of the batch and taken apart as it is: read in place, a
                // multi-case enum is copied whole to be taken apart, and the copy destroyed (an
                // eighth of this thread). An uplink goes back into the batch after its line, so
                // that its payload is freed by the producer, whose thread allocated it (see
                // `HandOff.put`); the other items hold no memory of their own, bar the odd
                // long name or tower list, and leave a trivial item behind.
                batch.withUnsafeMutableBufferPointer { entries in
                    guard let base = entries.baseAddress else { return }
                    for i in entries.indices {
                        let time = base[i].time
                        let item = (base + i).move().item
                        if case .message(.uplink, _) = item {
                            printer.append(copy item, at: time)
                            (base + i).initialize(to: Entry(item: item, time: time))
                        } else {
                            printer.append(consume item, at: time)
                            (base + i).initialize(to: Entry(item: .rejected(FrameError(reason: .crc, offset: 0, length: 0)), time: 0))
                        }
                        if printer.out.count >= 1 << 18 { write(&printer.out) }
                    }
                }
                handOff.recycle(consume batch)  // its only reference: the producer empties it
            }
            write(&printer.out)
            done.signal()
        }
    }

    /// A printer dropped unfinished (a command leaving on an error) still writes what it was given
    /// and ends its consumer.
    deinit {
        finish()
    }

    /// Adds `item`'s line (written later, on the consumer's thread).
    public func append(_ item: consuming PipelineItem, at time: Double) {
        pending.append(Entry(item: item, time: time))
        if pending.count >= batchSize { handOver() }
    }

    /// Writes everything appended, and returns when it has been given to `write`. Once; later
    /// calls do nothing.
    public func finish() {
        guard !finished else { return }
        finished = true
        if !pending.isEmpty { handOver() }
        handOff.close()
        done.wait()
    }

    private func handOver() {
        pending = handOff.put(pending)
        if pending.capacity < batchSize { pending.reserveCapacity(batchSize) }
    }
}
