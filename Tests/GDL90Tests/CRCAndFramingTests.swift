import GDL90
import Testing

@Suite(.timeLimit(.minutes(5))) struct CRCAndFramingTests {
    /// ICD §2.2.3/§2.2.4 example: heartbeat `00 81 41 DB D0 08 02` has CRC 0x8BB3.
    @Test func icdHeartbeatCRC() {
        #expect(CRC16.compute(hex("00 81 41 DB D0 08 02")) == 0x8BB3)
        #expect(Framer.frame(hex("00 81 41 DB D0 08 02")) == hex("7E 00 81 41 DB D0 08 02 B3 8B 7E"))
    }

    /// The table is the ICD's: entry 1 is the polynomial, entry 0x80 follows from the shift rule.
    @Test func crcTableMatchesICD() {
        #expect(CRC16.table[0] == 0x0000)
        #expect(CRC16.table[1] == 0x1021)
        #expect(CRC16.table[2] == 0x2042)
        #expect(CRC16.table[255] == 0x1EF0)
    }

    /// The four-bytes-a-step routine equals the ICD's byte-at-a-time loop for every length and
    /// every alignment of the tail (pseudo-random bytes from a fixed seed).
    @Test func slicedCRCEqualsByteAtATime() {
        var seed: UInt32 = 0x1234_5678
        for length in Array(0...70) + [127, 128, 129, 434, 436, 1021] {
            var bytes: [UInt8] = []
            for _ in 0..<length {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                bytes.append(UInt8(truncatingIfNeeded: seed >> 24))
            }
            var reference: UInt16 = 0
            for b in bytes { reference = CRC16.table[Int(reference >> 8)] ^ (reference << 8) ^ UInt16(b) }
            #expect(CRC16.compute(bytes) == reference, "length \(length)")
        }
    }

    /// The ICD's form differs from XMODEM (which gives 0x31C3 for "123456789").
    @Test func crcIsNotXmodem() {
        let digits = Array("123456789".utf8)
        #expect(CRC16.compute(digits) != 0x31C3)
    }

    @Test func icdHeartbeatFrameDeframes() {
        let (frames, errors) = deframe(hex("7E 00 81 41 DB D0 08 02 B3 8B 7E"))
        #expect(errors.isEmpty)
        #expect(frames == [hex("00 81 41 DB D0 08 02")])
    }

    /// A payload holding 0x7E and 0x7D is stuffed as 7D 5E / 7D 5D and comes back intact.
    @Test func escapesInPayload() {
        let message: [UInt8] = [0x09, 0x7E, 0x7D]
        let frame = Framer.frame(message)
        #expect(Array(frame[1...5]) == [0x09, 0x7D, 0x5E, 0x7D, 0x5D])
        #expect(deframe(frame).frames == [message])
    }

    /// Find a message whose CRC contains a byte needing escape, and check it survives.
    @Test func escapesInCRC() {
        var found = 0
        for a in 0...255 {
            for b in 0...255 {
                let message: [UInt8] = [0x09, UInt8(a), UInt8(b)]
                let crc = CRC16.compute(message)
                let lo = UInt8(crc & 0xFF), hi = UInt8(crc >> 8)
                guard [lo, hi].contains(0x7E) || [lo, hi].contains(0x7D) else { continue }
                let frame = Framer.frame(message)
                #expect(frame.count > message.count + 4, "CRC byte must be stuffed")
                #expect(deframe(frame).frames == [message])
                found += 1
            }
        }
        #expect(found > 100)
    }

    @Test func badCRCIsRejectedWithOffsetAndNextFrameSurvives() {
        var bad = Framer.frame(hex("00 81 41 DB D0 08 02"))
        bad[3] ^= 0x01
        let good = Framer.frame(hex("09 01 00"))
        let (frames, errors) = deframe(bad + good)
        #expect(frames == [hex("09 01 00")])
        #expect(errors.count == 1)
        #expect(errors.first?.reason == .crc)
        #expect(errors.first?.offset == 0)
    }

    @Test func garbageBetweenFramesResyncs() {
        let a = Framer.frame(hex("09 01 00"))
        let b = Framer.frame(hex("09 02 00"))
        // Garbage after a closing flag opens a bogus frame that the next flag closes.
        let stream = [0x13, 0x37] + a + [0xDE, 0xAD, 0xBE, 0xEF, 0x00] + b
        let (frames, errors) = deframe(stream)
        #expect(frames == [hex("09 01 00"), hex("09 02 00")])
        #expect(errors.map(\.reason) == [.unsynced, .crc])
        #expect(errors[0].offset == 0 && errors[0].length == 2)
        #expect(errors[1].offset == 2 + a.count - 1)
    }

    /// `7E …7E 7E …7E` and frames sharing a single flag both work.
    @Test func backToBackAndSharedFlags() {
        let a = Framer.frame(hex("09 01 00"))
        let b = Framer.frame(hex("09 02 00"))
        #expect(deframe(a + b).frames.count == 2)
        let shared = a + b.dropFirst()
        let (frames, errors) = deframe(Array(shared))
        #expect(frames == [hex("09 01 00"), hex("09 02 00")])
        #expect(errors.isEmpty)
        #expect(deframe([0x7E, 0x7E, 0x7E] + a).errors.isEmpty)
    }

    @Test func tooShortAndBadEscape() {
        #expect(deframe([0x7E, 0x09, 0x01, 0x7E]).errors.map(\.reason) == [.tooShort])
        let badEscape: [UInt8] = [0x7E, 0x09, 0x01, 0x00, 0x7D, 0x7E]
        #expect(deframe(badEscape).errors.map(\.reason) == [.badEscape])
    }

    @Test func oversizedFrameIsRejected() {
        let long = [UInt8](repeating: 0x11, count: Deframer.maximumFrameLength + 10)
        let stream = [0x7E] + long + Framer.frame(hex("09 01 00"))
        let (frames, errors) = deframe(stream)
        #expect(errors.map(\.reason) == [.oversized])
        #expect(frames == [hex("09 01 00")])
    }

    @Test func truncatedLastFrame() {
        let a = Framer.frame(hex("00 81 41 DB D0 08 02"))
        let cut = Array(Framer.frame(hex("09 01 00")).dropLast(2))
        let (frames, errors) = deframe(a + cut)
        #expect(frames.count == 1)
        #expect(errors.map(\.reason) == [.truncated])
        #expect(errors.first?.offset == a.count)
    }

    /// Splitting a stream at every possible byte position gives the same frames and errors.
    @Test func splitAtEveryBytePosition() {
        var stream: [UInt8] = [0xAA]
        stream += Framer.frame(hex("00 81 41 DB D0 08 02"))
        stream += Framer.frame([0x09, 0x7E, 0x7D])
        var corrupted = Framer.frame(hex("09 00 10"))
        corrupted[2] ^= 0xFF
        stream += corrupted
        stream += Framer.frame(hex("14 00 AB 45 49 1F EF 15 A8 89 78 0F 09 A9 07 B0 01 20 01 4E 38 32 35 56 20 20 20 00"))
        let reference = deframe(stream)
        #expect(reference.frames.count == 3)
        #expect(reference.errors.count == 2)
        for split in 1..<stream.count {
            var deframer = Deframer()
            var frames: [[UInt8]] = []
            var errors: [FrameError] = []
            let sink: (DeframerEvent) -> Void = {
                switch $0 {
                case .frame(let f): frames.append(Array(f.message))
                case .rejected(let e): errors.append(e)
                }
            }
            deframer.feed(stream[..<split], sink)
            deframer.feed(stream[split...], sink)
            deframer.finish(sink)
            #expect(frames == reference.frames, "split at \(split)")
            #expect(errors == reference.errors, "split at \(split)")
        }
        let byteAtATime = deframe(stream, chunk: 1)
        #expect(byteAtATime.frames == reference.frames)
        #expect(byteAtATime.errors == reference.errors)
    }

    @Test func offsetsAccumulateAcrossFeeds() {
        let a = Framer.frame(hex("09 01 00"))
        var deframer = Deframer()
        var offsets: [Int] = []
        for _ in 0..<3 {
            deframer.feed(a) { if case .frame(let f) = $0 { offsets.append(f.offset) } }
        }
        #expect(offsets == [0, a.count, 2 * a.count])
    }
}
