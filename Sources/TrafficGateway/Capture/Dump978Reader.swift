import GDL90

/// dump978 text output: `+HEX;rs=…;t=UNIX.frac;` (uplinks) and `-HEX;…` (ADS-B downlinks).
/// Each line becomes a GDL 90 frame (0x07 uplink, 0x1E/0x1F report) so every capture format
/// flows into the same deframer.
struct Dump978Reader {
    private var lineNumber = 0

    static func read(_ bytes: [UInt8], name: String) -> CaptureContents {
        var out = CaptureContents(format: .dump978, datagrams: [], error: nil, skipped: 0)
        var reader = Dump978Reader()
        _ = reader.scan(bytes, base: 0, atEnd: true, name: name, into: &out)
        return out
    }

    /// Reads the whole lines at the start of `bytes` (file offset `base`) into `out`; returns
    /// the bytes consumed. A line cut by the window's end waits for more, unless `atEnd`.
    mutating func scan(_ bytes: [UInt8], base: Int, atEnd: Bool, name: String, into out: inout CaptureContents) -> Int {
        var lineStart = 0
        while lineStart < bytes.count {
            var end = lineStart
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            if end == bytes.count && !atEnd { break }
            lineNumber += 1
            let line = bytes[lineStart..<end]
            defer { lineStart = end + 1 }
            guard let first = line.first(where: { $0 != 0x20 && $0 != 0x0D }) else { continue }
            guard first == 0x2B || first == 0x2D else { out.skipped += 1; continue }
            let fields = line.split(separator: 0x3B, omittingEmptySubsequences: false)
            let hex = fields[0].drop(while: { $0 != 0x2B && $0 != 0x2D }).dropFirst()
            guard hex.count % 2 == 0, let payload = Self.decodeHex(hex) else {
                out.error = CaptureError(path: name, offset: base + lineStart, reason: "line \(lineNumber) is not valid dump978 hex")
                out.skipped += 1
                continue
            }
            var time: Double? = nil
            for f in fields.dropFirst() where f.starts(with: Array("t=".utf8)) {
                time = Double(String(decoding: f.dropFirst(2), as: UTF8.self))
            }
            let message: Message
            if first == 0x2B {
                guard payload.count == Uplink.payloadLength else { out.skipped += 1; continue }
                message = .uplink(Uplink(timeOfReception: nil, payload: payload))
            } else if payload.count == 18 {
                message = .basicReport(UATReport(timeOfReception: nil, payload: payload))
            } else if payload.count == 34 {
                message = .longReport(UATReport(timeOfReception: nil, payload: payload))
            } else {
                out.skipped += 1
                continue
            }
            out.datagrams.append(CapturedDatagram(timestamp: time, bytes: message.frame(), fileOffset: base + lineStart))
        }
        return min(lineStart, bytes.count)
    }

    static func decodeHex(_ s: ArraySlice<UInt8>) -> [UInt8]? {
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: c - 48
            case 65...70: c - 55
            case 97...102: c - 87
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(s.count / 2)
        var i = s.startIndex
        while i + 1 < s.endIndex {
            guard let hi = nibble(s[i]), let lo = nibble(s[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}
