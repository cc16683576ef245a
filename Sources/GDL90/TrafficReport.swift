/// Address type of a traffic or ownship report (the `t` nibble, ICD §3.5.1.2).
public struct AddressType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 4-bit code.
    public var rawValue: UInt8
    /// Creates an address type from its 4-bit code.
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x0F }

    /// ADS-B with ICAO address.
    public static let adsbICAO = AddressType(rawValue: 0)
    /// ADS-B with self-assigned (anonymous) address.
    public static let adsbSelfAssigned = AddressType(rawValue: 1)
    /// TIS-B with ICAO address.
    public static let tisbICAO = AddressType(rawValue: 2)
    /// TIS-B with track file ID.
    public static let tisbTrackFile = AddressType(rawValue: 3)
    /// Surface vehicle.
    public static let surfaceVehicle = AddressType(rawValue: 4)
    /// Ground station beacon.
    public static let groundStationBeacon = AddressType(rawValue: 5)

    /// True for TIS-B (and ADS-R relayed as TIS-B) addresses.
    public var isTISB: Bool { rawValue == 2 || rawValue == 3 }

    /// The name used in JSON output.
    public var description: String {
        switch rawValue {
        case 0: "adsbICAO"
        case 1: "adsbSelfAssigned"
        case 2: "tisbICAO"
        case 3: "tisbTrackFile"
        case 4: "surfaceVehicle"
        case 5: "groundStationBeacon"
        default: "reserved\(rawValue)"
        }
    }
}

/// What the track/heading byte of a report means (misc bits 1–0, ICD §3.5.1.5).
public enum TrackType: UInt8, Hashable, Sendable, CustomStringConvertible {
    /// Track/heading not valid.
    case invalid = 0
    /// True track angle.
    case trueTrack = 1
    /// Magnetic heading.
    case magneticHeading = 2
    /// True heading.
    case trueHeading = 3

    /// The name used in JSON output.
    public var description: String {
        switch self {
        case .invalid: "invalid"
        case .trueTrack: "trueTrack"
        case .magneticHeading: "magneticHeading"
        case .trueHeading: "trueHeading"
        }
    }
}

/// A geographic position in degrees (WGS-84).
public struct Position: Hashable, Sendable, Codable {
    /// Latitude, degrees north positive.
    public var latitude: Double
    /// Longitude, degrees east positive.
    public var longitude: Double
    /// Creates a position.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Traffic Report (0x14) and Ownship Report (0x0A), which share one layout (ICD §3.4, §3.5).
public struct TrafficReport: Hashable, Sendable {
    /// Length with the ID byte.
    public static let length = 28

    /// The sender's alert status nibble (1 = traffic alert). Stratux sets it for any target
    /// within 2 NM at any altitude: it is not a collision alert.
    public var alertStatus: UInt8
    /// Address type.
    public var addressType: AddressType
    /// 24-bit participant address.
    public var address: UInt32
    /// Position, nil when the report carries none (NIC 0 with latitude and longitude 0).
    public var position: Position?
    /// Pressure altitude in feet (25 ft steps), nil when invalid (0xFFF).
    public var pressureAltitudeFt: Int?
    /// Misc bit 3: airborne (false: on ground).
    public var airborne: Bool
    /// Misc bit 2: report extrapolated rather than updated.
    public var extrapolated: Bool
    /// Misc bits 1–0: meaning of `trackDeg`.
    public var trackType: TrackType
    /// Navigation Integrity Category (0–11).
    public var nic: UInt8
    /// Navigation Accuracy Category for Position (0–11).
    public var nacp: UInt8
    /// Horizontal velocity in knots, nil when unknown (0xFFF).
    public var groundSpeedKt: Int?
    /// Vertical velocity in feet per minute (64 fpm steps), nil when unknown (0x800).
    public var verticalSpeedFpm: Int?
    /// Track or heading in degrees (360/256 steps); see `trackType`.
    public var trackDeg: Double
    /// ADS-B emitter category (0–39).
    public var emitterCategory: UInt8
    /// Callsign, trailing spaces trimmed. Kept as its eight wire bytes and made into a `String`
    /// only when read, so that decoding a report never builds a string nobody asks for.
    public var callsign: String {
        get { FixedText.decode(callsignBytes) }
        set { callsignBytes = FixedText.pack(newValue) }
    }
    /// The callsign's eight bytes as sent, first character in the lowest byte.
    var callsignBytes: UInt64

    /// The callsign's eight wire bytes (first character in the lowest byte, as `encode` sends
    /// them), for writers that print it without building a `String`.
    public var callsignWire: UInt64 { callsignBytes }
    /// Emergency/priority code (0 none, 1 general, 2 medical, 3 minimum fuel, 4 no comm,
    /// 5 unlawful interference, 6 downed aircraft).
    public var emergency: UInt8

