import GDL90

/// One aircraft beacon of the Open Glider Network's APRS (FLARM, OGN trackers, FANET, PilotAware,
/// SafeSky, ADS-L, Naviter…), as `OGNBeaconParser` (GatewayCaptures) reads it: what the core
/// makes a traffic target of. A value; the line it came from rides with it, because that line is
/// what the flight recorder keeps (a replay parses it again, as live did).
///
/// Units as the beacon gives them: altitude in feet above mean sea level (`A=`: GNSS, so GDL 90's
/// geometric altitude, not pressure altitude), course in degrees true, speed in knots, climb in
/// feet per minute, turn rate in `rot` (one is a standard-rate turn, 3°/s).
package struct OGNBeacon: Sendable, Equatable {
    /// Who the 24-bit address belongs to (the `aa` bits of `idXXYYYYYY`; Naviter's 6-bit field).
    package struct AddressType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code (0–3 in OGN's own field, up to 63 in Naviter's).
        package var rawValue: UInt8
        /// An address type of `rawValue`.
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        /// A random address (chosen anew by the device: no identity).
        package static let random = AddressType(rawValue: 0)
        /// The aircraft's ICAO 24-bit address (what its transponder sends on 1090 MHz).
        package static let icao = AddressType(rawValue: 1)
        /// A FLARM id.
        package static let flarm = AddressType(rawValue: 2)
        /// An OGN tracker's id.
        package static let ogn = AddressType(rawValue: 3)
        /// A Naviter device's id (OGNAVI).
        package static let naviter = AddressType(rawValue: 4)
        /// A FANET device's id (OGNAVI 1.0.2).
        package static let fanet = AddressType(rawValue: 5)

        /// `random`, `icao`, `flarm`, `ogn`, `naviter`, `fanet`, or `type N`.
        package var description: String {
            switch rawValue {
            case 0: "random"
            case 1: "icao"
            case 2: "flarm"
            case 3: "ogn"
            case 4: "naviter"
            case 5: "fanet"
            default: "type \(rawValue)"
            }
        }
    }

    /// The aircraft type (the `tttt` bits of `idXXYYYYYY`).
    package enum AircraftType: UInt8, Sendable, CaseIterable, CustomStringConvertible {
        case unknown = 0, glider, towPlane, helicopter, skydiver, dropPlane, hangGlider, paraglider
        case poweredPiston, jet, reserved10, balloon, airship, drone, reserved14, staticObstacle

        /// The name `decode --json` prints.
        package var description: String {
            switch self {
            case .unknown, .reserved10, .reserved14: "unknown"
            case .glider: "glider"
            case .towPlane: "tow plane"
            case .helicopter: "helicopter"
            case .skydiver: "skydiver"
            case .dropPlane: "drop plane"
            case .hangGlider: "hang glider"
            case .paraglider: "paraglider"
            case .poweredPiston: "powered"
            case .jet: "jet"
            case .balloon: "balloon"
            case .airship: "airship"
            case .drone: "drone"
            case .staticObstacle: "static obstacle"
            }
        }

        /// GDL 90's emitter category (§3.5.1.10) for this type: glider 9, tow plane 1,
        /// helicopter 7, skydiver 11, hang glider and paraglider 12, balloon and airship 10,
        /// drone 14, powered 1, jet 3, static obstacle 19, unknown 0.
        package var emitterCategory: UInt8 {
            switch self {
            case .unknown, .reserved10, .reserved14: 0
            case .glider: 9
            case .towPlane, .dropPlane, .poweredPiston: 1
            case .helicopter: 7
            case .skydiver: 11
            case .hangGlider, .paraglider: 12
            case .jet: 3
            case .balloon, .airship: 10
            case .drone: 14
            case .staticObstacle: 19
            }
        }

        /// FLARM's aircraft type in `$PFLAA` (hexadecimal, the same codes as OGN's).
        package var flarmCode: String { String(rawValue, radix: 16, uppercase: true) }
    }

    /// The APRS source callsign (`FLRDD89C9`, `ICA3D1C35`, `OGN2FD00F`).
    package var callsign: String
    /// The dialect: the APRS destination (`OGFLR`, `OGNTRK`, `OGNFNT`… or `APRS`).
    package var dialect: String
    /// The receiving station (the path's last element).
    package var receiver: String
    /// True when a relay is in the path (`RELAY*`, `OGN2FD00F*`).
    package var relayed: Bool
    /// Seconds since 0000Z the beacon says it was made (`hhmmss`h; a `ddhhmm`z time: its hour and minute).
    package var secondOfDay: Int?
    /// Where.
    package var position: Position
    /// Altitude, feet above mean sea level (GNSS: geometric).
    package var altitudeFt: Int
    /// Course, degrees true; nil when the beacon has none (or says `000/000`, OGN's "no data").
    package var trackDeg: Double?
    /// Ground speed, knots; nil when the beacon has none.
    package var groundSpeedKt: Int?
    /// The 24-bit address.
    package var address: UInt32
    /// Who the address belongs to.
    package var addressType: AddressType
    /// The aircraft type.
    package var aircraftType: AircraftType
    /// The sender asked not to be identified (stealth): shown without identity.
    package var stealth: Bool
    /// The sender asked not to be tracked: used for collision alerts only.
    package var noTracking: Bool
    /// True when the beacon had an `id` field (else the address and type come from the callsign).
    package var hasID: Bool
    /// Climb, feet per minute.
    package var climbFpm: Int?
    /// Turn rate, rot (1 rot = 3°/s, to the right positive).
    package var turnRateRot: Double?
    /// Pressure altitude (an OGN tracker's `FLnnn.nn`), feet.
    package var pressureAltitudeFt: Int?
    /// Flight number or callsign (`fn…`: OGADSB).
    package var flightNumber: String?
    /// The signal's strength at the receiver, dB (`dB`).
    package var signalDB: Double?
    /// Bit errors corrected (`e`).
    package var errors: Int?
    /// The carrier's frequency offset, kHz.
    package var frequencyOffsetKHz: Double?
    /// The line as received (no newline).
    package var line: String

    /// A beacon.
    package init(callsign: String, dialect: String, receiver: String, relayed: Bool = false, secondOfDay: Int? = nil,
                 position: Position, altitudeFt: Int, trackDeg: Double? = nil, groundSpeedKt: Int? = nil,
                 address: UInt32, addressType: AddressType, aircraftType: AircraftType = .unknown,
                 stealth: Bool = false, noTracking: Bool = false, hasID: Bool = true, climbFpm: Int? = nil,
                 turnRateRot: Double? = nil, pressureAltitudeFt: Int? = nil, flightNumber: String? = nil,
                 signalDB: Double? = nil, errors: Int? = nil, frequencyOffsetKHz: Double? = nil, line: String = "") {
        self.callsign = callsign
        self.dialect = dialect
        self.receiver = receiver
        self.relayed = relayed
        self.secondOfDay = secondOfDay
        self.position = position
        self.altitudeFt = altitudeFt
        self.trackDeg = trackDeg
        self.groundSpeedKt = groundSpeedKt
        self.address = address & 0xFF_FFFF
        self.addressType = addressType
        self.aircraftType = aircraftType
        self.stealth = stealth
        self.noTracking = noTracking
        self.hasID = hasID
        self.climbFpm = climbFpm
        self.turnRateRot = turnRateRot
        self.pressureAltitudeFt = pressureAltitudeFt
        self.flightNumber = flightNumber
        self.signalDB = signalDB
        self.errors = errors
        self.frequencyOffsetKHz = frequencyOffsetKHz
        self.line = line
    }

    /// The epoch time of the beacon's own `hhmmss` nearest `time` (within half a day either way);
    /// `time` itself when it has none.
    package func time(near time: Double) -> Double {
        guard let s = secondOfDay else { return time }
        let midnight = (time / 86_400).rounded(.down) * 86_400
        var t = midnight + Double(s)
        if t - time > 43_200 { t -= 86_400 } else if time - t > 43_200 { t += 86_400 }
        return t
    }

    /// Whether it shows without identity: stealth or no-tracking.
    package var isAnonymous: Bool { stealth || noTracking }

    /// The target key of its address (before privacy: `TrafficPicture` gives an anonymous
    /// sender a pseudonym). ICAO addresses share the namespace of ADS-B and TIS-B (one aircraft
    /// heard on 1090 and through OGN is one target); every other type is a namespace of its own,
    /// so a FLARM id equal to some ICAO address is never merged with it.
    package var key: TargetKey {
        switch addressType {
        case .icao: TargetKey(namespace: .icao, address: address)
        case .flarm: TargetKey(namespace: .flarm, address: address)
        case .ogn: TargetKey(namespace: .ognTracker, address: address)
        case .naviter: TargetKey(namespace: .naviter, address: address)
        case .fanet: TargetKey(namespace: .fanet, address: address)
        default: TargetKey(namespace: .ognRandom, address: address)
        }
    }

    /// As a GDL 90 traffic report (what the EFBs are sent): ADS-B ICAO address type for an ICAO
    /// address, self-assigned for any other; the emitter category from the aircraft type; the
    /// altitude the pressure altitude when the beacon has one (`FL`), else the geometric altitude
    /// (GDL 90 has no geometric altitude for traffic: EFBs show it as is); OGN says nothing of
    /// the ground, so airborne unless stationary (speed 0 and no climb). `address` and
    /// `anonymous`: a stealth sender's pseudonym, sent self-assigned and without a callsign.
    package func trafficReport(address: UInt32? = nil, anonymous: Bool = false) -> TrafficReport {
        let track = trackDeg
        let stationary = (groundSpeedKt ?? 0) == 0 && (climbFpm ?? 0) == 0
        return TrafficReport(
            addressType: addressType == .icao && !anonymous ? .adsbICAO : .adsbSelfAssigned, address: address ?? self.address,
            position: position, pressureAltitudeFt: pressureAltitudeFt ?? altitudeFt, airborne: !stationary,
            trackType: track == nil ? .invalid : .trueTrack, nic: 8, nacp: 8, groundSpeedKt: groundSpeedKt,
            verticalSpeedFpm: climbFpm, trackDeg: track ?? 0, emitterCategory: aircraftType.emitterCategory,
            callsign: anonymous ? "" : (flightNumber ?? ""))
    }
}
