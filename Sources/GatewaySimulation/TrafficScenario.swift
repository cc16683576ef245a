import GDL90
import GatewaySupport
import GatewayDomain

/// A scripted traffic situation that reproduces one thing real receivers do to traffic alerts
/// (issue 13): written as a pcap (and, for receivers without ownship reports, a gpspipe log) by
/// `gatewayd simulate`, replayed by the golden tests. Every byte comes from the project's own
/// encoder and the scripts in `TrafficScenario.all`; no real recording is committed.
package struct TrafficScenario: Sendable {
    /// Where an aircraft is at one instant, on the scenario's local plane.
    package struct Kinematics: Sendable, Equatable {
        /// East of the origin, NM.
        package var east: Double
        /// North of the origin, NM.
        package var north: Double
        /// Pressure altitude, feet.
        package var altitude: Double
        /// Ground speed, knots.
        package var speed: Double
        /// Track, degrees true.
        package var track: Double
        /// Vertical speed, feet per minute.
        package var verticalSpeed: Double = 0
    }

    /// One aircraft or vehicle the receiver reports as traffic.
    package struct Actor: Sendable {
        /// 24-bit address.
        var address: UInt32
        /// Address type (ADS-B ICAO, TIS-B track file…).
        var type: AddressType = .adsbICAO
        /// Callsign.
        var callsign: String
        /// The airborne bit it reports.
        var airborne = true
        /// Seconds (from the start) during which it is reported.
        var active: ClosedRange<Double>
        /// From this second on, the receiver re-sends the position of that second (speed unchanged).
        var frozenFrom: Double? = nil
        /// Until this second the position is frozen (then it moves again).
        var frozenUntil: Double = .infinity
        /// Whether it is reported at second s (a receiver or recorder that keeps some reports only).
        var reportedAt: @Sendable (Int) -> Bool = { _ in true }
        /// Where it is at second t.
        var state: @Sendable (Double) -> Kinematics
    }

    /// What kind of box sends the stream.
    package enum Receiver: Sendable {
        /// Stratux style: heartbeat, Stratux heartbeat, ownship (airborne bit always set),
        /// geometric altitude and traffic, one datagram a second.
        case stratux
        /// As Stratux, but traffic goes in its own datagram half a second after ownship's.
        case stratuxSplit
        /// Dynon SkyView style: traffic reports only, no heartbeat and no ownship report;
        /// ownship's position comes from gpsd (the scenario's gpspipe log), and ownship itself is
        /// echoed as ordinary ADS-B traffic under `echoAddress`.
        case dynon
    }

    /// File name stem (`fixtures/scenarios/NAME.pcap`).
    package var name: String
    /// One line: what real data showed that this reproduces.
    package var summary: String
    /// Epoch seconds of the first datagram.
    package var start: Double
    /// Duration, seconds.
    package var duration: Int
    /// The box.
    package var receiver: Receiver = .stratux
    /// Ownship's address (Stratux ownship reports; the echo's address for Dynon).
    package var ownshipAddress: UInt32 = 0xA1B2C3
    /// Whether ownship's report is sent at second s (recorders and boxes drop some).
    var ownshipReported: @Sendable (Int) -> Bool = { _ in true }
    /// Ownship at second t.
    var ownship: @Sendable (Double) -> Kinematics
    /// Traffic.
    var actors: [Actor]
    /// Addresses (TargetKey descriptions) that must never alert: echoes, twins' copies, frozen copies.
    package var mustNotAlert: Set<String> = []
    /// Groups of addresses that are one aircraft: at most one of each group may alert.
    package var sameAircraft: [Set<String>] = []

    /// The local plane's origin: Salem, Oregon (KSLE).
    package static let origin = Position(latitude: 44.9095, longitude: -123.0030)
    private var plane: LocalPlane { LocalPlane(origin: Self.origin) }

    /// Every datagram, in time order.
    package func datagrams() -> [(time: Double, bytes: [UInt8])] {
        var out: [(time: Double, bytes: [UInt8])] = []
        for s in 0..<duration {
            let t = Double(s)
            var own: [UInt8] = []
            var traffic: [UInt8] = []
            let o = ownship(t)
            let ownPosition = plane.unproject(PlanePoint(east: o.east, north: o.north))
            if receiver != .dynon {
                own += Message.heartbeat(Heartbeat(gpsPositionValid: true, uatInitialized: true, utcOK: true,
                                                   secondsSinceMidnight: UInt32(Int(start) % 86_400 + s))).frame()
                own += Message.stratuxHeartbeat(StratuxHeartbeat(protocolVersion: 1, gpsValid: true, ahrsValid: false)).frame()
                if ownshipReported(s) {
                    // Stratux sets the airborne bit always, parked or not.
                    own += Message.ownship(TrafficReport(
                        addressType: .adsbICAO, address: ownshipAddress, position: ownPosition, pressureAltitudeFt: Int(o.altitude.rounded()),
                        airborne: true, trackType: .trueTrack, nic: 9, nacp: 10, groundSpeedKt: Int(o.speed.rounded()),
                        verticalSpeedFpm: Int(o.verticalSpeed), trackDeg: o.track, emitterCategory: 1, callsign: "N172SG")).frame()
                    own += Message.ownshipGeoAltitude(OwnshipGeometricAltitude(altitudeFt: Int(o.altitude) + 150, vfom: .meters(8))).frame()
                }
            } else {
                // The box echoes ownship as ordinary traffic (its own ADS-B Out), a few feet off.
                let echo = plane.unproject(PlanePoint(east: o.east + 0.004, north: o.north - 0.003))
                traffic += Message.traffic(TrafficReport(
                    addressType: .adsbICAO, address: ownshipAddress, position: echo, pressureAltitudeFt: Int(o.altitude.rounded()) - 150,
                    airborne: true, trackType: .trueTrack, nic: 9, nacp: 10, groundSpeedKt: Int(o.speed.rounded()),
                    verticalSpeedFpm: Int(o.verticalSpeed), trackDeg: o.track, emitterCategory: 1, callsign: "N172SG")).frame()
                if s % 10 == 0 {
                    traffic += Message.uplink(Uplink(timeOfReception: nil, payload: FISBUplink(header: FISBSamples.station, frames: []).encode())).frame()
                }
            }
            for a in actors where a.active.contains(t) && a.reportedAt(s) {
                var st = a.state(t)
                if let frozen = a.frozenFrom, t >= frozen, t < a.frozenUntil {
                    let f = a.state(frozen)
                    st.east = f.east
                    st.north = f.north
                }
                let position = plane.unproject(PlanePoint(east: st.east, north: st.north))
                traffic += Message.traffic(TrafficReport(
                    alertStatus: Geodesy.distanceNM(ownPosition, position) <= 2 ? 1 : 0, addressType: a.type, address: a.address,
                    position: position, pressureAltitudeFt: Int(st.altitude.rounded()), airborne: a.airborne, trackType: .trueTrack,
                    nic: 8, nacp: 9, groundSpeedKt: Int(st.speed.rounded()), verticalSpeedFpm: Int(st.verticalSpeed), trackDeg: st.track,
                    emitterCategory: 1, callsign: a.callsign)).frame()
            }
            let time = start + t + Double((s * 37) % 100) / 1000
            switch receiver {
            case .stratux: out.append((time, own + traffic))
            case .stratuxSplit:
                out.append((time, own))
                if !traffic.isEmpty { out.append((time + 0.5, traffic)) }
            case .dynon:
                if !traffic.isEmpty { out.append((time + 0.4, traffic)) }
            }
        }
        return out
    }

    /// The gpspipe log (`gpspipe -w` JSON lines, TPV reports at 1 Hz) of ownship, for `.dynon`; empty otherwise.
    package func gpsLog() -> [UInt8] {
        guard receiver == .dynon else { return [] }
        var text = ""
        for s in 0..<duration {
            let o = ownship(Double(s))
            let p = plane.unproject(PlanePoint(east: o.east, north: o.north))
            text += "{\"class\":\"TPV\",\"device\":\"/dev/ttyACM0\",\"mode\":3,\"time\":\"\(Timestamp.iso8601(start + Double(s)))\","
            text += "\"lat\":\(JSONWriter.format(p.latitude, decimals: 7)),\"lon\":\(JSONWriter.format(p.longitude, decimals: 7)),"
            // gpsd gives geometric altitude (metres): the sky is a little above pressure altitude here.
            text += "\"altMSL\":\(JSONWriter.format((o.altitude + 150) * 0.3048, decimals: 1)),"
            text += "\"speed\":\(JSONWriter.format(o.speed * 1852 / 3600, decimals: 3)),\"track\":\(JSONWriter.format(o.track, decimals: 1)),"
            text += "\"climb\":\(JSONWriter.format(o.verticalSpeed * 0.3048 / 60, decimals: 2))}\n"
        }
        return Array(text.utf8)
    }

    /// Genuine conflicts: traffic (not in `mustNotAlert`) that comes within 0.5 NM and 300 ft of
    /// airborne ownship (≥ 40 kt) at some second, with that second. Each must be alerted.
    package func genuineConflicts() -> [(address: String, firstSecond: Int)] {
        var out: [(String, Int)] = []
        for a in actors {
            let key = TargetKey(address: a.address, type: a.type).description
            guard !mustNotAlert.contains(key), a.airborne else { continue }
            for s in 0..<duration where a.active.contains(Double(s)) {
                let o = ownship(Double(s)), st = a.state(Double(s))
                let range = ((st.east - o.east) * (st.east - o.east) + (st.north - o.north) * (st.north - o.north)).squareRoot()
                if o.speed >= 40, range <= 0.5, abs(st.altitude - o.altitude) <= 300 {
                    out.append((key, s))
                    break
                }
            }
        }
        return out
    }
}

