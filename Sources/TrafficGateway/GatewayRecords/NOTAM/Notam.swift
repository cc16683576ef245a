import GatewaySupport
import GatewayDomain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GDL90

/// One NOTAM, whatever its source (FAA NOTAM API, NOTAM Search, FIS-B, a canned file). Every
/// field but the raw text is optional: real FAA texts have empty Q-line fields, FDC texts
/// without headers, missing end times. Unparsed parts are listed, never dropped silently.
public struct Notam: Sendable, Equatable, Codable {
    /// Identity: the source's system id where it has one, else issuer + number
    /// (`FDC:6/2174` for FDC NOTAMs, so the FAA API, tfr.faa.gov and FIS-B copies match).
    public var id: String
    /// Number as written (`6/2174`, `05/012`, `A1234/26`).
    public var number: String?
    /// ICAO series letter (`A`…) where there is one.
    public var series: String?
    /// Issuing office / accountability (`FDC`, `SLE`).
    public var issuer: String?
    /// N (new), R (replaces), C (cancels).
    public var type: String?
    /// The NOTAM replaced or cancelled.
    public var refersTo: String?
    /// ICAO location (`^[A-Z]{4}$`, validated) when there is one.
    public var location: String?
    /// Designator as written when it is not an ICAO location (`SLE`, `ZSE`).
    public var designator: String?
    /// FIR (from the Q-line or the source).
    public var fir: String?
    /// Issue time, epoch seconds.
    public var issued: Double?
    /// Effective start.
    public var start: Double?
    /// Effective end (nil: permanent or not given).
    public var end: Double?
    /// The end is an estimate (`EST`).
    public var endEstimated = false
    /// `PERM`.
    public var permanent = false
    /// D) schedule.
    public var schedule: String?
    /// Q-line.
    public var q: QLine?
    /// E) text, or the body of a domestic NOTAM.
    public var text: String
    /// The whole text as received.
    public var raw: String
    /// The area, when there is one, from the best source available.
    public var geometry: NotamGeometry?
    /// Severity from content.
    public var severity: String
    /// Where it came from (`faa-api`, `faa-search`, `fisb`, `file`).
    public var source: String
    /// FAA classification (`FDC`, `DOM`, `INTL`, `MIL`) when given.
    public var classification: String?
    /// Parts the parsers could not read.
    public var unparsed: [String] = []
    /// The Q-code the source gives besides the Q-line (the FAA API's `selectionCode`).
    public var selectionCode: String?
    /// Vertical limits from the source's fields, the F)/G) items or the text, whether or not
    /// there is an area (nil: none given).
    public var limits: NotamLimits?
    /// The airspace kind (nil: not an airspace NOTAM), from the Q-code, classification,
    /// keywords and geometry source together (`AirspaceClassifier`).
    public var kind: AirspaceKind?
    /// A position for the NOTAM's location (the API's `coordinates`, else the Q-line centre),
    /// as [lat, lon]: where a refresh by area looks for NOTAMs without geometry.
    public var reference: [Double]?

    /// A NOTAM with just its raw text (parsers fill the rest).
    public init(id: String, raw: String, source: String) {
        self.id = id
        self.raw = raw
        self.text = raw
        self.source = source
        self.severity = "info"
    }

    /// The location's position: `reference` (the source's coordinates), else the Q-line centre.
    public var referencePosition: Position? {
        if let r = reference, r.count == 2 { return Position(latitude: r[0], longitude: r[1]) }
        if let lat = q?.latitude, let lon = q?.longitude { return Position(latitude: lat, longitude: lon) }
        return nil
    }

    /// The names the reference position goes by: the location (`KLAW` and `LAW`), the
    /// designator, the Q-line's FIR.
    public var referenceNames: Set<String> {
        var names = Set<String>()
        for name in [location, designator, q?.fir].compactMap({ $0 }) {
            names.insert(name)
            if name.count == 4, name.hasPrefix("K") || name.hasPrefix("P") { names.insert(String(name.dropFirst())) }
        }
        return names
    }

    /// Whether it is in force at `time`.
    public func isActive(at time: Double) -> Bool {
        if let start, time < start { return false }
        if let end, time >= end { return false }
        return type != "C"
    }

    /// The area the airspace alerts watch, for airspace NOTAMs (a kind) with geometry, at the
    /// levels `table` gives its kind.
    public func airspaceArea(levels table: AirspaceLevelTable = AirspaceLevelTable()) -> AirspaceArea? {
        guard let g = geometry, let kind = kind ?? AirspaceClassifier.kind(of: self) else { return nil }
        let levels = table[kind]
        let label = kind == .tfr ? "TFR " : kind == .moa ? "MOA " : kind == .gps ? "GPS " : kind == .uas ? "UAS " : kind == .other ? "" : "\(kind.rawValue.capitalized) "
        var area = AirspaceArea(
            id: number.map { "\(issuer ?? "") \($0)".trimmingWhitespace() } ?? id,
            name: "\(label)\(number ?? id)\(location.map { " \($0)" } ?? designator.map { " \($0)" } ?? "")",
            shape: g.shape, floorFt: g.floorFt, floorIsAGL: g.floorAGL, ceilingFt: g.ceilingFt, ceilingIsAGL: g.ceilingAGL,
            start: start, end: end, severity: AirspaceArea.Severity(name: severity) ?? levels.severity, kind: kind, levels: levels)
        area.cutouts = g.airspaceCutouts
        // Geometry stored before the range checks (or hand-edited) is refused here too.
        return area.problem == nil ? area : nil
    }

