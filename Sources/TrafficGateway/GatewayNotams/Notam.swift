import GatewaySupport
import GatewayRecords
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
package struct Notam: Sendable, Equatable, Codable {
    /// Identity: the source's system id where it has one, else issuer + number
    /// (`FDC:6/2174` for FDC NOTAMs, so the FAA API, tfr.faa.gov and FIS-B copies match).
    package var id: String
    /// Number as written (`6/2174`, `05/012`, `A1234/26`).
    package var number: String?
    /// ICAO series letter (`A`…) where there is one.
    package var series: String?
    /// Issuing office / accountability (`FDC`, `SLE`).
    package var issuer: String?
    /// N (new), R (replaces), C (cancels).
    package var type: String?
    /// The NOTAM replaced or cancelled.
    package var refersTo: String?
    /// ICAO location (`^[A-Z]{4}$`, validated) when there is one.
    package var location: String?
    /// Designator as written when it is not an ICAO location (`SLE`, `ZSE`).
    package var designator: String?
    /// FIR (from the Q-line or the source).
    package var fir: String?
    /// Issue time, epoch seconds.
    package var issued: Double?
    /// Effective start.
    package var start: Double?
    /// Effective end (nil: permanent or not given).
    package var end: Double?
    /// The end is an estimate (`EST`).
    package var endEstimated = false
    /// `PERM`.
    package var permanent = false
    /// D) schedule.
    package var schedule: String?
    /// Q-line.
    package var q: QLine?
    /// E) text, or the body of a domestic NOTAM.
    package var text: String
    /// The whole text as received.
    package var raw: String
    /// The area, when there is one, from the best source available.
    package var geometry: NotamGeometry?
    /// Severity from content.
    package var severity: String
    /// Where it came from (`faa-api`, `faa-search`, `fisb`, `file`).
    package var source: String
    /// FAA classification (`FDC`, `DOM`, `INTL`, `MIL`) when given.
    package var classification: String?
    /// Parts the parsers could not read.
    package var unparsed: [String] = []
    /// The Q-code the source gives besides the Q-line (the FAA API's `selectionCode`).
    package var selectionCode: String?
    /// Vertical limits from the source's fields, the F)/G) items or the text, whether or not
    /// there is an area (nil: none given).
    package var limits: NotamLimits?
    /// The airspace kind (nil: not an airspace NOTAM), from the Q-code, classification,
    /// keywords and geometry source together (`AirspaceClassifier`).
    package var kind: AirspaceKind?
    /// A position for the NOTAM's location (the API's `coordinates`, else the Q-line centre),
    /// as [lat, lon]: where a refresh by area looks for NOTAMs without geometry.
    package var reference: [Double]?

    /// A NOTAM with just its raw text (parsers fill the rest).
    package init(id: String, raw: String, source: String) {
        self.id = id
        self.raw = raw
        self.text = raw
        self.source = source
        self.severity = "info"
    }

    /// The location's position: `reference` (the source's coordinates), else the Q-line centre.
    package var referencePosition: Position? {
        if let r = reference, r.count == 2 { return Position(latitude: r[0], longitude: r[1]) }
        if let lat = q?.latitude, let lon = q?.longitude { return Position(latitude: lat, longitude: lon) }
        return nil
    }

    /// The names the reference position goes by: the location (`KLAW` and `LAW`), the
    /// designator, the Q-line's FIR.
    package var referenceNames: Set<String> {
        var names = Set<String>()
        for name in [location, designator, q?.fir].compactMap({ $0 }) {
            names.insert(name)
            if name.count == 4, name.hasPrefix("K") || name.hasPrefix("P") { names.insert(String(name.dropFirst())) }
        }
        return names
    }

    /// Whether it is in force at `time`.
    package func isActive(at time: Double) -> Bool {
        if let start, time < start { return false }
        if let end, time >= end { return false }
        return type != "C"
    }

    /// The area the airspace alerts watch, for airspace NOTAMs (a kind) with geometry, at the
    /// levels `table` gives its kind.
    /// Every area the airspace alerts watch: one, or one for each altitude band when the
    /// official parts have bands of their own (each part keeps its limits; the areas' ids are
    /// the NOTAM's with " part N").
    package func airspaceAreas(levels table: AirspaceLevelTable = AirspaceLevelTable()) -> [AirspaceArea] {
        guard let whole = airspaceArea(levels: table) else { return [] }
        guard let g = geometry, let bands = g.partBands, let parts = g.parts, bands.count == parts.count else { return [whole] }
        var groups: [(band: NotamBand, parts: [[[[Double]]]])] = []
        for (band, part) in zip(bands, parts) {
            if let i = groups.firstIndex(where: { $0.band == band }) { groups[i].parts.append(part) } else { groups.append((band, [part])) }
        }
        guard groups.count > 1 else { return [whole] }
        return groups.enumerated().compactMap { i, group in
            var piece = g
            piece.parts = group.parts
            piece.polygon = group.parts.first?.first
            piece.partBands = nil
            piece.floorFt = group.band.floorFt
            piece.floorAGL = false
            piece.ceilingFt = group.band.ceilingFt
            piece.ceilingAGL = false
            var n = self
            n.geometry = piece
            guard var area = n.airspaceArea(levels: table) else { return nil }
            area.id += " part \(i + 1)"
            area.name += " (part \(i + 1) of \(groups.count))"
            return area
        }
    }

    package func airspaceArea(levels table: AirspaceLevelTable = AirspaceLevelTable()) -> AirspaceArea? {
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
    package var restrictsAirspace: Bool { (kind ?? AirspaceClassifier.kind(of: self)) != nil }
}

/// Vertical limits of a NOTAM: floor and ceiling in feet (nil floor: surface; nil ceiling:
/// unlimited), each MSL or AGL as written, and where they came from.
package struct NotamLimits: Sendable, Equatable, Codable {
    /// Floor, feet (nil: surface).
    package var floorFt: Int?
    /// The floor is above ground level.
    package var floorAGL = false
    /// Ceiling, feet (nil: unlimited).
    package var ceilingFt: Int?
    /// The ceiling is above ground level.
    package var ceilingAGL = false
    /// The ceiling itself is excluded ("UP TO BUT NOT INCLUDING FL225").
    package var ceilingExclusive = false
    /// `api` (lowerLimit/upperLimit), `items` (F/G), `text`, `q-line`.
    package var origin: String

    /// Limits from `origin`.
    package init(floorFt: Int? = nil, floorAGL: Bool = false, ceilingFt: Int? = nil, ceilingAGL: Bool = false, origin: String) {
        self.floorFt = floorFt
        self.floorAGL = floorAGL
        self.ceilingFt = ceilingFt
        self.ceilingAGL = ceilingAGL
        self.origin = origin
    }
}

/// The ICAO Q-line: `Q) FIR/QCODE/TRAFFIC/PURPOSE/SCOPE/LOWER/UPPER/DDMMNDDDMMWRRR`.
package struct QLine: Sendable, Equatable, Codable {
    /// FIR.
    package var fir: String?
    /// Q-code (`QRTCA`).
    package var code: String?
    /// Traffic (I, V, IV).
    package var traffic: String?
    /// Purpose (N, B, O, M, K).
    package var purpose: String?
    /// Scope (A, E, W, AE, AW).
    package var scope: String?
    /// Lower limit, flight level.
    package var lowerFL: Int?
    /// Upper limit, flight level.
    package var upperFL: Int?
    /// Centre latitude.
    package var latitude: Double?
    /// Centre longitude.
    package var longitude: Double?
    /// Radius, NM.
    package var radiusNM: Double?
}

/// The area of a NOTAM, with its limits and where the geometry came from.
package struct NotamGeometry: Sendable, Equatable, Codable {
    /// Where the geometry came from, best last: an official polygon beats a FIS-B graphic beats
    /// a parsed text beats the Q-line circle.
    package enum Origin: Int, Sendable, Comparable, Codable {
        /// The Q-line's centre and radius (coarse).
        case qLine = 0
        /// Parsed from the text.
        case text = 1
        /// A FIS-B graphic.
        case fisb = 2
        /// The source's own polygon (FAA API GeoJSON, tfr.faa.gov).
        case official = 3
        /// Ranks.
        package static func < (a: Origin, b: Origin) -> Bool { a.rawValue < b.rawValue }
    }
    /// Circle centre (lat, lon) and radius, or nil for polygons.
    package var center: [Double]?
    /// Radius, NM.
    package var radiusNM: Double?
    /// Polygon vertices as [lat, lon] (the first part's outer ring when there are parts).
    package var polygon: [[Double]]?
    /// Every part when there are several or any has holes: each a list of rings (outer ring
    /// first, then holes), each ring a list of [lat, lon].
    package var parts: [[[[Double]]]]?
    /// Parts cut out within an altitude band (SUBTR).
    package var cutouts: [NotamCutout]?
    /// Each part's own altitude band, beside `parts`, when the official parts' bands differ
    /// (a BASE from the ground and a UNION from 1,501 ft); nil: the geometry's limits for all.
    package var partBands: [NotamBand]?
    /// Floor, ft (nil: surface).
    package var floorFt: Int?
    /// Floor above ground.
    package var floorAGL = false
    /// Ceiling, ft (nil: unlimited).
    package var ceilingFt: Int?
    /// Ceiling above ground.
    package var ceilingAGL = false
    /// Origin.
    package var origin: Origin

    /// A circle.
    package static func circle(_ c: Position, radiusNM: Double, origin: Origin) -> NotamGeometry {
        NotamGeometry(center: [c.latitude, c.longitude], radiusNM: radiusNM, polygon: nil, origin: origin)
    }

    /// A polygon.
    package static func polygon(_ points: [Position], origin: Origin) -> NotamGeometry {
        NotamGeometry(center: nil, radiusNM: nil, polygon: RingSimplifier.simplify(points).map { [$0.latitude, $0.longitude] }, origin: origin)
    }

    /// Several parts (a single part without holes is stored as a plain polygon).
    package static func region(_ parts: [AirspacePart], origin: Origin) -> NotamGeometry? {
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
    package var shape: AirspaceArea.Shape {
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
    package var airspaceCutouts: [AirspaceCutout] {
        (cutouts ?? []).map { AirspaceCutout(ring: Self.positions($0.ring), floorFt: $0.floorFt, ceilingFt: $0.ceilingFt) }
    }

    /// Area in square nautical miles (parts minus holes; circles exact), for coverage checks.
    package var areaNM2: Double {
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
    package var bounds: (Double, Double, Double, Double) {
        let b = AirspaceIndex.bounds(AirspaceArea(id: "", name: "", shape: shape))
        return (b.minLat, b.maxLat, b.minLon, b.maxLon)
    }

    /// GeoJSON-style JSON for list/show output.
    package var json: String {
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
        if let partBands {
            // Each part's own band, beside `coordinates`' parts ([floorFt, ceilingFt], null: surface, unlimited).
            w.addRaw("partBands", "[" + partBands.map { "[\($0.floorFt.map(String.init) ?? "null"),\($0.ceilingFt.map(String.init) ?? "null")]" }.joined(separator: ",") + "]")
        }
        w.add("floorFt", floorFt)
        w.add("floorRef", floorFt == nil ? "SFC" : (floorAGL ? "AGL" : "MSL"))
        w.add("ceilingFt", ceilingFt)
        w.add("ceilingRef", ceilingFt == nil ? "UNL" : (ceilingAGL ? "AGL" : "MSL"))
        w.add("origin", ["q-line", "text", "fisb", "official"][origin.rawValue])
        return w.result
    }
}


/// An altitude band of one part of an official geometry, feet MSL.
package struct NotamBand: Sendable, Equatable, Hashable, Codable {
    /// Floor (nil: surface).
    package var floorFt: Int?
    /// Ceiling (nil: unlimited).
    package var ceilingFt: Int?
    /// A band.
    package init(floorFt: Int? = nil, ceilingFt: Int? = nil) {
        self.floorFt = floorFt
        self.ceilingFt = ceilingFt
    }
}

/// A polygon cut out of a NOTAM's area within an altitude band (an official `SUBTR` part).
package struct NotamCutout: Sendable, Equatable, Codable {
    /// The ring, [lat, lon] points.
    package var ring: [[Double]]
    /// Band floor, feet MSL (nil: surface).
    package var floorFt: Int?
    /// Band ceiling, feet MSL (nil: unlimited).
    package var ceilingFt: Int?

    /// A cut-out.
    package init(ring: [[Double]], floorFt: Int? = nil, ceilingFt: Int? = nil) {
        self.ring = ring
        self.floorFt = floorFt
        self.ceilingFt = ceilingFt
    }
}
