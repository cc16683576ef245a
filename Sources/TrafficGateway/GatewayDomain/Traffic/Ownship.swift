import GatewaySupport
import GDL90

/// Where the ownship position in use comes from.
package enum PositionSource: String, Sendable {
    /// GDL 90 Ownship Report (0x0A) from the receiver.
    case gdl90
    /// gpsd, used when GDL 90 ownship has no valid fix.
    case gpsd
    /// No valid position: no alerts.
    case none
}

/// A position fix from gpsd (its TPV report).
package struct GPSFix: Hashable, Sendable {
    /// Position.
    package var position: Position
    /// Altitude MSL in feet, if the fix is 3D.
    package var altitudeFt: Double?
    /// Ground speed in knots.
    package var groundSpeedKt: Double?
    /// Track in degrees true.
    package var trackDeg: Double?
    /// Climb rate in feet per minute.
    package var verticalSpeedFpm: Double?
    /// Creates a fix.
    package init(position: Position, altitudeFt: Double?, groundSpeedKt: Double?, trackDeg: Double?, verticalSpeedFpm: Double? = nil) {
        self.position = position
        self.altitudeFt = altitudeFt
        self.groundSpeedKt = groundSpeedKt
        self.trackDeg = trackDeg
        self.verticalSpeedFpm = verticalSpeedFpm
    }
}

extension GPSFix {
    /// Physical ranges a fix is held to where it enters (gpsd is outside our trust boundary).
    package enum Limits {
        /// Altitude, feet MSL.
        package static let altitudeFt: ClosedRange<Double> = -2_000...60_000
        /// Ground speed, knots.
        package static let groundSpeedKt: ClosedRange<Double> = 0...1_000
        /// Vertical speed, feet per minute.
        package static let verticalSpeedFpm: ClosedRange<Double> = -20_000...20_000
    }

    /// The fix with every value checked against physical ranges: nil when the position itself is
    /// not a position; out-of-range or non-finite altitude, speed, track or climb become unknown.
    /// `rejected` names what was dropped (for a counter and a log line).
    package func validated() -> (fix: GPSFix?, rejected: [String]) {
        let p = position
        guard p.latitude.isFinite, p.longitude.isFinite, (-90...90).contains(p.latitude), (-180...180).contains(p.longitude) else {
            return (nil, ["position"])
        }
        var f = self
        var rejected: [String] = []
        if let a = altitudeFt, !(a.isFinite && Limits.altitudeFt.contains(a)) { f.altitudeFt = nil; rejected.append("altitude") }
        if let v = groundSpeedKt, !(v.isFinite && Limits.groundSpeedKt.contains(v)) { f.groundSpeedKt = nil; f.trackDeg = nil; rejected.append("speed") }
        if let t = f.trackDeg, !(t.isFinite && (0...360).contains(t)) { f.trackDeg = nil; rejected.append("track") }
        if let c = verticalSpeedFpm, !(c.isFinite && Limits.verticalSpeedFpm.contains(c)) { f.verticalSpeedFpm = nil; rejected.append("climb") }
        return (f, rejected)
    }
}

