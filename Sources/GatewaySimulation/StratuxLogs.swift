import GDL90
import GatewaySupport
import GatewayCaptures
import GatewayFeeds

/// The demo flight as a Stratux's replay logs would keep it (issue 45), written by hand here
/// from the formats Stratux writes (`START,<Go time>,<Go time>`, then `<ns since START>,<line>`):
///
/// - `0001-gps.log`: ownship from the GPS, NMEA `$GPGGA` and `$GPRMC` once a second;
/// - `0001-uat.log`: the targets heard on 978 MHz as dump978 downlink lines (`-HEX;rs=N;`):
///   N825V (Long reports with its callsign every fifth second, Basic ones between), N99GT, N4DR
///   (whose reports stop at t = 140: no receiver dead-reckons it here), ownship's own TIS-B ghost
///   and N51TB's TIS-B copy every 2 s; and the FIS-B sample uplinks (`+HEX;rs=N;`) from t = 10;
/// - `0001-es.log`: the targets heard on 1090 MHz as SBS BaseStation lines: N51TB and UAL123
///   (MSG,1 callsign, MSG,3 position, MSG,4 velocity).
///
/// Replayed as one session (`gatewayd replay fixtures/stratux`) it must raise what the demo
/// flight raises for the same geometry: N825V's caution, warning and clear, one advisory for
/// N51TB (heard by 1090 ADS-B and UAT TIS-B: one target), nothing for the others.
extension DemoFlight {
    /// The START line: the session began at the flight's start.
    static let stratuxStart = "START,Sat May 16 14:00:00 +0000 UTC 2026,Sat May 16 14:00:00 +0000 UTC 2026\n"

    /// The three logs' texts: (UAT, 1090ES, GPS).
    package func stratuxLogs() -> (uat: String, es: String, gps: String) {
        var uat = Self.stratuxStart, es = Self.stratuxStart, gps = Self.stratuxStart
        let uplinks = FISBSamples.uplinks()
        for s in 0..<DemoFlight.duration {
            let t = Double(s)
            // Each kind of line at its own moment within the second, as receivers hear them.
            func ns(_ fraction: Double) -> String { String(Int64(((t + fraction) * 1e9).rounded())) }
            let o = ownship(t)
            let own = plane.unproject(PlanePoint(east: 0, north: o.north))
            let metres = (o.altitude * 0.3048 * 10).rounded() / 10  // ft → m, to 0.1 m
            let clock = Self.nmeaClock(DemoFlight.start + t)
            gps += "\(ns(0.05)),\(Self.nmea("GPGGA,\(clock),\(Self.nmeaLatitude(own.latitude)),\(Self.nmeaLongitude(own.longitude)),1,10,0.9,\(Self.fixed(metres, 1)),M,-21.3,M,,"))\n"
            gps += "\(ns(0.06)),\(Self.nmea("GPRMC,\(clock),A,\(Self.nmeaLatitude(own.latitude)),\(Self.nmeaLongitude(own.longitude)),\(Self.fixed(o.speed, 1)),\(o.speed > 0 ? "0.0" : ""),160526,,,A"))\n"
            if s >= 10, s - 10 < uplinks.count {
                uat += "\(ns(0.5)),+\(FISBSamples.hex(uplinks[s - 10]));rs=\(20 + s % 9);\n"
            }
            for (k, target) in scripted().enumerated() where target.active.contains(t) && t <= target.realUntil
                && (t - target.active.lowerBound).truncatingRemainder(dividingBy: target.every) == 0 {
                let st = target.state(t)
                let position = plane.unproject(PlanePoint(east: st.east, north: st.north))
                let at = ns(0.2 + 0.07 * Double(k))
                // On 1090 MHz: N51TB's own ADS-B and the airliner.
                if target.type == .adsbICAO && (target.address == 0xC0FFEE || target.address == 0xA00001) {
                    // The airliner every other second only.
                    if target.address == 0xA00001 && s % 2 == 1 { continue }
                    let made = Self.sbsClock(DemoFlight.start + t + 0.2 + 0.07 * Double(k))
                    let hexAddress = MessageFormatter.hex6(target.address).uppercased()
                    if s % 10 == Int(target.active.lowerBound) % 10 {
                        es += "\(at),MSG,1,1,1,\(hexAddress),1,\(made),\(made),\(target.callsign),,,,,,,,,,,0\n"
                    }
                    es += "\(at),MSG,3,1,1,\(hexAddress),1,\(made),\(made),,\(Int(st.altitude)),,,\(Self.fixed(position.latitude, 5)),\(Self.fixed(position.longitude, 5)),,,0,0,0,0\n"
                    if s % 5 == Int(target.active.lowerBound) % 5 {
                        es += "\(at),MSG,4,1,1,\(hexAddress),1,\(made),\(made),,,\(Int(st.speed)),\(Self.fixed(st.track, 1)),,,\(Int(st.vs)),,,,,0\n"
                    }
                    continue
                }
                // On 978 MHz: the rest, as UAT ADS-B (or TIS-B) downlinks.
                let long = s % 5 == 0
                let north = st.speed * cosDeg(st.track), east = st.speed * sinDeg(st.track)
                let payload = UATADSBPayload(
                    payloadType: long ? 1 : 0, addressQualifier: target.type == .tisbICAO ? 2 : 0, address: target.address,
                    position: position, altitudeFt: Int(st.altitude), nic: 8,
                    velocity: target.airborne
                        ? .airborne(northKt: Int(north.rounded()), eastKt: Int(east.rounded()), supersonic: false)
                        : .ground(speedKt: Int(st.speed), trackDeg: st.track, trackType: .trueTrack),
                    verticalRateFpm: target.airborne ? Int(st.vs) : nil, siteOrUTC: 0,
                    emitterCategory: long ? target.emitter : nil, callsign: long ? target.callsign : nil,
                    emergency: long ? 0 : nil, nacp: long ? 9 : nil)
                uat += "\(at),-\(FISBSamples.hex(payload.encode()));rs=\(30 + k);ss=\(200 + 10 * k);\n"
            }
        }
        return (uat, es, gps)
    }

