/// The 8-byte header of a UAT ground uplink (DO-282B §2.2.3.2.2): where the ground station is
/// and which slot it transmits in.
public struct UATUplinkHeader: Hashable, Sendable {
    /// Size of the header in bytes.
    public static let length = 8
    /// Degrees per unit of the 23-bit latitude and 24-bit longitude (360 / 2²⁴).
    public static let angleScale = 360.0 / 16_777_216.0

    /// Ground station latitude in degrees (north positive), 23 bits.
    public var latitude: Double
    /// Ground station longitude in degrees (east positive), 24 bits.
    public var longitude: Double
    /// The station's position is valid.
    public var positionValid: Bool
    /// The station's clock is coupled to UTC.
    public var utcCoupled: Bool
    /// The information frames carry application data (FIS-B); when false they are not decoded.
    public var applicationDataValid: Bool
    /// Transmission slot ID (0–31).
    public var slotID: Int
    /// TIS-B site ID (0–15).
    public var tisbSiteID: Int

    /// Creates a header.
    public init(latitude: Double, longitude: Double, positionValid: Bool = true, utcCoupled: Bool = true,
                applicationDataValid: Bool = true, slotID: Int = 0, tisbSiteID: Int = 0) {
        self.latitude = latitude
        self.longitude = longitude
        self.positionValid = positionValid
        self.utcCoupled = utcCoupled
        self.applicationDataValid = applicationDataValid
        self.slotID = slotID
        self.tisbSiteID = tisbSiteID
    }

    /// Decodes the first 8 bytes of `payload`.
    public init(_ payload: [UInt8]) throws(FISBError) {
        guard payload.count >= Self.length else {
            throw FISBError(.truncated, at: 0, "uplink header needs \(Self.length) bytes, \(payload.count) present")
        }
        let p = payload.prefix(Self.length).map(Int.init)
        let rawLat = p[0] << 15 | p[1] << 7 | p[2] >> 1
        let rawLon = (p[2] & 1) << 23 | p[3] << 15 | p[4] << 7 | p[5] >> 1
        var lat = Double(rawLat) * Self.angleScale
        if lat > 90 { lat -= 180 }
        var lon = Double(rawLon) * Self.angleScale
        if lon > 180 { lon -= 360 }
        latitude = lat
        longitude = lon
        positionValid = p[5] & 1 == 1
        utcCoupled = p[6] & 0x80 != 0
        applicationDataValid = p[6] & 0x20 != 0
        slotID = p[6] & 0x1F
        tisbSiteID = p[7] >> 4
    }

    /// The 8 header bytes.
    public func encode() -> [UInt8] {
        var w = BitWriter()
        let lat = TWGOGeometry.steps(latitude < 0 ? latitude + 180 : latitude, Self.angleScale).clampedBits(23)
        let lon = TWGOGeometry.steps(longitude < 0 ? longitude + 360 : longitude, Self.angleScale).clampedBits(24)
        w.write(lat, 23)
        w.write(lon, 24)
        w.write(positionValid)
        w.write(utcCoupled)
        w.write(0, 1)
        w.write(applicationDataValid)
        w.write(slotID, 5)
        w.write(tisbSiteID, 4)
        w.write(0, 4)
        return w.bytes
    }
}

extension Int {
    /// The value wrapped into `bits` bits (two's complement for negative values).
    func clampedBits(_ bits: Int) -> Int { self & ((1 << bits) - 1) }
}
