import GatewaySupport
import GDL90

/// One area the airspace alerts watch: a TFR, restricted or prohibited area from a NOTAM, or a
/// FIS-B SUA, with its vertical limits and its activity window. Circles stay exact circles.
package struct AirspaceArea: Sendable, Equatable, Codable {
    /// Horizontal shape.
    package enum Shape: Sendable, Equatable, Codable {
        /// A circle of `radiusNM` around `center`.
        case circle(center: Position, radiusNM: Double)
        /// A closed polygon (first point not repeated at the end).
        case polygon([Position])
        /// Several polygons, each with its holes (an official MultiPolygon, a corridor): the
        /// area is their union.
        case region([AirspacePart])
    }

    /// How bad entering it is, from the NOTAM's content.
    package enum Severity: Int, Sendable, Comparable, CustomStringConvertible, Codable {
        /// Informational.
        case info = 0
        /// TFRs, partial closures.
        case caution = 1
        /// Restricted areas, closed aerodromes.
        case warning = 2
        /// Prohibited airspace, closed FIR, no ATS.
        case critical = 3
        /// Lower case name.
        package var description: String { ["info", "caution", "warning", "critical"][rawValue] }
        /// By name.
        package init?(name: String) {
            guard let i = ["info", "caution", "warning", "critical"].firstIndex(of: name.lowercased()) else { return nil }
            self.init(rawValue: i)
        }
        /// Orders by rank.
        package static func < (a: Severity, b: Severity) -> Bool { a.rawValue < b.rawValue }
    }

    /// Stable identity: the NOTAM number (e.g. `FDC 6/4321`) or the SUA name.
    package var id: String
    /// Short readable name ("TFR 6/4321 Salem OR", "R-2508").
    package var name: String
    /// Shape.
    package var shape: Shape
    /// Floor, feet (nil: surface).
    package var floorFt: Int?
    /// Whether the floor is above ground level (else MSL).
    package var floorIsAGL: Bool
    /// Ceiling, feet (nil: unlimited).
    package var ceilingFt: Int?
    /// Whether the ceiling is above ground level (else MSL).
    package var ceilingIsAGL: Bool
    /// Start of activity, epoch seconds (nil: already active).
    package var start: Double?
    /// End of activity, epoch seconds (nil: permanent or until further notice).
    package var end: Double?
    /// Severity.
    package var severity: Severity
    /// Kind (nil: not known, e.g. a GeoJSON file without `kind`).
    package var kind: AirspaceKind?
    /// The alert levels it raises (inside, predicted entry, near).
    package var levels: AirspaceAlertLevels
    /// Parts cut out of the area within an altitude band (a restricted area's SUBTR polygons):
    /// ownship inside a cut-out and inside its band is not inside the area.
    package var cutouts: [AirspaceCutout] = []
    /// Ground elevation under the area, feet MSL, when known (the field elevation of the
    /// airport nearest its centre, from the airport table, set where the areas are loaded):
    /// AGL limits are compared as this much higher. Nil: an AGL floor counts as the surface and
    /// an AGL ceiling as MSL (conservative without terrain).
    package var groundElevationFt: Int? = nil

    /// Creates an area; `levels` default to those of its kind, else of its severity.
    package init(id: String, name: String, shape: Shape, floorFt: Int? = nil, floorIsAGL: Bool = false,
                ceilingFt: Int? = nil, ceilingIsAGL: Bool = false, start: Double? = nil, end: Double? = nil,
                severity: Severity = .caution, kind: AirspaceKind? = nil, levels: AirspaceAlertLevels? = nil,
                cutouts: [AirspaceCutout] = []) {
        self.kind = kind
        self.levels = levels ?? kind?.defaultLevels ?? AirspaceAlertLevels(severity: severity)
        self.cutouts = cutouts
        self.id = id
        self.name = name
        self.shape = shape
        self.floorFt = floorFt
        self.floorIsAGL = floorIsAGL
        self.ceilingFt = ceilingFt
        self.ceilingIsAGL = ceilingIsAGL
        self.start = start
        self.end = end
        self.severity = severity
    }

    /// Whether the area is active at `time`.
    package func isActive(at time: Double) -> Bool {
        if let start, time < start { return false }
        if let end, time >= end { return false }
        return true
    }

    /// The shape seen at `altitudeFt`: cut-outs whose band holds the altitude become holes
    /// (none without an altitude: the whole area counts, conservatively).
    package func shape(atAltitudeFt altitudeFt: Double?) -> Shape {
        guard let alt = altitudeFt else { return shape }
        let holes = cutouts.filter { $0.contains(altitudeFt: alt) }.map(\.ring)
        guard !holes.isEmpty else { return shape }
        switch shape {
        case .circle(let c, let r):
            let ring = (0..<64).map { Geodesy.destination(from: c, bearingDeg: Double($0) * 360 / 64, distanceNM: r) }
            return .region([AirspacePart(outer: ring, holes: holes)])
        case .polygon(let points):
            return .region([AirspacePart(outer: points, holes: holes)])
        case .region(let parts):
            return .region(parts.map { AirspacePart(outer: $0.outer, holes: $0.holes + holes) })
        }
    }

    /// The vertices of the outline (a circle as a 64-gon; a region its largest part), for maps.
    package func outline(segments: Int = 64) -> [Position] {
        switch shape {
        case .polygon(let points): return points
        case .region(let parts): return parts.max { $0.outer.count < $1.outer.count }?.outer ?? []
        case .circle(let center, let radius):
            return (0..<segments).map {
                Geodesy.destination(from: center, bearingDeg: Double($0) * 360 / Double(segments), distanceNM: radius)
            }
        }
    }
}


/// One polygon of a region: its outer ring and the holes cut out of it (rings of positions,
/// the first point not repeated at the end).
package struct AirspacePart: Sendable, Equatable, Codable {
    /// The outer ring.
    package var outer: [Position]
    /// Holes inside the outer ring.
    package var holes: [[Position]]

    /// A part with optional holes.
    package init(outer: [Position], holes: [[Position]] = []) {
        self.outer = outer
        self.holes = holes
    }
}

/// A polygon cut out of an area within an altitude band (nil floor: surface; nil ceiling:
/// unlimited), as a restricted area's `SUBTR` parts are.
package struct AirspaceCutout: Sendable, Equatable, Codable {
    /// The ring cut out.
    package var ring: [Position]
    /// Band floor, feet MSL.
    package var floorFt: Int?
    /// Band ceiling, feet MSL.
    package var ceilingFt: Int?

    /// A cut-out.
    package init(ring: [Position], floorFt: Int? = nil, ceilingFt: Int? = nil) {
        self.ring = ring
        self.floorFt = floorFt
        self.ceilingFt = ceilingFt
    }

    /// Whether `altitudeFt` lies in the band.
    package func contains(altitudeFt: Double) -> Bool {
        (floorFt.map { altitudeFt >= Double($0) } ?? true) && (ceilingFt.map { altitudeFt <= Double($0) } ?? true)
    }
}
