/// Basic (0x1E) and Long (0x1F) UAT reports (ICD §3.6): a received UAT ADS-B downlink passed
/// through with its time of reception.
///
/// The ICD sizes them at 22 and 38 bytes; Stratux pads them to 436 like an uplink. Both are
/// accepted, and `payload` keeps exactly what was received so that re-encoding is byte-exact.
public struct UATReport: Hashable, Sendable {
    /// Message ID of a Basic report.
    public static let basicID: UInt8 = 0x1E
    /// Message ID of a Long report.
    public static let longID: UInt8 = 0x1F
    /// Basic report length with ID (ID + TOR + 18-byte payload).
    public static let basicLength = 22
    /// Long report length with ID (ID + TOR + 34-byte payload).
    public static let longLength = 38

    /// Time of reception in 80 ns units, nil when invalid (0xFFFFFF). Stratux sends 0.
    public var timeOfReception: UInt32?
    /// The UAT ADS-B payload as received (18 or 34 bytes, or padded).
    public var payload: [UInt8]

    /// Creates a report from a payload.
    public init(timeOfReception: UInt32?, payload: [UInt8]) {
        self.timeOfReception = timeOfReception
        self.payload = payload
    }

    /// Creates a report carrying `adsb`, encoded as a Basic (18) or Long (34 byte) payload.
    public init(timeOfReception: UInt32?, adsb: UATADSBPayload) {
        self.init(timeOfReception: timeOfReception, payload: adsb.encode())
    }

    /// The decoded ADS-B payload: header, state vector and, where the payload type carries
    /// them, mode status (callsign, emitter) and auxiliary state vector.
    public var adsb: UATADSBPayload { UATADSBPayload(decoding: payload[...]) }

    init(_ m: MessageBytes, long: Bool) throws(MessageError) {
        try MessageError.check(m, long ? Self.longLength : Self.basicLength)
        let tor = UInt32(m[1]) | UInt32(m[2]) << 8 | UInt32(m[3]) << 16
        timeOfReception = tor == 0xFF_FFFF ? nil : tor
        payload = Array(m.slice(4, m.count - 4))
    }

    func encode(id: UInt8, into out: inout [UInt8]) {
        out.append(id)
        encodeTimeOfReception(timeOfReception, into: &out)
        out.append(contentsOf: payload)
        let minimum = (id == Self.longID ? Self.longLength : Self.basicLength) - 4
        if payload.count < minimum { out.append(contentsOf: [UInt8](repeating: 0, count: minimum - payload.count)) }
    }
}

/// A UAT ADS-B message payload (DO-282B): header, state vector (SV), and for payload types
/// 1 and 3 the mode status (MS), for types 1, 2, 5 and 6 the auxiliary state vector (AUXSV).
public struct UATADSBPayload: Hashable, Sendable {
    /// Horizontal velocity as the state vector sends it.
    public enum Velocity: Hashable, Sendable {
        /// Airborne: north and east components in knots (nil when not available), ×4 when supersonic.
        case airborne(northKt: Int?, eastKt: Int?, supersonic: Bool)
        /// On the ground: ground speed in knots and track/heading with its type.
        case ground(speedKt: Int?, trackDeg: Double, trackType: TrackType)
    }

    /// Payload type code (5 bits); 0 is a Basic payload, 1–10 Long.
    public var payloadType: UInt8
    /// Address qualifier (3 bits): 0 ADS-B ICAO, 1 ADS-B self-assigned, 2 TIS-B ICAO,
    /// 3 TIS-B track file, 4 surface vehicle, 5 fixed beacon, 6 ADS-R ICAO, 7 reserved.
    public var addressQualifier: UInt8
    /// 24-bit address.
    public var address: UInt32
    /// Position, nil when NIC is 0 and latitude and longitude are 0.
    public var position: Position?
    /// Primary altitude in feet (25 ft steps), nil when not available.
    public var altitudeFt: Int?
    /// True when the primary altitude is geometric, false when barometric.
    public var altitudeIsGeometric: Bool
    /// Navigation Integrity Category.
    public var nic: UInt8
    /// Horizontal velocity.
    public var velocity: Velocity
    /// Vertical rate in feet per minute (64 fpm steps), nil when not available.
    public var verticalRateFpm: Int?
    /// True when the vertical rate is barometric.
    public var verticalRateIsBarometric: Bool
    /// UTC coupled (ADS-B) or TIS-B site ID, the low nibble of byte 16.
    public var siteOrUTC: UInt8
    /// Emitter category from mode status (payload types 1 and 3).
    public var emitterCategory: UInt8?
    /// Callsign or squawk from mode status, trailing spaces trimmed.
    public var callsign: String?
    /// The mode status's CSID bit: true when `callsign` is a callsign (flight ID), false when its
    /// first four characters are a Mode 3/A code (DO-282B §2.2.4.5.4.9).
    public var callsignIsFlightID: Bool
    /// Emergency/priority status from mode status.
    public var emergency: UInt8?
    /// NACp from mode status.
    public var nacp: UInt8?
    /// Secondary altitude in feet from the auxiliary state vector.
    public var secondaryAltitudeFt: Int?