    /// Whether it describes airspace to avoid or know about (it has a kind).
    public var restrictsAirspace: Bool { (kind ?? AirspaceClassifier.kind(of: self)) != nil }
}

/// Vertical limits of a NOTAM: floor and ceiling in feet (nil floor: surface; nil ceiling:
/// unlimited), each MSL or AGL as written, and where they came from.
public struct NotamLimits: Sendable, Equatable, Codable {
    /// Floor, feet (nil: surface).
    public var floorFt: Int?
    /// The floor is above ground level.
    public var floorAGL = false
    /// Ceiling, feet (nil: unlimited).
    public var ceilingFt: Int?
    /// The ceiling is above ground level.
    public var ceilingAGL = false
    /// The ceiling itself is excluded ("UP TO BUT NOT INCLUDING FL225").
    public var ceilingExclusive = false
    /// `api` (lowerLimit/upperLimit), `items` (F/G), `text`, `q-line`.
    public var origin: String

    /// Limits from `origin`.
    public init(floorFt: Int? = nil, floorAGL: Bool = false, ceilingFt: Int? = nil, ceilingAGL: Bool = false, origin: String) {
        self.floorFt = floorFt
        self.floorAGL = floorAGL
        self.ceilingFt = ceilingFt
        self.ceilingAGL = ceilingAGL
        self.origin = origin
    }
}

/// The ICAO Q-line: `Q) FIR/QCODE/TRAFFIC/PURPOSE/SCOPE/LOWER/UPPER/DDMMNDDDMMWRRR`.
public struct QLine: Sendable, Equatable, Codable {
    /// FIR.
    public var fir: String?
    /// Q-code (`QRTCA`).
    public var code: String?
    /// Traffic (I, V, IV).
    public var traffic: String?
    /// Purpose (N, B, O, M, K).
    public var purpose: String?
    /// Scope (A, E, W, AE, AW).
    public var scope: String?
    /// Lower limit, flight level.
    public var lowerFL: Int?
    /// Upper limit, flight level.
    public var upperFL: Int?
    /// Centre latitude.
    public var latitude: Double?
    /// Centre longitude.
    public var longitude: Double?
    /// Radius, NM.
    public var radiusNM: Double?
}

/// The area of a NOTAM, with its limits and where the geometry came from.
public struct NotamGeometry: Sendable, Equatable, Codable {
    /// Where the geometry came from, best last: an official polygon beats a FIS-B graphic beats
    /// a parsed text beats the Q-line circle.
    public enum Origin: Int, Sendable, Comparable, Codable {
        /// The Q-line's centre and radius (coarse).
        case qLine = 0
        /// Parsed from the text.
        case text = 1
        /// A FIS-B graphic.
        case fisb = 2
        /// The source's own polygon (FAA API GeoJSON, tfr.faa.gov).
        case official = 3
        /// Ranks.
        public static func < (a: Origin, b: Origin) -> Bool { a.rawValue < b.rawValue }
    }
    /// Circle centre (lat, lon) and radius, or nil for polygons.
    public var center: [Double]?
    /// Radius, NM.
    public var radiusNM: Double?
    /// Polygon vertices as [lat, lon] (the first part's outer ring when there are parts).
    public var polygon: [[Double]]?
    /// Every part when there are several or any has holes: each a list of rings (outer ring
    /// first, then holes), each ring a list of [lat, lon].
    public var parts: [[[[Double]]]]?
    /// Parts cut out within an altitude band (SUBTR).
    public var cutouts: [NotamCutout]?
    /// Floor, ft (nil: surface).
    public var floorFt: Int?
    /// Floor above ground.
    public var floorAGL = false
    /// Ceiling, ft (nil: unlimited).
    public var ceilingFt: Int?
    /// Ceiling above ground.
    public var ceilingAGL = false
    /// Origin.
    public var origin: Origin

    /// A circle.
    public static func circle(_ c: Position, radiusNM: Double, origin: Origin) -> NotamGeometry {
        NotamGeometry(center: [c.latitude, c.longitude], radiusNM: radiusNM, polygon: nil, origin: origin)
    }

    /// A polygon.
    public static func polygon(_ points: [Position], origin: Origin) -> NotamGeometry {
        NotamGeometry(center: nil, radiusNM: nil, polygon: RingSimplifier.simplify(points).map { [$0.latitude, $0.longitude] }, origin: origin)
    }

