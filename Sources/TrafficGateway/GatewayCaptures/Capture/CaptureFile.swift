import GDL90

/// One UDP payload (or raw chunk) from a capture.
package struct CapturedDatagram: Sendable, Equatable {
    /// Capture time, epoch seconds; nil when the source has none (raw streams).
    package var timestamp: Double?
    /// The UDP payload, or a chunk of a raw stream.
    package var bytes: [UInt8]
    /// Byte offset of the record in the file (for messages).
    package var fileOffset: Int

    /// Creates a datagram.
    package init(timestamp: Double?, bytes: [UInt8], fileOffset: Int) {
        self.timestamp = timestamp
        self.bytes = bytes
        self.fileOffset = fileOffset
    }
}

/// The formats a capture can be in, detected from content (never from the file name).
package enum CaptureFormat: String, Sendable {
    /// Classic libpcap (either byte order, micro- or nanosecond).
    case pcap
    /// pcapng.
    case pcapng
    /// dump978 text lines (`+HEX;…;t=…;` uplinks, `-HEX;…` downlinks).
    case dump978
    /// A raw GDL 90 byte stream.
    case raw
    /// A Stratux UAT replay log (`NNNN-uat.log`: `START,…`, then `<ns>,+HEX;…` and `<ns>,-HEX;…`).
    case stratuxUAT
    /// SBS BaseStation text (`MSG,…`): a Stratux 1090ES replay log (`<ns>,MSG,…` after `START,…`)
    /// or what dump1090/readsb serve on port 30003.
    case sbs
    /// A Stratux GPS replay log (`NNNN-gps.log`: `<ns>,$GPRMC,…` NMEA after `START,…`).
    case stratuxGPS
    /// A Stratux replay-log session: its UAT, 1090ES and GPS logs (`DIR/NNNN-uat.log`, …, given by
    /// their stem `DIR/NNNN`) read as one stream on one clock.
    case stratuxSession

    /// What a person calls it, for messages.
    package var name: String {
        switch self {
        case .pcap: "pcap"
        case .pcapng: "pcapng"
        case .dump978: "dump978 text"
        case .raw: "raw GDL 90"
        case .stratuxUAT: "Stratux UAT replay log"
        case .sbs: "SBS BaseStation text"
        case .stratuxGPS: "Stratux GPS replay log"
        case .stratuxSession: "Stratux replay logs"
        }
    }

    /// The lines a text log of this format holds (nil: not a text log read by `TextLogReader`).
    var textLogKind: TextLogReader.Kind? {
        switch self {
        case .stratuxUAT: .uat
        case .sbs: .sbs
        case .stratuxGPS: .nmea
        default: nil
        }
    }

}

/// Why a capture could not be read, or where reading stopped.
package struct CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    package var path: String
    /// Byte offset of the problem, if it has one.
    package var offset: Int?
    /// What is wrong.
    package var reason: String
    /// Reading went on after the damage (a pcapng file's next whole block was found): what came
    /// after it was read too.
    package var readOn = false

    /// Creates an error.
    package init(path: String, offset: Int?, reason: String) {
        self.path = path
        self.offset = offset
        self.reason = reason
    }

    /// "file: at byte N: reason".
    package var description: String {
        "\(path): \(offset.map { "at byte \($0): " } ?? "")\(reason)"
    }
}

/// A capture's contents: what could be read, and the damage that stopped reading, if any.
package struct CaptureContents: Sendable {
    /// Detected format.
    package var format: CaptureFormat
    /// Datagrams in file order.
    package var datagrams: [CapturedDatagram]
    /// Set when the file is damaged or truncated: the datagrams before it are still returned.
    package var error: CaptureError?
    /// Records skipped because they were not UDP to the chosen port.
    package var skipped: Int
    /// The flight recorder's own interfaces (pcapng): those described, and their bytes when read
    /// for them (`CaptureFile.recordingChannels`).
    package var channels = RecordingChannels()
}