/// Ownship as the alert engines see it at one instant: the fused result of GDL 90 ownship
/// reports (preferred) and gpsd.
package struct OwnshipFix: Sendable, Equatable {
    /// Position.
    package var position: Position
    /// Altitude to compare with traffic (pressure altitude when known, else geometric), feet.
    package var altitudeFt: Double?
    /// True when `altitudeFt` is pressure altitude (comparable with traffic reports).
    package var altitudeIsPressure: Bool
    /// Horizontal velocity.
    package var velocity: PlaneVelocity
    /// Ground speed in knots.
    package var groundSpeedKt: Double
    /// Track in degrees true, nil when not moving.
    package var trackDeg: Double?
    /// Vertical speed, feet per minute.
    package var verticalSpeedFpm: Double
    /// False when on the ground (from what ownship does: see `FlightState`).
    package var airborne: Bool
    /// Where the position comes from.
    package var source: PositionSource
    /// Seconds since the report this fix comes from; over `OwnshipState.maximumFixAge` the fix is
    /// held: dead-reckoned along the last track and speed (`isHeld`).
    package var ageSec: Double = 0
    /// True when no report is recent: the position is dead-reckoned and alerts are held, not cleared.
    package var isHeld: Bool = false
    /// Height above terrain, feet, when the receiver sends it (GDL 90 0x09) and it is recent.
    package var heightAboveTerrainFt: Double?
    /// Geometric altitude (GNSS, above mean sea level), feet, when known (GDL 90 0x0B, gpsd):
    /// what an OGN target's altitude is compared with (`alertAltitude(geometricFt:)`).
    package var geometricAltitudeFt: Double?

    /// A target's geometric altitude (OGN) in the frame of `altitudeFt`: as is when ownship's is
    /// geometric too; shifted by ownship's own pressure-minus-geometric difference when ownship's
    /// is pressure altitude and its geometric altitude is known; as is otherwise (off by that
    /// difference, a few hundred feet away from the standard atmosphere: documented).
    package func alertAltitude(geometricFt geo: Int) -> Int {
        guard altitudeIsPressure, let own = altitudeFt, let ownGeo = geometricAltitudeFt else { return geo }
        return geo + Int((own - ownGeo).rounded())
    }

    /// Creates a fix (the core makes them from ownship reports and gpsd; benchmarks and fuzzing
    /// make their own).
    package init(position: Position, altitudeFt: Double?, altitudeIsPressure: Bool, velocity: PlaneVelocity, groundSpeedKt: Double,
                trackDeg: Double?, verticalSpeedFpm: Double, airborne: Bool, source: PositionSource, ageSec: Double = 0,
                isHeld: Bool = false, heightAboveTerrainFt: Double? = nil, geometricAltitudeFt: Double? = nil) {
        self.position = position
        self.altitudeFt = altitudeFt
        self.altitudeIsPressure = altitudeIsPressure
        self.velocity = velocity
        self.groundSpeedKt = groundSpeedKt
        self.trackDeg = trackDeg
        self.verticalSpeedFpm = verticalSpeedFpm
        self.airborne = airborne
        self.source = source
        self.ageSec = ageSec
        self.isHeld = isHeld
        self.heightAboveTerrainFt = heightAboveTerrainFt
        self.geometricAltitudeFt = geometricAltitudeFt
    }
}

