#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GDL90
import GatewaySupport

/// Ownship's path for a flight scenario (issue 23), built leg by leg: each leg holds a heading
/// while the speed and altitude change linearly, so positions, speeds and vertical speeds agree
/// as a real recording's do. On the scenario's plane (NM from KSLE).
struct FlightPath: Sendable {
    struct Frame: Sendable {
        var t: Double, east: Double, north: Double, altitude: Double, speed: Double, track: Double
    }
    private(set) var frames: [Frame]

    init(east: Double = 0, north: Double = 0, altitude: Double, track: Double = 0, speed: Double = 0) {
        frames = [Frame(t: 0, east: east, north: north, altitude: altitude, speed: speed, track: track)]
    }

    var end: Frame { frames[frames.count - 1] }

    /// Holds heading `track` for `seconds`, the speed going linearly to `kt` and the altitude to `altitude`.
    mutating func go(_ track: Double, _ seconds: Double, kt: Double, altitude: Double? = nil) {
        let a = end
        let nm = (a.speed + kt) / 2 * seconds / 3600
        frames.append(Frame(t: a.t + seconds, east: a.east + nm * sinDeg(track), north: a.north + nm * cosDeg(track),
                            altitude: altitude ?? a.altitude, speed: kt, track: track))
    }

    /// Stands still for `seconds`.
    mutating func hold(_ seconds: Double) {
        var a = end
        a.t += seconds
        a.speed = 0
        frames.append(a)
    }

    /// Flies straight to (`east`, `north`) at `kt`, the altitude going to `altitude`.
    mutating func direct(east: Double, north: Double, kt: Double, altitude: Double? = nil) {
        let a = end
        let de = east - a.east, dn = north - a.north
        let distance = (de * de + dn * dn).squareRoot()
        var track = atan2(de, dn) * 180 / .pi
        if track < 0 { track += 360 }
        go(track, distance / kt * 3600, kt: kt, altitude: altitude)
    }

    var duration: Int { Int(end.t.rounded(.up)) }

    /// Where ownship is at second `t` (after the last leg: where it ended, standing still).
    func at(_ t: Double) -> TrafficScenario.Kinematics {
        guard let i = frames.firstIndex(where: { $0.t > t }), i > 0 else {
            let e = end
            return .init(east: e.east, north: e.north, altitude: e.altitude, speed: t > e.t ? 0 : e.speed, track: e.track)
        }
        let a = frames[i - 1], b = frames[i]
        let f = (t - a.t) / (b.t - a.t)
        // Distance along the leg with the speed changing linearly: v0·τ + (v1 − v0)·τ²/(2T).
        let tau = t - a.t, span = b.t - a.t
        let nm = (a.speed * tau + (b.speed - a.speed) * tau * tau / (2 * span)) / 3600
        return .init(east: a.east + nm * sinDeg(b.track), north: a.north + nm * cosDeg(b.track),
                     altitude: a.altitude + (b.altitude - a.altitude) * f, speed: a.speed + (b.speed - a.speed) * f,
                     track: b.speed > 0 || a.speed > 0 ? b.track : a.track, verticalSpeed: (b.altitude - a.altitude) / span * 60)
    }

    /// The first second at which the speed crosses `kt` going up (or down), for expectations.
    func crossing(_ kt: Double, rising: Bool, after: Double = 0) -> Double? {
        var t = after
        while t < end.t {
            let s = at(t).speed, s2 = at(t + 0.1).speed
            if rising ? (s < kt && s2 >= kt) : (s >= kt && s2 < kt) { return t + 0.1 }
            t += 0.1
        }
        return nil
    }
}

