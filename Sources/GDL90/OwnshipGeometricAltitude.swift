/// Ownship Geometric Altitude, message 0x0B (ICD §3.8): height above the WGS-84 ellipsoid
/// (or MSL, when a ForeFlight ID message says so) and its vertical figure of merit.
public struct OwnshipGeometricAltitude: Hashable, Sendable {
    /// Message ID.
    public static let id: UInt8 = 0x0B
    /// Length with the ID byte.
    public static let length = 5

    /// Vertical figure of merit.
    public enum VFOM: Hashable, Sendable {
        /// VFOM in metres (0…32765).
        case meters(Int)
        /// Available and at least 32766 m (0x7FFE).
        case atLeast32766
    }

    /// Geometric altitude in feet (5 ft resolution).
    public var altitudeFt: Int
    /// Set when a position alarm is present or fault detection is unavailable.
    public var verticalWarning: Bool
    /// Vertical figure of merit, nil when not available (0x7FFF).
    public var vfom: VFOM?

    /// Creates the message.
    public init(altitudeFt: Int, verticalWarning: Bool = false, vfom: VFOM? = nil) {
        self.altitudeFt = altitudeFt
        self.verticalWarning = verticalWarning
        self.vfom = vfom
    }

    /// VFOM in metres where it is a number (32766 for "at least 32766").
    public var vfomMeters: Int? {
        switch vfom {
        case .meters(let m): m
        case .atLeast32766: 32766
        case nil: nil
        }
    }

    init(_ m: MessageBytes) throws(MessageError) {
        try MessageError.check(m, Self.length)
        altitudeFt = Int(m.i16(1)) * 5
        let metrics = m.u16(3)
        verticalWarning = metrics & 0x8000 != 0
        switch metrics & 0x7FFF {
        case 0x7FFF: vfom = nil
        case 0x7FFE: vfom = .atLeast32766
        case let v: vfom = .meters(Int(v))
        }
    }

    func encode(into out: inout [UInt8]) {
        out.append(Self.id)
        out.appendI16(Int16(clamping: altitudeFt / 5))
        let v: UInt16
        switch vfom {
        case .meters(let m): v = UInt16(clamping: min(max(m, 0), 0x7FFD))
        case .atLeast32766: v = 0x7FFE
        case nil: v = 0x7FFF
        }
        out.appendU16((verticalWarning ? 0x8000 : 0) | v)
    }
}
