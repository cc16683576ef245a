import GatewaySupport
import GDL90

/// Ownship once a second, as the logbook keeps it: where it was, how high and fast, its flight
/// phase (from `FlightState`, the rules the alerts use) and the traffic near it. The core makes
/// one on each tick of the tick rule when `Configuration.collectsFlightSamples` is set (the
/// pipeline gives them as `GatewayOutputs.flightSamples`), so a live session and the replay of
/// its recording give the logbook the same samples.
package struct FlightSample: Sendable, Equatable {
    /// One target near ownship at the sample's time.
    package struct Nearby: Sendable, Equatable {
        /// The target (`TargetKey` description, e.g. `ab4549`).
        package var subject: String
        /// Callsign, when reported.
        package var callsign: String?
        /// Position.
        package var position: Position
        /// Pressure altitude, feet (nil: unknown).
        package var altitudeFt: Int?
        /// Horizontal range from ownship, NM.
        package var rangeNM: Double
        /// Creates one.
        package init(subject: String, callsign: String?, position: Position, altitudeFt: Int?, rangeNM: Double) {
            self.subject = subject
            self.callsign = callsign
            self.position = position
            self.altitudeFt = altitudeFt
            self.rangeNM = rangeNM
        }
    }

    /// When ownship was there (the time of the report the position comes from), epoch seconds.
    package var time: Double
    /// Position (nil: no fix, or one only dead-reckoned across a gap).
    package var position: Position?
    /// Pressure altitude, feet.
    package var pressureAltitudeFt: Double?
    /// Geometric (GNSS) altitude, feet.
    package var geometricAltitudeFt: Double?
    /// Ground speed, knots.
    package var groundSpeedKt: Double
    /// Track, degrees true (nil when not moving).
    package var trackDeg: Double?
    /// Vertical speed, feet per minute.
    package var verticalSpeedFpm: Double
    /// Phase now.
    package var phase: FlightState.Phase
    /// When the condition behind the last phase change began (takeoff roll, landing roll).
    package var phaseChangeBegan: Double?
    /// True when the phase was decided by the first fix (started in flight).
    package var phaseFromFirstFix: Bool
    /// Traffic within `FlightSample.nearbyRangeNM`, by subject.
    package var nearby: [Nearby]

    /// Traffic this close (NM) is given with each sample; the logbook keeps closest approaches within 2 NM.
    package static let nearbyRangeNM = 3.0

    /// Creates a sample.
    package init(time: Double, position: Position?, pressureAltitudeFt: Double?, geometricAltitudeFt: Double?, groundSpeedKt: Double,
                trackDeg: Double?, verticalSpeedFpm: Double, phase: FlightState.Phase, phaseChangeBegan: Double?,
                phaseFromFirstFix: Bool, nearby: [Nearby] = []) {
        self.time = time
        self.position = position
        self.pressureAltitudeFt = pressureAltitudeFt
        self.geometricAltitudeFt = geometricAltitudeFt
        self.groundSpeedKt = groundSpeedKt
        self.trackDeg = trackDeg
        self.verticalSpeedFpm = verticalSpeedFpm
        self.phase = phase
        self.phaseChangeBegan = phaseChangeBegan
        self.phaseFromFirstFix = phaseFromFirstFix
        self.nearby = nearby
    }
}

extension GatewayCore {
    /// Ownship's sample at `time` (a tick): nil before the first fix.
    func flightSample(at time: Double) -> FlightSample? {
        let flight = ownship.flight
        guard flight.phase != .unknown else { return nil }
        let fix = ownship.fix(at: time)
        let real = fix.flatMap { $0.isHeld ? nil : $0 }
        var pressure: Double?, geometric: Double?
        if let real {
            if real.source == .gdl90 {
                pressure = ownship.report?.pressureAltitudeFt.map(Double.init)
                if let g = ownship.geoAltitudeFt, let gt = ownship.geoAltitudeTime, time - gt <= ownship.holdFixAge { geometric = Double(g) }
            } else {
                geometric = ownship.gpsdFix?.altitudeFt
            }
        }
        var nearby: [FlightSample.Nearby] = []
        if let own = real?.position {
            for t in picture.targets.values where t.twinOf == nil && time - t.lastReal <= 5 {
                guard let p = t.position else { continue }
                let range = Geodesy.distanceNM(own, p)
                if range <= FlightSample.nearbyRangeNM {
                    nearby.append(.init(subject: t.key.description, callsign: t.callsign, position: p, altitudeFt: t.pressureAltitudeFt, rangeNM: range))
                }
            }
            nearby.sort { $0.subject < $1.subject }
        }
        return FlightSample(
            time: time - (real?.ageSec ?? 0), position: real?.position, pressureAltitudeFt: pressure, geometricAltitudeFt: geometric,
            groundSpeedKt: real?.groundSpeedKt ?? 0, trackDeg: real?.trackDeg, verticalSpeedFpm: real?.verticalSpeedFpm ?? 0,
            phase: flight.phase, phaseChangeBegan: flight.changeBegan, phaseFromFirstFix: flight.decidedByFirstFix, nearby: nearby)
    }
}