extension TrafficScenario {
    /// The scenarios, one for each phenomenon of issue 13 (1–6) and issue 28 (7–8) and issue 44 (9), each starting
    /// on its own minute of 2026-05-16 after 16:00Z.
    package static let all: [TrafficScenario] = [parked, gaps, churn, twins, echo, frozen, turning, flicker, sparseTurn]

    static func at(minute: Int) -> Double { Timestamp.midnight(year: 2026, month: 5, day: 16) + 16 * 3600 + Double(minute * 60) }

    /// A cheap deterministic wobble in [-1, 1].
    static func wobble(_ t: Double, period: Double) -> Double { PlaneVelocity(speedKt: 1, trackDeg: 360 * t / period).east }

    /// 1. Parked on an apron, 0–5 kt, airborne bit set (as Stratux always does); a target on the
    /// ground at 0 kt 0.13 NM away, another taxiing by, and a low pass overhead.
    package static let parked = TrafficScenario(
        name: "parked",
        summary: "ownship parked (0-5 kt, Stratux airborne bit set), a parked target 0.13 NM away on the ground, a taxiing one, a low pass at 1000 ft",
        start: at(minute: 0), duration: 120,
        ownship: { t in Kinematics(east: 0.001 * wobble(t, period: 17), north: 0, altitude: 200,
                                  speed: Double(Int(t * 7) % 6), track: (t * 23).truncatingRemainder(dividingBy: 360)) },
        actors: [
            Actor(address: 0xA12301, callsign: "N123GT", airborne: false, active: 0...119) { _ in
                Kinematics(east: 0.13, north: 0.0, altitude: 200, speed: 0, track: 90)
            },
            Actor(address: 0xA45601, callsign: "N456TX", airborne: false, active: 20...90) { t in
                Kinematics(east: 0.05, north: -0.2 + (t - 20) * 12 / 3600, altitude: 200, speed: 12, track: 0)
            },
            Actor(address: 0xA78901, callsign: "N789LP", active: 40...100) { t in
                Kinematics(east: 0.3, north: -(t - 70) * 110 / 3600, altitude: 1200, speed: 110, track: 180)
            },
        ])