    /// Several parts (a single part without holes is stored as a plain polygon).
    public static func region(_ parts: [AirspacePart], origin: Origin) -> NotamGeometry? {
        let usable = parts.filter { $0.outer.count >= 3 }
        guard let first = usable.first else { return nil }
        var g = NotamGeometry.polygon(first.outer, origin: origin)
        if usable.count > 1 || !first.holes.isEmpty {
            g.parts = usable.map { p in ([p.outer] + p.holes).map { ring in RingSimplifier.simplify(ring).map { [$0.latitude, $0.longitude] } } }
        }
        return g
    }

    static func positions(_ ring: [[Double]]) -> [Position] {
        ring.compactMap { $0.count == 2 ? Position(latitude: $0[0], longitude: $0[1]) : nil }
    }

    /// As an airspace shape: a circle, a polygon, or a region of every part with its holes.
    public var shape: AirspaceArea.Shape {
        if let c = center, c.count == 2, let r = radiusNM { return .circle(center: Position(latitude: c[0], longitude: c[1]), radiusNM: r) }
        if let parts, !parts.isEmpty {
            return .region(parts.compactMap { rings in
                guard let outer = rings.first else { return nil }
                return AirspacePart(outer: Self.positions(outer), holes: rings.dropFirst().map(Self.positions))
            })
        }
        return .polygon(Self.positions(polygon ?? []))
    }

    /// The cut-outs as the alert engine sees them.
    public var airspaceCutouts: [AirspaceCutout] {
        (cutouts ?? []).map { AirspaceCutout(ring: Self.positions($0.ring), floorFt: $0.floorFt, ceilingFt: $0.ceilingFt) }
    }

    /// Area in square nautical miles (parts minus holes; circles exact), for coverage checks.
    public var areaNM2: Double {
        if let r = radiusNM, center != nil { return Double.pi * r * r }
        func ring(_ r: [[Double]]) -> Double {
            guard r.count >= 3, let lat0 = r.first?[0] else { return 0 }
            let k = cos(lat0 * .pi / 180)
            var s = 0.0
            for i in r.indices {
                let a = r[i], b = r[(i + 1) % r.count]
                s += (a[1] * k * 60) * (b[0] * 60) - (b[1] * k * 60) * (a[0] * 60)
            }
            return abs(s) / 2
        }
        if let parts { return parts.reduce(0) { $0 + ring($1.first ?? []) - $1.dropFirst().reduce(0) { $0 + ring($1) } } }
        return ring(polygon ?? [])
    }

    /// Bounding box (minLat, maxLat, minLon, maxLon).
    public var bounds: (Double, Double, Double, Double) {
        let b = AirspaceIndex.bounds(AirspaceArea(id: "", name: "", shape: shape))
        return (b.minLat, b.maxLat, b.minLon, b.maxLon)
    }

    /// GeoJSON-style JSON for list/show output.
    public var json: String {
        var w = JSONWriter()
        if let c = center, let r = radiusNM {
            w.add("shape", "circle")
            w.addRaw("coordinates", "[[\(JSONWriter.format(c[1], decimals: 6)),\(JSONWriter.format(c[0], decimals: 6))]]")
            w.add("radiusNM", r, decimals: 3)
        } else if let parts {
            func ring(_ r: [[Double]]) -> String {
                "[" + r.map { "[\(JSONWriter.format($0[1], decimals: 6)),\(JSONWriter.format($0[0], decimals: 6))]" }.joined(separator: ",") + "]"
            }
            w.add("shape", "multipolygon")
            w.addRaw("coordinates", "[" + parts.map { "[" + $0.map(ring).joined(separator: ",") + "]" }.joined(separator: ",") + "]")
        } else {
            w.add("shape", "polygon")
            w.addRaw("coordinates", "[" + (polygon ?? []).map { "[\(JSONWriter.format($0[1], decimals: 6)),\(JSONWriter.format($0[0], decimals: 6))]" }.joined(separator: ",") + "]")
        }
        if let cutouts, !cutouts.isEmpty { w.add("cutouts", cutouts.count) }
        w.add("floorFt", floorFt)
        w.add("floorRef", floorFt == nil ? "SFC" : (floorAGL ? "AGL" : "MSL"))
        w.add("ceilingFt", ceilingFt)
        w.add("ceilingRef", ceilingFt == nil ? "UNL" : (ceilingAGL ? "AGL" : "MSL"))
        w.add("origin", ["q-line", "text", "fisb", "official"][origin.rawValue])
        return w.result
    }
}


/// A polygon cut out of a NOTAM's area within an altitude band (an official `SUBTR` part).
public struct NotamCutout: Sendable, Equatable, Codable {
    /// The ring, [lat, lon] points.
    public var ring: [[Double]]
    /// Band floor, feet MSL (nil: surface).
    public var floorFt: Int?
    /// Band ceiling, feet MSL (nil: unlimited).
    public var ceilingFt: Int?

    /// A cut-out.
    public init(ring: [[Double]], floorFt: Int? = nil, ceilingFt: Int? = nil) {
        self.ring = ring
        self.floorFt = floorFt
        self.ceilingFt = ceilingFt
    }
}
