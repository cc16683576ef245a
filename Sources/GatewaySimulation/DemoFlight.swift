import GDL90
import GatewaySupport

/// The scripted flight behind the bundled capture (`fixtures/demo-flight.*`), generated with the
/// project's own encoder so that every byte of the fixture is explained here.
///
/// Ownship N172SG (ICAO a1b2c3) holds on the ground at Salem, Oregon (KSLE) for 30 s, then
/// climbs out northbound at 100 kt, 1500 fpm to 3000 ft. Around it (times in seconds from the
/// start, 2026-05-16T14:00:00Z):
/// - **N825V** (ab4549), head-on southbound at 3100 ft: caution, then warning, passes 0.08 NM
///   abeam at t = 200, steps down and clears.
/// - **N51TB** (c0ffee), crossing left to right 1.2 NM ahead and 850 ft above, heard both by
///   ADS-B and TIS-B: one merged advisory.
/// - **UAL123** (a00001), overhead at FL350: never alerts (vertical separation).
/// - **N4DR** (a0beef), on a collision course whose real reports stop at t = 140; Stratux
///   dead-reckons it (extrapolated) until t = 165. Trusted only 10 s: never alerts.
/// - **N99GT** (a99999), taxiing 0.15 NM away while ownship is on the ground (t = 0–8): no alert.
/// - ownship's own ghost relayed back by TIS-B, and Stratux's "MODE S" ring (addresses 0–7)
///   from t = 100 to 130: neither alerts.
/// - Stratux's own alert bit set on every target within 2 NM: ignored.
/// - Damage: a bit flipped at t = 50 (CRC error), garbage at t = 75, a frame cut short at
///   t = 95 (its remainder lost), and a frame split across the datagrams of t = 120 and 121.
package struct DemoFlight: Sendable {
    /// Epoch seconds of the first datagram: 2026-05-16T14:00:00Z.
    package static let start = Timestamp.midnight(year: 2026, month: 5, day: 16) + 14 * 3600
    /// Duration in seconds.
    package static let duration = 300
    /// Ownship address.
    package static let ownshipAddress: UInt32 = 0xA1B2C3
    /// The origin of the scenario's local plane: Salem, Oregon (KSLE).
    package static let origin = Position(latitude: 44.9095, longitude: -123.0030)

    /// One second's datagram: epoch time and UDP payload.
    package struct Datagram: Sendable, Equatable {
        /// Receive time, epoch seconds.
        package var time: Double
        /// UDP payload: several GDL 90 frames.
        package var bytes: [UInt8]
    }

    let plane = LocalPlane(origin: DemoFlight.origin)

    /// Creates the scenario.
    package init() {}

    /// Ownship's north offset (NM), altitude (ft), speed (kt) and airborne state at second `t`.
    func ownship(_ t: Double) -> (north: Double, altitude: Double, speed: Double, airborne: Bool, vs: Double) {
        if t < 30 { return (0, 200, 0, false, 0) }
        let north = (t - 30) * 100 / 3600
        let climbing = t < 142
        let altitude = climbing ? 200 + (t - 30) * 25 : 3000
        return (north, altitude, 100, true, climbing ? 1500 : 0)
    }

    struct Scripted {
        var address: UInt32
        var type: AddressType = .adsbICAO
        var callsign: String
        var emitter: UInt8 = 1
        var airborne = true
        var active: ClosedRange<Double>
        var every: Double = 1
        var realUntil: Double = .infinity
        /// Position (east, north NM), altitude, speed, track, vertical speed at t.
        var state: (Double) -> (east: Double, north: Double, altitude: Double, speed: Double, track: Double, vs: Double)
    }

    func scripted() -> [Scripted] {
        let own = ownship
        return [
            Scripted(address: 0xAB4549, callsign: "N825V", active: 90...260) { t in
                (0.08, own(200).north + (200 - t) * 120 / 3600, 3100, 120, 180, 0)
            },
            Scripted(address: 0xC0FFEE, callsign: "N51TB", active: 60...240) { t in
                ((t - 120) * 150 / 3600, 3.7, 3300, 150, 90, 0)
            },
            Scripted(address: 0xC0FFEE, type: .tisbICAO, callsign: "N51TB", active: 61...239, every: 2) { t in
                ((t - 121) * 150 / 3600, 3.7, 3300, 150, 90, 0)
            },
            Scripted(address: 0xA00001, callsign: "UAL123", emitter: 5, active: 0...300) { t in
                (-0.5, -20 + t * 450 / 3600, 35000, 450, 0, 0)
            },
            Scripted(address: 0xA0BEEF, callsign: "N4DR", active: 60...165, realUntil: 140) { t in
                ((195 - t) * 150 / 3600, own(195).north, 3000, 150, 270, 0)
            },
            Scripted(address: 0xA99999, callsign: "N99GT", emitter: 1, airborne: false, active: 0...8) { t in
                (0.15, 0.02 + t * 10 / 3600, 200, 10, 0, 0)
            },
            // Ownship's ghost, relayed back by TIS-B/ADS-R with two seconds of lag.
            Scripted(address: DemoFlight.ownshipAddress, type: .tisbICAO, callsign: "N172SG", active: 40...300, every: 2) { t in
                let o = own(t - 2)
                return (0, o.north, o.altitude, o.speed, 0, o.vs)
            },
        ]
    }

    /// Every datagram of the flight, one a second, in order.
    package func datagrams() -> [Datagram] {
        (0..<DemoFlight.duration).map { datagram(second: $0) }
    }

    /// The same flight as one raw GDL 90 byte stream (what a serial receiver would log), with the
    /// last frame cut short so the stream ends mid-frame.
    package func rawStream() -> [UInt8] {
        var bytes = datagrams().flatMap(\.bytes)
        bytes += Array(Message.heartbeat(Heartbeat(gpsPositionValid: true, utcOK: true, secondsSinceMidnight: 14 * 3600 + 300)).frame().prefix(5))
        return bytes
    }

    func datagram(second s: Int) -> Datagram {
        var bytes = frameBytes(second: s)
        // Split the last frame of second 120 across datagrams 120 and 121.
        if s == 120 { bytes.removeLast(9) }
        if s == 121 { bytes = Array(frameBytes(second: 120).suffix(9)) + bytes }
        let jitter = Double((s * 37) % 100) / 1000
        return Datagram(time: DemoFlight.start + Double(s) + jitter, bytes: bytes)
    }

    /// The frames of second `s`, with the scripted damage but before any split.
    func frameBytes(second s: Int) -> [UInt8] {
        let t = Double(s)
        var frames: [[UInt8]] = []
        let o = ownship(t)
        let ownPosition = plane.unproject(PlanePoint(east: 0, north: o.north))
        frames.append(Message.heartbeat(Heartbeat(gpsPositionValid: true, uatInitialized: true, utcOK: true,
                                                  secondsSinceMidnight: UInt32(14 * 3600 + s))).frame())
        frames.append(Message.stratuxHeartbeat(StratuxHeartbeat(protocolVersion: 1, gpsValid: true, ahrsValid: false)).frame())
        frames.append(Message.ownship(TrafficReport(
            addressType: .adsbICAO, address: DemoFlight.ownshipAddress, position: ownPosition,
            pressureAltitudeFt: Int(o.altitude), airborne: o.airborne, trackType: .trueTrack, nic: 9, nacp: 10,
            groundSpeedKt: Int(o.speed), verticalSpeedFpm: Int(o.vs), trackDeg: 0, emitterCategory: 1, callsign: "N172SG")).frame())
        frames.append(Message.ownshipGeoAltitude(OwnshipGeometricAltitude(altitudeFt: Int(o.altitude) + 65, vfom: .meters(8))).frame())
        if s % 5 == 0 {
            frames.append(Message.foreFlightID(ForeFlightID(serialNumber: nil, deviceName: "Stratux", deviceLongName: "skygate-demo")).frame())
        }
        for target in scripted() where target.active.contains(t) && (t - target.active.lowerBound).truncatingRemainder(dividingBy: target.every) == 0 {
            let st = target.state(t)
            let position = plane.unproject(PlanePoint(east: st.east, north: st.north))
            let range = Geodesy.distanceNM(ownPosition, position)
            frames.append(Message.traffic(TrafficReport(
                alertStatus: range <= 2 ? 1 : 0, addressType: target.type, address: target.address, position: position,
                pressureAltitudeFt: Int(st.altitude), airborne: target.airborne, extrapolated: t > target.realUntil,
                trackType: .trueTrack, nic: 8, nacp: 9, groundSpeedKt: Int(st.speed), verticalSpeedFpm: Int(st.vs),
                trackDeg: st.track, emitterCategory: target.emitter, callsign: target.callsign)).frame())
        }
        if (100...130).contains(s) {
            for i in 0..<8 {
                let p = plane.unproject(PlanePoint(east: 1.5 * sinDeg(Double(i) * 45), north: o.north + 1.5 * cosDeg(Double(i) * 45)))
                frames.append(Message.traffic(TrafficReport(
                    alertStatus: 1, addressType: .adsbICAO, address: UInt32(i), position: p, pressureAltitudeFt: 3200,
                    groundSpeedKt: nil, verticalSpeedFpm: nil, trackDeg: 0, emitterCategory: 0, callsign: "MODE S")).frame())
            }
        }
        var bytes: [UInt8] = []
        for (i, frame) in frames.enumerated() {
            var f = frame
            if s == 50 && i == frames.count - 1 { f[f.count / 2] ^= 0x04 }
            if s == 95 && i == 2 { f = Array(f.prefix(f.count / 2)) }
            bytes += f
            if s == 75 && i == 1 { bytes += [0x00, 0xFF, 0x13, 0x37, 0x42] }
        }
        return bytes
    }
}
