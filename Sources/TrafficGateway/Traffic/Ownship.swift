import GDL90

/// Where the ownship position in use comes from.
public enum PositionSource: String, Sendable {
    /// GDL 90 Ownship Report (0x0A) from the receiver.
    case gdl90
    /// gpsd, used when GDL 90 ownship has no valid fix.
    case gpsd
    /// No valid position: no alerts.
    case none
}

/// A position fix from gpsd (its TPV report).
public struct GPSFix: Hashable, Sendable {
    /// Position.
    public var position: Position
    /// Altitude MSL in feet, if the fix is 3D.
    public var altitudeFt: Double?
    /// Ground speed in knots.
    public var groundSpeedKt: Double?
    /// Track in degrees true.
    public var trackDeg: Double?
    /// Climb rate in feet per minute.
    public var verticalSpeedFpm: Double?
    /// Creates a fix.
    public init(position: Position, altitudeFt: Double?, groundSpeedKt: Double?, trackDeg: Double?, verticalSpeedFpm: Double? = nil) {
        self.position = position
        self.altitudeFt = altitudeFt
        self.groundSpeedKt = groundSpeedKt
        self.trackDeg = trackDeg
        self.verticalSpeedFpm = verticalSpeedFpm
    }
}

/// Ownship as the alert engines see it at one instant: the fused result of GDL 90 ownship
/// reports (preferred) and gpsd.
public struct OwnshipFix: Sendable, Equatable {
    /// Position.
    public var position: Position
    /// Altitude to compare with traffic (pressure altitude when known, else geometric), feet.
    public var altitudeFt: Double?
    /// True when `altitudeFt` is pressure altitude (comparable with traffic reports).
    public var altitudeIsPressure: Bool
    /// Horizontal velocity.
    public var velocity: PlaneVelocity
    /// Ground speed in knots.
    public var groundSpeedKt: Double
    /// Track in degrees true, nil when not moving.
    public var trackDeg: Double?
    /// Vertical speed, feet per minute.
    public var verticalSpeedFpm: Double
    /// False when on the ground.
    public var airborne: Bool
    /// Where the position comes from.
    public var source: PositionSource
}

/// Everything the core knows about ownship.
public struct OwnshipState: Sendable {
    /// Ownship's own 24-bit address and type from the last Ownship Report, used to drop its ghost.
    public internal(set) var address: UInt32?
    /// Address type from the last Ownship Report.
    public internal(set) var addressType: AddressType?
    /// The last GDL 90 Ownship Report and its time.
    public internal(set) var report: TrafficReport?
    /// Time of `report`.
    public internal(set) var reportTime: Double?
    /// Geometric altitude (0x0B) and its time.
    public internal(set) var geoAltitudeFt: Int?
    /// Time of `geoAltitudeFt`.
    public internal(set) var geoAltitudeTime: Double?
    /// Last gpsd fix and its time.
    public internal(set) var gpsdFix: GPSFix?
    /// Time of `gpsdFix`.
    public internal(set) var gpsdTime: Double?

    /// A fix older than this many seconds is not used.
    public var maximumFixAge: Double = 3

    /// True when ownship's address is anonymous (self-assigned or zero), so its ghost must be
    /// matched by position, altitude and velocity instead.
    public var addressIsAnonymous: Bool {
        guard let address, let addressType else { return true }
        return address == 0 || addressType == .adsbSelfAssigned
    }

    /// The fused fix at `time`, or nil when no source has a recent valid position.
    public func fix(at time: Double) -> OwnshipFix? {
        if let report, let reportTime, let position = report.position, time - reportTime <= maximumFixAge {
            let speed = Double(report.groundSpeedKt ?? 0)
            let moving = speed >= 5 && report.trackType != .invalid
            let geo = (geoAltitudeTime.map { time - $0 <= maximumFixAge } ?? false) ? geoAltitudeFt.map(Double.init) : nil
            return OwnshipFix(
                position: position,
                altitudeFt: report.pressureAltitudeFt.map(Double.init) ?? geo,
                altitudeIsPressure: report.pressureAltitudeFt != nil,
                velocity: moving ? PlaneVelocity(speedKt: speed, trackDeg: report.trackDeg) : PlaneVelocity(east: 0, north: 0),
                groundSpeedKt: speed,
                trackDeg: moving ? report.trackDeg : nil,
                verticalSpeedFpm: Double(report.verticalSpeedFpm ?? 0),
                airborne: report.airborne,
                source: .gdl90)
        }
        if let gpsdFix, let gpsdTime, time - gpsdTime <= maximumFixAge {
            let speed = gpsdFix.groundSpeedKt ?? 0
            let moving = speed >= 5 && gpsdFix.trackDeg != nil
            return OwnshipFix(
                position: gpsdFix.position,
                altitudeFt: gpsdFix.altitudeFt,
                altitudeIsPressure: false,
                velocity: moving ? PlaneVelocity(speedKt: speed, trackDeg: gpsdFix.trackDeg!) : PlaneVelocity(east: 0, north: 0),
                groundSpeedKt: speed,
                trackDeg: moving ? gpsdFix.trackDeg : nil,
                verticalSpeedFpm: gpsdFix.verticalSpeedFpm ?? 0,
                airborne: speed >= 40,
                source: .gpsd)
        }
        return nil
    }
}
