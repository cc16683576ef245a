import GatewaySupport
import GDL90

/// SBS BaseStation text (`MSG,<type>,…`, 22 comma-separated fields: what dump1090 and readsb
/// serve on port 30003 and a Stratux keeps in its 1090ES replay log), merged per ICAO address
/// into GDL 90 traffic reports: each message carries part of an aircraft's state (MSG,1 its
/// callsign; MSG,3 airborne and MSG,2 surface positions with altitude; MSG,4 ground speed, track
/// and vertical rate; MSG,5/6/7 altitude, MSG,6 the squawk; MSG,8 the ground flag), and a report
/// is made at each position, from the latest of every part. Any message that carries a latitude
/// and longitude is a position (some feeders put ground positions in MSG,8).
///
/// Fields, from 0: `MSG`, type, session, aircraft, hex address (`~` before it: not an ICAO
/// address), flight, date and time generated, date and time logged, callsign, altitude (ft,
/// barometric), ground speed (kt), track (°), latitude, longitude, vertical rate (ft/min),
/// squawk, alert, emergency, SPI, on ground (`-1` or `1` true, `0` false).
///
/// What the feed does not say is sent as unknown: NIC and NACp 0, emitter category 0. A squawk of
/// 7700, 7600 or 7500 becomes the emergency code (general, no communications, unlawful interference).
/// Memory is bounded: at most `maximumTargets` aircraft, those not heard for `forgetAfter`
/// seconds are forgotten first.
package struct SBSDecoder: Sendable {
    /// What one line gave.
    package enum Outcome: Sendable, Equatable {
        /// A position: the aircraft's traffic report now.
        case report(TrafficReport)
        /// A line that adds to an aircraft's state, or a BaseStation line of another kind
        /// (`SEL`, `ID`, `AIR`, `STA`, `CLK`): nothing to report.
        case nothing
        /// A line that is wrong, and why ("MSG,9 is not a BaseStation message type").
        case problem(String)
    }

    /// An aircraft's state, from every message heard from it.
    struct Aircraft: Sendable {
        var callsign = ""
        var altitudeFt: Int?
        var groundSpeedKt: Double?
        var trackDeg: Double?
        var verticalRateFpm: Int?
        var squawk: Int?
        var onGround: Bool?
        var lastHeard: Double
    }

    /// Aircraft kept at most.
    package static let maximumTargets = 4_096
    /// Seconds after which an aircraft not heard is forgotten when room is needed.
    package static let forgetAfter = 60.0

    /// By address (bit 24 set for a non-ICAO address).
    private var aircraft: [UInt32: Aircraft] = [:]
    /// Where each field of the line being read starts and ends (reused: no allocation a line).
    private var fields: [Range<Int>] = []

    /// Aircraft held now.
    package var count: Int { aircraft.count }

    /// A decoder holding no aircraft.
    package init() {
        fields.reserveCapacity(24)
    }

    /// Reads one line (no newline), received at `time` (for plain SBS text, the time the line
    /// itself says it was generated: `timeGenerated`).
    package mutating func feed(_ line: UnsafeBufferPointer<UInt8>, at time: Double) -> Outcome {
        split(line)
        guard fields.count >= 2 else { return .problem("not a BaseStation line (no comma)") }
        let kind = line[fields[0]]
        if !Self.equals(kind, "MSG") {
            for other in ["SEL", "ID", "AIR", "STA", "CLK"] where Self.equals(kind, other) { return .nothing }
            return .problem("\(Self.text(kind, limit: 12)) is not a BaseStation line type")
        }
        guard let type = Self.integer(line[fields[1]]), (1...8).contains(type) else {
            return .problem("MSG,\(Self.text(line[fields[1]], limit: 8)) is not a BaseStation message type (1–8)")
        }
        guard fields.count >= 11 else { return .problem("MSG,\(type) has \(fields.count) fields, not 22 (a cut line?)") }
        guard let (address, nonICAO) = Self.address(line[fields[4]]) else {
            return .problem("the address \(Self.text(line[fields[4]], limit: 12)) is not 6 hex digits")
        }
        let key = address | (nonICAO ? 1 << 24 : 0)
        func field(_ i: Int) -> Slice<UnsafeBufferPointer<UInt8>>? {
            guard i < fields.count, !fields[i].isEmpty else { return nil }
            return line[fields[i]]
        }
        // Everything read before anything is kept: a wrong field costs the line, not the aircraft.
        var callsign: String?
        if let f = field(10) {
            let text = Self.text(f, limit: 8).filter { $0 != " " }
            if !text.isEmpty { callsign = text }
        }
        func number(_ i: Int, _ name: String) throws(SBSFieldError) -> Double? {
            guard let f = field(i) else { return nil }
            guard let v = Self.decimal(f), v.isFinite else { throw SBSFieldError(reason: "the \(name) \(Self.text(f, limit: 16)) is not a number") }
            return v
        }
        let altitude: Double?, speed: Double?, track: Double?, latitude: Double?, longitude: Double?, rate: Double?, squawk: Double?
        do throws(SBSFieldError) {
            altitude = try number(11, "altitude")
            speed = try number(12, "ground speed")
            track = try number(13, "track")
            latitude = try number(14, "latitude")
            longitude = try number(15, "longitude")
            rate = try number(16, "vertical rate")
            squawk = try number(17, "squawk")
        } catch {
            return .problem(error.reason)
        }
        if let altitude, !(-2_000...120_000).contains(altitude) { return .problem("the altitude \(Int(altitude)) ft is out of range") }
        if let speed, !(0...4_000).contains(speed) { return .problem("the ground speed \(Int(speed)) kt is out of range") }
        if let track, !(-360...720).contains(track) { return .problem("the track \(track) is out of range") }
        if (latitude == nil) != (longitude == nil) { return .problem("a latitude without a longitude, or the reverse") }
        if let latitude, let longitude, !(-90...90).contains(latitude) || !(-180...180).contains(longitude) {
            return .problem("the position \(latitude), \(longitude) is off the Earth")
        }
        var onGround: Bool?
        if let f = field(21) {
            if Self.equals(f, "-1") || Self.equals(f, "1") { onGround = true } else if Self.equals(f, "0") { onGround = false }
        }
        if aircraft[key] == nil { makeRoom(at: time) }
        var a = aircraft[key] ?? Aircraft(lastHeard: time)
        a.lastHeard = time
        if let callsign { a.callsign = callsign }
        if let altitude { a.altitudeFt = Int(altitude.rounded()) }
        if let speed { a.groundSpeedKt = speed }
        if let track {
            var t = track.truncatingRemainder(dividingBy: 360)
            if t < 0 { t += 360 }
            a.trackDeg = t
        }
        if let rate { a.verticalRateFpm = Int(rate.rounded()) }
        if let squawk { a.squawk = Int(squawk) }
        if let onGround { a.onGround = onGround }
        aircraft[key] = a
        guard let latitude, let longitude else { return .nothing }
        let emergency: UInt8 = switch a.squawk {
        case 7700: 1
        case 7600: 4
        case 7500: 5
        default: 0
        }
        return .report(TrafficReport(
            addressType: nonICAO ? .tisbTrackFile : .adsbICAO, address: address,
            position: Position(latitude: latitude, longitude: longitude), pressureAltitudeFt: a.altitudeFt,
            airborne: !(a.onGround ?? false), trackType: a.trackDeg == nil ? .invalid : .trueTrack, nic: 0, nacp: 0,
            groundSpeedKt: a.groundSpeedKt.map { Int($0.rounded()) }, verticalSpeedFpm: a.verticalRateFpm,
            trackDeg: a.trackDeg ?? 0, emitterCategory: 0, callsign: a.callsign, emergency: emergency))
    }

    /// The time a line says it was generated (fields 6 and 7, `2026/05/16` and `14:02:03.123`),
    /// read as UTC; nil when it has none (or a date before 2001).
    package mutating func timeGenerated(_ line: UnsafeBufferPointer<UInt8>) -> Double? {
        split(line)
        guard fields.count > 7 else { return nil }
        // Read where they lie: plain SBS text is a line a position, by the thousand.
        let date = line[fields[6]], clock = line[fields[7]]
        guard date.count == 10, clock.count >= 8 else { return nil }
        func digits(_ field: Slice<UnsafeBufferPointer<UInt8>>, _ from: Int, _ count: Int) -> Int? {
            var v = 0
            for c in field.dropFirst(from).prefix(count) {
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard let y = digits(date, 0, 4), let m = digits(date, 5, 2), let d = digits(date, 8, 2), (1...12).contains(m), (1...31).contains(d),
              let h = digits(clock, 0, 2), let mi = digits(clock, 3, 2), let s = digits(clock, 6, 2), h < 24, mi < 60, s < 61,
              y >= 2001
        else { return nil }
        var fraction = 0.0
        if clock.count > 9, clock[clock.startIndex + 8] == 0x2E {
            var scale = 0.1
            for c in clock.dropFirst(9) where c >= 48 && c <= 57 {
                fraction += Double(c - 48) * scale
                scale /= 10
            }
        }
        return Timestamp.midnight(year: y, month: m, day: d) + Double(h * 3600 + mi * 60 + s) + fraction
    }

    /// Forgets aircraft not heard for `forgetAfter` seconds when the table is full; if all were
    /// heard since, the least recently heard half.
    private mutating func makeRoom(at time: Double) {
        guard aircraft.count >= Self.maximumTargets else { return }
        aircraft = aircraft.filter { time - $0.value.lastHeard <= Self.forgetAfter }
        guard aircraft.count >= Self.maximumTargets else { return }
        let cut = aircraft.values.map(\.lastHeard).sorted()[aircraft.count / 2]
        aircraft = aircraft.filter { $0.value.lastHeard > cut }
    }

    /// Finds the fields of `line` (commas; a trailing `\r` dropped).
    private mutating func split(_ line: UnsafeBufferPointer<UInt8>) {
        fields.removeAll(keepingCapacity: true)
        var end = line.count
        while end > 0, line[end - 1] == 0x0D || line[end - 1] == 0x20 { end -= 1 }
        var start = 0
        var i = 0
        while i < end {
            if line[i] == 0x2C {
                fields.append(start..<i)
                start = i + 1
            }
            i += 1
        }
        fields.append(start..<end)
    }

    /// The 24-bit address of a hex field, and whether `~` marked it as not an ICAO address.
    static func address(_ f: Slice<UnsafeBufferPointer<UInt8>>) -> (UInt32, Bool)? {
        var i = f.startIndex
        var nonICAO = false
        if i < f.endIndex, f[i] == 0x7E { nonICAO = true; i += 1 }
        guard f.endIndex - i == 6 else { return nil }
        var v: UInt32 = 0
        while i < f.endIndex {
            let c = f[i]
            let d: UInt32
            switch c {
            case 48...57: d = UInt32(c - 48)
            case 65...70: d = UInt32(c - 55)
            case 97...102: d = UInt32(c - 87)
            default: return nil
            }
            v = v << 4 | d
            i += 1
        }
        return (v, nonICAO)
    }

    /// A decimal number: an optional sign, digits, an optional fraction (no exponent).
    static func decimal(_ f: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        var i = f.startIndex
        var negative = false
        if i < f.endIndex, f[i] == 0x2D || f[i] == 0x2B { negative = f[i] == 0x2D; i += 1 }
        var value = 0.0, digits = 0, scale = 1.0, seenPoint = false
        while i < f.endIndex {
            let c = f[i]
            if c >= 48 && c <= 57 {
                if seenPoint { scale /= 10; value += Double(c - 48) * scale } else { value = value * 10 + Double(c - 48) }
                digits += 1
            } else if c == 0x2E && !seenPoint {
                seenPoint = true
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        return negative ? -value : value
    }

    /// A whole number (digits only).
    static func integer(_ f: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard !f.isEmpty, f.count <= 9 else { return nil }
        var v = 0
        for c in f {
            guard c >= 48 && c <= 57 else { return nil }
            v = v * 10 + Int(c - 48)
        }
        return v
    }

    static func equals(_ f: Slice<UnsafeBufferPointer<UInt8>>, _ text: StaticString) -> Bool {
        guard f.count == text.utf8CodeUnitCount else { return false }
        return text.withUTF8Buffer { t in zip(f, t).allSatisfy { $0 == $1 } }
    }

    static func equals(_ f: Slice<UnsafeBufferPointer<UInt8>>, _ text: String) -> Bool {
        f.elementsEqual(text.utf8)
    }

    /// At most `limit` bytes of a field, as text for a message (control characters escaped).
    static func text(_ f: Slice<UnsafeBufferPointer<UInt8>>, limit: Int) -> String {
        String(decoding: f.prefix(limit), as: UTF8.self).escapingControlCharacters
    }
}

/// A field of an SBS line that is not what it should be.
struct SBSFieldError: Error {
    var reason: String
}