    /// 2. Ownship reports 1–13 s apart (a thinned recording, a stalled GPS) with a formation
    /// partner 0.1–0.3 NM abeam for the whole flight.
    package static let gaps = TrafficScenario(
        name: "gaps",
        summary: "ownship reports 1-13 s apart, a formation partner 0.1-0.3 NM abeam at the same altitude",
        start: at(minute: 10), duration: 180,
        ownshipReported: { s in
            // Intervals 1,1,1,4,2,13,1,1,3,7,1,10,2,5 repeated.
            let intervals = [1, 1, 1, 4, 2, 13, 1, 1, 3, 7, 1, 10, 2, 5]
            var at = 0, i = 0
            while at < s { at += intervals[i % intervals.count]; i += 1 }
            return at == s
        },
        ownship: { t in Kinematics(east: 0, north: t * 100 / 3600, altitude: 3000, speed: 100, track: 0) },
        actors: [
            Actor(address: 0xA22201, callsign: "N22FM", active: 0...179) { t in
                Kinematics(east: 0.2 + 0.1 * wobble(t, period: 60), north: t * 100 / 3600 + 0.03 * wobble(t, period: 45),
                           altitude: 3000 + 60 * wobble(t, period: 50), speed: 100, track: 0)
            },
            Actor(address: 0xA00001, callsign: "UAL123", active: 0...179) { t in
                Kinematics(east: -1, north: -10 + t * 450 / 3600, altitude: 35000, speed: 450, track: 0)
            },
        ])

