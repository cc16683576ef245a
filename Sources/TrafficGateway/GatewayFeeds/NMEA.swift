import GatewaySupport
import GatewayDomain
import GDL90

/// FLARM NMEA sentences as XCSoar-family apps read them (FLARM's data port specification):
/// `$PFLAU` (status and the most important target), `$PFLAA` (one per target), and
/// `$GPRMC`/`$GPGGA` from ownship. Pure: a snapshot in, sentences out.
package enum NMEA {
    /// `$body*CS\r\n`, CS the XOR of the body's bytes in two upper-case hex digits.
    package static func sentence(_ body: String) -> String {
        var x: UInt8 = 0
        for b in body.utf8 { x ^= b }
        let hex = Array("0123456789ABCDEF")
        return "$" + body + "*" + String(hex[Int(x >> 4)]) + String(hex[Int(x & 0xF)]) + "\r\n"
    }

    /// Whether `line` (with or without CR LF) has a valid checksum.
    package static func isValid(_ line: String) -> Bool {
        let trimmed = line.hasSuffix("\r\n") ? String(line.dropLast(2)) : line
        guard trimmed.first == "$", let star = trimmed.lastIndex(of: "*") else { return false }
        let body = trimmed[trimmed.index(after: trimmed.startIndex)..<star]
        return sentence(String(body)) == trimmed + "\r\n"
    }

    /// All sentences for one second: RMC and GGA (when ownship has a fix), one PFLAA per target
    /// within `rangeNM` that has a position, and PFLAU for the most important one.
    package static func sentences(_ s: FeedSnapshot, rangeNM: Double = 20) -> [String] {
        var out: [String] = []
        guard let own = s.ownship else {
            out.append(sentence("PFLAU,0,1,0,1,0,,0,,,"))
            return out
        }
        out.append(rmc(own, time: s.time))
        out.append(gga(own, time: s.time))
        let plane = LocalPlane(origin: own.position)
        var best: (level: Int, target: Target, rel: PlanePoint, dz: Double?)? = nil
        var count = 0
        for t in s.targets {
            guard let p = t.position, s.time - t.lastSeen <= s.staleAfter else { continue }
            let rel = plane.project(p)
            guard rel.length <= rangeNM else { continue }
            count += 1
            let level = alarmLevel(s.alertLevels[t.key])
            let dz = t.alertAltitudeFt(own).flatMap { a in own.altitudeFt.map { (Double(a) - $0) * Geodesy.metersPerFoot } }
            out.append(pflaa(t, rel: rel, dzMeters: dz, level: level))
            if best == nil || level > best!.level || (level == best!.level && rel.length < best!.rel.length) {
                best = (level, t, rel, dz)
            }
        }
        let gps = own.airborne ? 2 : 1
        if let best, best.level > 0 {
            var bearing = best.rel.bearingDeg - (own.trackDeg ?? 0)
            if bearing > 180 { bearing -= 360 } else if bearing <= -180 { bearing += 360 }
            let fields = [
                "PFLAU", String(min(count, 99)), "1", String(gps), "1", String(best.level), String(Int(saturating: bearing)), "2",
                best.dz.map { String(Int(saturating: $0)) } ?? "", String(Int(saturating: best.rel.length * Geodesy.metersPerNM)),
                hex(best.target.key.address),
            ]
            out.append(sentence(fields.joined(separator: ",")))
        } else {
            out.append(sentence("PFLAU,\(min(count, 99)),1,\(gps),1,0,,0,,,"))
        }
        return out
    }

    static func alarmLevel(_ l: AlertLevel?) -> Int {
        switch l {
        case .advisory: 1
        case .caution: 2
        case .warning: 3
        case nil: 0
        }
    }

    static func pflaa(_ t: Target, rel: PlanePoint, dzMeters: Double?, level: Int) -> String {
        // FLARM's id types: 1 ICAO, 2 FLARM, 0 random (anything else, a pseudonym included).
        let idType: String
        switch t.key.namespace {
        case .icao: idType = "1"
        case .flarm: idType = "2"
        default: idType = "0"
        }
        let speed = t.groundSpeedKt.map { String(Int((Double($0) * Geodesy.metersPerNM / 3600).rounded())) } ?? ""
        let climb = t.verticalSpeedFpm.map { JSONWriter.format(Double($0) * Geodesy.metersPerFoot / 60, decimals: 1) } ?? ""
        let fields = [
            "PFLAA", String(level), String(Int(saturating: rel.north * Geodesy.metersPerNM)),
            String(Int(saturating: rel.east * Geodesy.metersPerNM)), dzMeters.map { String(Int(saturating: $0)) } ?? "",
            idType, hex(t.key.address), t.trackDeg.map { String(Int(saturating: $0) % 360) } ?? "", "", speed, climb,
            t.ogn.map { $0.aircraftType.flarmCode } ?? aircraftType(t.emitterCategory),
        ]
        return sentence(fields.joined(separator: ","))
    }

    /// FLARM aircraft type (hex digit) for an ADS-B emitter category.
    static func aircraftType(_ c: UInt8) -> String {
        switch c {
        case 1, 2: "8"  // light, small: piston
        case 3, 4, 5, 6: "9"  // large, heavy, high performance: jet/turboprop
        case 7: "3"  // rotorcraft
        case 9: "1"  // glider
        case 10: "B"  // lighter than air
        case 11: "4"  // parachutist
        case 12: "6"  // ultralight, hang glider
        case 14: "D"  // UAV
        case 19, 20, 21: "F"  // obstacles
        default: "0"
        }
    }

    static func rmc(_ own: OwnshipFix, time: Double) -> String {
        let (hms, dmy) = clock(time)
        let fields = [
            "GPRMC", hms, "A", latitude(own.position.latitude), longitude(own.position.longitude),
            JSONWriter.format(own.groundSpeedKt, decimals: 1), own.trackDeg.map { JSONWriter.format($0, decimals: 1) } ?? "",
            dmy, "", "", "A",
        ]
        return sentence(fields.joined(separator: ","))
    }

    static func gga(_ own: OwnshipFix, time: Double) -> String {
        let (hms, _) = clock(time)
        let alt = own.altitudeFt.map { JSONWriter.format($0 * Geodesy.metersPerFoot, decimals: 1) } ?? ""
        let fields = [
            "GPGGA", hms, latitude(own.position.latitude), longitude(own.position.longitude), "1", "08", "1.0", alt, "M",
            "0.0", "M", "", "",
        ]
        return sentence(fields.joined(separator: ","))
    }

    /// `ddmm.mmmm,N`.
    static func latitude(_ v: Double) -> String {
        let a = abs(v), d = Int(a), m = (a - Double(d)) * 60
        return Timestamp.pad(d, 2) + minutes(m) + "," + (v < 0 ? "S" : "N")
    }

    /// `dddmm.mmmm,W`.
    static func longitude(_ v: Double) -> String {
        let a = abs(v), d = Int(a), m = (a - Double(d)) * 60
        return Timestamp.pad(d, 3) + minutes(m) + "," + (v < 0 ? "W" : "E")
    }

    static func minutes(_ m: Double) -> String {
        let tenThousandths = Int((m * 10_000).rounded())
        return Timestamp.pad(tenThousandths / 10_000, 2) + "." + Timestamp.pad(tenThousandths % 10_000, 4)
    }

    /// (`hhmmss.ss`, `ddmmyy`) in UTC.
    static func clock(_ t: Double) -> (String, String) {
        let seconds = Int64(t.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let sod = seconds - days * 86_400
        let (y, m, d) = Timestamp.civil(fromDays: days)
        let hundredths = Int((t - Double(seconds)) * 100)
        let hms = Timestamp.pad(sod / 3600, 2) + Timestamp.pad(sod % 3600 / 60, 2) + Timestamp.pad(sod % 60, 2) + "."
            + Timestamp.pad(hundredths, 2)
        return (hms, Timestamp.pad(d, 2) + Timestamp.pad(m, 2) + Timestamp.pad(y % 100, 2))
    }

    static func hex(_ address: UInt32) -> String {
        let h = String(address, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 6 - h.count)) + h
    }
}
