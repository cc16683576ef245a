import GDL90

/// Receiver health as the core sees it, from heartbeats and message flow.
package struct ReceiverHealth: Sendable, Equatable {
    /// Time of the last GDL 90 heartbeat.
    package internal(set) var lastHeartbeat: Double?
    /// Time of the last message of any kind.
    package internal(set) var lastMessage: Double?
    /// Time of the last OGN beacon (a gateway fed by OGN alone has no GDL 90 to miss).
    package internal(set) var lastOGN: Double?
    /// Heartbeat status: GPS position valid.
    package internal(set) var gpsValid = false
    /// Heartbeat status: UTC timing valid.
    package internal(set) var utcOK = false
    /// True once a Stratux heartbeat (0xCC) or status ("SX") was seen.
    package internal(set) var isStratux = false
    /// Device name from a ForeFlight ID message, if any.
    package internal(set) var deviceName: String?
    /// No message for this many seconds counts as silence.
    package var silenceAfter: Double = 10

    /// Nil when healthy, else the reason in one sentence.
    package func problem(at time: Double) -> String? {
        guard let last = lastMessage else {
            if let ogn = lastOGN, time - ogn <= silenceAfter * 6 { return nil }
            return "no GDL90 received yet"
        }
        if time - last > silenceAfter {
            return "no GDL90 for \(Int(time - last)) s: is the receiver on, and is this host a Wi-Fi client of it with UDP 4000 open?"
        }
        return nil
    }
}

/// Running counts of what came in and what became of it.
package struct GatewayCounters: Sendable, Equatable {
    /// Datagrams (or raw chunks) received.
    package internal(set) var datagrams = 0
    /// Bytes received.
    package internal(set) var bytes = 0
    /// Decoded messages by ``Message/typeIndex`` (an array, not a dictionary: counted per message).
    package internal(set) var messageCounts = [Int](repeating: 0, count: Message.typeNames.count)
    /// Decoded messages by JSON type name (types seen at least once).
    package var messagesByType: [String: Int] {
        var out: [String: Int] = [:]
        for (i, n) in messageCounts.enumerated() where n > 0 { out[Message.typeNames[i]] = n }
        return out
    }
    /// Rejected frames by reason (`crc`, `tooShort`, …, and `length` for short messages).
    package internal(set) var errorsByReason: [String: Int] = [:]
    /// Alerts raised.
    package internal(set) var alertsRaised = 0
    /// gpsd values dropped as physically impossible (a position, altitude, speed, track or climb).
    package internal(set) var gpsValuesRejected = 0
    /// Traffic targets evicted because the picture was full (the oldest heard first).
    package internal(set) var targetsEvicted = 0
    /// OGN aircraft beacons taken.
    package internal(set) var ognBeacons = 0
    /// Creates zeroed counters.
    package init() {}
    /// Total decoded messages.
    package var messages: Int { messageCounts.reduce(0, +) }
    /// Total rejected frames.
    package var errors: Int { errorsByReason.values.reduce(0, +) }

    /// Adds another run's counts (for summaries over several files).
    package mutating func merge(_ other: GatewayCounters) {
        datagrams += other.datagrams
        ognBeacons += other.ognBeacons
        bytes += other.bytes
        alertsRaised += other.alertsRaised
        gpsValuesRejected += other.gpsValuesRejected
        targetsEvicted += other.targetsEvicted
        for (i, v) in other.messageCounts.enumerated() { messageCounts[i] += v }
        for (k, v) in other.errorsByReason { errorsByReason[k, default: 0] += v }
    }
}
