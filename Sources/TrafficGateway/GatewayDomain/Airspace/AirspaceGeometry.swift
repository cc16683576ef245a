import GatewaySupport
import GDL90

/// Lateral geometry of one area seen from ownship on a local plane centred on ownship: signed
/// distance to the boundary (negative inside) and the time to cross into it along a straight
/// track. Circles are solved exactly (ray against circle); polygons and regions (several
/// parts with holes) by point-in-polygon and ray-against-edge tests on every ring.
package struct AirspaceGeometry: Sendable, Equatable {
    /// Distance to the boundary, NM; negative when inside.
    package var signedDistanceNM: Double
    /// Seconds until the track enters the area (0 inside), nil when it does not within range.
    package var timeToEntrySec: Double?

    /// Computes the geometry of `shape` for ownship at the plane's origin moving at `velocity`
    /// (knots, east/north), looking `lookAheadSec` ahead.
    package init(shape: AirspaceArea.Shape, plane: LocalPlane, velocity: PlaneVelocity, lookAheadSec: Double) {
        let speed = (velocity.east * velocity.east + velocity.north * velocity.north).squareRoot()
        let reach = speed * lookAheadSec / 3600  // NM travelled within the look-ahead
        switch shape {
        case .circle(let center, let radius):
            let c = plane.project(center)
            let d = c.length
            signedDistanceNM = d - radius
            if d <= radius {
                timeToEntrySec = 0
            } else if speed > 0 {
                // |t·v − c| = r, smallest t ≥ 0 (t in hours).
                let a = speed * speed
                let b = -2 * (velocity.east * c.east + velocity.north * c.north)
                let k = d * d - radius * radius
                let disc = b * b - 4 * a * k
                if disc >= 0 {
                    let t = (-b - disc.squareRoot()) / (2 * a)
                    timeToEntrySec = t >= 0 && t * speed <= reach ? t * 3600 : nil
                } else {
                    timeToEntrySec = nil
                }
            } else {
                timeToEntrySec = nil
            }
        case .polygon(let points):
            (signedDistanceNM, timeToEntrySec) = Self.region([[points.map(plane.project)]], velocity: velocity, speed: speed, reach: reach)
        case .region(let parts):
            let rings = parts.map { p in ([p.outer] + p.holes).map { $0.map(plane.project) } }
            (signedDistanceNM, timeToEntrySec) = Self.region(rings, velocity: velocity, speed: speed, reach: reach)
        }
    }

    /// A union of parts, each an outer ring followed by its holes, on the plane: signed distance
    /// (negative inside, as deep as the deepest part holding ownship) and time to the first
    /// crossing into any part. From outside a part (or inside one of its holes) the first edge
    /// the track crosses, of any of its rings, is where it enters.
    static func region(_ parts: [[[PlanePoint]]], velocity: PlaneVelocity, speed: Double, reach: Double) -> (Double, Double?) {
        let origin = PlanePoint(east: 0, north: 0)
        var depth: Double? = nil
        var distance = Double.infinity
        var entry: Double? = nil
        let end = speed > 0 ? PlanePoint(east: velocity.east / speed * reach, north: velocity.north / speed * reach) : origin
        for rings in parts {
            guard let outer = rings.first, outer.count >= 3 else { continue }
            let inside = contains(outer, origin) && !rings.dropFirst().contains { $0.count >= 3 && contains($0, origin) }
            let edge = rings.map { distanceToEdges($0, origin) }.min() ?? .infinity
            if inside {
                depth = max(depth ?? 0, edge)
            } else {
                distance = min(distance, edge)
                if speed > 0 {
                    for ring in rings where ring.count >= 2 {
                        for i in ring.indices {
                            if let f = intersection(origin, end, ring[i], ring[(i + 1) % ring.count]) {
                                let t = f * reach / speed * 3600
                                entry = min(entry ?? t, t)
                            }
                        }
                    }
                }
            }
        }
        if let depth { return (-depth, 0) }
        return (distance, entry)
    }

    /// Even-odd point-in-polygon.
    static func contains(_ ring: [PlanePoint], _ p: PlanePoint) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i], b = ring[j]
            if (a.north > p.north) != (b.north > p.north) {
                let x = (b.east - a.east) * (p.north - a.north) / (b.north - a.north) + a.east
                if p.east < x { inside.toggle() }
            }
            j = i
        }
        return inside
    }

    /// Shortest distance from `p` to the ring's edges.
    static func distanceToEdges(_ ring: [PlanePoint], _ p: PlanePoint) -> Double {
        var best = Double.infinity
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            let dx = b.east - a.east, dy = b.north - a.north
            let len2 = dx * dx + dy * dy
            var t = len2 > 0 ? ((p.east - a.east) * dx + (p.north - a.north) * dy) / len2 : 0
            t = min(1, max(0, t))
            let ex = a.east + t * dx - p.east, ey = a.north + t * dy - p.north
            best = min(best, (ex * ex + ey * ey).squareRoot())
        }
        return best
    }

    /// Fraction along p0→p1 where it crosses segment a→b, or nil.
    static func intersection(_ p0: PlanePoint, _ p1: PlanePoint, _ a: PlanePoint, _ b: PlanePoint) -> Double? {
        let rx = p1.east - p0.east, ry = p1.north - p0.north
        let sx = b.east - a.east, sy = b.north - a.north
        let denom = rx * sy - ry * sx
        guard abs(denom) > 1e-12 else { return nil }
        let qx = a.east - p0.east, qy = a.north - p0.north
        let t = (qx * sy - qy * sx) / denom
        let u = (qx * ry - qy * rx) / denom
        return (0...1).contains(t) && (0...1).contains(u) ? t : nil
    }
}

