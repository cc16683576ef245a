/// Classic libpcap files: both byte orders, micro- and nanosecond timestamps. Reads whole
/// records from a window of the file at a time (`scan`), so a capture of any size streams.
struct PcapReader {
    /// Largest record accepted; larger claims mean a damaged file.
    static let maximumRecord = 262_144

    private var header: (bigEndian: Bool, nanoseconds: Bool, linkType: UInt32)?
    /// Set once the file is found damaged: nothing more is read.
    private(set) var stopped = false

    static func read(_ bytes: [UInt8], name: String, port: UInt16) -> CaptureContents {
        var out = CaptureContents(format: .pcap, datagrams: [], error: nil, skipped: 0)
        var reader = PcapReader()
        _ = reader.scan(bytes, base: 0, atEnd: true, name: name, port: port, into: &out)
        return out
    }

    /// Reads the whole records at the start of `bytes` (file offset `base`) into `out`; returns
    /// the bytes consumed. A record cut by the window's end waits for more, unless `atEnd`.
    mutating func scan(_ bytes: [UInt8], base: Int, atEnd: Bool, name: String, port: UInt16, into out: inout CaptureContents) -> Int {
        var offset = 0
        if header == nil {
            guard bytes.count >= 24 else {
                if atEnd {
                    out.error = CaptureError(path: name, offset: 0, reason: "pcap header truncated (\(bytes.count) of 24 bytes)")
                    stopped = true
                }
                return 0
            }
            let magic = UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
            let bigEndian = magic == 0xA1B2_C3D4 || magic == 0xA1B2_3C4D
            header = (bigEndian, magic == 0xA1B2_3C4D || magic == 0x4D3C_B2A1, EndianBytes(bytes: bytes, bigEndian: bigEndian).u32(20)! & 0x0FFF_FFFF)
            offset = 24
        }
        guard let (bigEndian, nanoseconds, linkType) = header else { return 0 }
        let r = EndianBytes(bytes: bytes, bigEndian: bigEndian)
        while offset < bytes.count {
            guard offset + 16 <= bytes.count else {
                if atEnd {
                    out.error = CaptureError(path: name, offset: base + offset, reason: "record header truncated (\(bytes.count - offset) of 16 bytes): the capture was cut short")
                    stopped = true
                }
                break
            }
            let seconds = Double(r.u32(offset)!), fraction = Double(r.u32(offset + 4)!)
            let length = Int(r.u32(offset + 8)!)
            guard length <= Self.maximumRecord else {
                out.error = CaptureError(path: name, offset: base + offset, reason: "record claims \(length) bytes, more than any packet: the file is damaged")
                stopped = true
                break
            }
            guard offset + 16 + length <= bytes.count else {
                if atEnd {
                    out.error = CaptureError(path: name, offset: base + offset, reason: "record claims \(length) bytes but only \(bytes.count - offset - 16) remain: the capture was cut short")
                    stopped = true
                }
                break
            }
            let packet = bytes[(offset + 16)..<(offset + 16 + length)]
            switch PacketDecoder.udpPayload(packet, linkType: linkType, port: port) {
            case .success(let payload):
                let time = seconds + fraction / (nanoseconds ? 1e9 : 1e6)
                out.datagrams.append(CapturedDatagram(timestamp: time, bytes: Array(payload), fileOffset: base + offset))
            case .failure(let skip):
                if case .unsupportedLinkType(let t) = skip.skip {
                    out.error = CaptureError(path: name, offset: 20, reason: "link type \(t) is not supported (Ethernet, raw IP, Linux SLL/SLL2 are)")
                    stopped = true
                    return offset
                }
                out.skipped += 1
            }
            offset += 16 + length
        }
        return offset
    }
}

/// pcapng files: sections of either byte order, interfaces with their own link type and
/// timestamp resolution, enhanced and simple packet blocks; other blocks are skipped. Reads
/// whole blocks from a window of the file at a time (`scan`), so a capture of any size streams.
/// The flight recorder's own interfaces (`RecordingChannel`: gpsd fixes, session events) are
/// not datagrams and not skipped records: their packets are collected only with `readsChannels`.
struct PcapNGReader {
    struct Interface {
        var linkType: UInt32
        var ticksPerSecond: UInt64
        /// The recorder's channel this interface carries, if it is one (link type and `if_name`).
        var channel: RecordingChannel?
    }

    /// Collect the recorder's channels (`CaptureContents.channels`) instead of the datagrams.
    var readsChannels = false
    private var bigEndian = false
    /// The interfaces the current section describes so far.
    private(set) var interfaces: [Interface] = []
    /// Set once the file is found damaged: nothing more is read.
    private(set) var stopped = false

    static func read(_ bytes: [UInt8], name: String, port: UInt16) -> CaptureContents {
        var out = CaptureContents(format: .pcapng, datagrams: [], error: nil, skipped: 0)
        var reader = PcapNGReader()
        _ = reader.scan(bytes, base: 0, atEnd: true, name: name, port: port, into: &out)
        return out
    }

