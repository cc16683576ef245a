/// Stratux heartbeat, message 0xCC: `p p p p p p GPS AHRS` (protocol version in bits 7–2).
/// The ICD says to discard IDs with the top bit set; Stratux's own heartbeat is kept.
public struct StratuxHeartbeat: Hashable, Sendable {
    /// Message ID.
    public static let id: UInt8 = 0xCC
    /// Length with the ID byte.
    public static let length = 2

    /// Protocol version (6 bits).
    public var protocolVersion: UInt8
    /// Bit 1: Stratux has a valid GPS position.
    public var gpsValid: Bool
    /// Bit 0: Stratux's AHRS is valid.
    public var ahrsValid: Bool

    /// Creates the message.
    public init(protocolVersion: UInt8 = 1, gpsValid: Bool, ahrsValid: Bool) {
        self.protocolVersion = protocolVersion
        self.gpsValid = gpsValid
        self.ahrsValid = ahrsValid
    }

    init(_ m: MessageBytes) throws(MessageError) {
        try MessageError.check(m, Self.length)
        protocolVersion = m[1] >> 2
        gpsValid = m[1] & 0x02 != 0
        ahrsValid = m[1] & 0x01 != 0
    }

    func encode(into out: inout [UInt8]) {
        out.append(Self.id)
        out.append((protocolVersion & 0x3F) << 2 | (gpsValid ? 0x02 : 0) | (ahrsValid ? 0x01 : 0))
    }
}

/// Stratux status, "SX" (0x53 0x58): 29 bytes plus 6 per ADS-B ground station heard, as
/// Stratux's own source builds it (message version 1).
public struct StratuxStatus: Hashable, Sendable {
    /// Message ID ('S').
    public static let id: UInt8 = 0x53
    /// Second byte ('X').
    public static let secondByte: UInt8 = 0x58
    /// Length with the ID byte, without ground stations.
    public static let length = 29

    /// Byte 2 (1) and message version (byte 3).
    public var messageVersion: UInt8
    /// Software version: major, minor, build type (0 release, 1 beta, 2 release candidate "r", 3 "rc"), build number.
    public var versionMajor: UInt8, versionMinor: UInt8, versionType: UInt8, versionBuild: UInt8
    /// Hardware revision code (0xFFFFFFFF unknown).
    public var hardwareRevision: UInt32
    /// Valid and enabled flags (16 bits): bits 0–1 GPS fix (1 3D, 2 SBAS), 2 AHRS valid, 3 pressure
    /// altitude valid, 4 CPU temperature valid, 5 UAT enabled, 6 1090ES enabled, 7 GPS enabled, 8 AHRS enabled.
    public var flags: UInt16
    /// Connected hardware (16 bits): bits 0–1 number of radios, bit 2 IMU connected.
    public var connectedHardware: UInt16
    /// GPS satellites locked.
    public var satellitesLocked: UInt8
    /// GPS satellites tracked.
    public var satellitesTracked: UInt8
    /// UAT traffic targets tracked.
    public var uatTargets: UInt16
    /// 1090ES traffic targets tracked.
    public var esTargets: UInt16
    /// UAT messages in the last minute.
    public var uatMessagesPerMinute: UInt16
    /// 1090ES messages in the last minute.
    public var esMessagesPerMinute: UInt16
    /// CPU temperature in °C (0.1° steps).
    public var cpuTemperatureC: Double
    /// ADS-B ground stations heard, by position.
    public var towers: [Position]

    /// Creates a status message.
    public init(
        messageVersion: UInt8 = 1, versionMajor: UInt8 = 0, versionMinor: UInt8 = 0, versionType: UInt8 = 0, versionBuild: UInt8 = 0,
        hardwareRevision: UInt32 = 0xFFFF_FFFF, flags: UInt16 = 0, connectedHardware: UInt16 = 0, satellitesLocked: UInt8 = 0,
        satellitesTracked: UInt8 = 0, uatTargets: UInt16 = 0, esTargets: UInt16 = 0, uatMessagesPerMinute: UInt16 = 0,
        esMessagesPerMinute: UInt16 = 0, cpuTemperatureC: Double = 0, towers: [Position] = []
    ) {
        self.messageVersion = messageVersion
        self.versionMajor = versionMajor
        self.versionMinor = versionMinor
        self.versionType = versionType
        self.versionBuild = versionBuild
        self.hardwareRevision = hardwareRevision
        self.flags = flags
        self.connectedHardware = connectedHardware
        self.satellitesLocked = satellitesLocked
        self.satellitesTracked = satellitesTracked
        self.uatTargets = uatTargets
        self.esTargets = esTargets
        self.uatMessagesPerMinute = uatMessagesPerMinute
        self.esMessagesPerMinute = esMessagesPerMinute
        self.cpuTemperatureC = cpuTemperatureC
        self.towers = towers
    }

