/// The fleet's MQTT topics, `skygate/NAME/…`, built from the gateway's id only (an id is checked
/// by `FleetSettings.isValidID`: no separator or wildcard can reach a topic).
package enum FleetTopic: Sendable, Equatable {
    /// Retained `{"id","version","online","time"}`; the last will sets it offline.
    case status
    /// The `/api/traffic` `ownship` object, once a second (QoS 0).
    case ownship
    /// The whole `/api/traffic` object, once a second (QoS 0).
    case traffic
    /// One alert event a message, with its `eventId` (QoS 1).
    case alerts
    /// A finished flight's `flights list --json` item, retained (QoS 1).
    case flight(uid: String)
    /// Its debrief, track, alerts, encounters and airspace, retained (QoS 1), published first.
    case flightDetail(uid: String)

    /// What a message of this topic is, in words ("ownship", "a flight's detail").
    package var what: String {
        switch self {
        case .status: "status"
        case .ownship: "ownship"
        case .traffic: "traffic"
        case .alerts: "an alert event"
        case .flight: "a flight"
        case .flightDetail: "a flight's detail"
        }
    }

    /// The topics' root.
    package static let root = "skygate"
    /// What a ground station subscribes to.
    package static let everything = "skygate/+/#"

    /// `skygate/NAME/…`.
    package func name(gateway: String) -> String {
        let base = "\(Self.root)/\(gateway)/"
        switch self {
        case .status: return base + "status"
        case .ownship: return base + "ownship"
        case .traffic: return base + "traffic"
        case .alerts: return base + "alerts"
        case .flight(let uid): return base + "flights/" + uid
        case .flightDetail(let uid): return base + "flights/" + uid + "/detail"
        }
    }

    /// The gateway and the topic of a name, nil for one that is not the fleet's.
    package static func parse(_ topic: String) -> (gateway: String, topic: FleetTopic)? {
        let parts = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0] == Self.root, !parts[1].isEmpty else { return nil }
        let gateway = String(parts[1])
        switch (parts.count, parts[2]) {
        case (3, "status"): return (gateway, .status)
        case (3, "ownship"): return (gateway, .ownship)
        case (3, "traffic"): return (gateway, .traffic)
        case (3, "alerts"): return (gateway, .alerts)
        case (4, "flights") where !parts[3].isEmpty: return (gateway, .flight(uid: String(parts[3])))
        case (5, "flights") where !parts[3].isEmpty && parts[4] == "detail": return (gateway, .flightDetail(uid: String(parts[3])))
        default: return nil
        }
    }
}
