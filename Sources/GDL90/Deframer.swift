/// A complete, CRC-checked GDL 90 frame as the deframer hands it on.
///
/// `message` is the unescaped message ID and payload (CRC removed). It points into the bytes
/// being fed (a frame with no escape, whole in one `feed`) or into the deframer's own buffer:
/// valid only for the duration of the callback; copy it (`Array(frame.message)`) to keep it.
public struct Frame {
    /// Message ID followed by the payload, byte-stuffing removed, CRC stripped.
    public var message: UnsafeRawBufferPointer
    /// Stream offset of the frame's opening flag.
    public var offset: Int
    /// The message ID (first byte of `message`).
    @inlinable public var messageID: UInt8 { message[0] }
}

/// The deframer's frame buffer: allocated once, copied only if a `Deframer` value is copied and
/// then fed (copy-on-write checked once per `feed`, never per byte).
@usableFromInline
final class DeframerStorage: @unchecked Sendable {  // copied before any write when shared (isKnownUniquelyReferenced)
    @usableFromInline let bytes: UnsafeMutablePointer<UInt8>

    init() {
        bytes = .allocate(capacity: Deframer.maximumFrameLength)
        bytes.initialize(repeating: 0, count: Deframer.maximumFrameLength)
    }

    func copy() -> DeframerStorage {
        let c = DeframerStorage()
        c.bytes.update(from: bytes, count: Deframer.maximumFrameLength)
        return c
    }

    deinit { bytes.deallocate() }
}

/// What the deframer reports while it reads: a good frame or a rejected run of bytes.
public enum DeframerEvent {
    /// A frame whose CRC matched.
    case frame(Frame)
    /// A run of bytes that did not make a valid frame, with the reason and where.
    case rejected(FrameError)
}

/// Streaming GDL 90 deframer (ICD §2.2).
///
/// Feed it bytes in chunks of any size — a datagram, a file read, a single byte — and it calls
/// back with the same frames and rejections whatever the chunking. It follows the flag rules of
/// real streams: every 0x7E both closes the frame before it and opens the next, so back-to-back
/// frames sharing a single flag are kept, and empty frames (`7E 7E`) are skipped silently.
///
/// Hot path: no allocation per byte or per frame (the frame buffer is allocated once with room
/// for the largest frame), and a frame with no escape, whole in the bytes fed, is found sixteen
/// bytes a step and checked where it lies, without a copy.
public struct Deframer: Sendable {
    /// The longest unescaped frame (ID + payload + CRC) accepted. Uplinks are 436 bytes plus CRC;
    /// some senders pad reports to the same size. Longer runs are rejected as `oversized`.
    public static let maximumFrameLength = 1024

    @usableFromInline var storage: DeframerStorage
    @usableFromInline var count = 0
    @usableFromInline var escaped = false
    @usableFromInline var badEscape = false
    @usableFromInline var overflowed = false
    /// Raw bytes seen since the opening flag (excluding it), for error reports.
    @usableFromInline var rawLength = 0
    /// Offset of the current frame's opening flag, or nil before the first flag of the stream.
    @usableFromInline var frameStart: Int? = nil
    /// Total bytes consumed so far: the stream offset of the next byte.
    public private(set) var offset = 0

    /// Creates a deframer at stream offset 0, before any flag.
    public init() {
        storage = DeframerStorage()
    }

    /// Creates a deframer, before any flag, whose first byte is at stream offset `offset` (a
    /// stream read in parts, each by a deframer of its own, reports the offsets of the whole).
    public init(offset: Int) {
        storage = DeframerStorage()
        self.offset = offset
    }

    /// Whether nothing of a frame is held: no byte since the last flag (or none seen yet) and no
    /// escape pending. Fed next a flag, such a deframer reports what a new one would.
    public var holdsNothing: Bool { rawLength == 0 && !escaped }

