import GatewaySupport
import GDL90

/// NMEA 0183 sentences from a GPS (a Stratux's GPS replay log), turned into what a Stratux sends
/// its EFBs for them: at each valid RMC a heartbeat (GPS valid, UTC time of day), an ownship report
/// (position, ground speed, true track; pressure altitude invalid, as a Stratux without a
/// pressure sensor sends it) and an ownship geometric altitude (the last GGA's altitude above mean
/// sea level, in feet, as a Stratux sends it). GGA gives the altitude, the fix quality and HDOP;
/// the vertical rate is the change of GGA altitude over time. NACp is estimated from HDOP (5 m a
/// unit); talkers GP, GN, GL, GA and BD are read alike. A sentence whose checksum is wrong is a
/// problem; other sentence types are skipped.
package struct NMEADecoder: Sendable {
    /// What one sentence gave.
    package enum Outcome: Sendable, Equatable {
        /// Ownship at this time: a heartbeat, an ownship report and, when GGA gave one, the geometric altitude.
        case ownship([Message])
        /// Nothing to send (GGA, an invalid fix, another sentence).
        case nothing
        /// A sentence that is wrong, and why.
        case problem(String)
    }

    private var altitudeFt: Double?
    private var altitudeTime: Double?
    private var verticalRateFpm: Double?
    private var hdop: Double?
    private var fixQuality = 0

    /// A decoder that has seen nothing.
    package init() {}

    /// Reads one sentence (`$GPRMC,…*hh`, no newline) received at `time`.
    package mutating func feed(_ line: UnsafeBufferPointer<UInt8>, at time: Double) -> Outcome {
        var end = line.count
        while end > 0, line[end - 1] == 0x0D || line[end - 1] == 0x20 { end -= 1 }
        guard end > 6, line[0] == 0x24 else { return .problem("not an NMEA sentence (no $)") }
        // Only GGA and RMC are read: the rest (GSV, GSA, VTG…, most of a real log) are skipped
        // before anything is checked or split.
        let kind = (line[3], line[4], line[5])
        guard kind == (0x47, 0x47, 0x41) || kind == (0x52, 0x4D, 0x43) else { return .nothing }
        var body = end
        if let star = (1..<end).last(where: { line[$0] == 0x2A }) {
            guard end - star == 3, let given = Self.hexByte(line[star + 1], line[star + 2]) else {
                return .problem("the checksum \(String(decoding: line[star..<end], as: UTF8.self).escapingControlCharacters) is not two hex digits")
            }
            var sum: UInt8 = 0
            for c in line[1..<star] { sum ^= c }
            guard sum == given else { return .problem("checksum \(String(given, radix: 16, uppercase: true)) where the sentence sums to \(String(sum, radix: 16, uppercase: true))") }
            body = star
        }
        let fields = line[1..<body].split(separator: 0x2C, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard let kind = fields.first, kind.count == 5 else { return .problem("not an NMEA sentence (\(fields.first ?? "")?)") }
        switch kind.suffix(3) {
        case "GGA": return gga(fields, at: time)
        case "RMC": return rmc(fields, at: time)
        default: return .nothing
        }
    }

    private mutating func gga(_ f: [String], at time: Double) -> Outcome {
        guard f.count >= 10 else { return .problem("GGA with \(f.count) fields (a cut sentence?)") }
        fixQuality = Int(f[6]) ?? 0
        hdop = Double(f[8])
        guard fixQuality > 0, let metres = Double(f[9]), metres.isFinite, (-1_000...30_000).contains(metres) else { return .nothing }
        let feet = metres / 0.3048
        if let last = altitudeFt, let lastTime = altitudeTime, time > lastTime, time - lastTime <= 5 {
            verticalRateFpm = (feet - last) / (time - lastTime) * 60
        } else {
            verticalRateFpm = nil
        }
        altitudeFt = feet
        altitudeTime = time
        return .nothing
    }

    private mutating func rmc(_ f: [String], at time: Double) -> Outcome {
        guard f.count >= 10 else { return .problem("RMC with \(f.count) fields (a cut sentence?)") }
        let clock = Array(f[1].utf8)
        guard clock.count >= 6, let hh = Int(f[1].prefix(2)), let mm = Int(f[1].dropFirst(2).prefix(2)), let ss = Int(f[1].dropFirst(4).prefix(2)),
              hh < 24, mm < 60, ss < 61 else { return .problem("RMC time \(f[1].escapingControlCharacters) is not hhmmss") }
        guard f[2] == "A" else { return .nothing }
        guard let lat = Self.coordinate(f[3], f[4], degreeDigits: 2), let lon = Self.coordinate(f[5], f[6], degreeDigits: 3) else {
            return .problem("RMC position \(f[3]),\(f[4]),\(f[5]),\(f[6]) is not one")
        }
        let speed = Double(f[7])
        let track = Double(f[8])
        if let speed, !(0...4_000).contains(speed) { return .problem("RMC ground speed \(speed) kt is out of range") }
        // Altitude from a GGA of the last two seconds only.
        let altitude = altitudeTime.map { time - $0 <= 2 && time >= $0 - 1 } == true ? altitudeFt : nil
        var messages: [Message] = [.heartbeat(Heartbeat(gpsPositionValid: true, utcOK: true, secondsSinceMidnight: UInt32(hh * 3600 + mm * 60 + min(ss, 59))))]
        let moving = (speed ?? 0) > 0 && track != nil
        messages.append(.ownship(TrafficReport(
            addressType: .adsbICAO, address: 0, position: Position(latitude: lat, longitude: lon), pressureAltitudeFt: nil,
            airborne: (speed ?? 0) >= 40, trackType: moving ? .trueTrack : .invalid, nic: fixQuality > 0 ? 8 : 0, nacp: nacp,
            groundSpeedKt: speed.map { Int($0.rounded()) },
            verticalSpeedFpm: altitude != nil ? verticalRateFpm.map { Int($0.rounded()) } : nil,
            trackDeg: moving ? track! : 0, emitterCategory: 1, callsign: "")))
        if let altitude { messages.append(.ownshipGeoAltitude(OwnshipGeometricAltitude(altitudeFt: Int((altitude / 5).rounded()) * 5))) }
        return .ownship(messages)
    }

    /// NACp from HDOP at 5 m a unit (DO-260B's EPU bounds); 0 (unknown) without HDOP.
    private var nacp: UInt8 {
        guard let hdop, hdop > 0 else { return 0 }
        let epu = hdop * 5
        return switch epu {
        case ..<3: 11
        case ..<10: 10
        case ..<30: 9
        case ..<92.6: 8
        case ..<185.2: 7
        case ..<555.6: 6
        default: 0
        }
    }

    /// `ddmm.mmmm` (`dddmm.mmmm` for longitude) and its hemisphere, in degrees.
    static func coordinate(_ value: String, _ hemisphere: String, degreeDigits: Int) -> Double? {
        guard value.count > degreeDigits + 2, let degrees = Double(value.prefix(degreeDigits)), let minutes = Double(value.dropFirst(degreeDigits)),
              minutes < 60 else { return nil }
        let v = degrees + minutes / 60
        switch hemisphere {
        case "N", "E": return v <= (degreeDigits == 2 ? 90 : 180) ? v : nil
        case "S", "W": return v <= (degreeDigits == 2 ? 90 : 180) ? -v : nil
        default: return nil
        }
    }

    static func hexByte(_ a: UInt8, _ b: UInt8) -> UInt8? {
        func v(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: c - 48
            case 65...70: c - 55
            case 97...102: c - 87
            default: nil
            }
        }
        guard let x = v(a), let y = v(b) else { return nil }
        return x << 4 | y
    }
}
