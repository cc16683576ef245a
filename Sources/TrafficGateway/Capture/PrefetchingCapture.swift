import Dispatch

/// A `CaptureStream` read ahead on a second thread: reading the file, scanning its records and
/// (for dump978 text) framing them run there while the caller's thread runs the pipeline on the
/// datagrams before. The same datagrams in the same order as the stream's own `next()`.
///
/// Bounded: at most `depth` batches of about `batchBytes` wait. One consumer (the caller's thread).
public final class PrefetchingCapture: @unchecked Sendable {  // `batch`, `index`, `exhausted` are the consumer's alone; the rest is handed off or locked
    /// The file.
    public let path: String
    /// Its format.
    public let format: CaptureFormat
    private let handOff: HandOff<CapturedDatagram>
    private let ended = Locked<CaptureError?>(nil)
    private let stop = Locked(false)
    private var batch: [CapturedDatagram] = []
    private var index = 0
    private var exhausted = false

    /// Starts reading `stream` ahead on a thread of its own.
    public init(_ stream: consuming CaptureStream, batchBytes: Int = 256 << 10, depth: Int = 4) {
        path = stream.path
        format = stream.format
        let handOff = HandOff<CapturedDatagram>(depth: depth)
        self.handOff = handOff
        let (ended, stop) = (self.ended, self.stop)
        // The stream is the reading thread's alone from here on.
        nonisolated(unsafe) var stream = stream
        DispatchQueue(label: "gatewayd.capture", qos: .userInitiated).async {
            var batch: [CapturedDatagram] = []
            var bytes = 0
            while !stop.value, let d = stream.next() {
                bytes += d.bytes.count + 64
                batch.append(d)
                if bytes >= batchBytes {
                    batch = handOff.put(batch)
                    bytes = 0
                }
            }
            if !batch.isEmpty { _ = handOff.put(batch) }
            ended.set(stream.error)
            handOff.close()
        }
    }

    /// Set when the file is damaged or truncated, once `next()` has returned nil.
    public var error: CaptureError? { ended.value }

    /// The next datagram, or nil at the end of the file or where it is damaged (see `error`).
    public func next() -> CapturedDatagram? {
        while index == batch.count {
            guard !exhausted else { return nil }
            if !batch.isEmpty { handOff.recycle(batch) }
            batch = []
            index = 0
            guard let next = handOff.take() else {
                exhausted = true
                return nil
            }
            batch = next
        }
        index += 1
        return batch[index - 1]
    }

    /// Dropped before the end (an error, an early stop): the reader stops and its thread ends.
    deinit {
        stop.set(true)
        guard !exhausted else { return }
        if !batch.isEmpty { handOff.recycle(batch) }
        while let rest = handOff.take() { handOff.recycle(rest) }
    }
}
