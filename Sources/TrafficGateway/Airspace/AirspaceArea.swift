import GDL90

/// One area the airspace alerts watch: a TFR, restricted or prohibited area from a NOTAM, or a
/// FIS-B SUA, with its vertical limits and its activity window. Circles stay exact circles.
public struct AirspaceArea: Sendable, Equatable {
    /// Horizontal shape.
    public enum Shape: Sendable, Equatable {
        /// A circle of `radiusNM` around `center`.
        case circle(center: Position, radiusNM: Double)
        /// A closed polygon (first point not repeated at the end).
        case polygon([Position])
    }

    /// How bad entering it is, from the NOTAM's content.
    public enum Severity: Int, Sendable, Comparable, CustomStringConvertible {
        /// Informational.
        case info = 0
        /// TFRs, partial closures.
        case caution = 1
        /// Restricted areas, closed aerodromes.
        case warning = 2
        /// Prohibited airspace, closed FIR, no ATS.
        case critical = 3
        /// Lower case name.
        public var description: String { ["info", "caution", "warning", "critical"][rawValue] }
        /// By name.
        public init?(name: String) {
            guard let i = ["info", "caution", "warning", "critical"].firstIndex(of: name.lowercased()) else { return nil }
            self.init(rawValue: i)
        }
        /// Orders by rank.
        public static func < (a: Severity, b: Severity) -> Bool { a.rawValue < b.rawValue }
    }

    /// Stable identity: the NOTAM number (e.g. `FDC 6/4321`) or the SUA name.
    public var id: String
    /// Short readable name ("TFR 6/4321 Salem OR", "R-2508").
    public var name: String
    /// Shape.
    public var shape: Shape
    /// Floor, feet (nil: surface).
    public var floorFt: Int?
    /// Whether the floor is above ground level (else MSL).
    public var floorIsAGL: Bool
    /// Ceiling, feet (nil: unlimited).
    public var ceilingFt: Int?
    /// Whether the ceiling is above ground level (else MSL).
    public var ceilingIsAGL: Bool
    /// Start of activity, epoch seconds (nil: already active).
    public var start: Double?
    /// End of activity, epoch seconds (nil: permanent or until further notice).
    public var end: Double?
    /// Severity.
    public var severity: Severity

    /// Creates an area.
    public init(id: String, name: String, shape: Shape, floorFt: Int? = nil, floorIsAGL: Bool = false,
                ceilingFt: Int? = nil, ceilingIsAGL: Bool = false, start: Double? = nil, end: Double? = nil,
                severity: Severity = .caution) {
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
    public func isActive(at time: Double) -> Bool {
        if let start, time < start { return false }
        if let end, time >= end { return false }
        return true
    }

    /// The vertices of the outline (a circle as a 64-gon), for maps.
    public func outline(segments: Int = 64) -> [Position] {
        switch shape {
        case .polygon(let points): return points
        case .circle(let center, let radius):
            return (0..<segments).map {
                Geodesy.destination(from: center, bearingDeg: Double($0) * 360 / Double(segments), distanceNM: radius)
            }
        }
    }
}
