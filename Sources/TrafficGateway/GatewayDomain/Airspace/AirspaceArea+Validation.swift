import GDL90

/// The range check every area passes where it enters (NOTAM sources and files, airspace files,
/// recorded events, FIS-B graphics, and the core as the last guard): a coordinate, radius, limit
/// or time outside what the Earth and an airspace can be is refused with a reason, so no value
/// from outside reaches a conversion that could trap (the spatial index's grid cells).
extension AirspaceArea {
    /// The largest circle accepted, NM (the largest real areas, oceanic warning areas, are a
    /// few hundred NM across).
    package static let maximumRadiusNM = 1_000.0
    /// Limits accepted, feet (below the Dead Sea shore to far above any airspace).
    package static let limitRangeFt = -2_000...200_000

    /// Why the area cannot be watched (nil: it can).
    package var problem: String? {
        switch shape {
        case .circle(let center, let radius):
            if let p = Self.problem(center) { return "centre \(p)" }
            guard radius.isFinite, radius > 0, radius <= Self.maximumRadiusNM else {
                return "radius \(radius) NM is not between 0 and \(Int(Self.maximumRadiusNM)) NM"
            }
        case .polygon(let points):
            if let p = Self.problem(ring: points) { return p }
        case .region(let parts):
            guard !parts.isEmpty else { return "a region with no part" }
            for part in parts {
                if let p = Self.problem(ring: part.outer) { return p }
                for hole in part.holes { if let p = Self.problem(ring: hole) { return "a hole's \(p)" } }
            }
        }
        for cutout in cutouts { if let p = Self.problem(ring: cutout.ring) { return "a cut-out's \(p)" } }
        for (name, limit) in [("floor", floorFt), ("ceiling", ceilingFt)] {
            if let limit, !Self.limitRangeFt.contains(limit) { return "\(name) \(limit) ft is not an altitude" }
        }
        for (name, time) in [("start", start), ("end", end)] {
            if let time, !time.isFinite { return "\(name) time is not a number" }
        }
        return nil
    }

    /// Why `p` is not a coordinate on the Earth (nil: it is).
    package static func problem(_ p: Position) -> String? {
        guard p.latitude.isFinite, p.longitude.isFinite, (-90...90).contains(p.latitude), (-180...180).contains(p.longitude) else {
            return "\(p.latitude), \(p.longitude) is not a latitude and longitude"
        }
        return nil
    }

    private static func problem(ring: [Position]) -> String? {
        guard ring.count >= 3 else { return "ring of \(ring.count) point(s) (3 or more needed)" }
        for (i, p) in ring.enumerated() { if let why = problem(p) { return "vertex \(i + 1): \(why)" } }
        return nil
    }

    /// `areas` split into those that can be watched and a line for each refused one.
    package static func checked(_ areas: [AirspaceArea]) -> (areas: [AirspaceArea], refused: [String]) {
        var kept: [AirspaceArea] = [], refused: [String] = []
        kept.reserveCapacity(areas.count)
        for area in areas {
            if let why = area.problem { refused.append("area \(area.id): \(why)") } else { kept.append(area) }
        }
        return (kept, refused)
    }
}
