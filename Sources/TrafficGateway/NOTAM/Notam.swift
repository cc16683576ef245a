import Foundation
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

    /// A NOTAM with just its raw text (parsers fill the rest).
    public init(id: String, raw: String, source: String) {
        self.id = id
        self.raw = raw
        self.text = raw
        self.source = source
        self.severity = "info"
    }

    /// Whether it is in force at `time`.
    public func isActive(at time: Double) -> Bool {
        if let start, time < start { return false }
        if let end, time >= end { return false }
        return type != "C"
    }

    /// The area the airspace alerts watch, for NOTAMs with geometry that restrict airspace
    /// (TFRs, restricted, prohibited, danger areas, airspace closures).
    public func airspaceArea() -> AirspaceArea? {
        guard let g = geometry, restrictsAirspace else { return nil }
        return AirspaceArea(
            id: number.map { "\(issuer ?? "") \($0)".trimmingCharacters(in: .whitespaces) } ?? id,
            name: "\(issuer == "FDC" ? "TFR " : "")\(number ?? id)\(location.map { " \($0)" } ?? designator.map { " \($0)" } ?? "")",
            shape: g.shape, floorFt: g.floorFt, floorIsAGL: g.floorAGL, ceilingFt: g.ceilingFt, ceilingIsAGL: g.ceilingAGL,
            start: start, end: end, severity: AirspaceArea.Severity(name: severity) ?? .caution)
    }

    /// TFRs, restricted/prohibited/danger areas, closed airspace.
    public var restrictsAirspace: Bool {
        if let code = q?.code, code.hasPrefix("QR") || code.hasPrefix("QFA") { return true }
        let t = text.uppercased()
        return t.contains("TEMPORARY FLIGHT RESTRICTION") || t.contains("FLIGHT RESTRICTION") || t.contains("RESTRICTED AREA")
            || t.contains("PROHIBITED") || t.contains("AIRSPACE CLSD") || t.contains("DANGER AREA") || issuer == "FDC" && t.contains("AIRSPACE")
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
    /// Polygon vertices as [lat, lon].
    public var polygon: [[Double]]?
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
        NotamGeometry(center: nil, radiusNM: nil, polygon: points.map { [$0.latitude, $0.longitude] }, origin: origin)
    }

    /// As an airspace shape.
    public var shape: AirspaceArea.Shape {
        if let c = center, c.count == 2, let r = radiusNM { return .circle(center: Position(latitude: c[0], longitude: c[1]), radiusNM: r) }
        return .polygon((polygon ?? []).compactMap { $0.count == 2 ? Position(latitude: $0[0], longitude: $0[1]) : nil })
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
        } else {
            w.add("shape", "polygon")
            w.addRaw("coordinates", "[" + (polygon ?? []).map { "[\(JSONWriter.format($0[1], decimals: 6)),\(JSONWriter.format($0[0], decimals: 6))]" }.joined(separator: ",") + "]")
        }
        w.add("floorFt", floorFt)
        w.add("floorRef", floorFt == nil ? "SFC" : (floorAGL ? "AGL" : "MSL"))
        w.add("ceilingFt", ceilingFt)
        w.add("ceilingRef", ceilingFt == nil ? "UNL" : (ceilingAGL ? "AGL" : "MSL"))
        w.add("origin", ["q-line", "text", "fisb", "official"][origin.rawValue])
        return w.result
    }
}