    /// Reads the whole blocks at the start of `bytes` (file offset `base`) into `out`; returns
    /// the bytes consumed. A block cut by the window's end waits for more, unless `atEnd`.
    mutating func scan(_ bytes: [UInt8], base: Int, atEnd: Bool, name: String, port: UInt16, into out: inout CaptureContents) -> Int {
        var r = EndianBytes(bytes: bytes, bigEndian: bigEndian)
        defer { bigEndian = r.bigEndian }
        var offset = 0
        while offset < bytes.count {
            guard offset + 12 <= bytes.count else {
                if atEnd {
                    out.error = CaptureError(path: name, offset: base + offset, reason: "block header truncated: the capture was cut short")
                    stopped = true
                }
                break
            }
            var type = r.u32(offset)!
            if type == 0x0A0D_0D0A {
                // Section header: its byte-order magic sets the order of everything that follows.
                guard let bom = EndianBytes(bytes: bytes, bigEndian: true).u32(offset + 8) else { break }
                if bom == 0x1A2B_3C4D {
                    r.bigEndian = true
                } else if bom == 0x4D3C_2B1A {
                    r.bigEndian = false
                } else {
                    out.error = CaptureError(path: name, offset: base + offset + 8, reason: "section header has no valid byte-order magic: the file is damaged")
                    stopped = true
                    break
                }
                interfaces = []
                type = 0x0A0D_0D0A
            }
            let length = Int(r.u32(offset + 4)!)
            guard length >= 12, length % 4 == 0, length <= 16 << 20 else {
                out.error = CaptureError(path: name, offset: base + offset, reason: "block claims \(length) bytes, which is not a valid block length: the file is damaged")
                stopped = true
                break
            }
            guard offset + length <= bytes.count else {
                if atEnd {
                    out.error = CaptureError(path: name, offset: base + offset, reason: "block claims \(length) bytes but only \(bytes.count - offset) remain: the capture was cut short")
                    stopped = true
                }
                break
            }
            let body = offset + 8
            let bodyEnd = offset + length - 4
            switch type {
            case 1:  // Interface description
                guard bodyEnd >= body + 8 else { break }
                var iface = Interface(linkType: UInt32(r.u16(body)!), ticksPerSecond: 1_000_000)
                var ifName: String?
                var o = body + 8
                while o + 4 <= bodyEnd {
                    let code = r.u16(o)!, len = Int(r.u16(o + 2)!)
                    if code == 0 { break }
                    if code == 2, o + 4 + len <= bodyEnd {  // if_name (UTF-8, a NUL at the end allowed)
                        ifName = String(decoding: bytes[(o + 4)..<(o + 4 + len)].prefix { $0 != 0 }, as: UTF8.self)
                    }
                    if code == 9, len >= 1, o + 5 <= bodyEnd {
                        let v = bytes[o + 4]
                        let exponent = min(Int(v & 0x7F), v & 0x80 == 0 ? 18 : 63)
                        iface.ticksPerSecond = v & 0x80 == 0 ? Self.pow10(exponent) : Self.pow2(exponent)
                    }
                    o += 4 + (len + 3) / 4 * 4
                }
                iface.channel = RecordingChannel.matching(linkType: iface.linkType, name: ifName)
                if let channel = iface.channel { out.channels.described.insert(channel) }
                interfaces.append(iface)
            case 6:  // Enhanced packet
                guard bodyEnd >= body + 20 else { break }
                let id = Int(r.u32(body)!)
                guard id < interfaces.count else {
                    out.error = CaptureError(path: name, offset: base + offset, reason: "packet refers to interface \(id), which was never described: the file is damaged")
                    stopped = true
                    return offset
                }
                let ticks = UInt64(r.u32(body + 4)!) << 32 | UInt64(r.u32(body + 8)!)
                let captured = Int(r.u32(body + 12)!)
                guard body + 20 + captured <= bodyEnd else {
                    out.error = CaptureError(path: name, offset: base + offset, reason: "packet claims \(captured) bytes, more than its block holds: the file is damaged")
                    stopped = true
                    return offset
                }
                let iface = interfaces[id]
                collect(bytes[(body + 20)..<(body + 20 + captured)], iface: iface, time: Double(ticks / iface.ticksPerSecond) + Double(ticks % iface.ticksPerSecond) / Double(iface.ticksPerSecond), offset: base + offset, port: port, into: &out)
            case 3:  // Simple packet: no timestamp, interface 0
                guard let iface = interfaces.first, bodyEnd >= body + 4 else { break }
                let original = Int(r.u32(body)!)
                let captured = min(original, bodyEnd - body - 4)
                collect(bytes[(body + 4)..<(body + 4 + captured)], iface: iface, time: nil, offset: base + offset, port: port, into: &out)
            default:
                break
            }
            offset += length
        }
        return offset
    }

    /// A packet: a datagram (or a skipped record), or a recorder channel's bytes (kept only with `readsChannels`).
    func collect(_ packet: ArraySlice<UInt8>, iface: Interface, time: Double?, offset: Int, port: UInt16, into out: inout CaptureContents) {
        if let channel = iface.channel {
            if readsChannels { out.channels.bytes[channel, default: []] += packet }
            return
        }
        guard !readsChannels else { return }
        switch PacketDecoder.udpPayload(packet, linkType: iface.linkType, port: port) {
        case .success(let payload): out.datagrams.append(CapturedDatagram(timestamp: time, bytes: Array(payload), fileOffset: offset))
        case .failure: out.skipped += 1
        }
    }

    static func pow10(_ e: Int) -> UInt64 { max(1, (0..<e).reduce(UInt64(1)) { r, _ in r * 10 }) }
    static func pow2(_ e: Int) -> UInt64 { UInt64(1) << UInt64(e) }
}
