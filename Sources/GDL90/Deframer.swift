/// A complete, CRC-checked GDL 90 frame as the deframer hands it on.
///
/// `message` is the unescaped message ID and payload (CRC removed). It points into the
/// deframer's own buffer: valid only for the duration of the callback; copy it
/// (`Array(frame.message)`) to keep it.
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
/// Hot path: one pass over the input, no allocation per byte or per frame (the frame buffer is
/// allocated once with room for the largest frame).
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

    /// Consumes `bytes`, calling `body` for each frame completed and each rejection.
    public mutating func feed<C: Collection>(_ bytes: C, _ body: (DeframerEvent) -> Void) where C.Element == UInt8 {
        if bytes.withContiguousStorageIfAvailable({ feed(UnsafeRawBufferPointer($0), body) }) == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { feed($0, body) }
        }
    }

    /// Consumes the bytes in `input`, calling `body` for each frame completed and each rejection.
    public mutating func feed(_ input: UnsafeRawBufferPointer, _ body: (DeframerEvent) -> Void) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        let buffer = storage.bytes
        let base = offset
        var index = 0
        let n = input.count
        while index < n {
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
            if !escaped && byte | 0x03 != 0x7F {
                // Fast path: copy the run of ordinary bytes (anything but 0x7C...0x7F) that fits.
                let room = Deframer.maximumFrameLength - count
                let limit = index + min(n - index, room)
                var end = index
                while end < limit {
                    let b = input[end]
                    if b | 0x03 == 0x7F { break }
                    buffer[count &+ (end &- index)] = b
                    end &+= 1
                }
                let run = end - index
                if run > 0 {
                    count &+= run
                    rawLength &+= run
                    index = end
                    continue
                }
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

    /// Signals the end of input: a frame still open is reported as `truncated`.
    /// The deframer is reset and can be reused for a new stream.
    public mutating func finish(_ body: (DeframerEvent) -> Void) {
        if let start = frameStart, rawLength > 0 {
            body(.rejected(FrameError(reason: .truncated, offset: start, length: rawLength)))
        }
        self = Deframer()
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