/// An in-memory spatial index of the active areas: a grid of 0.5° cells, each listing the areas
/// whose bounding box touches it, so one ownship update tests only the areas near it.
package struct AirspaceIndex: Sendable {
    /// The areas indexed.
    package let areas: [AirspaceArea]
    private var cells: [Int64: [Int]] = [:]
    private static let cellDegrees = 0.5

    /// Indexes `areas`.
    package init(_ areas: [AirspaceArea]) {
        self.areas = areas
        for (i, a) in areas.enumerated() {
            let box = Self.bounds(a)
            for key in Self.keys(minLat: box.minLat, maxLat: box.maxLat, minLon: box.minLon, maxLon: box.maxLon) {
                cells[key, default: []].append(i)
            }
        }
    }

    /// Areas whose bounding box lies within `radiusNM` of `p` (a superset of those truly within).
    package func candidates(near p: Position, radiusNM: Double) -> [Int] {
        let dLat = radiusNM / 60
        let dLon = radiusNM / (60 * max(0.05, cosDeg(p.latitude)))
        var seen = Set<Int>()
        var out: [Int] = []
        for key in Self.keys(minLat: p.latitude - dLat, maxLat: p.latitude + dLat, minLon: p.longitude - dLon, maxLon: p.longitude + dLon) {
            for i in cells[key] ?? [] where seen.insert(i).inserted { out.append(i) }
        }
        return out.sorted()
    }

    package static func bounds(_ a: AirspaceArea) -> (minLat: Double, maxLat: Double, minLon: Double, maxLon: Double) {
        switch a.shape {
        case .circle(let c, let r):
            let dLat = r / 60, dLon = r / (60 * max(0.05, cosDeg(c.latitude)))
            return (c.latitude - dLat, c.latitude + dLat, c.longitude - dLon, c.longitude + dLon)
        case .polygon(let points):
            return (points.map(\.latitude).min() ?? 0, points.map(\.latitude).max() ?? 0,
                    points.map(\.longitude).min() ?? 0, points.map(\.longitude).max() ?? 0)
        case .region(let parts):
            let points = parts.flatMap(\.outer)
            return (points.map(\.latitude).min() ?? 0, points.map(\.latitude).max() ?? 0,
                    points.map(\.longitude).min() ?? 0, points.map(\.longitude).max() ?? 0)
        }
    }

    /// The grid cells a box touches. Total: any value (NaN, ±infinity, 1e300) is clamped to the
    /// Earth's ranges before it becomes a cell number, so no conversion can trap; a box that
    /// crosses a pole or the antimeridian widens to every longitude, as it must.
    static func keys(minLat: Double, maxLat: Double, minLon: Double, maxLon: Double) -> [Int64] {
        func cell(_ degrees: Double, limit: Double) -> Int64 {
            let d = degrees.isNaN ? 0 : min(limit, max(-limit, degrees))
            return Int64((d / cellDegrees).rounded(.down))
        }
        let la0 = cell(minLat, limit: 90), la1 = cell(maxLat, limit: 90)
        var lo0 = cell(minLon, limit: 180), lo1 = cell(maxLon, limit: 180)
        if minLon < -180 || maxLon > 180 || minLon.isNaN || maxLon.isNaN { (lo0, lo1) = (cell(-180, limit: 180), cell(180, limit: 180)) }
        var out: [Int64] = []
        out.reserveCapacity(Int(max(la0, la1) - la0 + 1) * Int(max(lo0, lo1) - lo0 + 1))
        for la in la0...max(la0, la1) { for lo in lo0...max(lo0, lo1) { out.append(la * 100_000 + lo) } }
        return out
    }
}
