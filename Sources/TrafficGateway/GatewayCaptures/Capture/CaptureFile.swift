import GDL90

/// One UDP payload (or raw chunk) from a capture.
public struct CapturedDatagram: Sendable, Equatable {
    /// Capture time, epoch seconds; nil when the source has none (raw streams).
    public var timestamp: Double?
    /// The UDP payload, or a chunk of a raw stream.
    public var bytes: [UInt8]
    /// Byte offset of the record in the file (for messages).
    public var fileOffset: Int

    /// Creates a datagram.
    public init(timestamp: Double?, bytes: [UInt8], fileOffset: Int) {
        self.timestamp = timestamp
        self.bytes = bytes
        self.fileOffset = fileOffset
    }
}

/// The formats a capture can be in, detected from content (never from the file name).
public enum CaptureFormat: String, Sendable {
    /// Classic libpcap (either byte order, micro- or nanosecond).
    case pcap
    /// pcapng.
    case pcapng
    /// dump978 text lines (`+HEX;…;t=…;` uplinks, `-HEX;…` downlinks).
    case dump978
    /// A raw GDL 90 byte stream.
    case raw
}

/// Why a capture could not be read, or where reading stopped.
public struct CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// Byte offset of the problem, if it has one.
    public var offset: Int?
    /// What is wrong.
    public var reason: String
    /// Reading went on after the damage (a pcapng file's next whole block was found): what came
    /// after it was read too.
    public var readOn = false

    /// Creates an error.
    public init(path: String, offset: Int?, reason: String) {
        self.path = path
        self.offset = offset
        self.reason = reason
    }

    /// "file: at byte N: reason".
    public var description: String {
        "\(path): \(offset.map { "at byte \($0): " } ?? "")\(reason)"
    }
}

/// A capture's contents: what could be read, and the damage that stopped reading, if any.
public struct CaptureContents: Sendable {
    /// Detected format.
    public var format: CaptureFormat
    /// Datagrams in file order.
    public var datagrams: [CapturedDatagram]
    /// Set when the file is damaged or truncated: the datagrams before it are still returned.
    public var error: CaptureError?
    /// Records skipped because they were not UDP to the chosen port.
    public var skipped: Int
    /// The flight recorder's own interfaces (pcapng): those described, and their bytes when read
    /// for them (`CaptureFile.recordingChannels`).
    public var channels = RecordingChannels()
}

/// Reads captures of every supported format.
public enum CaptureFile {
    /// Reads the whole file at `path`, keeping UDP payloads sent to `port` (pcap/pcapng): a
    /// `CaptureStream` collected (commands stream instead, in constant memory).
    public static func read(path: String, port: UInt16 = 4000) throws(CaptureError) -> CaptureContents {
        var stream = try CaptureStream(path: path, port: port)
        var out = CaptureContents(format: stream.format, datagrams: [], error: nil, skipped: 0)
        while let d = stream.next() { out.datagrams.append(d) }
        out.error = stream.error
        out.skipped = stream.skipped
        return out
    }

    /// What the capture at `path` holds on the flight recorder's own interfaces (gpsd fixes, the
    /// session's events: `RecordingChannel`), read through to the end in constant memory besides
    /// them; nothing for a capture of another format or without them. Damage stops reading there
    /// and keeps what was before it (reading the datagrams reports it).
    public static func recordingChannels(path: String) throws(CaptureError) -> RecordingChannels {
        var stream = try CaptureStream(path: path, port: 4000, readsChannels: true)
        guard stream.format == .pcapng else { return RecordingChannels() }
        while stream.next() != nil {}
        return stream.channels
    }

    /// Parses capture bytes already in memory; never traps on any input.
    public static func parse(_ bytes: [UInt8], name: String = "capture", port: UInt16 = 4000) -> CaptureContents {
        switch detect(bytes) {
        case .pcap: return PcapReader.read(bytes, name: name, port: port)
        case .pcapng: return PcapNGReader.read(bytes, name: name, port: port)
        case .dump978: return Dump978Reader.read(bytes, name: name)
        case .raw:
            // One segment a heartbeat, so a raw stream can be paced by its heartbeat clock.
            let out = RawStreamSegmenter.segments(bytes).map {
                CapturedDatagram(timestamp: nil, bytes: Array(bytes[$0]), fileOffset: $0.lowerBound)
            }
            return CaptureContents(format: .raw, datagrams: out, error: nil, skipped: 0)
        }
    }

    /// The format of `bytes`, by magic number or content.
    public static func detect(_ bytes: [UInt8]) -> CaptureFormat {
        if bytes.count >= 4 {
            let magic = UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
            switch magic {
            case 0xA1B2_C3D4, 0xD4C3_B2A1, 0xA1B2_3C4D, 0x4D3C_B2A1: return .pcap
            case 0x0A0D_0D0A: return .pcapng
            default: break
            }
        }
        // dump978: the first non-blank line is [+-] followed by hex digits and a ';' or newline.
        var i = 0
        while i < bytes.count, bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x20 { i += 1 }
        if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D {
            var j = i + 1
            while j < bytes.count, isHex(bytes[j]) { j += 1 }
            if j - i > 16, j == bytes.count || bytes[j] == 0x3B || bytes[j] == 0x0A || bytes[j] == 0x0D { return .dump978 }
        }
        return .raw
    }

    static func isHex(_ c: UInt8) -> Bool { (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102) }
}