    init(_ m: MessageBytes) throws(MessageError) {
        try MessageError.check(m, Self.length)
        messageVersion = m[3]
        versionMajor = m[4]
        versionMinor = m[5]
        versionType = m[6]
        versionBuild = m[7]
        hardwareRevision = m.u32(8)
        flags = m.u16(12)
        connectedHardware = m.u16(14)
        satellitesLocked = m[16]
        satellitesTracked = m[17]
        uatTargets = m.u16(18)
        esTargets = m.u16(20)
        uatMessagesPerMinute = m.u16(22)
        esMessagesPerMinute = m.u16(24)
        cpuTemperatureC = Double(m.u16(26)) / 10
        let declared = Int(m[28])
        let available = (m.count - Self.length) / 6
        towers = (0..<min(declared, available)).map { i in
            Position(latitude: Semicircle.degrees(m.u24(29 + 6 * i)), longitude: Semicircle.degrees(m.u24(32 + 6 * i)))
        }
    }

    func encode(into out: inout [UInt8]) {
        out.append(Self.id)
        out.append(Self.secondByte)
        out.append(1)
        out.append(messageVersion)
        out.append(contentsOf: [versionMajor, versionMinor, versionType, versionBuild])
        out.appendU32(hardwareRevision)
        out.appendU16(flags)
        out.appendU16(connectedHardware)
        out.append(satellitesLocked)
        out.append(satellitesTracked)
        out.appendU16(uatTargets)
        out.appendU16(esTargets)
        out.appendU16(uatMessagesPerMinute)
        out.appendU16(esMessagesPerMinute)
        out.appendU16(UInt16(clamping: Int((cpuTemperatureC * 10).rounded())))
        out.append(UInt8(min(towers.count, 255)))
        for tower in towers.prefix(255) {
            out.appendU24(Semicircle.raw(tower.latitude))
            out.appendU24(Semicircle.raw(tower.longitude))
        }
    }
}

/// Levil-style AHRS report, 0x4C 0x45 0x01 0x01 (24 bytes), as Stratux sends it.
/// Every 16-bit field reads 0x7FFF when invalid; pressure altitude is sent +5000 ft, 0xFFFF invalid.
public struct LevilAHRS: Hashable, Sendable {
    /// Message ID ('L').
    public static let id: UInt8 = 0x4C
    /// Length with the ID byte.
    public static let length = 24

    /// Roll, degrees (0.1° steps).
    public var rollDeg: Double?
    /// Pitch, degrees (0.1° steps).
    public var pitchDeg: Double?
    /// Heading, degrees (0.1° steps).
    public var headingDeg: Double?
    /// Slip/skid, degrees (0.1° steps).
    public var slipSkidDeg: Double?
    /// Yaw (turn) rate, degrees per second (0.1 steps).
    public var yawRateDegPerSec: Double?
    /// Load factor, g (0.1 steps).
    public var gLoad: Double?
    /// Indicated airspeed, knots.
    public var indicatedAirspeedKt: Int?
    /// Pressure altitude, feet.
    public var pressureAltitudeFt: Int?
    /// Vertical speed, feet per minute.
    public var verticalSpeedFpm: Int?

    /// Creates the message.
    public init(
        rollDeg: Double?, pitchDeg: Double?, headingDeg: Double?, slipSkidDeg: Double? = nil, yawRateDegPerSec: Double? = nil,
        gLoad: Double? = nil, indicatedAirspeedKt: Int? = nil, pressureAltitudeFt: Int? = nil, verticalSpeedFpm: Int? = nil
    ) {
        self.rollDeg = rollDeg
        self.pitchDeg = pitchDeg
        self.headingDeg = headingDeg
        self.slipSkidDeg = slipSkidDeg
        self.yawRateDegPerSec = yawRateDegPerSec
        self.gLoad = gLoad
        self.indicatedAirspeedKt = indicatedAirspeedKt
        self.pressureAltitudeFt = pressureAltitudeFt
        self.verticalSpeedFpm = verticalSpeedFpm
    }

    init(_ m: MessageBytes) throws(MessageError) {
        try MessageError.check(m, Self.length)
        func tenths(_ i: Int) -> Double? { m.i16(i) == 0x7FFF ? nil : Double(m.i16(i)) / 10 }
        func whole(_ i: Int) -> Int? { m.i16(i) == 0x7FFF ? nil : Int(m.i16(i)) }
        rollDeg = tenths(4)
        pitchDeg = tenths(6)
        headingDeg = tenths(8)
        slipSkidDeg = tenths(10)
        yawRateDegPerSec = tenths(12)
        gLoad = tenths(14)
        indicatedAirspeedKt = whole(16)
        let palt = m.u16(18)
        pressureAltitudeFt = palt == 0xFFFF || palt == 0x7FFF ? nil : Int(palt) - 5000
        verticalSpeedFpm = whole(20)
    }

    func encode(into out: inout [UInt8]) {
        func tenths(_ v: Double?) { out.appendI16(v.map { Int16(clamping: Int(($0 * 10).rounded())) } ?? 0x7FFF) }
        func whole(_ v: Int?) { out.appendI16(v.map { Int16(clamping: $0) } ?? 0x7FFF) }
        out.append(contentsOf: [Self.id, 0x45, 0x01, 0x01])
        tenths(rollDeg)
        tenths(pitchDeg)
        tenths(headingDeg)
        tenths(slipSkidDeg)
        tenths(yawRateDegPerSec)
        tenths(gLoad)
        whole(indicatedAirspeedKt)
        out.appendU16(pressureAltitudeFt.map { UInt16(clamping: $0 + 5000) } ?? 0xFFFF)
        whole(verticalSpeedFpm)
        out.append(contentsOf: [0x7F, 0xFF])
    }
}
