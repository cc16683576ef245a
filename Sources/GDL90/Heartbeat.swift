/// Heartbeat, message 0x00 (ICD §3.1): receiver status once a second.
public struct Heartbeat: Hashable, Sendable {
    /// Message ID.
    public static let id: UInt8 = 0x00
    /// Length with the ID byte.
    public static let length = 7

    /// Status 1 bit 7: GPS position is available.
    public var gpsPositionValid: Bool
    /// Status 1 bit 6: maintenance required.
    public var maintenanceRequired: Bool
    /// Status 1 bit 5: IDENT talkback.
    public var ident: Bool
    /// Status 1 bit 4: address type talkback.
    public var addressTypeTalkback: Bool
    /// Status 1 bit 3: GPS battery low.
    public var gpsBatteryLow: Bool
    /// Status 1 bit 2: receiving ATC services (RATCS) talkback.
    public var ratcs: Bool
    /// Status 1 bit 0: UAT initialized (set in every heartbeat).
    public var uatInitialized: Bool
    /// Status 2 bit 6: CSA requested.
    public var csaRequested: Bool
    /// Status 2 bit 5: CSA not available.
    public var csaNotAvailable: Bool
    /// Status 2 bit 0: UTC timing is valid.
    public var utcOK: Bool
    /// Seconds since 0000Z (17 bits: bit 16 lives in status 2 bit 7).
    public var secondsSinceMidnight: UInt32
    /// Uplink messages received in the last second (5 bits; always 0 from Stratux).
    public var uplinkCount: UInt8
    /// Basic and Long messages received in the last second (10 bits, holds at 1023).
    public var basicLongCount: UInt16

    /// Creates a heartbeat; every flag defaults to off.
    public init(
        gpsPositionValid: Bool = false, maintenanceRequired: Bool = false, ident: Bool = false,
        addressTypeTalkback: Bool = false, gpsBatteryLow: Bool = false, ratcs: Bool = false,
        uatInitialized: Bool = true, csaRequested: Bool = false, csaNotAvailable: Bool = false,
        utcOK: Bool = false, secondsSinceMidnight: UInt32 = 0, uplinkCount: UInt8 = 0, basicLongCount: UInt16 = 0
    ) {
        self.gpsPositionValid = gpsPositionValid
        self.maintenanceRequired = maintenanceRequired
        self.ident = ident
        self.addressTypeTalkback = addressTypeTalkback
        self.gpsBatteryLow = gpsBatteryLow
        self.ratcs = ratcs
        self.uatInitialized = uatInitialized
        self.csaRequested = csaRequested
        self.csaNotAvailable = csaNotAvailable
        self.utcOK = utcOK
        self.secondsSinceMidnight = secondsSinceMidnight
        self.uplinkCount = uplinkCount
        self.basicLongCount = basicLongCount
    }

    init(_ m: MessageBytes) throws(MessageError) {
        try MessageError.check(m, Self.length)
        let s1 = m[1], s2 = m[2]
        self.init(
            gpsPositionValid: s1 & 0x80 != 0, maintenanceRequired: s1 & 0x40 != 0, ident: s1 & 0x20 != 0,
            addressTypeTalkback: s1 & 0x10 != 0, gpsBatteryLow: s1 & 0x08 != 0, ratcs: s1 & 0x04 != 0,
            uatInitialized: s1 & 0x01 != 0, csaRequested: s2 & 0x40 != 0, csaNotAvailable: s2 & 0x20 != 0,
            utcOK: s2 & 0x01 != 0,
            secondsSinceMidnight: UInt32(s2 >> 7) << 16 | UInt32(m[4]) << 8 | UInt32(m[3]),
            uplinkCount: m[5] >> 3,
            basicLongCount: UInt16(m[5] & 0x03) << 8 | UInt16(m[6])
        )
    }

    func encode(into out: inout [UInt8]) {
        func bit(_ b: Bool, _ mask: UInt8) -> UInt8 { b ? mask : 0 }
        out.append(Self.id)
        out.append(
            bit(gpsPositionValid, 0x80) | bit(maintenanceRequired, 0x40) | bit(ident, 0x20)
                | bit(addressTypeTalkback, 0x10) | bit(gpsBatteryLow, 0x08) | bit(ratcs, 0x04) | bit(uatInitialized, 0x01))
        out.append(
            UInt8((secondsSinceMidnight >> 16) & 1) << 7 | bit(csaRequested, 0x40) | bit(csaNotAvailable, 0x20) | bit(utcOK, 0x01))
        out.append(UInt8(secondsSinceMidnight & 0xFF))
        out.append(UInt8((secondsSinceMidnight >> 8) & 0xFF))
        let counts = min(basicLongCount, 1023)
        out.append((uplinkCount & 0x1F) << 3 | UInt8(counts >> 8))
        out.append(UInt8(counts & 0xFF))
    }
}
