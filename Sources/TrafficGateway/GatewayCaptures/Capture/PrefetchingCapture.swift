import GatewaySupport
import GatewayDomain
import Dispatch

/// A `CaptureStream` read ahead on a second thread: reading the file, scanning its records and
/// (for dump978 text) framing them run there while the caller's thread runs the pipeline on the
/// datagrams before. The same datagrams in the same order as the stream's own `next()`.
///
/// Given a `FrameDecoder`, the reading thread also deframes and decodes each datagram (CRC,
/// unstuffing, message decoding) and, reading FIS-B, each uplink's frames and products: a quarter
/// of a replay's work. The caller's thread runs only the core (`CaptureReplay.process(_:decoded:)`).
///
/// Bounded: at most `depth` batches of about `batchBytes` wait. One consumer (the caller's thread).
/// Not `Sendable`: `next()` is its one consumer's; the reading thread holds only the hand-off and the locks.
package final class PrefetchingCapture {
    /// A datagram read ahead, with its items when the capture decodes.
    package struct Datagram: Sendable {
        /// The datagram, as the stream gives it.
        package var datagram: CapturedDatagram
        /// Its frames deframed and decoded, in order (with a `FrameDecoder` only).
        package var decoded: FrameDecoder.Decoded?
    }

    /// The file.
    package let path: String
    /// Its format.
    package let format: CaptureFormat
    private let handOff: HandOff<Datagram>
    private let ended = Locked<(error: CaptureError?, decoder: FrameDecoder?)>((nil, nil))
    private let stop = Locked(false)
    private var batch: [Datagram] = []
    private var index = 0
    private var exhausted = false

    /// Starts reading `stream` ahead on a thread of its own; with `decoder`, decoding it there too.
    package init(_ stream: consuming CaptureStream, decoding decoder: FrameDecoder? = nil, batchBytes: Int = 256 << 10, depth: Int = 4) {
        path = stream.path
        format = stream.format
        let handOff = HandOff<Datagram>(depth: depth)
        self.handOff = handOff
        let (ended, stop) = (self.ended, self.stop)
        // The stream and the decoder go to the reading thread through a lock, and are its alone
        // from there on (taken out, the lock holds nothing).
        let handed = Locked<(stream: CaptureStream, decoder: FrameDecoder?)?>((stream, decoder))
        DispatchQueue(label: "gatewayd.capture", qos: .userInitiated).async {
            guard let taken = handed.withLock({ h in defer { h = nil }; return h }) else { return }
            var (stream, decoder) = taken
            var batch: [Datagram] = []
            var bytes = 0
            while !stop.value, let d = stream.next() {
                bytes += d.bytes.count + 64
                batch.append(Datagram(datagram: d, decoded: decoder?.decode(d.bytes)))
                if bytes >= batchBytes {
                    batch = handOff.put(batch)
                    bytes = 0
                }
            }
            if !batch.isEmpty { _ = handOff.put(batch) }
            ended.set((stream.error, decoder))
            handOff.close()
        }
    }

    /// Set when the file is damaged or truncated, once `next()` has returned nil.
    package var error: CaptureError? { ended.value.error }

    /// The decoder as the last datagram left it, once `next()` has returned nil: for the next
    /// file of the same recording, or its `finish()` for the pipeline's.
    package var decoder: FrameDecoder? { ended.value.decoder }

    /// The next datagram, or nil at the end of the file or where it is damaged (see `error`).
    package func next() -> Datagram? {
        while index == batch.count {
            guard !exhausted else { return nil }
            // Handed back as its only reference: the reader empties it (and frees what it held).
            let done = batch
            batch = []
            if !done.isEmpty { handOff.recycle(consume done) }
            index = 0
            guard let next = handOff.take() else {
                exhausted = true
                return nil
            }
            batch = next
        }
        index += 1
        // A copy (references to the bytes and items): the batch keeps them until the reading
        // thread reuses it, so that their memory is freed there, where it was allocated.
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