    /// True when the sender's alert nibble says "traffic alert".
    public var trafficAlert: Bool { alertStatus == 1 }

    /// Creates a report.
    public init(
        alertStatus: UInt8 = 0, addressType: AddressType = .adsbICAO, address: UInt32, position: Position?,
        pressureAltitudeFt: Int?, airborne: Bool = true, extrapolated: Bool = false, trackType: TrackType = .trueTrack,
        nic: UInt8 = 8, nacp: UInt8 = 8, groundSpeedKt: Int?, verticalSpeedFpm: Int?, trackDeg: Double,
        emitterCategory: UInt8 = 1, callsign: String = "", emergency: UInt8 = 0
    ) {
        self.alertStatus = alertStatus
        self.addressType = addressType
        self.address = address & 0xFF_FFFF
        self.position = position
        self.pressureAltitudeFt = pressureAltitudeFt
        self.airborne = airborne
        self.extrapolated = extrapolated
        self.trackType = trackType
        self.nic = nic
        self.nacp = nacp
        self.groundSpeedKt = groundSpeedKt
        self.verticalSpeedFpm = verticalSpeedFpm
        self.trackDeg = trackDeg
        self.emitterCategory = emitterCategory
        self.callsignBytes = FixedText.pack(callsign)
        self.emergency = emergency
    }

    init(_ m: MessageBytes) throws(MessageError) {
        try MessageError.check(m, Self.length)
        alertStatus = m[1] >> 4
        addressType = AddressType(rawValue: m[1] & 0x0F)
        address = m.u24(2)
        let rawLat = m.u24(5), rawLon = m.u24(8)
        nic = m[13] >> 4
        nacp = m[13] & 0x0F
        position = (nic == 0 && rawLat == 0 && rawLon == 0)
            ? nil : Position(latitude: Semicircle.degrees(rawLat), longitude: Semicircle.degrees(rawLon))
        let rawAlt = Int(m[11]) << 4 | Int(m[12] >> 4)
        pressureAltitudeFt = rawAlt == 0xFFF ? nil : rawAlt * 25 - 1000
        let misc = m[12] & 0x0F
        airborne = misc & 0x08 != 0
        extrapolated = misc & 0x04 != 0
        trackType = TrackType(rawValue: misc & 0x03)!
        let h = Int(m[14]) << 4 | Int(m[15] >> 4)
        groundSpeedKt = h == 0xFFF ? nil : h
        let v = Int(m[15] & 0x0F) << 8 | Int(m[16])
        verticalSpeedFpm = v == 0x800 ? nil : (v >= 0x800 ? v - 0x1000 : v) * 64
        trackDeg = Double(m[17]) * 360.0 / 256.0
        emitterCategory = m[18]
        callsignBytes = m.u64LE(19)
        emergency = m[27] >> 4
    }

    func encode(id: UInt8, into out: inout [UInt8]) {
        out.append(id)
        out.append((alertStatus & 0x0F) << 4 | addressType.rawValue)
        out.appendU24(address)
        out.appendU24(position.map { Semicircle.raw($0.latitude) } ?? 0)
        out.appendU24(position.map { Semicircle.raw($0.longitude) } ?? 0)
        let alt = pressureAltitudeFt.map { min(max(($0 + 1000 + 12) / 25, 0), 0xFFE) } ?? 0xFFF
        let misc = (airborne ? 0x08 : 0) | (extrapolated ? 0x04 : 0) | trackType.rawValue
        out.append(UInt8(alt >> 4))
        out.append(UInt8(alt & 0x0F) << 4 | misc)
        out.append((nic & 0x0F) << 4 | (nacp & 0x0F))
        let h = groundSpeedKt.map { min(max($0, 0), 0xFFE) } ?? 0xFFF
        let v: Int
        if let fpm = verticalSpeedFpm {
            let steps = min(max(Int((Double(fpm) / 64).rounded()), -0x7FF), 0x7FF)
            v = steps & 0xFFF
        } else {
            v = 0x800
        }
        out.append(UInt8(h >> 4))
        out.append(UInt8(h & 0x0F) << 4 | UInt8(v >> 8))
        out.append(UInt8(v & 0xFF))
        var track = trackDeg.truncatingRemainder(dividingBy: 360)
        if track < 0 { track += 360 }
        out.append(UInt8(Int((track * 256 / 360).rounded()) & 0xFF))
        out.append(emitterCategory)
        withUnsafeBytes(of: callsignBytes.littleEndian) { out.append(contentsOf: $0) }
        out.append((emergency & 0x0F) << 4)
    }
}
