/// The flight recorder's own pcapng interfaces, beside interface 0 (the GDL 90 datagrams as
/// received: raw IPv4, UDP to port 4000, as any capture holds them). Each carries text lines: its
/// packets' payloads, concatenated in order, are the very file the three-file recorder kept beside
/// its capture (`gdl90-….gps.jsonl`, `gdl90-….events.jsonl`), one line a packet (a line longer
/// than `maximumPacket` continues in the next packets, only the last ending with a newline). An
/// interface is one of these by its link type and its name both, so a capture from another tool
/// using a user link type is never taken for one.
package enum RecordingChannel: Int, Sendable, CaseIterable, Comparable {
    /// gpsd fixes: gpspipe TPV JSON lines (LINKTYPE_USER0).
    case gpsd = 1
    /// The session's events: `RecordedEventLog` lines, airspace sets and acknowledgements (LINKTYPE_USER1).
    case events = 2

    /// Its interface id in a recording (interface 0 is the GDL 90 datagrams).
    package var interfaceID: UInt32 { UInt32(rawValue) }

    /// Its pcapng link type: LINKTYPE_USER0 (147) or LINKTYPE_USER1 (148).
    package var linkType: UInt32 {
        switch self {
        case .gpsd: 147
        case .events: 148
        }
    }

    /// Its `if_name`, as Wireshark lists it.
    package var name: String {
        switch self {
        case .gpsd: "gpsd"
        case .events: "gatewayd-events"
        }
    }

    /// Its `if_description`.
    package var summary: String {
        switch self {
        case .gpsd: "gpsd fixes received, one gpspipe TPV JSON line a packet (gatewayd flight recorder)"
        case .events: "airspace sets and acknowledgements, one JSON line a packet (gatewayd flight recorder)"
        }
    }

    /// Largest payload of one packet: under Wireshark's 256 KiB packet limit, whatever the line.
    package static let maximumPacket = 65_536

    /// The channel an interface of `linkType` named `name` is, if any.
    static func matching(linkType: UInt32, name: String?) -> RecordingChannel? {
        allCases.first { $0.linkType == linkType && $0.name == name }
    }

    /// Orders by interface id.
    package static func < (a: RecordingChannel, b: RecordingChannel) -> Bool { a.rawValue < b.rawValue }
}

/// What a capture holds on the recorder's own interfaces (`RecordingChannel`), collected by
/// `CaptureFile.recordingChannels(path:)`.
package struct RecordingChannels: Sendable, Equatable {
    /// The channels the file describes (an interface for each), whether or not it holds packets on them.
    package var described: Set<RecordingChannel> = []
    /// Each channel's packet payloads concatenated, in file order (the side file's bytes).
    package var bytes: [RecordingChannel: [UInt8]] = [:]

    /// Nothing.
    package init() {}

    /// The channel's bytes up to the end of its last whole line: a recording cut short (power
    /// lost mid-write) may end inside a line, which is not an event or a fix yet.
    package func lines(_ channel: RecordingChannel) -> [UInt8] {
        guard let all = bytes[channel], let end = all.lastIndex(of: 0x0A) else { return [] }
        return Array(all[...end])
    }

    mutating func merge(_ other: RecordingChannels) {
        described.formUnion(other.described)
        for (channel, more) in other.bytes { bytes[channel, default: []] += more }
    }
}
