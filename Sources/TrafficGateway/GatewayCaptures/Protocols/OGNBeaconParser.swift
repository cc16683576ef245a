import GatewaySupport
import GatewayDomain
import GDL90

/// The Open Glider Network's APRS text (what `ogn-decode` serves on port 50001 and the APRS-IS
/// servers of `aprs.glidernet.org` carry), one line a beacon:
///
///     FLRDD89C9>OGFLR,qAS,LIDH:/115054h4543.22N/01132.84E'260/072/A=002542 !W10! id06DD89C9 +198fpm -0.8rot 7.0dB 0e +0.7kHz gps2x3
///
/// The header: the sender's callsign, `>`, the path (the dialect first: `OGFLR`, `OGNTRK`,
/// `OGNFNT`, `OGPAW`, `OGADSB`, `OGADSL`, `OGNSKY`, `OGNMTK`, `OGNAVI`, `OGFLYM`… or `APRS`
/// before OGN 0.2.7; a relay ends with `*`; `qAS` then the receiver for an aircraft, `qAC` for a
/// station), `:`. Then a position with a time (`/` or `@`): `hhmmss` and `h` (or APRS's
/// `ddhhmm` and `z`), latitude `ddmm.mm` N/S, the symbol table, longitude `dddmm.mm` E/W, the
/// symbol, optionally `ccc/sss` (course in degrees, speed in knots; `000/000` is "no data"), then
/// `/A=` and the altitude in feet above mean sea level (six digits, or a minus and five). Then
/// the OGN fields, separated by spaces, each recognised by its shape: `!Wab!` (a third decimal of
/// the latitude's and the longitude's minutes), `idXXYYYYYY` (XX: bit 7 stealth, bit 6
/// no-tracking, bits 5–2 the aircraft type, bits 1–0 the address type; YYYYYY the address) or
/// Naviter's 40-bit `idSSSSYYYYYY`, `±NNNfpm` climb, `±N.Nrot` turn rate, `FLnnn.nn` pressure
/// altitude in hundreds of feet, `N.NdB` signal, `Ne` bit errors, `±N.NkHz` frequency offset,
/// `fn…` flight number (OGADSB). Others (`gps2x3`, `s6.09`, `h02`, `rDD…`, `+5.0dBm`,
/// `hearXXXX`) are read past.
///
/// What is not an aircraft beacon is told apart, not taken for traffic: a receiver's position
/// or status (`qAC`, `OGNSDR`, the `I&` receiver symbol), any status line (`:>`), a server's
/// comment (`#`: the keep-alive), and a line that is none of these (a `problem`, with why).
/// A line longer than `longestLine` is a problem without being read.
package struct OGNBeaconParser: Sendable {
    /// What one line gave.
    package enum Outcome: Sendable, Equatable {
        /// An aircraft beacon.
        case beacon(OGNBeacon)
        /// A receiver's (station's) position or status beacon: skipped, counted.
        case receiver
        /// An aircraft's status line (`:>…`: a tracker's battery, its name): skipped, counted.
        case status
        /// A server's comment line (`# aprsc …`, the keep-alive): nothing.
        case comment
        /// Not an OGN beacon, and why.
        case problem(String)
    }

    /// The longest line read (4 kB): a beacon is under 200 characters.
    package static let longestLine = 4_096

    /// A parser (it keeps nothing between lines).
    package init() {}

    /// Reads one line (no newline; a trailing `\r` is ignored).
    package func parse(_ text: String) -> Outcome {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// Reads one line of bytes (no newline; a trailing `\r` is ignored).
    package func parse(_ line: UnsafeBufferPointer<UInt8>) -> Outcome {
        var end = line.count
        while end > 0, line[end - 1] == 0x0D || line[end - 1] == 0x0A || line[end - 1] == 0x20 { end -= 1 }
        guard end > 0 else { return .problem("an empty line") }
        guard end <= Self.longestLine else { return .problem("a line of more than \(Self.longestLine / 1024) kB (not an APRS beacon): dropped") }
        let b = UnsafeBufferPointer(rebasing: line[..<end])
        if b[0] == 0x23 { return .comment }
        let reader = Reader(b)
        // The header.
        guard let gt = reader.find(0x3E, from: 0), gt > 0, gt <= 16 else { return .problem("no sender before '>' (not an APRS line: \(Self.preview(b)))") }
        guard let colon = reader.find(0x3A, from: gt + 1) else { return .problem("no ':' after the path (not an APRS line: \(Self.preview(b)))") }
        let callsign = reader.text(0, gt)
        var path: [(Int, Int)] = []
        var start = gt + 1
        for i in (gt + 1)...colon where i == colon || b[i] == 0x2C {
            path.append((start, i))
            start = i + 1
        }
        guard let first = path.first, first.1 > first.0 else { return .problem("no destination in the path of \(callsign.escapingControlCharacters)") }
        let dialect = reader.text(first.0, first.1)
        var station = false, relayed = false
        for (s, e) in path.dropFirst() {
            if reader.equals(s, e, "qAC") || reader.equals(s, e, "TCPIP*") { station = true }
            if e > s, b[e - 1] == 0x2A, !reader.equals(s, e, "TCPIP*") { relayed = true }
        }
        let receiver = path.count > 1 ? reader.text(path[path.count - 1].0, path[path.count - 1].1) : ""
        if dialect == "OGNSDR" { return .receiver }
        var i = colon + 1
        guard i < b.count else { return .problem("nothing after the path of \(callsign.escapingControlCharacters)") }
        if b[i] == 0x3E { return station ? .receiver : .status }
        guard b[i] == 0x2F || b[i] == 0x40 else {
            return station ? .receiver : .problem("\(callsign.escapingControlCharacters): not a position with a time ('/' or '@' after ':')")
        }
        i += 1
        // The time: hhmmss + h, or ddhhmm + z.
        guard i + 7 <= b.count, let six = reader.digits(i, 6) else { return .problem("\(callsign.escapingControlCharacters): no time (hhmmss h) after '/'") }
        var secondOfDay: Int?
        switch b[i + 6] {
        case 0x68:
            let (h, m, s) = (six / 10_000, six / 100 % 100, six % 100)
            guard h < 24, m < 60, s < 61 else { return .problem("\(callsign.escapingControlCharacters): the time \(six)h is not a time of day") }
            secondOfDay = h * 3600 + m * 60 + s
        case 0x7A:
            let (h, m) = (six / 100 % 100, six % 100)
            guard h < 24, m < 60 else { return .problem("\(callsign.escapingControlCharacters): the time \(six)z is not a day and time") }
            secondOfDay = h * 3600 + m * 60
        default:
            return .problem("\(callsign.escapingControlCharacters): the time ends with '\(Self.character(b[i + 6]))', not 'h' or 'z'")
        }
        i += 7
        // Latitude ddmm.mmN, the symbol table, longitude dddmm.mmE, the symbol.
        guard i + 19 <= b.count, let latD = reader.digits(i, 2), let latM = reader.digits(i + 2, 2), b[i + 4] == 0x2E,
              let latH = reader.digits(i + 5, 2), b[i + 7] == 0x4E || b[i + 7] == 0x53,
              let lonD = reader.digits(i + 9, 3), let lonM = reader.digits(i + 12, 2), b[i + 14] == 0x2E,
              let lonH = reader.digits(i + 15, 2), b[i + 17] == 0x45 || b[i + 17] == 0x57
        else { return .problem("\(callsign.escapingControlCharacters): no position (ddmm.mmN/dddmm.mmE) after the time") }
        guard latD <= 90, latM < 60, lonD <= 180, lonM < 60 else { return .problem("\(callsign.escapingControlCharacters): the position is off the Earth") }
        let south = b[i + 7] == 0x53, west = b[i + 17] == 0x57
        let symbolTable = b[i + 8], symbol = b[i + 18]
        if symbolTable == 0x49 && symbol == 0x26 { return .receiver }
        if station { return .receiver }
        var latMinutes = Double(latM) + Double(latH) / 100
        var lonMinutes = Double(lonM) + Double(lonH) / 100
        i += 19
        // Course and speed.
        var course: Int?, speed: Int?
        if i + 7 <= b.count, b[i + 3] == 0x2F, let c = reader.digits(i, 3), let s = reader.digits(i + 4, 3) {
            course = c
            speed = s
            i += 7
        }
        // The altitude.
        guard i + 3 <= b.count, b[i] == 0x2F, b[i + 1] == 0x41, b[i + 2] == 0x3D else {
            return .problem("\(callsign.escapingControlCharacters): no altitude (/A=) after the position")
        }
        i += 3
        var negative = false
        if i < b.count, b[i] == 0x2D { negative = true; i += 1 }
        var altitude = 0, altDigits = 0
        while i < b.count, b[i] >= 0x30, b[i] <= 0x39, altDigits < 7 {
            altitude = altitude * 10 + Int(b[i] - 0x30)
            altDigits += 1
            i += 1
        }
        guard altDigits >= 5 else { return .problem("\(callsign.escapingControlCharacters): the altitude after A= is not a number of feet") }
        if negative { altitude = -altitude }
        // The OGN fields.
        var address: UInt32?, addressType = OGNBeacon.AddressType.random, aircraftType = OGNBeacon.AircraftType.unknown
        var stealth = false, noTracking = false
        var climb: Int?, turn: Double?, flightLevel: Double?, flight: String?, signal: Double?, errors: Int?, offset: Double?
        while i < b.count {
            while i < b.count, b[i] == 0x20 { i += 1 }
            var e = i
            while e < b.count, b[e] != 0x20 { e += 1 }
            guard e > i else { break }
            let n = e - i
            if n == 5, b[i] == 0x21, b[i + 1] == 0x57, b[e - 1] == 0x21, let a = reader.digits(i + 2, 1), let c = reader.digits(i + 3, 1) {
                latMinutes += Double(a) / 1000
                lonMinutes += Double(c) / 1000
            } else if (n == 10 || n == 12), b[i] == 0x69, b[i + 1] == 0x64, let v = reader.hex(i + 2, n - 2) {
                if n == 10 {
                    let flags = UInt8(v >> 24)
                    stealth = flags & 0x80 != 0
                    noTracking = flags & 0x40 != 0
                    aircraftType = OGNBeacon.AircraftType(rawValue: (flags >> 2) & 0x0F) ?? .unknown
                    addressType = OGNBeacon.AddressType(rawValue: flags & 0x03)
                } else {
                    // Naviter: bit 39 stealth, 38 no-tracking, 37–34 the aircraft type, 33–28 the address type.
                    stealth = v >> 39 & 1 != 0
                    noTracking = v >> 38 & 1 != 0
                    aircraftType = OGNBeacon.AircraftType(rawValue: UInt8(v >> 34 & 0x0F)) ?? .unknown
                    addressType = OGNBeacon.AddressType(rawValue: UInt8(v >> 28 & 0x3F))
                }
                address = UInt32(v & 0xFF_FFFF)
            } else if n > 3, reader.endsWith(e, "fpm"), let v = reader.decimal(i, e - 3) {
                climb = Int(v.rounded())
            } else if n > 3, reader.endsWith(e, "rot"), let v = reader.decimal(i, e - 3) {
                turn = v
            } else if n > 2, b[i] == 0x46, b[i + 1] == 0x4C, let v = reader.decimal(i + 2, e) {
                flightLevel = v
            } else if n > 3, reader.endsWith(e, "kHz"), let v = reader.decimal(i, e - 3) {
                offset = v
            } else if n > 2, reader.endsWith(e, "dB"), !reader.endsWith(e, "dBm"), let v = reader.decimal(i, e - 2) {
                signal = v
            } else if n > 1, b[e - 1] == 0x65, let v = reader.digits(i, n - 1) {
                errors = v
            } else if n > 2, b[i] == 0x66, b[i + 1] == 0x6E {
                flight = reader.text(i + 2, e)
            }
            i = e
        }
        var latitude = Double(latD) + latMinutes / 60
        var longitude = Double(lonD) + lonMinutes / 60
        if south { latitude = -latitude }
        if west { longitude = -longitude }
        guard latitude >= -90, latitude <= 90, longitude >= -180, longitude <= 180 else {
            return .problem("\(callsign.escapingControlCharacters): the position is off the Earth")
        }
        let hasID = address != nil
        if address == nil {
            // No id field (OGFLYM, some plain APRS): the address from the callsign when it ends
            // with six hex digits, its type from the prefix.
            let digits = callsign.utf8.suffix(6)
            if digits.count == 6, let v = UInt32(String(decoding: digits, as: UTF8.self), radix: 16) {
                address = v
                if callsign.hasPrefix("ICA") { addressType = .icao } else if callsign.hasPrefix("FLR") { addressType = .flarm } else if callsign.hasPrefix("OGN") { addressType = .ogn }
            } else {
                return .problem("\(callsign.escapingControlCharacters): no id field and no address in the callsign")
            }
        }
        // OGN's "no data" is 000/000; a course of 0 with speed is north (360 in APRS, 0 here).
        let noMotion = course == 0 && speed == 0
        let track: Double? = noMotion || course == nil ? nil : Double(course! % 360)
        return .beacon(OGNBeacon(
            callsign: callsign, dialect: dialect, receiver: receiver, relayed: relayed, secondOfDay: secondOfDay,
            position: Position(latitude: latitude, longitude: longitude), altitudeFt: altitude,
            trackDeg: track, groundSpeedKt: speed, address: address!, addressType: addressType, aircraftType: aircraftType,
            stealth: stealth, noTracking: noTracking, hasID: hasID, climbFpm: climb, turnRateRot: turn,
            pressureAltitudeFt: flightLevel.map { Int(($0 * 100).rounded()) }, flightNumber: flight.flatMap { $0.isEmpty ? nil : $0 },
            signalDB: signal, errors: errors, frequencyOffsetKHz: offset, line: String(decoding: b, as: UTF8.self)))
    }

    /// The aircraft beacons of `lines`, in order (anything else left out): a recording's OGN
    /// lines read back.
    package static func beacons(_ lines: [String]) -> [OGNBeacon] {
        let parser = OGNBeaconParser()
        return lines.compactMap { if case .beacon(let b) = parser.parse($0) { b } else { nil } }
    }

    /// The start of a line, for a message.
    static func preview(_ b: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: b.prefix(24), as: UTF8.self).escapingControlCharacters
        return b.count > 24 ? text + "…" : text
    }

    static func character(_ c: UInt8) -> String { String(decoding: [c], as: UTF8.self).escapingControlCharacters }

    /// Reads fields of a line in place.
    private struct Reader {
        let b: UnsafeBufferPointer<UInt8>
        init(_ b: UnsafeBufferPointer<UInt8>) { self.b = b }

        func find(_ c: UInt8, from: Int) -> Int? {
            var i = from
            while i < b.count {
                if b[i] == c { return i }
                i += 1
            }
            return nil
        }

        func text(_ s: Int, _ e: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[s..<e]), as: UTF8.self) }

        func equals(_ s: Int, _ e: Int, _ t: StaticString) -> Bool {
            guard e - s == t.utf8CodeUnitCount else { return false }
            return t.withUTF8Buffer { u in (0..<u.count).allSatisfy { b[s + $0] == u[$0] } }
        }

        func endsWith(_ e: Int, _ t: StaticString) -> Bool {
            let n = t.utf8CodeUnitCount
            guard e >= n else { return false }
            return equals(e - n, e, t)
        }

        /// `count` decimal digits at `s`, nil when any is not one.
        func digits(_ s: Int, _ count: Int) -> Int? {
            guard count > 0, s + count <= b.count else { return nil }
            var v = 0
            for k in s..<(s + count) {
                let c = b[k]
                guard c >= 0x30 && c <= 0x39 else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            return v
        }

        /// `count` hexadecimal digits at `s` (at most 16).
        func hex(_ s: Int, _ count: Int) -> UInt64? {
            guard count > 0, count <= 16, s + count <= b.count else { return nil }
            var v: UInt64 = 0
            for k in s..<(s + count) {
                let c = b[k]
                let d: UInt64
                switch c {
                case 0x30...0x39: d = UInt64(c - 0x30)
                case 0x41...0x46: d = UInt64(c - 0x37)
                case 0x61...0x66: d = UInt64(c - 0x57)
                default: return nil
                }
                v = v << 4 | d
            }
            return v
        }

        /// A signed decimal number filling `s..<e` (no exponent).
        func decimal(_ s: Int, _ e: Int) -> Double? {
            var i = s
            var negative = false
            if i < e, b[i] == 0x2B || b[i] == 0x2D { negative = b[i] == 0x2D; i += 1 }
            // Digits as a whole number, then one division: 0.7 reads as the double nearest 0.7.
            var value = 0.0, scale = 1.0, digits = 0, point = false
            while i < e {
                let c = b[i]
                if c >= 0x30 && c <= 0x39 {
                    value = value * 10 + Double(c - 0x30)
                    if point { scale *= 10 }
                    digits += 1
                } else if c == 0x2E && !point {
                    point = true
                } else {
                    return nil
                }
                i += 1
            }
            guard digits > 0, digits <= 15 else { return nil }
            value /= scale
            return negative ? -value : value
        }
    }
}
