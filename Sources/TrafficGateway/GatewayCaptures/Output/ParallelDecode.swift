import GatewaySupport
import GatewayDomain
import Dispatch
import GDL90
#if canImport(Glibc)
import Glibc
#endif

/// `gatewayd decode` on every core: the capture cut into parts (whole datagrams, or for a raw
/// stream whole segments), and each part deframed, decoded and printed, through a pipeline of its
/// own, by whichever thread is free; the parts' lines are written in order.
///
/// Each thread does the whole job for its part, so neither waits on the other's half of it (as a
/// reading thread and a printing thread did: the run took as long as the longer half, and as long
/// as the slower core made it), and no item is handed from one thread to another.
///
/// **The same lines as one pipeline.** A part read by a fresh pipeline, started at the part's
/// stream offset, gives what the one pipeline of a sequential run gives for it when the stream is
/// at rest between the parts: no frame open (the part starts at a flag, and nothing of a frame is
/// held before it) and the part's times its own (its first item a heartbeat that does not roll the
/// day over, for a raw stream timed by heartbeats; its first datagram timed, for the others).
/// As each part is written, in order, the sequential run's pipeline checks that
/// (`GatewayPipeline.continuesFresh`) and takes on the part's state; a part that fails the check
/// is read again by that pipeline, in sequence. Parts are cut where the stream is likely at rest
/// (between two flags), so a part of a real capture is read again only after a midnight, or where
/// damage falls at its start (a heartbeat lost, a frame cut across the parts).
package enum ParallelDecode {
    /// Threads used by default: the cores online, at most four.
    package static var defaultThreads: Int {
        let online = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        return min(max(online, 1), 4)
    }

    /// Bytes of capture a part holds, about. 64 kB: the parts' lines (four to six times that)
    /// stay in a core's cache until written; larger parts were slower, smaller ones too (the
    /// Stratux-shaped 21 MB stream: 1 MB parts 55 ms, 256 kB 50, 64 kB 47.5, 16 kB 50).
    package static let partBytes = 1 << 16

    /// Decodes every datagram of `capture` through `pipeline` (a counting core; its time source
    /// the capture's) and prints a line for each message and rejected frame, as `MessagePrinter`
    /// does, handing `write` the lines in order a part at a time (`write` runs on one thread at a
    /// time and must empty the buffer). Returns the pipeline as a sequential run leaves it
    /// (its counts), and the number of parts read again in sequence.
    package static func run(_ capture: inout CaptureStream, pipeline: GatewayPipeline, json: Bool,
                           threads: Int = defaultThreads, partBytes: Int = partBytes,
                           write: @escaping @Sendable (inout OutputBuffer) -> Void) -> (pipeline: GatewayPipeline, partsReadAgain: Int) {
        // A core that only counts: one that raises alerts or keeps products needs the whole stream in order.
        precondition(pipeline.core.configuration.countsOnly, "ParallelDecode needs a counting core")
        let run = Run(capture: capture, pipeline: pipeline, json: json, threads: max(threads, 1), partBytes: max(partBytes, 1), write: write)
        // The caller's thread and threads - 1 of Dispatch's pool, each running `work` to the end.
        DispatchQueue.concurrentPerform(iterations: max(threads, 1)) { _ in run.work() }
        let (end, again) = run.finish()
        capture = run.capture
        return (end, again)
    }

    /// A part of the capture, in order, from stream offset `offset`: whole datagrams, or, for a
    /// raw stream, bytes that its reader cut where a segment begins (`CaptureStream.nextRawPart`),
    /// cut into their segments by the thread that reads them.
    struct Part: Sendable {
        var index: Int
        var offset: Int
        var datagrams: [CapturedDatagram] = []
        var raw: [UInt8] = []

        /// Whether its first byte is a flag.
        var startsWithFlag: Bool { (datagrams.first?.bytes ?? raw).first == 0x7E }
        /// Whether its first datagram carries its time.
        var firstDatagramTimed: Bool { datagrams.first?.timestamp != nil }

        /// Calls `body` with each datagram's bytes and time, in order.
        func forEachDatagram(_ body: (UnsafeRawBufferPointer, Double?) -> Void) {
            if datagrams.isEmpty {
                raw.withUnsafeBufferPointer { b in
                    _ = RawStreamSegmenter.forEachSegment(b, atEnd: true) { r in
                        body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: b[r])), nil)
                        return true
                    }
                }
            } else {
                for d in datagrams { d.bytes.withUnsafeBytes { body($0, d.timestamp) } }
            }
        }
    }

    /// A part read by a fresh pipeline, waiting its turn to be written.
    struct Read: Sendable {
        var part: Part
        var pipeline: GatewayPipeline
        var lines: OutputBuffer
        /// The seconds since 0000Z of the part's first item, when that is a heartbeat.
        var heartbeatFirst: Double?
    }

    /// The capture, read a part at a time by whichever thread needs one.
    struct Reader {
        var capture: CaptureStream
        /// Read, and the first of the next part.
        var held: CapturedDatagram?
        var offset = 0
        var index = 0

        /// The next part: about `target` bytes, ended between two flags when one comes within
        /// eight times that; nil at the end.
        mutating func next(target: Int) -> Part? {
            if capture.format == .raw {
                guard let (offset, bytes) = capture.nextRawPart(target: target) else { return nil }
                defer { index += 1 }
                return Part(index: index, offset: offset, raw: bytes)
            }
            var datagrams: [CapturedDatagram] = []
            var size = 0
            while let d = held ?? capture.next() {
                held = nil
                if size >= target && (size >= 8 * target || (datagrams.last?.bytes.last == 0x7E && d.bytes.first == 0x7E)) {
                    held = d
                    break
                }
                size += d.bytes.count
                datagrams.append(d)
            }
            guard !datagrams.isEmpty else { return nil }
            defer {
                offset += size
                index += 1
            }
            return Part(index: index, offset: offset, datagrams: datagrams)
        }
    }

    /// The sequential run's pipeline, and the parts read ahead of their turn.
    struct Writer {
        var pipeline: GatewayPipeline
        var waiting: [Int: Read] = [:]
        var next = 0
        /// Emptied line buffers, for the next parts.
        var spare: [OutputBuffer] = []
        var readAgain = 0
    }

    final class Run: Sendable {
        let fresh: GatewayPipeline
        let json: Bool
        /// The capture's format (the lines say where non-GDL 90 reports came from).
        let format: CaptureFormat
        let partBytes: Int
        let write: @Sendable (inout OutputBuffer) -> Void
        let reading: Locked<Reader>
        let writing: Locked<Writer>
        /// Parts that may still be taken before one is written: how far the threads may run
        /// ahead of the writing (a thread waits on it for a part to be written).
        let slots: Locked<Int>

        init(capture: CaptureStream, pipeline: GatewayPipeline, json: Bool, threads: Int, partBytes: Int,
             write: @escaping @Sendable (inout OutputBuffer) -> Void) {
            fresh = pipeline
            self.json = json
            format = capture.format
            self.partBytes = partBytes
            self.write = write
            reading = Locked(Reader(capture: capture))
            writing = Locked(Writer(pipeline: pipeline))
            slots = Locked(2 * threads)
        }

        var capture: CaptureStream { reading.withLock { $0.capture } }

        /// One thread's loop: take the next part, read it, write what is due.
        func work() {
            var printer = MessagePrinter(json: json, capacity: 0, format: format)
            while true {
                slots.withLock(when: { $0 > 0 }) { free, _ in free -= 1 }
                guard let part = reading.withLock({ $0.next(target: partBytes) }) else {
                    slots.withLockWaking { $0 += 1 }
                    return
                }
                printer.out = writing.withLock { $0.spare.popLast() } ?? OutputBuffer(capacity: 4 * partBytes)
                var pipeline = fresh
                pipeline.startPart(at: part.offset)
                var sawItem = false
                var heartbeatFirst: Double?
                part.forEachDatagram { bytes, time in
                    _ = pipeline.process(datagram: bytes, at: time) { item, t in
                        if !sawItem {
                            sawItem = true
                            if case .message(.heartbeat(let hb), _) = item { heartbeatFirst = Double(hb.secondsSinceMidnight) }
                        }
                        printer.append(item, at: t)
                    }
                }
                let read = Read(part: part, pipeline: pipeline, lines: printer.out, heartbeatFirst: heartbeatFirst)
                printer.out = OutputBuffer(capacity: 0)
                let written = writing.withLock { w in
                    w.waiting[part.index] = read
                    var written = 0
                    while let due = w.waiting.removeValue(forKey: w.next) {
                        writeInTurn(due, &w)
                        w.next += 1
                        written += 1
                    }
                    return written
                }
                if written > 0 { slots.withLockWaking { $0 += written } }
            }
        }

        /// Writes a part's lines in its turn: those read ahead when the sequential run would have
        /// printed the same, else the part read again by the sequential run's pipeline.
        private func writeInTurn(_ read: Read, _ w: inout Writer) {
            var lines = read.lines
            let part = read.part
            if part.index == 0 || (part.startsWithFlag && w.pipeline.continuesFresh(
                firstDatagramTimed: part.firstDatagramTimed, heartbeatFirst: read.heartbeatFirst)) {
                w.pipeline.adopt(read.pipeline)
            } else {
                lines.removeAll()
                var printer = MessagePrinter(json: json, capacity: 0, format: format)
                printer.out = lines
                part.forEachDatagram { bytes, time in
                    _ = w.pipeline.process(datagram: bytes, at: time) { item, t in printer.append(item, at: t) }
                }
                lines = printer.out
                w.readAgain += 1
            }
            write(&lines)
            lines.removeAll()
            w.spare.append(lines)
        }

        /// The end of the capture: a frame left open is reported; the pipeline as the sequential
        /// run leaves it.
        func finish() -> (GatewayPipeline, Int) {
            writing.withLock { w in
                var printer = MessagePrinter(json: json, capacity: 0, format: format)
                printer.out = w.spare.popLast() ?? OutputBuffer(capacity: 0)
                _ = w.pipeline.finish(.openFrameOnly) { item, t in printer.append(item, at: t) }
                if printer.out.count > 0 { write(&printer.out) }
                return (w.pipeline, w.readAgain)
            }
        }
    }
}