    /// Ground speed in knots: from the north/east components when airborne.
    public var groundSpeedKt: Int? {
        switch velocity {
        case .airborne(let n?, let e?, _): Int((Double(n * n + e * e)).squareRoot().rounded())
        case .airborne: nil
        case .ground(let speed, _, _): speed
        }
    }

    /// Track in degrees true, from the velocity components when airborne.
    public var trackDeg: Double? {
        switch velocity {
        case .airborne(let n?, let e?, _) where n != 0 || e != 0:
            var deg = atan2Degrees(y: Double(e), x: Double(n))
            if deg < 0 { deg += 360 }
            return deg
        case .airborne: return nil
        case .ground(_, let track, let type): return type == .invalid ? nil : track
        }
    }

    /// True when the payload type carries a mode status element.
    public var hasModeStatus: Bool { payloadType == 1 || payloadType == 3 }
    /// True when the payload type carries an auxiliary state vector.
    public var hasAuxiliaryStateVector: Bool { [1, 2, 5, 6].contains(payloadType) }
    /// True for payload types sent in a Long (34-byte) message.
    public var isLong: Bool { payloadType != 0 }

    /// Creates a payload.
    public init(
        payloadType: UInt8, addressQualifier: UInt8, address: UInt32, position: Position?, altitudeFt: Int?,
        altitudeIsGeometric: Bool = false, nic: UInt8 = 8, velocity: Velocity, verticalRateFpm: Int?,
        verticalRateIsBarometric: Bool = true, siteOrUTC: UInt8 = 0, emitterCategory: UInt8? = nil,
        callsign: String? = nil, callsignIsFlightID: Bool = true, emergency: UInt8? = nil, nacp: UInt8? = nil,
        secondaryAltitudeFt: Int? = nil
    ) {
        self.payloadType = payloadType
        self.addressQualifier = addressQualifier
        self.address = address & 0xFF_FFFF
        self.position = position
        self.altitudeFt = altitudeFt
        self.altitudeIsGeometric = altitudeIsGeometric
        self.nic = nic
        self.velocity = velocity
        self.verticalRateFpm = verticalRateFpm
        self.verticalRateIsBarometric = verticalRateIsBarometric
        self.siteOrUTC = siteOrUTC
        self.emitterCategory = emitterCategory
        self.callsign = callsign
        self.callsignIsFlightID = callsignIsFlightID
        self.emergency = emergency
        self.nacp = nacp
        self.secondaryAltitudeFt = secondaryAltitudeFt
    }