    /// 3. Traffic in its own datagram half a second after ownship's: a fast head-on whose caution
    /// and warning fall close together, and a crosser whose predicted miss hovers around the
    /// caution boundary as its track wanders.
    package static let churn = TrafficScenario(
        name: "churn",
        summary: "traffic half a second after ownship: a fast head-on (caution then warning), a crosser whose miss hovers at the caution boundary",
        start: at(minute: 20), duration: 150, receiver: .stratuxSplit,
        ownship: { t in Kinematics(east: 0, north: t * 120 / 3600, altitude: 4500, speed: 120, track: 0) },
        actors: [
            Actor(address: 0xA33301, callsign: "N33HO", active: 10...149) { t in
                Kinematics(east: 0.1, north: 100 * 120 / 3600 + (100 - t) * 160 / 3600, altitude: 4600, speed: 160, track: 180)
            },
            Actor(address: 0xA33401, callsign: "N34BD", active: 0...149) { t in
                // Westbound, crossing 0.5 NM ahead of ownship at t = 60 as scripted; its track wanders ±8°.
                let track = 270 + 8 * wobble(t, period: 12)
                return Kinematics(east: (60 - t) * 100 / 3600, north: 60 * 120 / 3600 + 0.5 + 0.02 * wobble(t, period: 12),
                                  altitude: 4400, speed: 100, track: track)
            },
        ])

    /// 4. A TIS-B track-file copy of an ADS-B target 0.02–0.07 NM from it, then frozen and re-sent for 22 s.
    package static let twins = TrafficScenario(
        name: "twins",
        summary: "an ADS-B target on a collision course and its TIS-B track-file twin 0.02-0.07 NM off, frozen for 22 s after the pass",
        start: at(minute: 30), duration: 150,
        ownship: { t in Kinematics(east: 0, north: t * 110 / 3600, altitude: 3500, speed: 110, track: 0) },
        actors: [
            Actor(address: 0xA44401, callsign: "N44TW", active: 0...149) { t in
                Kinematics(east: (90 - t) * 130 / 3600 + 0.1, north: 90 * 110 / 3600, altitude: 3600, speed: 130, track: 270)
            },
            Actor(address: 0x000123, type: .tisbTrackFile, callsign: "", active: 5...149, frozenFrom: 100, frozenUntil: 122) { t in
                let off = 0.045 + 0.025 * wobble(t, period: 30)
                return Kinematics(east: (90 - t) * 130 / 3600 + 0.1 + off * 0.6, north: 90 * 110 / 3600 + off * 0.8,
                                  altitude: 3650, speed: 130, track: 270)
            },
        ],
        mustNotAlert: ["~000123"],
        sameAircraft: [["a44401", "~000123"]])

    /// 5. A Dynon-style stream (traffic and uplinks only) that echoes ownship as ADS-B traffic,
    /// with ownship from gpsd, and one genuine crossing conflict.
    package static let echo = TrafficScenario(
        name: "echo",
        summary: "Dynon-style stream (0x14 and 0x07 only, no heartbeat, no ownship report), ownship from gpsd and echoed as traffic, one real crossing",
        start: at(minute: 40), duration: 150, receiver: .dynon, ownshipAddress: 0xA5E7C0,
        ownship: { t in
            let d = t * 110 / 3600
            return Kinematics(east: d * 0.7071, north: d * 0.7071, altitude: 4500, speed: 110, track: 45)
        },
        actors: [
            Actor(address: 0xA55501, callsign: "N55CX", active: 20...149) { t in
                // Southbound, crossing ownship's track at t = 100 0.15 NM ahead of it.
                let d = 100 * 110 / 3600.0
                return Kinematics(east: d * 0.7071 + 0.1, north: d * 0.7071 + (100 - t) * 120 / 3600, altitude: 4400, speed: 120, track: 180)
            },
        ],
        mustNotAlert: ["a5e7c0"])

