import GDL90

/// Receiver health as the core sees it, from heartbeats and message flow.
public struct ReceiverHealth: Sendable, Equatable {
    /// Time of the last GDL 90 heartbeat.
    public internal(set) var lastHeartbeat: Double?
    /// Time of the last message of any kind.
    public internal(set) var lastMessage: Double?
    /// Heartbeat status: GPS position valid.
    public internal(set) var gpsValid = false
    /// Heartbeat status: UTC timing valid.
    public internal(set) var utcOK = false
    /// True once a Stratux heartbeat (0xCC) or status ("SX") was seen.
    public internal(set) var isStratux = false
    /// Device name from a ForeFlight ID message, if any.
    public internal(set) var deviceName: String?
    /// No message for this many seconds counts as silence.
    public var silenceAfter: Double = 10

    /// Nil when healthy, else the reason in one sentence.
    public func problem(at time: Double) -> String? {
        guard let last = lastMessage else { return "no GDL90 received yet" }
        if time - last > silenceAfter {
            return "no GDL90 for \(Int(time - last)) s: is the receiver on, and is this host a Wi-Fi client of it with UDP 4000 open?"
        }
        return nil
    }
}

/// Running counts of what came in and what became of it.
public struct GatewayCounters: Sendable, Equatable {
    /// Datagrams (or raw chunks) received.
    public internal(set) var datagrams = 0
    /// Bytes received.
    public internal(set) var bytes = 0
    /// Decoded messages by ``Message/typeIndex`` (an array, not a dictionary: counted per message).
    public internal(set) var messageCounts = [Int](repeating: 0, count: Message.typeNames.count)
    /// Decoded messages by JSON type name (types seen at least once).
    public var messagesByType: [String: Int] {
        var out: [String: Int] = [:]
        for (i, n) in messageCounts.enumerated() where n > 0 { out[Message.typeNames[i]] = n }
        return out
    }
    /// Rejected frames by reason (`crc`, `tooShort`, …, and `length` for short messages).
    public internal(set) var errorsByReason: [String: Int] = [:]
    /// Alerts raised.
    public internal(set) var alertsRaised = 0
    /// gpsd values dropped as physically impossible (a position, altitude, speed, track or climb).
    public internal(set) var gpsValuesRejected = 0
    /// Traffic targets evicted because the picture was full (the oldest heard first).
    public internal(set) var targetsEvicted = 0
    /// Creates zeroed counters.
    public init() {}
    /// Total decoded messages.
    public var messages: Int { messageCounts.reduce(0, +) }
    /// Total rejected frames.
    public var errors: Int { errorsByReason.values.reduce(0, +) }

    /// Adds another run's counts (for summaries over several files).
    public mutating func merge(_ other: GatewayCounters) {
        datagrams += other.datagrams
        bytes += other.bytes
        alertsRaised += other.alertsRaised
        gpsValuesRejected += other.gpsValuesRejected
        targetsEvicted += other.targetsEvicted
        for (i, v) in other.messageCounts.enumerated() { messageCounts[i] += v }
        for (k, v) in other.errorsByReason { errorsByReason[k, default: 0] += v }
    }
}
