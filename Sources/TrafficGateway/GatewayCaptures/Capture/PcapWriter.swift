/// Writes UDP datagrams as captures (for fixtures, tests and `gatewayd simulate`).
package enum PcapWriter {
    /// How each datagram is wrapped.
    package enum Link: Sendable {
        /// Ethernet II + IPv4 + UDP.
        case ethernet
        /// Ethernet II + 802.1Q VLAN tag + IPv4 + UDP.
        case ethernetVLAN
        /// Raw IPv4 + UDP (link type 101).
        case rawIPv4
        /// Raw IPv6 + UDP (link type 101), with a hop-by-hop extension header.
        case rawIPv6
        /// Linux cooked (SLL, 113) + IPv4 + UDP.
        case linuxSLL
        /// Linux cooked v2 (SLL2, 276) + IPv4 + UDP.
        case linuxSLL2

        package var linkType: UInt32 {
            switch self {
            case .ethernet, .ethernetVLAN: 1
            case .rawIPv4, .rawIPv6: 101
            case .linuxSLL: 113
            case .linuxSLL2: 276
            }
        }
    }

    /// Classic pcap: `datagrams` as (epoch time, UDP payload) sent from 192.168.10.1:4000 (Stratux)
    /// to 192.168.10.2:`port`.
    package static func pcap(_ datagrams: [(time: Double, bytes: [UInt8])], link: Link = .ethernet, port: UInt16 = 4000,
                            nanoseconds: Bool = false, bigEndian: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        let w = Writer(bigEndian: bigEndian)
        w.u32(nanoseconds ? 0xA1B2_3C4D : 0xA1B2_C3D4, &out)
        w.u16(2, &out)
        w.u16(4, &out)
        w.u32(0, &out)
        w.u32(0, &out)
        w.u32(262_144, &out)
        w.u32(link.linkType, &out)
        for d in datagrams {
            let packet = wrap(d.bytes, link: link, port: port)
            let whole = d.time.rounded(.down)
            let fraction = UInt32(((d.time - whole) * (nanoseconds ? 1e9 : 1e6)).rounded())
            w.u32(UInt32(whole), &out)
            w.u32(fraction, &out)
            w.u32(UInt32(packet.count), &out)
            w.u32(UInt32(packet.count), &out)
            out += packet
        }
        return out
    }

    /// pcapng with one interface (`link`, timestamps in microseconds or nanoseconds via if_tsresol).
    package static func pcapng(_ datagrams: [(time: Double, bytes: [UInt8])], link: Link = .ethernet, port: UInt16 = 4000,
                              nanoseconds: Bool = false, bigEndian: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        let w = Writer(bigEndian: bigEndian)
        sectionHeaderBlock(writer: w, into: &out)
        interfaceDescriptionBlock(linkType: link.linkType, nanoseconds: nanoseconds, writer: w, into: &out)
        for d in datagrams {
            let perSecond: UInt64 = nanoseconds ? 1_000_000_000 : 1_000_000
            let whole = d.time.rounded(.down)
            let ticks = UInt64(whole) * perSecond + UInt64(((d.time - whole) * Double(perSecond)).rounded())
            enhancedPacketBlock(wrap(d.bytes, link: link, port: port), ticks: ticks, writer: w, into: &out)
        }
        return out
    }

    /// A pcapng section header block (version 1.0, section length unknown).
    package static func sectionHeaderBlock(writer w: Writer, into out: inout [UInt8]) {
        w.u32(0x0A0D_0D0A, &out)
        w.u32(28, &out)
        w.u32(0x1A2B_3C4D, &out)
        w.u16(1, &out)
        w.u16(0, &out)
        w.u32(0xFFFF_FFFF, &out)
        w.u32(0xFFFF_FFFF, &out)
        w.u32(28, &out)
    }

    /// A pcapng interface description block: `linkType`, `snapLength` (0: no limit), timestamps in
    /// microseconds or nanoseconds (`if_tsresol`), and `if_name`/`if_description` when given.
    package static func interfaceDescriptionBlock(linkType: UInt32, snapLength: UInt32 = 262_144, nanoseconds: Bool, name: String? = nil,
                                          description: String? = nil, writer w: Writer, into out: inout [UInt8]) {
        var options: [UInt8] = []
        for (code, text) in [(UInt16(2), name), (UInt16(3), description)] {
            guard let text else { continue }
            let value = Array(text.utf8)
            w.u16(code, &options)
            w.u16(UInt16(value.count), &options)
            options += value + [UInt8](repeating: 0, count: (value.count + 3) / 4 * 4 - value.count)
        }
        w.u16(9, &options)
        w.u16(1, &options)
        options += [nanoseconds ? 9 : 6, 0, 0, 0]
        w.u16(0, &options)
        w.u16(0, &options)
        let length = UInt32(20 + options.count)
        w.u32(1, &out)
        w.u32(length, &out)
        w.u16(UInt16(linkType), &out)
        w.u16(0, &out)
        w.u32(snapLength, &out)
        out += options
        w.u32(length, &out)
    }

    /// One pcapng enhanced packet block on `interface` holding `packet`, stamped `ticks`.
    package static func enhancedPacketBlock(_ packet: [UInt8], interface: UInt32 = 0, ticks: UInt64, writer w: Writer, into out: inout [UInt8]) {
        let padded = (packet.count + 3) / 4 * 4
        let length = UInt32(32 + padded)
        w.u32(6, &out)
        w.u32(length, &out)
        w.u32(interface, &out)
        w.u32(UInt32(ticks >> 32), &out)
        w.u32(UInt32(ticks & 0xFFFF_FFFF), &out)
        w.u32(UInt32(packet.count), &out)
        w.u32(UInt32(packet.count), &out)
        out += packet
        out += [UInt8](repeating: 0, count: padded - packet.count)
        w.u32(length, &out)
    }

    /// The link, IP and UDP headers around `payload`.
    package static func wrap(_ payload: [UInt8], link: Link, port: UInt16) -> [UInt8] {
        let ip = link == .rawIPv6 ? ipv6UDP(payload, port: port) : ipv4UDP(payload, port: port)
        switch link {
        case .ethernet:
            return [0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x08, 0x00] + ip
        case .ethernetVLAN:
            return [0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x81, 0x00, 0x00, 0x0A, 0x08, 0x00] + ip
        case .rawIPv4, .rawIPv6:
            return ip
        case .linuxSLL:
            return [0, 0, 0, 1, 0, 6, 0x02, 0, 0, 0, 0, 1, 0, 0, 0x08, 0x00] + ip
        case .linuxSLL2:
            return [0x08, 0x00, 0, 0, 0, 0, 0, 2, 0, 1, 0, 6, 0x02, 0, 0, 0, 0, 1, 0, 0] + ip
        }
    }

    static func ipv4UDP(_ payload: [UInt8], port: UInt16) -> [UInt8] {
        let total = 20 + 8 + payload.count
        var h: [UInt8] = [0x45, 0, UInt8(total >> 8), UInt8(total & 0xFF), 0, 0, 0x40, 0, 64, 17, 0, 0, 192, 168, 10, 1, 192, 168, 10, 2]
        var sum: UInt32 = 0
        for i in stride(from: 0, to: 20, by: 2) { sum += UInt32(h[i]) << 8 | UInt32(h[i + 1]) }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        let checksum = ~UInt16(sum)
        h[10] = UInt8(checksum >> 8)
        h[11] = UInt8(checksum & 0xFF)
        let udpLength = 8 + payload.count
        return h + [0x0F, 0xA0, UInt8(port >> 8), UInt8(port & 0xFF), UInt8(udpLength >> 8), UInt8(udpLength & 0xFF), 0, 0] + payload
    }

    static func ipv6UDP(_ payload: [UInt8], port: UInt16) -> [UInt8] {
        let udpLength = 8 + payload.count
        let hopByHop: [UInt8] = [17, 0, 1, 4, 0, 0, 0, 0]  // next header UDP, length 0 (8 bytes), PadN
        let payloadLength = hopByHop.count + udpLength
        let src: [UInt8] = [0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [1]
        let dst: [UInt8] = [0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [2]
        let header: [UInt8] = [0x60, 0, 0, 0, UInt8(payloadLength >> 8), UInt8(payloadLength & 0xFF), 0, 64] + src + dst
        var udp: [UInt8] = [0x0F, 0xA0, UInt8(port >> 8), UInt8(port & 0xFF), UInt8(udpLength >> 8), UInt8(udpLength & 0xFF), 0, 0] + payload
        // UDP checksum over the IPv6 pseudo-header (mandatory for IPv6).
        var sum: UInt32 = 0
        for i in stride(from: 0, to: 16, by: 2) { sum += UInt32(src[i]) << 8 | UInt32(src[i + 1]) }
        for i in stride(from: 0, to: 16, by: 2) { sum += UInt32(dst[i]) << 8 | UInt32(dst[i + 1]) }
        sum += UInt32(udpLength) + 17
        var i = 0
        while i < udp.count {
            sum += UInt32(udp[i]) << 8 | UInt32(i + 1 < udp.count ? udp[i + 1] : 0)
            i += 2
        }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        var checksum = ~UInt16(sum)
        if checksum == 0 { checksum = 0xFFFF }
        udp[6] = UInt8(checksum >> 8)
        udp[7] = UInt8(checksum & 0xFF)
        return header + hopByHop + udp
    }

    package struct Writer {
        package let bigEndian: Bool
        package init(bigEndian: Bool) { self.bigEndian = bigEndian }
        func u16(_ v: UInt16, _ out: inout [UInt8]) {
            out += bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
        }
        func u32(_ v: UInt32, _ out: inout [UInt8]) {
            if bigEndian {
                u16(UInt16(v >> 16), &out)
                u16(UInt16(v & 0xFFFF), &out)
            } else {
                u16(UInt16(v & 0xFFFF), &out)
                u16(UInt16(v >> 16), &out)
            }
        }
    }
}