    /// Decodes a payload; missing bytes read as zero, so a short payload never traps.
    public init(decoding bytes: ArraySlice<UInt8>) {
        let f: (Int) -> UInt8 = { i in i < bytes.count ? bytes[bytes.startIndex + i] : 0 }
        payloadType = f(0) >> 3
        addressQualifier = f(0) & 0x07
        address = UInt32(f(1)) << 16 | UInt32(f(2)) << 8 | UInt32(f(3))
        nic = f(11) & 0x0F
        let rawLat = UInt32(f(4)) << 15 | UInt32(f(5)) << 7 | UInt32(f(6)) >> 1
        let rawLon = UInt32(f(6) & 1) << 23 | UInt32(f(7)) << 15 | UInt32(f(8)) << 7 | UInt32(f(9)) >> 1
        if nic != 0 || rawLat != 0 || rawLon != 0 {
            var lat = Double(rawLat) * 360.0 / 16_777_216.0
            if lat > 90 { lat -= 180 }
            var lon = Double(rawLon) * 360.0 / 16_777_216.0
            if lon > 180 { lon -= 360 }
            position = Position(latitude: lat, longitude: lon)
        } else {
            position = nil
        }
        altitudeIsGeometric = f(9) & 1 != 0
        let rawAlt = Int(f(10)) << 4 | Int(f(11) >> 4)
        altitudeFt = rawAlt == 0 ? nil : (rawAlt - 1) * 25 - 1000
        let ag = f(12) >> 6
        let a = Int(f(12) & 0x1F) << 6 | Int(f(13) >> 2)
        let b = Int(f(13) & 0x03) << 9 | Int(f(14)) << 1 | Int(f(15) >> 7)
        func signed(_ raw: Int, _ scale: Int) -> Int? {
            guard raw & 0x3FF != 0 else { return nil }
            let v = ((raw & 0x3FF) - 1) * scale
            return raw & 0x400 != 0 ? -v : v
        }
        if ag == 2 {
            velocity = .ground(
                speedKt: a & 0x3FF == 0 ? nil : (a & 0x3FF) - 1,
                trackDeg: Double(b & 0x1FF) * 360.0 / 512.0,
                trackType: TrackType(rawValue: UInt8((b >> 9) & 0x03))!)
            verticalRateFpm = nil
            verticalRateIsBarometric = false
        } else {
            let scale = ag == 1 ? 4 : 1
            velocity = .airborne(northKt: signed(a, scale), eastKt: signed(b, scale), supersonic: ag == 1)
            let vv = Int(f(15) & 0x7F) << 4 | Int(f(16) >> 4)
            verticalRateIsBarometric = vv & 0x400 != 0
            if vv & 0x1FF != 0 {
                let v = ((vv & 0x1FF) - 1) * 64
                verticalRateFpm = vv & 0x200 != 0 ? -v : v
            } else {
                verticalRateFpm = nil
            }
        }
        siteOrUTC = f(16) & 0x0F
        if payloadType == 1 || payloadType == 3, bytes.count >= 27 {
            let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ  ..".unicodeScalars)
            let v1 = Int(f(17)) << 8 | Int(f(18)), v2 = Int(f(19)) << 8 | Int(f(20)), v3 = Int(f(21)) << 8 | Int(f(22))
            emitterCategory = UInt8((v1 / 1600) % 40)
            var s = ""
            let digits = [(v1 / 40) % 40, v1 % 40, (v2 / 1600) % 40, (v2 / 40) % 40, v2 % 40, (v3 / 1600) % 40, (v3 / 40) % 40, v3 % 40]
            s.unicodeScalars.append(contentsOf: digits.map { alphabet[$0] })
            while s.last == " " { s.removeLast() }
            callsign = s
            callsignIsFlightID = f(26) & 0x02 != 0
            emergency = f(23) >> 5
            nacp = f(25) >> 4
        } else {
            emitterCategory = nil
            callsign = nil
            callsignIsFlightID = false
            emergency = nil
            nacp = nil
        }
        if [1, 2, 5, 6].contains(payloadType), bytes.count >= 31 {
            let raw = Int(f(29)) << 4 | Int(f(30) >> 4)
            secondaryAltitudeFt = raw == 0 ? nil : (raw - 1) * 25 - 1000
        } else {
            secondaryAltitudeFt = nil
        }
    }