/// A traffic scenario made for the logbook (issue 23): ownship flies whole flights, with the
/// takeoffs, landings, airports and closest approaches the logbook must find.
package struct FlightScenario: Sendable {
    /// A flight the logbook must find.
    package struct ExpectedFlight: Sendable {
        /// Takeoff (epoch seconds), nil when the recording starts in the air.
        package var takeoff: Double?
        /// Landing, nil when it ends in the air.
        package var landing: Double?
        /// Departure and arrival airports (as `Airport.spoken`).
        package var departure: String?, arrival: String?
        /// Closest approaches: subject, range NM, vertical ft, time.
        package var encounters: [(subject: String, rangeNM: Double, verticalFt: Int, time: Double)]
    }

    /// The capture's scenario.
    package var scenario: TrafficScenario
    /// The flights in it.
    package var expected: [ExpectedFlight]

    /// The logbook scenarios, written by `gatewayd simulate` to fixtures/scenarios/.
    package static let all: [FlightScenario] = [twoFlights, touchAndGo, inAir, goAround]

    static func at(minute: Int) -> Double { TrafficScenario.at(minute: minute) }

    /// Independence State (7S5) on the KSLE plane.
    static let independence = LocalPlane(origin: TrafficScenario.origin).project(Position(latitude: 44.867152, longitude: -123.198245))
    static let ksleElevation = 214.0, independenceElevation = 180.0

    /// A target passing ownship at second `t` of `path`, `offsetNM` to its right (negative: left),
    /// `aboveFt` above, flying the reciprocal at `kt`, reported for 60 s either side.
    static func passing(_ path: FlightPath, at t: Double, offsetNM: Double, aboveFt: Double, kt: Double, address: UInt32,
                        callsign: String) -> TrafficScenario.Actor {
        let o = path.at(t)
        let right = o.track + 90
        let e0 = o.east + offsetNM * sinDeg(right), n0 = o.north + offsetNM * cosDeg(right)
        let track = (o.track + 180).truncatingRemainder(dividingBy: 360)
        let altitude = o.altitude + aboveFt
        return TrafficScenario.Actor(address: address, callsign: callsign, active: (t - 60)...(t + 60)) { s in
            let nm = (s - t) * kt / 3600
            return .init(east: e0 + nm * sinDeg(track), north: n0 + nm * cosDeg(track), altitude: altitude, speed: kt, track: track)
        }
    }

    static func scenario(_ name: String, _ summary: String, minute: Int, path: FlightPath, actors: [TrafficScenario.Actor],
                         extra: Int = 10) -> TrafficScenario {
        TrafficScenario(name: name, summary: summary, start: at(minute: minute), duration: path.duration + extra,
                        ownship: { path.at($0) }, actors: actors)
    }

    // MARK: The scenarios

    /// Two flights with a taxi between: KSLE → 7S5, parked there 160 s, 7S5 → KSLE. A target
    /// passes 0.4 NM abeam, 200 ft above, on the first; another 0.8 NM, 500 ft below, on the second.
    static let twoFlightsPath: FlightPath = {
        let e7 = independence.east, n7 = independence.north
        var p = FlightPath(altitude: ksleElevation)
        p.hold(30)
        p.go(180, 60, kt: 10)                                // taxi out
        p.go(270, 20, kt: 70)                                // takeoff roll, west
        p.go(270, 60, kt: 90, altitude: ksleElevation + 1000) // climb out
        p.direct(east: e7 + 1.4, north: n7, kt: 110, altitude: 1500)
        p.go(270, 60, kt: 65, altitude: independenceElevation) // approach
        p.go(270, 20, kt: 10)                                // landing roll
        p.go(0, 60, kt: 10)                                  // taxi in
        p.hold(160)                                          // parked: flight 1 ends
        p.go(180, 60, kt: 10)                                // taxi out
        p.go(90, 20, kt: 70)                                 // takeoff roll, east
        p.go(90, 60, kt: 90, altitude: independenceElevation + 1000)
        p.direct(east: -1.4, north: -0.167, kt: 110, altitude: 1500)
        p.go(90, 60, kt: 65, altitude: ksleElevation)
        p.go(90, 20, kt: 10)
        p.go(0, 40, kt: 10)
        p.hold(130)
        return p
    }()

    static let twoFlights: FlightScenario = {
        let p = twoFlightsPath
        let cruise1 = 230.0, cruise2 = 930.0
        let takeoff1 = p.crossing(40, rising: true)!, landing1 = p.crossing(30, rising: false, after: takeoff1)!
        let takeoff2 = p.crossing(40, rising: true, after: landing1)!, landing2 = p.crossing(30, rising: false, after: takeoff2)!
        let s = scenario("two-flights", "KSLE to 7S5, parked 160 s, 7S5 to KSLE; a target 0.4 NM abeam 200 ft above on the first, one 0.8 NM 500 ft below on the second",
                         minute: 60, path: p, actors: [
                            passing(p, at: cruise1, offsetNM: 0.4, aboveFt: 200, kt: 100, address: 0xA31001, callsign: "N31EN"),
                            passing(p, at: cruise2, offsetNM: -0.8, aboveFt: -500, kt: 100, address: 0xA32002, callsign: "N32EN"),
                         ])
        let t0 = s.start
        return FlightScenario(scenario: s, expected: [
            .init(takeoff: t0 + takeoff1, landing: t0 + landing1, departure: "KSLE", arrival: "7S5",
                  encounters: [("a31001", 0.4, 200, t0 + cruise1)]),
            .init(takeoff: t0 + takeoff2, landing: t0 + landing2, departure: "7S5", arrival: "KSLE",
                  encounters: [("a32002", 0.8, -500, t0 + cruise2)]),
        ])
    }()

    /// A circuit at KSLE with a touch-and-go (down to 35 kt on the runway for 8 s), a second
    /// circuit and a full-stop landing: one flight.
    static let touchAndGo: FlightScenario = {
        var p = FlightPath(altitude: ksleElevation)
        p.hold(20)
        p.go(180, 40, kt: 10)
        p.go(310, 20, kt: 70)                                  // takeoff roll, runway 31
        p.go(310, 60, kt: 90, altitude: ksleElevation + 800)   // upwind
        p.go(220, 40, kt: 90, altitude: ksleElevation + 1000)  // crosswind
        p.go(130, 80, kt: 90)                                  // downwind
        p.go(40, 40, kt: 80, altitude: ksleElevation + 500)    // base
        p.direct(east: 0.2, north: -0.3, kt: 65, altitude: ksleElevation)  // final
        p.go(310, 10, kt: 35)                                  // touch down, slow to 35 kt
        p.go(310, 8, kt: 35)                                   // rolling
        p.go(310, 12, kt: 70)                                  // and go
        p.go(310, 60, kt: 90, altitude: ksleElevation + 800)
        p.go(220, 40, kt: 90, altitude: ksleElevation + 1000)
        p.go(130, 80, kt: 90)
        p.go(40, 40, kt: 80, altitude: ksleElevation + 500)
        p.direct(east: 0.2, north: -0.3, kt: 65, altitude: ksleElevation)
        p.go(310, 20, kt: 10)                                  // full stop
        p.go(40, 40, kt: 10)
        p.hold(130)
        let takeoff = p.crossing(40, rising: true)!
        let landing = p.crossing(30, rising: false, after: takeoff)!
        let downwind = 20.0 + 40 + 20 + 60 + 40 + 40
        let s = scenario("touch-and-go", "a circuit at KSLE, a touch-and-go (35 kt for 8 s), a second circuit, a full stop: one flight",
                         minute: 90, path: p, actors: [
                            passing(p, at: downwind, offsetNM: 1.2, aboveFt: 0, kt: 90, address: 0xA33003, callsign: "N33TG"),
                         ])
        return FlightScenario(scenario: s, expected: [
            .init(takeoff: s.start + takeoff, landing: s.start + landing, departure: "KSLE", arrival: "KSLE",
                  encounters: [("a33003", 1.2, 0, s.start + downwind)]),
        ])
    }()

    /// A recording that starts in the air, 6 NM east of KSLE at 2500 ft, inbound; lands at KSLE.
    static let inAir: FlightScenario = {
        var p = FlightPath(east: 6, north: -0.3, altitude: 2500, track: 270, speed: 110)
        p.go(270, 120, kt: 100, altitude: 1200)
        p.direct(east: 0.6, north: -0.3, kt: 70, altitude: ksleElevation + 50)
        p.go(270, 5, kt: 65, altitude: ksleElevation)
        p.go(270, 20, kt: 10)
        p.go(0, 30, kt: 10)
        p.hold(130)
        let landing = p.crossing(30, rising: false)!
        let s = scenario("in-air", "a recording that starts in the air at 2500 ft 6 NM east of KSLE and lands there; a target passes 0.3 NM, 300 ft above",
                         minute: 120, path: p, actors: [
                            passing(p, at: 60, offsetNM: 0.3, aboveFt: 300, kt: 120, address: 0xA34004, callsign: "N34IA"),
                         ])
        return FlightScenario(scenario: s, expected: [
            .init(takeoff: nil, landing: s.start + landing, departure: nil, arrival: "KSLE",
                  encounters: [("a34004", 0.3, 300, s.start + 60)]),
        ])
    }()

    /// Takeoff from KSLE, an approach down to 50 ft at 65 kt, a go-around, a circuit and a
    /// landing: one flight.
    static let goAround: FlightScenario = {
        var p = FlightPath(altitude: ksleElevation)
        p.hold(20)
        p.go(180, 30, kt: 10)
        p.go(310, 20, kt: 70)
        p.go(310, 60, kt: 90, altitude: ksleElevation + 800)
        p.go(220, 40, kt: 90, altitude: ksleElevation + 1000)
        p.go(130, 80, kt: 90)
        p.go(40, 40, kt: 80, altitude: ksleElevation + 500)
        p.direct(east: 0.2, north: -0.3, kt: 65, altitude: ksleElevation + 50)  // low approach
        p.go(310, 15, kt: 70, altitude: ksleElevation + 300)                   // go around
        p.go(310, 45, kt: 90, altitude: ksleElevation + 800)
        p.go(220, 40, kt: 90, altitude: ksleElevation + 1000)
        p.go(130, 80, kt: 90)
        p.go(40, 40, kt: 80, altitude: ksleElevation + 500)
        p.direct(east: 0.2, north: -0.3, kt: 65, altitude: ksleElevation)
        p.go(310, 20, kt: 10)
        p.go(40, 30, kt: 10)
        p.hold(130)
        let takeoff = p.crossing(40, rising: true)!
        let landing = p.crossing(30, rising: false, after: takeoff)!
        let s = scenario("go-around", "takeoff from KSLE, a low approach to 50 ft, a go-around, a circuit and a landing: one flight",
                         minute: 150, path: p, actors: [])
        return FlightScenario(scenario: s, expected: [
            .init(takeoff: s.start + takeoff, landing: s.start + landing, departure: "KSLE", arrival: "KSLE", encounters: []),
        ])
    }()
}
