import GatewaySupport
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
                if Timestamp.isPlausible(time) {
                    out.datagrams.append(CapturedDatagram(timestamp: time, bytes: Array(payload), fileOffset: base + offset))
                } else {
                    out.skipped += 1
                    if out.error == nil {
                        var e = CaptureError(path: name, offset: base + offset, reason: "a record's time (\(Timestamp.iso8601(time))) is after 2099: skipped")
                        e.readOn = true
                        out.error = e
                    }
                }
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
///
/// A block is whole when its trailing length repeats its leading one. A torn or damaged block (a
/// power cut mid-write, with a later run's blocks appended after it) is reported once, in
/// `CaptureContents.error`, and reading goes on at the next whole block, found byte by byte (a
/// torn block leaves what follows at any alignment): pcapng's framing allows it, and every
/// datagram recorded after the damage is kept.
package struct PcapNGReader {
    package struct Interface {
        package var linkType: UInt32
        package var ticksPerSecond: UInt64
        /// The recorder's channel this interface carries, if it is one (link type and `if_name`).
        package var channel: RecordingChannel?
    }

    /// Collect the recorder's channels (`CaptureContents.channels`) instead of the datagrams.
    var readsChannels = false
    private var bigEndian = false
    /// The interfaces the current section describes so far.
    private(set) var interfaces: [Interface] = []
    /// Set once the file is found damaged beyond reading on: nothing more is read.
    private(set) var stopped = false
    /// The file offset just past the last whole block read (where a writer may append).
    private(set) var wholeEnd = 0
    /// Looking for the next whole block after damage.
    private var resyncing = false
    /// The first damage found, where reading went on after it, and how many places were damaged.
    private var damage: (error: CaptureError, resumedAt: Int?, places: Int)?

    /// The largest block believed while looking for the next whole block after damage (the
    /// recorder's and a capture's blocks are far smaller; a larger claim is more likely garbage).
    static let largestResyncBlock = 1 << 20

    static func read(_ bytes: [UInt8], name: String, port: UInt16) -> CaptureContents {
        var out = CaptureContents(format: .pcapng, datagrams: [], error: nil, skipped: 0)
        var reader = PcapNGReader()
        _ = reader.scan(bytes, base: 0, atEnd: true, name: name, port: port, into: &out)
        return out
    }

    /// Block types read or skipped as whole blocks (others are taken for damage while resyncing).
    private static func isKnownType(_ type: UInt32) -> Bool {
        switch type {
        case 0x0A0D_0D0A, 1, 2, 3, 4, 5, 6, 9, 10, 0x0BAD, 0x4000_0BAD: return true
        default: return false
        }
    }

    /// Packets skipped for a time out of range, and the first one's error.
    private var timeProblems: (count: Int, first: CaptureError)?

    /// Skips a packet whose time (`Timestamp.plausible`) no capture has, and says so once, with
    /// how many: the first one's offset, the year it reads as and the interface's resolution.
    private mutating func outOfRange(_ time: Double, at offset: Int, iface: Interface, name: String, into out: inout CaptureContents) {
        out.skipped += 1
        let year = Timestamp.iso8601(time).prefix(4)
        let resolution = "ticks of 1/\(iface.ticksPerSecond) s"
        var e = timeProblems?.first ?? CaptureError(path: name, offset: offset, reason: "")
        let count = (timeProblems?.count ?? 0) + 1
        e.reason = "\(count) packet\(count == 1 ? "" : "s") skipped: \(count == 1 ? "its time reads" : "the first one's time reads") as \(time.isFinite && time > 0 ? "year \(year)" : "\(time)"), not between 1970 and 2099 (the interface's if_tsresol gives \(resolution): a wrong if_tsresol?)"
        e.readOn = true
        timeProblems = (count, e)
        if damage == nil { out.error = e }
    }

    /// Notes damage at file offset `at` (the first is kept as the error, the others counted) and
    /// starts looking for the next whole block.
    private mutating func damaged(at: Int, _ reason: String, name: String, into out: inout CaptureContents) {
        if damage == nil {
            damage = (CaptureError(path: name, offset: at, reason: reason), nil, 1)
        } else {
            damage!.places += 1
        }
        resyncing = true
        out.error = reportedDamage()
    }

    /// Reading goes on at file offset `at`, after damage.
    private mutating func resumed(at: Int, into out: inout CaptureContents) {
        resyncing = false
        if damage?.resumedAt == nil { damage?.resumedAt = at }
        out.error = reportedDamage()
    }

    /// The error that reports the damage: the first place, where reading went on, how many more.
    private func reportedDamage() -> CaptureError? {
        guard let (first, resumedAt, places) = damage else { return nil }
        var error = first
        if let resumedAt {
            error.reason += "; read on from the next whole block, at byte \(resumedAt)"
            error.readOn = true
        }
        if places > 1 { error.reason += " (\(places - 1) more damaged place\(places == 2 ? "" : "s") skipped)" }
        return error
    }

    /// Whether a whole, plausible block starts at `at` in `bytes`: its length, nil when none
    /// does; `.needMore` when one may but runs past the window.
    private enum Candidate { case block, none, needMore }
    private func candidate(_ bytes: [UInt8], at: Int, atEnd: Bool) -> Candidate {
        guard at + 12 <= bytes.count else { return atEnd ? .none : .needMore }
        var r = EndianBytes(bytes: bytes, bigEndian: bigEndian)
        let type = r.u32(at)!
        if type == 0x0A0D_0D0A {
            let bom = EndianBytes(bytes: bytes, bigEndian: true).u32(at + 8)!
            guard bom == 0x1A2B_3C4D || bom == 0x4D3C_2B1A else { return .none }
            r.bigEndian = bom == 0x1A2B_3C4D
        } else if !Self.isKnownType(type) {
            return .none
        }
        let length = Int(r.u32(at + 4)!)
        guard length >= 12, length % 4 == 0, length <= Self.largestResyncBlock else { return .none }
        guard at + length <= bytes.count else { return atEnd ? .none : .needMore }
        guard Int(r.u32(at + length - 4)!) == length else { return .none }
        if type == 6 {
            guard length >= 32, Int(r.u32(at + 8)!) < interfaces.count, Int(r.u32(at + 20)!) + 32 <= length else { return .none }
        }
        return .block
    }

    /// Reads the whole blocks at the start of `bytes` (file offset `base`) into `out`; returns
    /// the bytes consumed. A block cut by the window's end waits for more, unless `atEnd`.
    mutating func scan(_ bytes: [UInt8], base: Int, atEnd: Bool, name: String, port: UInt16, into out: inout CaptureContents) -> Int {
        var offset = 0
        var r = EndianBytes(bytes: bytes, bigEndian: bigEndian)
        while offset < bytes.count && !stopped {
            r.bigEndian = bigEndian
            if resyncing {
                // The next whole block after damage, at any byte.
                var found = false
                while offset < bytes.count {
                    switch candidate(bytes, at: offset, atEnd: atEnd) {
                    case .block: found = true
                    case .needMore: return offset
                    case .none: offset += 1; continue
                    }
                    break
                }
                guard found else { break }
                resumed(at: base + offset, into: &out)
            }
            guard offset + 12 <= bytes.count else {
                if atEnd { damaged(at: base + offset, "block header truncated: the capture was cut short", name: name, into: &out) }
                break
            }
            var type = r.u32(offset)!
            if type == 0x0A0D_0D0A {
                // Section header: its byte-order magic sets the order of everything that follows.
                let bom = EndianBytes(bytes: bytes, bigEndian: true).u32(offset + 8)!
                if bom == 0x1A2B_3C4D {
                    r.bigEndian = true
                } else if bom == 0x4D3C_2B1A {
                    r.bigEndian = false
                } else {
                    damaged(at: base + offset + 8, "section header has no valid byte-order magic: the file is damaged", name: name, into: &out)
                    offset += 1
                    continue
                }
                type = 0x0A0D_0D0A
            }
            let length = Int(r.u32(offset + 4)!)
            guard length >= 12, length % 4 == 0, length <= 16 << 20 else {
                damaged(at: base + offset, "block claims \(length) bytes, which is not a valid block length: the file is damaged", name: name, into: &out)
                offset += 1
                continue
            }
            guard offset + length <= bytes.count else {
                if atEnd {
                    damaged(at: base + offset, "block claims \(length) bytes but only \(bytes.count - offset) remain: the capture was cut short", name: name, into: &out)
                    offset += 1
                    continue
                }
                break
            }
            guard Int(r.u32(offset + length - 4)!) == length else {
                damaged(at: base + offset, "block of \(length) bytes does not end with its length: it is torn (a power cut while writing?) or damaged", name: name, into: &out)
                offset += 1
                continue
            }
            let body = offset + 8
            let bodyEnd = offset + length - 4
            switch type {
            case 0x0A0D_0D0A:
                bigEndian = r.bigEndian
                interfaces = []
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
                    damaged(at: base + offset, "packet refers to interface \(id), which was never described: the file is damaged", name: name, into: &out)
                    offset += 1
                    continue
                }
                let ticks = UInt64(r.u32(body + 4)!) << 32 | UInt64(r.u32(body + 8)!)
                let captured = Int(r.u32(body + 12)!)
                guard body + 20 + captured <= bodyEnd else {
                    damaged(at: base + offset, "packet claims \(captured) bytes, more than its block holds: the file is damaged", name: name, into: &out)
                    offset += 1
                    continue
                }
                let iface = interfaces[id]
                let time = Double(ticks / iface.ticksPerSecond) + Double(ticks % iface.ticksPerSecond) / Double(iface.ticksPerSecond)
                guard Timestamp.isPlausible(time) else {
                    // A wrong `if_tsresol` (0 or 6 for nanosecond ticks) or a garbage timestamp:
                    // never handed on (the core's one-second tick cannot step past 2^53 s).
                    outOfRange(time, at: base + offset, iface: iface, name: name, into: &out)
                    offset += length
                    wholeEnd = base + offset
                    continue
                }
                collect(bytes[(body + 20)..<(body + 20 + captured)], iface: iface, time: time, offset: base + offset, port: port, into: &out)
            case 3:  // Simple packet: no timestamp, interface 0
                guard let iface = interfaces.first, bodyEnd >= body + 4 else { break }
                let original = Int(r.u32(body)!)
                let captured = min(original, bodyEnd - body - 4)
                collect(bytes[(body + 4)..<(body + 4 + captured)], iface: iface, time: nil, offset: base + offset, port: port, into: &out)
            default:
                break
            }
            offset += length
            wholeEnd = base + offset
        }
        if resyncing && !atEnd && offset >= bytes.count {
            // Nothing whole in this window: keep its last bytes, which may begin one.
            return max(0, bytes.count - 11)
        }
        return min(offset, bytes.count)
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
