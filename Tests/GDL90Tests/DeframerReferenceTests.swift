import GDL90
import Testing

/// The deframer against a plain byte-at-a-time reading of ICD §2.2 written here (every flag
/// closes the frame before it and opens the next; 0x7D escapes the next byte; frames checked
/// after unescaping), over seeded random streams cut into random chunks: the in-place path for
/// whole unescaped frames, the buffered path for escaped and cut ones, and every rejection must
/// give the same frames, reasons, offsets and lengths.
@Suite(.timeLimit(.minutes(5))) struct DeframerReferenceTests {
    enum Event: Equatable, CustomStringConvertible {
        case frame([UInt8], offset: Int)
        case rejected(FrameError)
        var description: String {
            switch self {
            case .frame(let b, let o): "frame \(b.count) bytes at \(o)"
            case .rejected(let e): "\(e.reason) at \(e.offset) (\(e.length))"
            }
        }

        /// What a deframer reported, kept (a frame's message copied out of the callback).
        init(_ event: DeframerEvent) {
            switch event {
            case .frame(let f): self = .frame(Array(f.message), offset: f.offset)
            case .rejected(let e): self = .rejected(e)
            }
        }
    }

    /// The reference: one byte at a time, nothing clever.
    static func reference(_ stream: [UInt8]) -> [Event] {
        var events: [Event] = []
        var start: Int?
        var raw = 0
        var body: [UInt8] = []
        var escaped = false
        var overflowed = false
        func close() {
            guard let s = start, raw > 0 else { return }
            if overflowed {
                events.append(.rejected(FrameError(reason: .oversized, offset: s, length: raw)))
            } else if escaped {
                events.append(.rejected(FrameError(reason: .badEscape, offset: s, length: raw)))
            } else if body.count < 3 {
                events.append(.rejected(FrameError(reason: .tooShort, offset: s, length: raw)))
            } else {
                let message = Array(body.dropLast(2))
                let received = UInt16(body[body.count - 2]) | UInt16(body[body.count - 1]) << 8
                var crc: UInt16 = 0
                for b in message { crc = CRC16.table[Int(crc >> 8)] ^ (crc << 8) ^ UInt16(b) }
                events.append(received == crc ? .frame(message, offset: s) : .rejected(FrameError(reason: .crc, offset: s, length: raw)))
            }
        }
        var i = 0
        while i < stream.count {
            let b = stream[i]
            if b == 0x7E {
                close()
                start = i
                raw = 0
                body = []
                escaped = false
                overflowed = false
            } else if start == nil {
                var end = i
                while end < stream.count && stream[end] != 0x7E { end += 1 }
                events.append(.rejected(FrameError(reason: .unsynced, offset: i, length: end - i)))
                i = end
                continue
            } else {
                raw += 1
                if escaped || b != 0x7D {
                    if body.count < Deframer.maximumFrameLength { body.append(escaped ? b ^ 0x20 : b) } else { overflowed = true }
                    escaped = false
                } else {
                    escaped = true
                }
            }
            i += 1
        }
        if let s = start, raw > 0 { events.append(.rejected(FrameError(reason: .truncated, offset: s, length: raw))) }
        return events
    }

    static func deframed(_ stream: [UInt8], chunks: [Int]) -> [Event] {
        var deframer = Deframer()
        var events: [Event] = []
        let sink: (DeframerEvent) -> Void = { events.append(Event($0)) }
        var i = 0
        var k = 0
        while i < stream.count {
            let end = min(stream.count, i + chunks[k % chunks.count])
            stream[i..<end].withUnsafeBytes { deframer.feed($0, sink) }
            i = end
            k += 1
        }
        deframer.finish(sink)
        // Bytes before the first flag are reported as each chunk brings them: join the pieces.
        var joined: [Event] = []
        for e in events {
            if case .rejected(let next) = e, next.reason == .unsynced, case .rejected(let last)? = joined.last,
               last.reason == .unsynced, last.offset + last.length == next.offset {
                joined[joined.count - 1] = .rejected(FrameError(reason: .unsynced, offset: last.offset, length: last.length + next.length))
            } else {
                joined.append(e)
            }
        }
        return joined
    }

    @Test func randomStreamsDeframeAsTheByteAtATimeReading() {
        var random = SeededNumbers(seed: 0x5EED)
        func next(_ bound: Int) -> Int { random.next(bound) }
        var framesSeen = 0
        var reasonsSeen = Set<FrameError.Reason>()
        for _ in 0..<300 {
            var stream: [UInt8] = []
            if next(3) == 0 { stream += (0..<next(20)).map { _ in UInt8(next(0x7E)) } }  // unsynced lead-in
            for _ in 0..<next(40) {
                switch next(12) {
                case 0: stream += (0..<next(8)).map { _ in UInt8(next(256)) }  // junk (may hold flags and escapes)
                case 1: stream += [0x7E, 0x7E]  // empty frame
                case 2: stream += [0x7E] + [UInt8](repeating: 0x11, count: 1000 + next(60)) + [0x7E]  // around the size limit
                case 3: stream += [0x7E, 0x7D, 0x7E]  // escape before a flag
                default:
                    // A real frame (message bytes drawn to hit 0x7D and 0x7E often), sometimes damaged.
                    var message = (0..<(1 + next(60))).map { _ in UInt8(next(4) == 0 ? 0x7C + next(4) : next(256)) }
                    if next(10) == 0 { message += [UInt8](repeating: 0x20, count: 380 + next(60)) }
                    var frame = Framer.frame(message)
                    if next(8) == 0 { frame[1 + next(frame.count - 2)] ^= 0x04 }
                    if next(2) == 0 { frame.removeFirst() }  // share the previous frame's closing flag
                    stream += frame
                }
            }
            let expected = Self.reference(stream)
            for e in expected {
                if case .frame = e { framesSeen += 1 }
                if case .rejected(let r) = e { reasonsSeen.insert(r.reason) }
            }
            for chunks in [[Int.max], [1], [7, 1, 300], [next(50) + 1, next(500) + 1]] {
                #expect(Self.deframed(stream, chunks: chunks) == expected, "chunks \(chunks)")
            }
        }
        #expect(framesSeen > 1000)
        #expect(reasonsSeen == Set(FrameError.Reason.allCases), "every rejection met: \(reasonsSeen)")
    }

    /// A stream cut at a flag where the deframer holds nothing (`holdsNothing`) and read in two
    /// parts, the second by a deframer of its own started at the cut's offset (`init(offset:)`),
    /// gives the events of the whole: what `ParallelDecode` relies on. Cut where it holds part of
    /// a frame, the two parts do not (the check means something).
    @Test func aStreamCutAtRestReadsAsAWhole() {
        var random = SeededNumbers(seed: 0xC0FFEE)
        func next(_ bound: Int) -> Int { random.next(bound) }
        var atRest = 0
        var holding = 0
        for _ in 0..<60 {
            var stream: [UInt8] = []
            for _ in 0..<(5 + next(30)) {
                var frame = Framer.frame((0..<(1 + next(40))).map { _ in UInt8(next(4) == 0 ? 0x7C + next(4) : next(256)) })
                if next(6) == 0 { frame[1 + next(frame.count - 2)] ^= 0x04 }
                if next(3) == 0 { frame.removeFirst() }  // share the previous frame's closing flag
                stream += frame
            }
            let whole = Self.reference(stream)
            for cut in stream.indices where stream[cut] == 0x7E && cut > 0 {
                var first = Deframer()
                var events: [Event] = []
                let sink: (DeframerEvent) -> Void = { events.append(Event($0)) }
                stream[..<cut].withUnsafeBytes { first.feed($0, sink) }
                let rests = first.holdsNothing
                var second = Deframer(offset: cut)
                stream[cut...].withUnsafeBytes { second.feed($0, sink) }
                #expect(second.offset == stream.count)
                second.finish(sink)
                if rests {
                    atRest += 1
                    #expect(events == whole, "cut at \(cut)")
                } else {
                    holding += 1
                    #expect(events != whole, "cut at \(cut), inside a frame")
                }
            }
        }
        #expect(atRest > 500)
        #expect(holding > 100)
    }

    /// The scan for the next flag or escape reads sixteen bytes a step, then eight, then one: a
    /// flag or escape at every position of frames of every length up to several steps, at every
    /// alignment, among bytes that differ from 0x7D and 0x7E by one bit or one unit, must be found
    /// where the byte-at-a-time reading finds it.
    @Test func aFlagOrEscapeAtEveryPositionAndAlignmentIsFound() {
        let fillers: [UInt8] = [0x7C, 0x7F, 0xFE, 0xFD, 0x5E, 0x00, 0x3E]
        var streams = 0
        for length in 1...70 {
            for position in 0..<length {
                let special: UInt8 = position % 2 == 0 ? 0x7D : 0x7E
                let filler = fillers[(length + position) % fillers.count]
                var message = [UInt8](repeating: filler, count: length)
                message[position] = special
                let lead = [UInt8](repeating: 0x7E, count: 1 + (length + position) % 17)  // shifts the alignment
                // Escaped (the framer stuffs the byte) and raw (a flag cuts the frame, an escape
                // swallows the byte after it).
                for stream in [lead + Framer.frame(message), lead + message + [0x7E]] {
                    let expected = Self.reference(stream)
                    for chunks in [[Int.max], [position + 1], [3, 16]] {
                        #expect(Self.deframed(stream, chunks: chunks) == expected, "length \(length), position \(position), chunks \(chunks)")
                    }
                    streams += 1
                }
            }
        }
        #expect(streams == 70 * 71)
    }

    /// The framer's run-at-a-time path (bytes in memory) against its byte-at-a-time path (a
    /// collection with no contiguous storage), over messages thick with flags and escapes, and
    /// what it frames deframes back to the message.
    @Test func framerRunsMatchTheByteAtATimeStuffing() {
        var seed: UInt64 = 0xF4A3
        for length in Array(1...40) + [200, 436, 1000] {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let message = (0..<length).map { i -> UInt8 in
                let r = UInt8(truncatingIfNeeded: (seed >> UInt64(i % 57)) ^ UInt64(i &* 31))
                return r % 3 == 0 ? 0x7C + r % 4 : r
            }
            let viaRuns = Framer.frame(message)
            let viaBytes = Framer.frame(message.indices.lazy.map { message[$0] })
            #expect(viaRuns == viaBytes, "length \(length)")
            var prefix: [UInt8] = [1, 2, 3]
            Framer.append(message, to: &prefix)
            #expect(prefix == [1, 2, 3] + viaBytes)
            if length <= Deframer.maximumFrameLength - 2 {
                #expect(Self.reference(viaRuns) == [.frame(message, offset: 0)])
            }
        }
    }
}