/// Everything the core knows about ownship.
package struct OwnshipState: Sendable {
    /// Ownship's own 24-bit address and type from the last Ownship Report, used to drop its ghost.
    package internal(set) var address: UInt32?
    /// Address type from the last Ownship Report.
    package internal(set) var addressType: AddressType?
    /// The last GDL 90 Ownship Report and its time.
    package internal(set) var report: TrafficReport?
    /// Time of `report`.
    package internal(set) var reportTime: Double?
    /// Geometric altitude (0x0B) and its time.
    package internal(set) var geoAltitudeFt: Int?
    /// Time of `geoAltitudeFt`.
    package internal(set) var geoAltitudeTime: Double?
    /// Last gpsd fix and its time.
    package internal(set) var gpsdFix: GPSFix?
    /// Time of `gpsdFix`.
    package internal(set) var gpsdTime: Double?

    /// Height above terrain (0x09) and its time.
    package internal(set) var heightAboveTerrainFt: Int?
    /// Time of `heightAboveTerrainFt`.
    package internal(set) var heightAboveTerrainTime: Double?
    /// Whether ownship is flying, from what it does (never from the box's airborne bit).
    package internal(set) var flight = FlightState()

    /// A fix older than this many seconds is held: dead-reckoned, and alerts neither step down
    /// nor clear on it.
    package var maximumFixAge: Double = 3
    /// A fix older than this many seconds is lost: no fix, alerts clear. Gaps of 2–13 s between
    /// ownship reports are common in real streams (a box dropping packets, a GPS stalling).
    package var holdFixAge: Double = 15

    /// True when ownship's address is anonymous (self-assigned or zero), so its ghost must be
    /// matched by position, altitude and velocity instead.
    package var addressIsAnonymous: Bool {
        guard let address, let addressType else { return true }
        return address == 0 || addressType == .adsbSelfAssigned
    }

    /// The fused fix at `time`: a recent GDL 90 ownship report, else a recent gpsd fix, else either
    /// held (dead-reckoned) up to `holdFixAge`; nil when no source has had a valid position for that long.
    package func fix(at time: Double) -> OwnshipFix? {
        // The common case first (a recent ownship report), building one fix only.
        if let reportTime, time - reportTime <= maximumFixAge, let gdl = gdl90Fix(at: time) { return gdl }
        if let gpsdTime, time - gpsdTime <= maximumFixAge, let gps = gpsdFix(at: time) { return gps }
        return gdl90Fix(at: time) ?? gpsdFix(at: time)
    }

    private func gdl90Fix(at time: Double) -> OwnshipFix? {
        guard let report, let reportTime, let position = report.position else { return nil }
        let age = time - reportTime
        guard age <= holdFixAge, age > -1 else { return nil }
        let speed = Double(report.groundSpeedKt ?? 0)
        let moving = speed >= 5 && report.trackType != .invalid
        let geo = (geoAltitudeTime.map { time - $0 <= holdFixAge } ?? false) ? geoAltitudeFt.map(Double.init) : nil
        let altitude = report.pressureAltitudeFt.map(Double.init) ?? geo
        let vs = Double(report.verticalSpeedFpm ?? 0)
        return held(OwnshipFix(
            position: position,
            altitudeFt: altitude,
            altitudeIsPressure: report.pressureAltitudeFt != nil,
            velocity: moving ? PlaneVelocity(speedKt: speed, trackDeg: report.trackDeg) : PlaneVelocity(east: 0, north: 0),
            groundSpeedKt: speed,
            trackDeg: moving ? report.trackDeg : nil,
            verticalSpeedFpm: vs,
            airborne: flight.airborne,
            source: .gdl90, ageSec: max(0, age), heightAboveTerrainFt: hat(at: time), geometricAltitudeFt: geo))
    }

    private func gpsdFix(at time: Double) -> OwnshipFix? {
        guard let gpsdFix, let gpsdTime else { return nil }
        let age = time - gpsdTime
        guard age <= holdFixAge, age > -1 else { return nil }
        let speed = gpsdFix.groundSpeedKt ?? 0
        let moving = speed >= 5 && gpsdFix.trackDeg != nil
        return held(OwnshipFix(
            position: gpsdFix.position,
            altitudeFt: gpsdFix.altitudeFt,
            altitudeIsPressure: false,
            velocity: moving ? PlaneVelocity(speedKt: speed, trackDeg: gpsdFix.trackDeg!) : PlaneVelocity(east: 0, north: 0),
            groundSpeedKt: speed,
            trackDeg: moving ? gpsdFix.trackDeg : nil,
            verticalSpeedFpm: gpsdFix.verticalSpeedFpm ?? 0,
            airborne: flight.airborne,
            source: .gpsd, ageSec: max(0, age), heightAboveTerrainFt: hat(at: time), geometricAltitudeFt: gpsdFix.altitudeFt))
    }

    func hat(at time: Double) -> Double? {
        guard let t = heightAboveTerrainTime, time - t <= maximumFixAge else { return nil }
        return heightAboveTerrainFt.map(Double.init)
    }

    /// A fix older than `maximumFixAge` moved along its velocity to now and marked held.
    private func held(_ fix: OwnshipFix) -> OwnshipFix {
        guard fix.ageSec > maximumFixAge else { return fix }
        var f = fix
        f.isHeld = true
        if let track = fix.trackDeg, fix.groundSpeedKt > 0 {
            f.position = Geodesy.destination(from: fix.position, bearingDeg: track, distanceNM: fix.groundSpeedKt * fix.ageSec / 3600)
        }
        if let alt = fix.altitudeFt { f.altitudeFt = alt + fix.verticalSpeedFpm * fix.ageSec / 60 }
        if let geo = fix.geometricAltitudeFt { f.geometricAltitudeFt = geo + fix.verticalSpeedFpm * fix.ageSec / 60 }
        return f
    }
}