    /// Encodes the payload: 18 bytes for payload type 0, 34 otherwise.
    public func encode() -> [UInt8] {
        var p = [UInt8](repeating: 0, count: payloadType == 0 ? 18 : 34)
        p[0] = (payloadType & 0x1F) << 3 | (addressQualifier & 0x07)
        p[1] = UInt8((address >> 16) & 0xFF)
        p[2] = UInt8((address >> 8) & 0xFF)
        p[3] = UInt8(address & 0xFF)
        var rawLat: UInt32 = 0, rawLon: UInt32 = 0
        if let position {
            var lat = position.latitude
            if lat < 0 { lat += 180 }
            var lon = position.longitude
            if lon < 0 { lon += 360 }
            rawLat = UInt32((lat * 16_777_216.0 / 360.0).rounded()) & 0x7F_FFFF
            rawLon = UInt32((lon * 16_777_216.0 / 360.0).rounded()) & 0xFF_FFFF
        }
        p[4] = UInt8((rawLat >> 15) & 0xFF)
        p[5] = UInt8((rawLat >> 7) & 0xFF)
        p[6] = UInt8((rawLat & 0x7F) << 1) | UInt8(rawLon >> 23)
        p[7] = UInt8((rawLon >> 15) & 0xFF)
        p[8] = UInt8((rawLon >> 7) & 0xFF)
        p[9] = UInt8((rawLon & 0x7F) << 1) | (altitudeIsGeometric ? 1 : 0)
        let rawAlt = altitudeFt.map { min(max(($0 + 1000 + 12) / 25 + 1, 1), 0xFFF) } ?? 0
        p[10] = UInt8(rawAlt >> 4)
        p[11] = UInt8(rawAlt & 0x0F) << 4 | (nic & 0x0F)
        func signed(_ v: Int?, _ scale: Int) -> Int {
            guard let v else { return 0 }
            let magnitude = min(abs(v) / scale + 1, 0x3FF)
            return (v < 0 ? 0x400 : 0) | magnitude
        }
        let ag: Int, a: Int, b: Int
        var vv = 0
        switch velocity {
        case .airborne(let n, let e, let supersonic):
            ag = supersonic ? 1 : 0
            a = signed(n, supersonic ? 4 : 1)
            b = signed(e, supersonic ? 4 : 1)
            if let fpm = verticalRateFpm {
                vv = min(abs(fpm) / 64 + 1, 0x1FF) | (fpm < 0 ? 0x200 : 0)
            }
            if verticalRateIsBarometric { vv |= 0x400 }
        case .ground(let speed, let track, let type):
            ag = 2
            a = speed.map { min($0 + 1, 0x3FF) } ?? 0
            var t = track.truncatingRemainder(dividingBy: 360)
            if t < 0 { t += 360 }
            b = Int(type.rawValue) << 9 | (Int((t * 512 / 360).rounded()) & 0x1FF)
        }
        p[12] = UInt8(ag << 6) | UInt8((a >> 6) & 0x1F)
        p[13] = UInt8((a & 0x3F) << 2) | UInt8((b >> 9) & 0x03)
        p[14] = UInt8((b >> 1) & 0xFF)
        p[15] = UInt8((b & 1) << 7) | UInt8((vv >> 4) & 0x7F)
        p[16] = UInt8((vv & 0x0F) << 4) | (siteOrUTC & 0x0F)
        if payloadType == 1 || payloadType == 3 {
            let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ ".unicodeScalars)
            var chars = (callsign ?? "").unicodeScalars.map { c in alphabet.firstIndex(of: c) ?? 36 }
            while chars.count < 8 { chars.append(36) }
            let v1 = Int(emitterCategory ?? 0) * 1600 + chars[0] * 40 + chars[1]
            let v2 = chars[2] * 1600 + chars[3] * 40 + chars[4]
            let v3 = chars[5] * 1600 + chars[6] * 40 + chars[7]
            p[17] = UInt8(v1 >> 8); p[18] = UInt8(v1 & 0xFF)
            p[19] = UInt8(v2 >> 8); p[20] = UInt8(v2 & 0xFF)
            p[21] = UInt8(v3 >> 8); p[22] = UInt8(v3 & 0xFF)
            p[23] = (emergency ?? 0) << 5
            p[25] = (nacp ?? 0) << 4
            if callsignIsFlightID { p[26] |= 0x02 }
        }
        if [1, 2, 5, 6].contains(payloadType) {
            let raw = secondaryAltitudeFt.map { min(max(($0 + 1000 + 12) / 25 + 1, 1), 0xFFF) } ?? 0
            p[29] = UInt8(raw >> 4)
            p[30] = UInt8(raw & 0x0F) << 4
        }
        return p
    }
}

extension TrafficReport {
    /// The GDL 90 traffic report a UAT ADS-B payload (a Basic or Long report, a dump978 `-` line)
    /// stands for, as a Stratux makes it: address and qualifier (ADS-R, 6, carried as TIS-B ICAO,
    /// 2: a relayed copy of an ICAO address; 7, reserved, gives nil), position, pressure altitude
    /// (a geometric primary altitude is not one: nil), airborne or on the ground, ground speed
    /// (truncated to whole knots, as Stratux computes it),
    /// track, vertical rate, NIC, and from the mode status the emitter category, NACp, emergency
    /// code and the callsign when the CSID bit says it is one (not a squawk). A report without a
    /// mode status carries no callsign: the target's last one is kept by whoever keeps targets.
    public init?(uat a: UATADSBPayload) {
        let type: AddressType
        switch a.addressQualifier {
        case 0: type = .adsbICAO
        case 1: type = .adsbSelfAssigned
        case 2, 6: type = .tisbICAO
        case 3: type = .tisbTrackFile
        case 4: type = .surfaceVehicle
        case 5: type = .groundStationBeacon
        default: return nil
        }
        let track = a.trackDeg
        var airborne = true
        // Ground speed as Stratux (and dump978's uat2text) give it: the components' root sum of
        // squares, truncated to whole knots.
        var speed = a.groundSpeedKt
        switch a.velocity {
        case .airborne(let n?, let e?, _): speed = Int(Double(n * n + e * e).squareRoot())
        case .airborne: break
        case .ground: airborne = false
        }
        self.init(
            addressType: type, address: a.address, position: a.position,
            pressureAltitudeFt: a.altitudeIsGeometric ? nil : a.altitudeFt, airborne: airborne,
            trackType: track == nil ? .invalid : .trueTrack, nic: a.nic, nacp: a.nacp ?? 0,
            groundSpeedKt: speed, verticalSpeedFpm: a.verticalRateFpm, trackDeg: track ?? 0,
            emitterCategory: a.emitterCategory ?? 0, callsign: a.callsignIsFlightID ? a.callsign ?? "" : "", emergency: a.emergency ?? 0)
    }
}

/// atan2 in degrees without Foundation: y east, x north, so 0° is north and 90° east.
func atan2Degrees(y: Double, x: Double) -> Double {
    GDL90Math.atan2(y, x) * 180 / Double.pi
}