    /// N51TB (heard on 1090 MHz) as plain SBS BaseStation text, as `nc HOST 30003` records
    /// it from dump1090 or readsb (each line timed by its "generated" fields, UTC).
    package func sbsText() -> String {
        stratuxLogs().es.split(separator: "\n").dropFirst().filter { $0.contains(",C0FFEE,") }.map { line in
            String(line.drop { $0 != "," }.dropFirst()) + "\r\n"
        }.joined()
    }

    /// The FIS-B sample uplinks as dump978 prints them without `-t` (its example files): no
    /// times at all, each line `+HEX;rs=N;`. Dated from its products (2026-05-16).
    package static func undatedDump978() -> String {
        FISBSamples.uplinks().enumerated().map { i, payload in "+\(FISBSamples.hex(payload));rs=\(12 + i % 5);\n" }.joined()
    }

    /// `$BODY*hh`, as a GPS sends it and Stratux logs it (`NMEA.sentence` without its CR LF).
    static func nmea(_ body: String) -> String { String(decoding: NMEA.sentence(body).utf8.dropLast(2), as: UTF8.self) }

    static func nmeaClock(_ t: Double) -> String {
        let s = Int(t.rounded()) % 86_400
        return "\(Timestamp.pad(s / 3600, 2))\(Timestamp.pad(s / 60 % 60, 2))\(Timestamp.pad(s % 60, 2)).00"
    }

    static func nmeaLatitude(_ v: Double) -> String {
        let a = abs(v), d = Int(a)
        return "\(Timestamp.pad(d, 2))\(minutes((a - Double(d)) * 60)),\(v < 0 ? "S" : "N")"
    }

    static func nmeaLongitude(_ v: Double) -> String {
        let a = abs(v), d = Int(a)
        return "\(d < 100 ? "0" : "")\(Timestamp.pad(d, 2))\(minutes((a - Double(d)) * 60)),\(v < 0 ? "W" : "E")"
    }

    /// Minutes as `mm.mmmmm`.
    static func minutes(_ m: Double) -> String {
        let scaled = Int((m * 100_000).rounded())
        let whole = scaled / 100_000, frac = String(scaled % 100_000)
        return Timestamp.pad(whole, 2) + "." + String(repeating: "0", count: 5 - frac.count) + frac
    }

    /// `2026/05/16,14:00:00.200`: an SBS line's date and time fields.
    static func sbsClock(_ t: Double) -> String {
        let ms = Int((t * 1000).rounded())
        let s = ms / 1000 % 86_400
        let milli = String(ms % 1000)
        return "2026/05/16,\(Timestamp.pad(s / 3600, 2)):\(Timestamp.pad(s / 60 % 60, 2)):\(Timestamp.pad(s % 60, 2)).\(String(repeating: "0", count: 3 - milli.count))\(milli)"
    }

    /// `v` with exactly `decimals` digits after the point, as receivers write fixed-width fields
    /// (`JSONWriter.format` drops trailing zeros).
    static func fixed(_ v: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(v) * scale).rounded())
        let whole = scaled / Int(scale), frac = String(scaled % Int(scale))
        let sign = v < 0 && scaled != 0 ? "-" : ""
        return decimals == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(String(repeating: "0", count: decimals - frac.count))\(frac)"
    }
}
