import GDL90

/// What a gridded FIS-B product is drawn as: one picture a kind, named as the files and the
/// `/weather/…` paths are (`nexrad-regional`, `icing-02000`). Icing and turbulence are one kind a
/// level (their altitude in feet).
package enum RadarKind: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Product 63: regional NEXRAD (1.5′ × 1′ bins, every few minutes, around each ground station).
    case nexradRegional
    /// Product 64: CONUS NEXRAD (medium resolution, every quarter hour).
    case nexradCONUS
    /// Product 103: lightning strikes.
    case lightning
    /// Product 84: cloud tops.
    case cloudTops
    /// Products 70 (2,000–16,000 ft) and 71 (18,000–32,000 ft): icing at one altitude.
    case icing(altitudeFt: Int)
    /// Products 90 and 91: turbulence at one altitude.
    case turbulence(altitudeFt: Int)

    /// The kind of a block of `productID` (at `altitudeFt`, for icing and turbulence), nil for a
    /// product that is not gridded or a level without its altitude.
    package init?(productID: Int, altitudeFt: Int?) {
        switch productID {
        case 63: self = .nexradRegional
        case 64: self = .nexradCONUS
        case 103: self = .lightning
        case 84: self = .cloudTops
        case 70, 71:
            guard let altitudeFt else { return nil }
            self = .icing(altitudeFt: altitudeFt)
        case 90, 91:
            guard let altitudeFt else { return nil }
            self = .turbulence(altitudeFt: altitudeFt)
        default: return nil
        }
    }

    /// The kind of `block`.
    package init?(_ block: GriddedBlock) { self.init(productID: block.productID, altitudeFt: block.altitudeFt) }

    /// The kind named `name` (`nexrad-conus`, `turbulence-24000`), nil for any other text.
    package init?(name: String) {
        switch name {
        case "nexrad-regional": self = .nexradRegional
        case "nexrad-conus": self = .nexradCONUS
        case "lightning": self = .lightning
        case "cloud-tops": self = .cloudTops
        default:
            for (prefix, make) in [("icing-", RadarKind.icing), ("turbulence-", RadarKind.turbulence)] where name.hasPrefix(prefix) {
                let digits = name.dropFirst(prefix.count)
                guard digits.count == 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let ft = Int(digits), ft > 0 else { return nil }
                self = make(ft)
                guard RadarKind(productID: productID, altitudeFt: ft) == self, GriddedBlock.altitudes(productID: productID).contains(ft) else { return nil }
                return
            }
            return nil
        }
    }

    /// The name: `nexrad-regional`, `nexrad-conus`, `lightning`, `cloud-tops`, `icing-NNNNN`, `turbulence-NNNNN`.
    package var name: String {
        switch self {
        case .nexradRegional: "nexrad-regional"
        case .nexradCONUS: "nexrad-conus"
        case .lightning: "lightning"
        case .cloudTops: "cloud-tops"
        case .icing(let ft): "icing-" + Self.fiveDigits(ft)
        case .turbulence(let ft): "turbulence-" + Self.fiveDigits(ft)
        }
    }

    package var description: String { name }

    /// The FIS-B product ID.
    package var productID: Int {
        switch self {
        case .nexradRegional: 63
        case .nexradCONUS: 64
        case .lightning: 103
        case .cloudTops: 84
        case .icing(let ft): ft >= 18_000 ? 71 : 70
        case .turbulence(let ft): ft >= 18_000 ? 91 : 90
        }
    }

    /// NEXRAD and lightning are observations (their time is when observed); the others forecasts
    /// (their time is when valid).
    package var isObservation: Bool { self == .nexradRegional || self == .nexradCONUS || self == .lightning }

    /// Seconds a picture stays worth showing after its time when nothing newer came: 75 minutes
    /// for observations, 3 hours for forecasts (as the FIS-B product store ages its grids).
    package var lifetime: Double { isObservation ? 75 * 60 : 3 * 3600 }

    /// Ordered by name (the files' and the API's order).
    package static func < (a: RadarKind, b: RadarKind) -> Bool { a.name < b.name }

    private static func fiveDigits(_ n: Int) -> String {
        let s = String(max(0, n))
        return String(repeating: "0", count: max(0, 5 - s.count)) + s
    }
}

extension GriddedBlock {
    /// The altitudes (ft) of the levels of icing or turbulence product `productID` (empty for the others).
    package static func altitudes(productID: Int) -> [Int] {
        switch productID {
        case 70, 90: Array(stride(from: 2000, through: 16_000, by: 2000))
        case 71, 91: Array(stride(from: 18_000, through: 32_000, by: 2000))
        default: []
        }
    }
}