/// Reads captures of every supported format.
package enum CaptureFile {
    /// Reads the whole file at `path`, keeping UDP payloads sent to `port` (pcap/pcapng): a
    /// `CaptureStream` collected (commands stream instead, in constant memory).
    package static func read(path: String, port: UInt16 = 4000) throws(CaptureError) -> CaptureContents {
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
    package static func recordingChannels(path: String) throws(CaptureError) -> RecordingChannels {
        var stream = try CaptureStream(path: path, port: 4000, readsChannels: true)
        guard stream.format == .pcapng else { return RecordingChannels() }
        while stream.next() != nil {}
        return stream.channels
    }

    /// Parses capture bytes already in memory; never traps on any input.
    package static func parse(_ bytes: [UInt8], name: String = "capture", port: UInt16 = 4000) -> CaptureContents {
        let format = detect(bytes)
        switch format {
        case .pcap: return PcapReader.read(bytes, name: name, port: port)
        case .pcapng: return PcapNGReader.read(bytes, name: name, port: port)
        case .dump978: return Dump978Reader.read(bytes, name: name)
        case .stratuxSession:
            // Several files, never one in memory.
            return CaptureContents(format: format, datagrams: [], error: nil, skipped: 0)
        case .stratuxUAT, .sbs, .stratuxGPS:
            var reader = TextLogReader(kind: format.textLogKind!)
            var out = CaptureContents(format: format, datagrams: [], error: nil, skipped: 0)
            _ = reader.scan(bytes, base: 0, atEnd: true, into: &out)
            if out.error == nil { out.error = reader.problems.error(path: name) }
            return out
        case .raw:
            // One segment a heartbeat, so a raw stream can be paced by its heartbeat clock.
            let out = RawStreamSegmenter.segments(bytes).map {
                CapturedDatagram(timestamp: nil, bytes: Array(bytes[$0]), fileOffset: $0.lowerBound)
            }
            return CaptureContents(format: .raw, datagrams: out, error: nil, skipped: 0)
        }
    }

    /// The format of `bytes`, by magic number or content.
    package static func detect(_ bytes: [UInt8]) -> CaptureFormat {
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
        if isDump978Line(bytes, at: i) { return .dump978 }
        // Text logs: a Stratux replay log's START line, or its first `<ns>,` line; SBS lines.
        if startsWith(bytes, at: i, "START,") || startsWith(bytes, at: i, "MSG,") || nanosecondsEnd(bytes, at: i) != nil {
            // The first line that is not START decides what the log holds.
            var line = i
            while line < bytes.count {
                if !startsWith(bytes, at: line, "START,") {
                    let body = nanosecondsEnd(bytes, at: line) ?? line
                    if isDump978Line(bytes, at: body) { return .stratuxUAT }
                    if startsWith(bytes, at: body, "MSG,") { return .sbs }
                    if startsWith(bytes, at: body, "$") { return .stratuxGPS }
                    break
                }
                guard let newline = bytes[line...].firstIndex(of: 0x0A) else { return .stratuxUAT }
                line = newline + 1
                while line < bytes.count, bytes[line] == 0x0A || bytes[line] == 0x0D { line += 1 }
            }
            // A START line and nothing after it yet: an empty UAT log (Stratux starts each log so).
            if startsWith(bytes, at: i, "START,") { return .stratuxUAT }
        }
        return .raw
    }

    /// Whether a dump978 line (`+` or `-`, more than 16 hex digits, then `;` or the line's end) begins at `i`.
    static func isDump978Line(_ bytes: [UInt8], at i: Int) -> Bool {
        guard i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D else { return false }
        var j = i + 1
        while j < bytes.count, isHex(bytes[j]) { j += 1 }
        return j - i > 16 && (j == bytes.count || bytes[j] == 0x3B || bytes[j] == 0x0A || bytes[j] == 0x0D)
    }

    /// Whether `text` begins at `i`.
    static func startsWith(_ bytes: [UInt8], at i: Int, _ text: String) -> Bool {
        let t = Array(text.utf8)
        return i + t.count <= bytes.count && bytes[i..<(i + t.count)].elementsEqual(t)
    }

    /// Where the line after a replay log's `<nanoseconds>,` begins, when one begins at `i`.
    static func nanosecondsEnd(_ bytes: [UInt8], at i: Int) -> Int? {
        var j = i
        while j < bytes.count, j - i < 20, bytes[j] >= 48, bytes[j] <= 57 { j += 1 }
        guard j > i, j < bytes.count, bytes[j] == 0x2C else { return nil }
        return j + 1
    }

    static func isHex(_ c: UInt8) -> Bool { (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102) }
}
