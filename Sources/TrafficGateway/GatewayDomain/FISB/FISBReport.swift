import GatewaySupport
import GDL90

/// One FIS-B product as users see it: a METAR, a TAF, a NOTAM with its areas, an AIRMET…
/// Times are seconds since the epoch (UTC), resolved from the times inside the frames.
package struct FISBReport: Hashable, Sendable {
    /// What the product is (the JSON `kind`).
    package enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Routine weather observation.
        case metar = "METAR"
        /// Special observation.
        case speci = "SPECI"
        /// Terminal forecast.
        case taf = "TAF"
        /// Pilot report.
        case pirep = "PIREP"
        /// Winds and temperatures aloft.
        case winds = "WINDS"
        /// NOTAM (D, FDC, TFR, D-SUA), products 8, 18, 19.
        case notam = "NOTAM"
        /// AIRMET (11).
        case airmet = "AIRMET"
        /// SIGMET and convective SIGMET (12).
        case sigmet = "SIGMET"
        /// Graphical AIRMET (14).
        case gAirmet = "G-AIRMET"
        /// Center weather advisory (15).
        case cwa = "CWA"
        /// Special use airspace status (13).
        case sua = "SUA"
        /// Temporary reserved airspace (16).
        case notamTRA = "NOTAM-TRA"
        /// Temporary military operations area (17).
        case notamTMOA = "NOTAM-TMOA"
        /// Radar mosaic (63, 64).
        case nexrad = "NEXRAD"
        /// Lightning (103).
        case lightning = "LIGHTNING"
        /// Icing (70, 71).
        case icing = "ICING"
        /// Turbulence (90, 91).
        case turbulence = "TURBULENCE"
        /// Cloud tops (84).
        case cloudTops = "CLOUD-TOPS"
        /// Current report list (frame type 14).
        case crl = "CRL"
        /// Service status (frame type 15).
        case serviceStatus = "SERVICE-STATUS"

        /// The kind of a product ID (413 records are classified by their text instead).
        package static func of(productID: Int) -> Kind? {
            switch productID {
            case 8, 18, 19: .notam
            case 11: .airmet
            case 12: .sigmet
            case 13: .sua
            case 14: .gAirmet
            case 15: .cwa
            case 16: .notamTRA
            case 17: .notamTMOA
            case 63, 64: .nexrad
            case 70, 71: .icing
            case 84: .cloudTops
            case 90, 91: .turbulence
            case 103: .lightning
            default: nil
            }
        }

        /// True for block-coded products (NEXRAD, lightning, icing, turbulence, cloud tops).
        package var isGridded: Bool { [.nexrad, .lightning, .icing, .turbulence, .cloudTops].contains(self) }

        /// True for the NOTAM family (JSON adds number, subtype, start, end, geometry).
        package var isNOTAM: Bool { self == .notam || self == .notamTRA || self == .notamTMOA }
    }

    /// One area or line of a product.
    package struct Shape: Hashable, Sendable {
        /// "point", "polyline", "polygon" or "circle".
        package var shape: String
        /// Coordinates as (longitude, latitude): the vertices, or the circle's centre.
        package var coordinates: [[Double]]
        /// Circle radius in NM.
        package var radiusNM: Double?
        /// Floor in feet.
        package var floorFt: Int?
        /// Floor reference, "MSL" or "AGL".
        package var floorRef: String?
        /// Ceiling in feet.
        package var ceilingFt: Int?
        /// Ceiling reference.
        package var ceilingRef: String?
        /// Start of applicability.
        package var start: Double?
        /// End of applicability.
        package var stop: Double?

        /// Creates a shape.
        package init(shape: String, coordinates: [[Double]], radiusNM: Double? = nil, floorFt: Int? = nil, floorRef: String? = nil,
                    ceilingFt: Int? = nil, ceilingRef: String? = nil, start: Double? = nil, stop: Double? = nil) {
            self.shape = shape
            self.coordinates = coordinates
            self.radiusNM = radiusNM
            self.floorFt = floorFt
            self.floorRef = floorRef
            self.ceilingFt = ceilingFt
            self.ceilingRef = ceilingRef
            self.start = start
            self.stop = stop
        }
    }

    /// Store key: product, location and report identity.
    package var key: String
    /// Product ID (413 for generic text; 14/15 for report lists and service status frames).
    package var productID: Int
    /// What it is.
    package var kind: Kind
    /// Station or accountable location, where there is one.
    package var location: String?
    /// The text as sent (for NOTAMs, stitched from all segments).
    package var text: String
    /// Product time from the APDU header.
    package var time: Double?
    /// When it was last received (the event time).
    package var received: Double
    /// NOTAM number as in the text (`10/005`, `0/5116`).
    package var number: String?
    /// NOTAM subtype: D, FDC, TFR, D-SUA…; `AMD` for an amended TAF; the forecast (06, 12, 24) for winds.
    package var subtype: String?
    /// Start of validity.
    package var start: Double?
    /// End of validity.
    package var end: Double?
    /// Areas and lines.
    package var geometry: [Shape]
    /// The blocks of a gridded product (bins and bounds each), sorted by block number.
    package var grid: [GriddedBlock] = []
    /// The report number of TWGO products.
    package var reportNumber: Int?
    /// Extra JSON members (pre-encoded), for report lists and service status.
    package var extra: [(String, String)] {
        get { extraPairs.map { ($0.key, $0.value) } }
        set { extraPairs = newValue.map { ExtraPair(key: $0.0, value: $0.1) } }
    }
    var extraPairs: [ExtraPair] = []
    /// When the store drops it.
    package var expires: Double
    /// (longitude, latitude) of the ground station it was last heard from: where a product
    /// without geometry (a METAR, a TAF) is "near", for lack of an airport database.
    package var station: [Double]?

    struct ExtraPair: Hashable, Sendable {
        var key: String
        var value: String
    }

    /// Creates a report.
    package init(key: String, productID: Int, kind: Kind, location: String? = nil, text: String = "", time: Double? = nil,
                received: Double, expires: Double) {
        self.key = key
        self.productID = productID
        self.kind = kind
        self.location = location
        self.text = text
        self.time = time
        self.received = received
        self.number = nil
        self.subtype = nil
        self.start = nil
        self.end = nil
        self.geometry = []
        self.reportNumber = nil
        self.expires = expires
    }

    /// What makes two versions of a report different (not the receive time or expiry). A field
    /// added here is compared in `hasContent(_:)` too (and varied in `FISBReportContentTests`).
    package struct Content: Hashable {
        var kind: Kind
        var location: String?
        var text: String
        var time: Double?
        var number: String?
        var subtype: String?
        var start: Double?
        var end: Double?
        var geometry: [Shape]
        var extra: [ExtraPair]
        var grid: [GriddedBlock]
    }

    /// The content that makes two versions different.
    package var content: Content {
        Content(kind: kind, location: location, text: text, time: kind.isGridded ? time : nil, number: number, subtype: subtype,
                start: start, end: end, geometry: geometry, extra: extraPairs, grid: grid)
    }

    /// Whether `content` is this report's content (`self.content == content`, without building it).
    func hasContent(_ c: Content) -> Bool {
        kind == c.kind && location == c.location && text == c.text && (kind.isGridded ? time : nil) == c.time && number == c.number
            && subtype == c.subtype && start == c.start && end == c.end && geometry == c.geometry && extraPairs == c.extra && grid == c.grid
    }

    /// Distance in NM from (latitude, longitude) to the nearest point of the product's geometry
    /// (circle edges count), else to its ground station; nil when it has neither.
    package func distanceNM(latitude: Double, longitude: Double) -> Double? {
        var best: Double?
        for s in geometry {
            for c in s.coordinates where c.count == 2 {
                let centre = Geodesy.distanceNM(Position(latitude: latitude, longitude: longitude), Position(latitude: c[1], longitude: c[0]))
                let d = Swift.max(0, centre - (s.radiusNM ?? 0))
                best = Swift.min(best ?? d, d)
            }
        }
        if best == nil, let s = station, s.count == 2 {
            best = Geodesy.distanceNM(Position(latitude: latitude, longitude: longitude), Position(latitude: s[1], longitude: s[0]))
        }
        return best
    }
}

extension FISBReport {
    /// About the memory the report takes: its text, its shapes' coordinates, its grid's bins,
    /// and a fixed part for the rest (what the product store's byte limit counts).
    var storageBytes: Int {
        256 + key.utf8.count + text.utf8.count + geometry.reduce(0) { $0 + 64 + $1.coordinates.count * 40 }
            + grid.count * (GriddedBlock.binCount + 64)
    }
}