    /// Consumes `bytes`, calling `body` for each frame completed and each rejection.
    public mutating func feed<C: Collection>(_ bytes: C, _ body: (DeframerEvent) -> Void) where C.Element == UInt8 {
        if bytes.withContiguousStorageIfAvailable({ feed(UnsafeRawBufferPointer($0), body) }) == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { feed($0, body) }
        }
    }

    /// Consumes the bytes in `input`, calling `body` for each frame completed and each rejection.
    ///
    /// A frame that lies whole in `input` with no escape in it (nearly every frame of a real
    /// stream) is checked and handed on where it lies: the scan for its closing flag reads sixteen
    /// bytes a step and nothing is copied. Escaped frames, and frames cut by the end of `input`,
    /// go through the frame buffer a byte (or an ordinary run) at a time.
    public mutating func feed(_ input: UnsafeRawBufferPointer, _ body: (DeframerEvent) -> Void) {
        guard let start = input.baseAddress, input.count > 0 else { return }
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        let buffer = storage.bytes
        let base = offset
        var index = 0
        let n = input.count
        while index < n {
            // A frame just opened, nothing of it held: if its closing flag is in `input` and
            // no escape comes first, the frame is checked in place.
            if count == 0 && rawLength == 0 && !escaped && frameStart != nil {
                let special = Deframer.nextSpecial(start, from: index, to: n)
                if special < n && start.load(fromByteOffset: special, as: UInt8.self) == 0x7E
                    && special - index <= Deframer.maximumFrameLength {
                    if special > index {
                        closeFrame(in: UnsafeRawBufferPointer(start: start + index, count: special - index), body)
                    }
                    frameStart = base + special
                    index = special + 1
                    continue
                }
            }
            let byte = input[index]
            if byte == 0x7E {
                closeFrame(body)
                frameStart = base + index
                index += 1
                continue
            }
            if frameStart == nil {
                // Unsynchronised: skip to the first flag and report the skipped run once.
                var end = index
                while end < n && input[end] != 0x7E { end += 1 }
                body(.rejected(FrameError(reason: .unsynced, offset: base + index, length: end - index)))
                index = end
                continue
            }
            if !escaped && byte != 0x7D {
                // The run of ordinary bytes up to the next flag or escape, copied at once (as much
                // of it as fits; the rest is counted and marks the frame oversized).
                let end = Deframer.nextSpecial(start, from: index, to: n)
                let run = end - index
                let room = Deframer.maximumFrameLength - count
                if run <= room {
                    (buffer + count).update(from: (start + index).assumingMemoryBound(to: UInt8.self), count: run)
                    count &+= run
                } else {
                    (buffer + count).update(from: (start + index).assumingMemoryBound(to: UInt8.self), count: room)
                    count = Deframer.maximumFrameLength
                    overflowed = true
                }
                rawLength &+= run
                index = end
                continue
            }
            rawLength &+= 1
            var value = byte
            if escaped {
                escaped = false
                value ^= 0x20
            } else if byte == 0x7D {
                escaped = true
                index += 1
                continue
            }
            if count < Deframer.maximumFrameLength {
                buffer[count] = value
                count &+= 1
            } else {
                overflowed = true
            }
            index += 1
        }
        offset = base + n
    }

    /// The index of the first flag (0x7E) or escape (0x7D) in `bytes[from..<to]`, or `to`.
    ///
    /// Sixteen bytes a step with vector compares (`SIMD16`: `pcmpeqb`/`pmovmskb` on x86-64, `cmeq`
    /// and a max-reduction on ARM64); the step that holds a match gives its first byte from the
    /// mask's two words. The last step of a range of sixteen bytes or more overlaps the one before
    /// it (the bytes read twice held neither value); a shorter range is read a byte at a time.
    @inlinable @inline(__always)
    static func nextSpecial(_ bytes: UnsafeRawPointer, from: Int, to: Int) -> Int {
        var i = from
        if to &- from >= 16 {
            let flag = SIMD16<UInt8>(repeating: 0x7E), escape = SIMD16<UInt8>(repeating: 0x7D)
            while true {
                if i &+ 16 > to { i = to &- 16 }
                let v = bytes.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                let hits = (v .== flag) .| (v .== escape)
                if any(hits) {
                    // Matching lanes are all ones: the first is the lowest set byte of the two words.
                    let words = unsafeBitCast(hits, to: SIMD2<UInt64>.self)
                    let low = words[0].littleEndian
                    return low != 0 ? i &+ low.trailingZeroBitCount >> 3 : i &+ 8 &+ words[1].littleEndian.trailingZeroBitCount >> 3
                }
                if i &+ 16 == to { return to }
                i &+= 16
            }
        }
        while i < to {
            let b = bytes.load(fromByteOffset: i, as: UInt8.self)
            if b == 0x7E || b == 0x7D { return i }
            i &+= 1
        }
        return to
    }

    /// Signals the end of input: a frame still open is reported as `truncated`.
    /// The deframer is reset and can be reused for a new stream.
    public mutating func finish(_ body: (DeframerEvent) -> Void) {
        if let start = frameStart, rawLength > 0 {
            body(.rejected(FrameError(reason: .truncated, offset: start, length: rawLength)))
        }
        self = Deframer()
    }

    /// Closes a frame whose unescaped bytes (`raw`, not empty, no escape in it, at most
    /// `maximumFrameLength`) lie in the caller's input: the same checks as `closeFrame`.
    @usableFromInline func closeFrame(in raw: UnsafeRawBufferPointer, _ body: (DeframerEvent) -> Void) {
        guard let start = frameStart else { return }
        guard raw.count >= 3 else {
            body(.rejected(FrameError(reason: .tooShort, offset: start, length: raw.count)))
            return
        }
        let bodyCount = raw.count - 2
        let received = UInt16(raw[bodyCount]) | UInt16(raw[bodyCount + 1]) << 8
        guard received == CRC16.compute(UnsafeRawBufferPointer(rebasing: raw[0..<bodyCount])) else {
            body(.rejected(FrameError(reason: .crc, offset: start, length: raw.count)))
            return
        }
        body(.frame(Frame(message: UnsafeRawBufferPointer(rebasing: raw[0..<bodyCount]), offset: start)))
    }

    @usableFromInline mutating func closeFrame(_ body: (DeframerEvent) -> Void) {
        defer {
            count = 0
            rawLength = 0
            escaped = false
            overflowed = false
        }
        guard let start = frameStart, rawLength > 0 else { return }
        let reason: FrameError.Reason?
        var bodyCount = 0
        if overflowed {
            reason = .oversized
        } else if escaped {
            reason = .badEscape
        } else if count < 3 {
            reason = .tooShort
        } else {
            bodyCount = count - 2
            let buffer = storage.bytes
            let received = UInt16(buffer[bodyCount]) | UInt16(buffer[bodyCount + 1]) << 8
            let computed = CRC16.compute(UnsafeRawBufferPointer(start: buffer, count: bodyCount))
            reason = received == computed ? nil : .crc
        }
        if let reason {
            body(.rejected(FrameError(reason: reason, offset: start, length: rawLength)))
            return
        }
        body(.frame(Frame(message: UnsafeRawBufferPointer(start: storage.bytes, count: bodyCount), offset: start)))
    }
}
