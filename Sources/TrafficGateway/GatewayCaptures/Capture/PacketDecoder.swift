/// Link-layer, IP and UDP unwrapping for captured packets. Every length is checked against the
/// bytes present: any input is safe.
enum PacketDecoder {
    /// Link types understood (LINKTYPE_ values).
    enum LinkType {
        static let null: UInt32 = 0
        static let ethernet: UInt32 = 1
        static let rawBSD: UInt32 = 12
        static let rawOpenBSD: UInt32 = 14
        static let raw: UInt32 = 101
        static let linuxSLL: UInt32 = 113
        static let ipv4: UInt32 = 228
        static let ipv6: UInt32 = 229
        static let linuxSLL2: UInt32 = 276
    }

    /// Why a packet was not used.
    enum Skip: Equatable {
        case unsupportedLinkType(UInt32)
        case notIP
        case notUDP
        case otherPort
        case fragment
        case malformed
    }

    /// The UDP payload of `packet` if it is UDP to `port`.
    static func udpPayload(_ packet: ArraySlice<UInt8>, linkType: UInt32, port: UInt16) -> Result<ArraySlice<UInt8>, SkipError> {
        let p = packet
        let b = p.startIndex
        func u16(_ i: Int) -> Int { Int(p[b + i]) << 8 | Int(p[b + i + 1]) }
        var ipStart: Int
        switch linkType {
        case LinkType.ethernet:
            guard p.count >= 14 else { return .failure(SkipError(.malformed)) }
            var etherType = u16(12)
            ipStart = 14
            while etherType == 0x8100 || etherType == 0x88A8 || etherType == 0x9100 {
                guard p.count >= ipStart + 4 else { return .failure(SkipError(.malformed)) }
                etherType = u16(ipStart + 2)
                ipStart += 4
            }
            guard etherType == 0x0800 || etherType == 0x86DD else { return .failure(SkipError(.notIP)) }
        case LinkType.raw, LinkType.rawBSD, LinkType.rawOpenBSD, LinkType.ipv4, LinkType.ipv6:
            ipStart = 0
        case LinkType.linuxSLL:
            guard p.count >= 16 else { return .failure(SkipError(.malformed)) }
            guard u16(14) == 0x0800 || u16(14) == 0x86DD else { return .failure(SkipError(.notIP)) }
            ipStart = 16
        case LinkType.linuxSLL2:
            guard p.count >= 20 else { return .failure(SkipError(.malformed)) }
            guard u16(0) == 0x0800 || u16(0) == 0x86DD else { return .failure(SkipError(.notIP)) }
            ipStart = 20
        case LinkType.null:
            guard p.count >= 4 else { return .failure(SkipError(.malformed)) }
            ipStart = 4
        default:
            return .failure(SkipError(.unsupportedLinkType(linkType)))
        }
        return ipUDP(p[(b + ipStart)...], port: port)
    }

    /// The UDP payload of an IPv4 or IPv6 packet.
    static func ipUDP(_ ip: ArraySlice<UInt8>, port: UInt16) -> Result<ArraySlice<UInt8>, SkipError> {
        guard let first = ip.first else { return .failure(SkipError(.malformed)) }
        let b = ip.startIndex
        func u16(_ i: Int) -> Int { Int(ip[b + i]) << 8 | Int(ip[b + i + 1]) }
        var udpStart: Int
        var end: Int
        switch first >> 4 {
        case 4:
            guard ip.count >= 20 else { return .failure(SkipError(.malformed)) }
            let ihl = Int(first & 0x0F) * 4
            guard ihl >= 20, ip.count >= ihl else { return .failure(SkipError(.malformed)) }
            guard ip[b + 9] == 17 else { return .failure(SkipError(.notUDP)) }
            // Only first fragments carry the UDP header: later fragments are skipped.
            guard u16(6) & 0x1FFF == 0 else { return .failure(SkipError(.fragment)) }
            let total = u16(2)
            end = total >= ihl ? min(ip.count, total) : ip.count
            udpStart = ihl
        case 6:
            guard ip.count >= 40 else { return .failure(SkipError(.malformed)) }
            var next = Int(ip[b + 6])
            end = min(ip.count, 40 + u16(4))
            var offset = 40
            while next != 17 {
                switch next {
                case 0, 43, 60:
                    guard end >= offset + 8 else { return .failure(SkipError(.malformed)) }
                    let length = (Int(ip[b + offset + 1]) + 1) * 8
                    next = Int(ip[b + offset])
                    offset += length
                case 44:
                    guard end >= offset + 8 else { return .failure(SkipError(.malformed)) }
                    guard u16(offset + 2) >> 3 == 0 else { return .failure(SkipError(.fragment)) }
                    next = Int(ip[b + offset])
                    offset += 8
                default:
                    return .failure(SkipError(.notUDP))
                }
                guard offset <= end else { return .failure(SkipError(.malformed)) }
            }
            udpStart = offset
        default:
            return .failure(SkipError(.notIP))
        }
        guard end >= udpStart + 8 else { return .failure(SkipError(.malformed)) }
        guard u16(udpStart + 2) == Int(port) else { return .failure(SkipError(.otherPort)) }
        let udpLength = u16(udpStart + 4)
        let payloadEnd = udpLength >= 8 ? min(end, udpStart + udpLength) : end
        return .success(ip[(b + udpStart + 8)..<(b + payloadEnd)])
    }

    /// A skip reason as an Error, for `Result`.
    struct SkipError: Error, Equatable {
        var skip: Skip
        init(_ skip: Skip) { self.skip = skip }
    }
}

/// Little/big-endian reads with bounds checks.
struct EndianBytes {
    let bytes: [UInt8]
    var bigEndian: Bool

    func u16(_ i: Int) -> UInt16? {
        guard i >= 0, i + 2 <= bytes.count else { return nil }
        let a = UInt16(bytes[i]), b = UInt16(bytes[i + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(_ i: Int) -> UInt32? {
        guard let a = u16(i), let b = u16(i + 2) else { return nil }
        return bigEndian ? UInt32(a) << 16 | UInt32(b) : UInt32(b) << 16 | UInt32(a)
    }
}