    /// 6. A TIS-B copy whose position freezes (re-sent, speed still 120 kt) on ownship's path,
    /// 0.5–1 NM behind the real aircraft it copied, while the real one flies on.
    package static let frozen = TrafficScenario(
        name: "frozen",
        summary: "a TIS-B copy frozen on ownship's path while reporting 120 kt; the real aircraft crossed well ahead",
        start: at(minute: 50), duration: 150,
        ownship: { t in Kinematics(east: 0, north: t * 100 / 3600, altitude: 3000, speed: 100, track: 0) },
        actors: [
            Actor(address: 0xA66601, callsign: "N66FZ", active: 0...149) { t in
                Kinematics(east: -(t - 30) * 120 / 3600, north: 2.6, altitude: 3100, speed: 120, track: 270)
            },
            // The copy is where N66FZ was 18 s before t = 30 (0.6 NM behind it), and stays there.
            Actor(address: 0x000456, type: .tisbTrackFile, callsign: "", active: 30...130, frozenFrom: 30) { t in
                Kinematics(east: 0.6 - (t - 30) * 120 / 3600, north: 2.6, altitude: 3100, speed: 120, track: 270)
            },
        ],
        mustNotAlert: ["~000456"])

    /// A chase flight's path: north for 20 s, a right orbit at 8°/s (a 45° bank at 100 kt) for
    /// 90 s, then north again; `lag` seconds behind the lead. Returns position, track and turn.
    static func chase(_ t: Double) -> Kinematics {
        let v = 100 / 3600.0, rate = 8.0, radius = v / (rate * .pi / 180)
        if t < 20 { return Kinematics(east: 0, north: t * v, altitude: 0, speed: 100, track: 0) }
        let turned = min(t - 20, 90) * rate
        // A right turn from north about a centre `radius` east of where it began (sine and
        // cosine of the angle turned are the east and north of a unit velocity along it).
        let unit = PlaneVelocity(speedKt: 1, trackDeg: turned)
        var k = Kinematics(east: radius - radius * unit.north, north: 20 * v + radius * unit.east, altitude: 0, speed: 100,
                           track: turned.truncatingRemainder(dividingBy: 360))
        if t > 110 {
            let along = PlaneVelocity(speedKt: (t - 110) * v, trackDeg: k.track)
            k.east += along.east
            k.north += along.north
        }
        return k
    }

    /// 7. A chase flight in a 45° bank: ownship follows N96AN 6 s behind through an orbit, and a
    /// TIS-B track file of N96AN (another address) reports it as the ground station's tracker
    /// sees it, 5 s late and dead-reckoned along the old track: 0.05 NM and 50 ft off, its
    /// track trailing by 40° in the turn.
    package static let turning = TrafficScenario(
        name: "turning",
        summary: "a chase in a 45-degree bank: N96AN 6 s ahead, its TIS-B copy 5 s late with its track 40 degrees behind in the turn",
        start: at(minute: 5), duration: 150,
        ownship: { t in
            var k = chase(t - 6)
            k.altitude = 4400
            return k
        },
        actors: [
            Actor(address: 0xAD4F21, callsign: "N96AN", active: 0...149) { t in
                var k = chase(t)
                k.altitude = 4500
                return k
            },
            Actor(address: 0x000960, type: .tisbTrackFile, callsign: "", active: 0...149) { t in
                // Where the tracker last saw N96AN (5 s ago), carried forward along that track.
                var k = chase(t - 5)
                let ahead = PlaneVelocity(speedKt: 5 * k.speed / 3600, trackDeg: k.track)
                k.east += ahead.east
                k.north += ahead.north
                k.altitude = 4550
                return k
            },
        ],
        mustNotAlert: ["~000960"],
        sameAircraft: [["ad4f21", "~000960"]])

