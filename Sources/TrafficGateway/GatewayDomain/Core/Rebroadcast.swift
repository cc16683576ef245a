import GatewaySupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GDL90

/// GDL 90 re-broadcast to EFBs: the decoded stream framed again, with the traffic-alert bit of
/// each traffic report set from *our* alerts (Stratux's own bit, which flags every target within
/// 2 NM whatever its altitude, is cleared), packed into datagrams of at most `maximumDatagram`
/// bytes. Pure: messages in, datagrams out.
package struct Rebroadcast: Sendable {
    /// Largest datagram built (Stratux sends about 1 kB; some EFBs mis-handle more).
    package var maximumDatagram = 1024

    /// Creates a re-broadcaster.
    package init() {}

    /// The datagrams carrying `messages`; `level` gives the alert level of a target, if any.
    package func datagrams(_ messages: [Message], level: (TargetKey) -> AlertLevel?) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var current: [UInt8] = []
        current.reserveCapacity(maximumDatagram)
        for m in messages {
            let frame = Self.frame(m, level: level)
            if !current.isEmpty && current.count + frame.count > maximumDatagram {
                out.append(current)
                current.removeAll(keepingCapacity: true)
            }
            current += frame
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// One message framed, the traffic-alert bit set from our alert level.
    package static func frame(_ m: Message, level: (TargetKey) -> AlertLevel?) -> [UInt8] {
        if case .traffic(var r) = m {
            let key = TargetKey(address: r.address, type: r.addressType)
            r.alertStatus = level(key) == nil ? 0 : 1
            return Message.traffic(r).frame()
        }
        return m.frame()
    }
}

/// EFBs that announce themselves the ForeFlight way: a JSON UDP broadcast to port 63093,
/// `{"App":"ForeFlight","GDL90":{"port":4000}}`, every 5 s. An EFB silent for `forgetAfter`
/// seconds is forgotten. Pure: announcements and times in, the current list out.
package struct EFBRegistry: Sendable {
    /// An EFB to send GDL 90 to.
    package struct EFB: Sendable, Hashable {
        /// IPv4 address it announced from.
        package var host: String
        /// UDP port it asked for.
        package var port: UInt16
        /// App name ("ForeFlight", …).
        package var app: String
    }

    /// Seconds of silence after which an EFB is forgotten (three missed announcements).
    package var forgetAfter: Double = 16
    /// Most EFBs forwarded to at once: a cockpit has a few tablets; a thousand announcements from
    /// one neighbour must not open a thousand sockets. Announcements past the cap are ignored (counted).
    package var maximumEFBs = 16
    /// Announcements ignored: past the cap, or naming the gateway's own GDL 90 port on one of its
    /// own addresses (which would forward the stream to itself, endlessly).
    package private(set) var refused = 0
    /// The gateway's own GDL 90 listening port and addresses, never a forwarding target.
    package var ownPort: UInt16 = 0
    /// See `ownPort`.
    package var ownAddresses: Set<String> = ["127.0.0.1", "0.0.0.0"]
    private var seen: [EFB: Double] = [:]

    /// Creates an empty registry.
    package init() {}

    /// Reads one announcement from `host`; returns the EFB when it is a valid one.
    @discardableResult
    package mutating func announce(from host: String, payload: [UInt8], at time: Double) -> EFB? {
        guard let efb = Self.parse(payload, host: host) else { return nil }
        if efb.port == ownPort, ownAddresses.contains(efb.host) || efb.host.hasPrefix("127.") {
            refused += 1
            return nil
        }
        if seen[efb] == nil {
            seen = seen.filter { time - $0.value <= forgetAfter }
            guard seen.count < maximumEFBs else {
                refused += 1
                return nil
            }
        }
        seen[efb] = time
        return efb
    }

    /// EFBs heard within `forgetAfter` of `time`, sorted by host; forgets the others.
    package mutating func active(at time: Double) -> [EFB] {
        seen = seen.filter { time - $0.value <= forgetAfter }
        return seen.keys.sorted { ($0.host, $0.port) < ($1.host, $1.port) }
    }

    /// Parses `{"App":"ForeFlight","GDL90":{"port":4000}}` (port 4000 when absent).
    static func parse(_ payload: [UInt8], host: String) -> EFB? {
        guard payload.count < 4096,
              let object = JSONReader.object(payload),
              let app = object["App"] as? String, !app.isEmpty else { return nil }
        var port: UInt16 = 4000
        if let gdl = object["GDL90"] as? [String: Any] {
            if let p = JSONReader.int(gdl["port"]), p > 0, p < 65536 { port = UInt16(p) } else if gdl["port"] != nil { return nil }
        }
        return EFB(host: host, port: port, app: app)
    }
}

