import GDL90

/// An immutable picture of the gateway at one moment, published by the core's queue and read by
/// the feeds (HTTP, NMEA) without ever touching the core: a slow reader cannot stall decoding.
package struct FeedSnapshot: Sendable {
    /// When the snapshot was taken, epoch seconds.
    package var time: Double
    /// Live targets, sorted by key.
    package var targets: [Target]
    /// Alert level of each target with an active traffic alert.
    package var alertLevels: [TargetKey: AlertLevel]
    /// Ownship, when it has a usable fix.
    package var ownship: OwnshipFix?
    /// Counters so far.
    package var counters: GatewayCounters
    /// What is wrong with the receiver (nil: healthy).
    package var problem: String?
    /// Whether the GDL90 heartbeat reports a GPS position.
    package var gpsValid: Bool
    /// Stale-after limit, seconds (targets older than this are shown stale).
    package var staleAfter: Double
    /// Airspace areas active now (empty until NOTAMs are loaded).
    package var airspace: [AirspaceArea]
    /// Time of the last GDL 90 heartbeat.
    package var lastHeartbeat: Double? = nil
    /// Device name from a ForeFlight ID message, if any.
    package var deviceName: String? = nil
    /// True once a Stratux heartbeat or status message was seen.
    package var isStratux = false

    /// Creates a snapshot.
    package init(time: Double, targets: [Target], alertLevels: [TargetKey: AlertLevel], ownship: OwnshipFix?,
                counters: GatewayCounters, problem: String?, gpsValid: Bool, staleAfter: Double,
                airspace: [AirspaceArea] = []) {
        self.time = time
        self.targets = targets
        self.alertLevels = alertLevels
        self.ownship = ownship
        self.counters = counters
        self.problem = problem
        self.gpsValid = gpsValid
        self.staleAfter = staleAfter
        self.airspace = airspace
    }

    /// An empty snapshot (nothing received yet).
    package static func empty(at time: Double) -> FeedSnapshot {
        FeedSnapshot(time: time, targets: [], alertLevels: [:], ownship: nil, counters: GatewayCounters(),
                     problem: "no GDL90 received yet", gpsValid: false, staleAfter: 20)
    }
}

extension GatewayCore {
    /// The feeds' view of the core at `time`.
    package func snapshot(at time: Double) -> FeedSnapshot {
        // A no-tracking OGN sender is used for collision alerts only: it is in no feed (the
        // JSON, GeoJSON, the page, NMEA traffic, the fleet): the feeds read only this list.
        let targets = picture.targets.values.filter { $0.ogn?.noTracking != true }.sorted { $0.key < $1.key }
        var levels: [TargetKey: AlertLevel] = [:]
        for key in trafficAlerts.activeKeys { if let l = trafficAlerts.level(of: key) { levels[key] = l } }
        let fix = ownship.fix(at: time)
        var s = FeedSnapshot(
            time: time, targets: targets, alertLevels: levels, ownship: fix, counters: counters,
            problem: health.problem(at: time), gpsValid: health.gpsValid, staleAfter: configuration.picture.staleAfter,
            airspace: airspaceAlerts.displayAreas(near: fix?.position, at: time))
        s.lastHeartbeat = health.lastHeartbeat
        s.deviceName = health.deviceName
        s.isStratux = health.isStratux
        return s
    }
}