    /// 8. Traffic in its own datagram half a second after ownship's, converging to a warning;
    /// then the receiver re-sends its last position for 10 s (a lost target, frozen) and the
    /// real reports resume in the very second the alert clears on the frozen position.
    package static let flicker = TrafficScenario(
        name: "flicker",
        summary: "a converging target (warning) frozen for 10 s, its real reports resuming in the second the alert clears",
        start: at(minute: 15), duration: 120, receiver: .stratuxSplit,
        ownship: { t in Kinematics(east: 0, north: t * 100 / 3600, altitude: 3000, speed: 100, track: 0) },
        actors: [
            Actor(address: 0xA77701, callsign: "N77FL", active: 0...119, frozenFrom: 46, frozenUntil: 56) { t in
                // Westbound, passing 0.2 NM ahead of ownship at t = 50, 100 ft above.
                Kinematics(east: (50 - t) * 90 / 3600, north: 50 * 100 / 3600 + 0.2, altitude: 3100, speed: 90, track: 270)
            },
        ])

    /// The leader of a two-ship formation (issue 44): southeast-bound at 141 kt, a left turn at
    /// 5.7°/s from t = 30 (112° → 49° in 11 s), straight, then back right from t = 80.
    static func formationTrack(_ t: Double) -> Double {
        if t < 30 { return 112 }
        if t < 41 { return 112 - 5.7 * (t - 30) }
        if t < 80 { return 112 - 5.7 * 11 }
        if t < 91 { return 112 - 5.7 * 11 + 5.7 * (t - 80) }
        return 112
    }

    /// Where the leader is at second t: its track flown in tenths of a second from the origin.
    static func formation(_ t: Double) -> Kinematics {
        guard t >= 0 else {
            // Before the start: on its first track.
            let back = PlaneVelocity(speedKt: 141 * t / 3600, trackDeg: 112)
            return Kinematics(east: back.east, north: back.north, altitude: 4550, speed: 141, track: 112)
        }
        var east = 0.0, north = 0.0, s = 0.0
        while s < t - 1e-9 {
            let step = min(0.1, t - s)
            let v = PlaneVelocity(speedKt: 141 * step / 3600, trackDeg: formationTrack(s + step / 2))
            east += v.east
            north += v.north
            s += step
        }
        return Kinematics(east: east, north: north, altitude: 4550, speed: 141, track: formationTrack(t))
    }

    /// 9. A two-ship formation recorded sparsely (issue 44: a real recording of two RVs kept the
    /// leader's ADS-B reports 3–5 s apart): the leader turns left at 5.7°/s and back; its TIS-B
    /// copy (address type 2, another address, every 2 s) sits 0.05 NM and 50 ft from it with the
    /// track it had 6 s before (34° behind in the turn) and 6 kt slower. Ownship trails 4 s behind.
    /// A turn rate cannot be learned from reports 3–5 s apart: the copy must be matched against the
    /// tracks the leader flew, at whatever spacing they came.
    package static let sparseTurn = TrafficScenario(
        name: "sparse-turn",
        summary: "a formation leader reported every 3-5 s turning at 5.7 degrees/s; its TIS-B copy 0.05 NM off with its track 6 s behind",
        start: at(minute: 20), duration: 130,
        ownship: { t in
            var k = formation(t - 4)
            k.altitude = 4500
            return k
        },
        actors: [
            Actor(address: 0xA5C001, callsign: "N5RV", active: 0...129, reportedAt: { s in [0, 3, 8, 12, 15, 20, 24].contains(s % 24) }) { t in
                formation(t)
            },
            Actor(address: 0xA5C0FF, type: .tisbICAO, callsign: "", active: 1...129, reportedAt: { $0 % 2 == 1 }) { t in
                var k = formation(t)
                let abeam = PlaneVelocity(speedKt: 0.05, trackDeg: k.track + 90)
                k.east += abeam.east
                k.north += abeam.north
                k.altitude = 4600
                k.speed = 135
                k.track = formationTrack(t - 6)
                return k
            },
        ],
        mustNotAlert: ["a5c0ff"],
        sameAircraft: [["a5c001", "a5c0ff"]])
}
