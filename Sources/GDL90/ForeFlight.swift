/// ForeFlight ID message, 0x65 sub-ID 0 (ForeFlight GDL 90 extended specification).
public struct ForeFlightID: Hashable, Sendable {
    /// Message ID shared by ForeFlight's messages.
    public static let id: UInt8 = 0x65
    /// Sub-ID of the ID message.
    public static let subID: UInt8 = 0
    /// Length with the ID byte.
    public static let length = 39

    /// Message version (1).
    public var version: UInt8
    /// Device serial number, nil when invalid (all ones).
    public var serialNumber: UInt64?
    /// Short device name (8 bytes, UTF-8).
    public var deviceName: String
    /// Long device name (16 bytes, UTF-8).
    public var deviceLongName: String
    /// Capabilities mask (32 bits, big-endian).
    public var capabilities: UInt32

    /// Capabilities bit 0: the Ownship Geometric Altitude datum is MSL (set) or WGS-84 (clear).
    public var geometricAltitudeIsMSL: Bool { capabilities & 1 != 0 }

    /// Creates an ID message.
    public init(version: UInt8 = 1, serialNumber: UInt64?, deviceName: String, deviceLongName: String, capabilities: UInt32 = 0) {
        self.version = version
        self.serialNumber = serialNumber
        self.deviceName = deviceName
        self.deviceLongName = deviceLongName
        self.capabilities = capabilities
    }

    init(_ m: MessageBytes) throws(MessageError) {
        try MessageError.check(m, Self.length)
        version = m[2]
        let serial = UInt64(m.u32(3)) << 32 | UInt64(m.u32(7))
        serialNumber = serial == .max ? nil : serial
        deviceName = FixedText.decode(m.slice(11, 8))
        deviceLongName = FixedText.decode(m.slice(19, 16))
        capabilities = m.u32(35)
    }

    func encode(into out: inout [UInt8]) {
        out.append(Self.id)
        out.append(Self.subID)
        out.append(version)
        let serial = serialNumber ?? .max
        out.appendU32(UInt32(serial >> 32))
        out.appendU32(UInt32(serial & 0xFFFF_FFFF))
        FixedText.encode(deviceName, width: 8, into: &out, pad: 0)
        FixedText.encode(deviceLongName, width: 16, into: &out, pad: 0)
        out.appendU32(capabilities)
    }
}

/// ForeFlight AHRS message, 0x65 sub-ID 1: attitude, heading and airspeeds.
public struct ForeFlightAHRS: Hashable, Sendable {
    /// Sub-ID of the AHRS message.
    public static let subID: UInt8 = 1
    /// Length with the ID byte.
    public static let length = 12

    /// Roll in degrees (0.1° steps, right wing down positive), nil when invalid (0x7FFF).
    public var rollDeg: Double?
    /// Pitch in degrees (0.1° steps, nose up positive), nil when invalid (0x7FFF).
    public var pitchDeg: Double?
    /// Heading in degrees (0.1° steps), nil when invalid (0xFFFF).
    public var headingDeg: Double?
    /// True when the heading is magnetic (bit 15), false when true heading.
    public var headingIsMagnetic: Bool
    /// Indicated airspeed in knots, nil when invalid (0xFFFF).
    public var indicatedAirspeedKt: Int?
    /// True airspeed in knots, nil when invalid (0xFFFF).
    public var trueAirspeedKt: Int?

    /// Creates an AHRS message.
    public init(rollDeg: Double?, pitchDeg: Double?, headingDeg: Double?, headingIsMagnetic: Bool = false, indicatedAirspeedKt: Int?, trueAirspeedKt: Int?) {
        self.rollDeg = rollDeg
        self.pitchDeg = pitchDeg
        self.headingDeg = headingDeg
        self.headingIsMagnetic = headingIsMagnetic
        self.indicatedAirspeedKt = indicatedAirspeedKt
        self.trueAirspeedKt = trueAirspeedKt
    }

    init(_ m: MessageBytes) throws(MessageError) {
        try MessageError.check(m, Self.length)
        let roll = m.i16(2), pitch = m.i16(4), heading = m.u16(6), ias = m.u16(8), tas = m.u16(10)
        rollDeg = roll == 0x7FFF ? nil : Double(roll) / 10
        pitchDeg = pitch == 0x7FFF ? nil : Double(pitch) / 10
        if heading == 0xFFFF {
            headingDeg = nil
            headingIsMagnetic = false
        } else {
            let v = Int16(bitPattern: (heading & 0x7FFF) << 1) >> 1
            headingDeg = Double(v) / 10
            headingIsMagnetic = heading & 0x8000 != 0
        }
        indicatedAirspeedKt = ias == 0xFFFF ? nil : Int(ias)
        trueAirspeedKt = tas == 0xFFFF ? nil : Int(tas)
    }

    func encode(into out: inout [UInt8]) {
        func tenths(_ v: Double?, invalid: UInt16) -> UInt16 {
            guard let v else { return invalid }
            return UInt16(bitPattern: Int16(clamping: Int((v * 10).rounded())))
        }
        out.append(ForeFlightID.id)
        out.append(Self.subID)
        out.appendU16(tenths(rollDeg, invalid: 0x7FFF))
        out.appendU16(tenths(pitchDeg, invalid: 0x7FFF))
        if let headingDeg {
            let v = UInt16(bitPattern: Int16(clamping: Int((headingDeg * 10).rounded()))) & 0x7FFF
            out.appendU16(v | (headingIsMagnetic ? 0x8000 : 0))
        } else {
            out.appendU16(0xFFFF)
        }
        out.appendU16(indicatedAirspeedKt.map { UInt16(clamping: $0) } ?? 0xFFFF)
        out.appendU16(trueAirspeedKt.map { UInt16(clamping: $0) } ?? 0xFFFF)
    }
}
