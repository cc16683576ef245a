/// Whether ownship is flying, judged from what it does (ground speed, vertical speed, height above
/// terrain) with hysteresis, never from a receiver's airborne bit: Stratux sets that bit always,
/// parked or not, and gpsd has none.
///
/// - Airborne after ≥ `takeoffSpeedKt` sustained for `takeoffHoldSec`, or a climb/descent of
///   ≥ `sustainedVerticalFpm` sustained as long at ≥ `minimumClimbSpeedKt` (a slow climb-out, a
///   helicopter), or at once when the box reports a height above terrain ≥ `airborneHeightFt`.
/// - On the ground after < `landingSpeedKt` sustained for `landingHoldSec` with no vertical speed
///   to speak of (a landing roll, a taxi, a parked aircraft), unless the height above terrain says
///   it is still well off the ground.
/// - The first fix decides at once (a capture or a gateway that starts in flight is airborne from
///   its first report): ≥ `takeoffSpeedKt` is airborne, anything slower is on the ground.
///
/// The thresholds follow ATAS (RTCA DO-317B): ownship on the ground does not alert; 40/30 kt with
/// hysteresis sits between a fast taxi and the slowest rotation speed of the light aircraft a
/// Stratux flies in.
package struct FlightState: Sendable, Equatable {
    /// Ownship's phase.
    package enum Phase: String, Sendable {
        /// No fix yet.
        case unknown
        /// On the ground: no caution or warning traffic alerts.
        case ground
        /// Flying.
        case airborne
    }

    /// Airborne at or above this ground speed (sustained), knots.
    package var takeoffSpeedKt: Double = 40
    /// …for this long, seconds.
    package var takeoffHoldSec: Double = 3
    /// Or airborne with this vertical speed (either way) sustained as long, feet per minute…
    package var sustainedVerticalFpm: Double = 500
    /// …while moving at least this fast, knots (a vertical speed at a standstill is GPS noise).
    package var minimumClimbSpeedKt: Double = 20
    /// On the ground below this ground speed (sustained), knots…
    package var landingSpeedKt: Double = 30
    /// …for this long, seconds…
    package var landingHoldSec: Double = 20
    /// …with at most this vertical speed, feet per minute.
    package var groundVerticalFpm: Double = 200
    /// A height above terrain (GDL 90 message 0x09) at or above this is airborne whatever the speed, feet.
    package var airborneHeightFt: Double = 300

    /// The phase now.
    package private(set) var phase: Phase = .unknown
    /// When the phase last changed, epoch seconds.
    package private(set) var since: Double?
    /// When the condition that made the last change began (the takeoff roll reaching
    /// `takeoffSpeedKt`, the landing roll slowing below `landingSpeedKt`): `since` less the hold.
    /// The logbook's takeoff and landing times.
    package private(set) var changeBegan: Double?
    /// True when the phase was decided by the first fix (a recording or a gateway starting in
    /// flight), not by a takeoff or landing seen.
    package private(set) var decidedByFirstFix = false
    private var takeoffSince: Double?
    private var landingSince: Double?

    /// Creates the tracker with the default thresholds.
    package init() {}

    /// True when flying.
    package var airborne: Bool { phase == .airborne }

    /// Takes one ownship sample at `time`.
    package mutating func update(groundSpeedKt: Double, verticalSpeedFpm: Double, heightAboveTerrainFt: Double?, at time: Double) {
        let speed = groundSpeedKt.isFinite ? groundSpeedKt : 0
        let vs = verticalSpeedFpm.isFinite ? verticalSpeedFpm : 0
        let high = heightAboveTerrainFt.map { $0 >= airborneHeightFt } ?? false
        let takeoffLike = speed >= takeoffSpeedKt || (abs(vs) >= sustainedVerticalFpm && speed >= minimumClimbSpeedKt)
        let groundLike = speed < landingSpeedKt && abs(vs) <= groundVerticalFpm && !high
        switch phase {
        case .unknown:
            set(high || speed >= takeoffSpeedKt ? .airborne : .ground, at: time)
        case .ground:
            if high {
                set(.airborne, at: time)
            } else if takeoffLike {
                let start = takeoffSince ?? time
                takeoffSince = start
                if time - start >= takeoffHoldSec { set(.airborne, at: time) }
            } else {
                takeoffSince = nil
            }
        case .airborne:
            if groundLike {
                let start = landingSince ?? time
                landingSince = start
                if time - start >= landingHoldSec { set(.ground, at: time) }
            } else {
                landingSince = nil
            }
        }
    }

    private mutating func set(_ new: Phase, at time: Double) {
        decidedByFirstFix = phase == .unknown
        changeBegan = (new == .airborne ? takeoffSince : landingSince) ?? time
        phase = new
        since = time
        takeoffSince = nil
        landingSince = nil
    }
}
