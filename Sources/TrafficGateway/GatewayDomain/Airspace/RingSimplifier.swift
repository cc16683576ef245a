import GatewaySupport
import GDL90

/// Simplifies very long rings where geometry enters (a NOTAM of 1,000,000 vertices took 265 MB
/// and 6.5 ms a datagram): Douglas–Peucker on a local plane, with a tolerance far below what
/// matters for alerting, widened until the ring fits `maximumVertices`. Rings of up to
/// `keptVertices` are kept exactly as given (every real area), so nothing real changes.
package enum RingSimplifier {
    /// Rings this long or shorter are never touched.
    package static let keptVertices = 1_000
    /// The most vertices a simplified ring keeps.
    package static let maximumVertices = 2_000
    /// The first tolerance tried, NM (about 2 m).
    package static let toleranceNM = 0.001

    /// `ring` (first point not repeated), simplified when it is longer than `keptVertices`.
    package static func simplify(_ ring: [Position]) -> [Position] {
        guard ring.count > keptVertices else { return ring }
        let plane = LocalPlane(origin: ring[0])
        let points = ring.map(plane.project)
        var tolerance = toleranceNM
        var kept = keep(points, tolerance: tolerance)
        while kept.count > maximumVertices {
            tolerance *= 2
            kept = keep(points, tolerance: tolerance)
        }
        return kept.map { ring[$0] }
    }

    /// The indices Douglas–Peucker keeps (iterative: a ring of a million points needs no deep stack).
    package static func keep(_ p: [PlanePoint], tolerance: Double) -> [Int] {
        let n = p.count
        var keep = [Bool](repeating: false, count: n)
        keep[0] = true
        keep[n - 1] = true
        var stack = [(0, n - 1)]
        while let (a, b) = stack.popLast() {
            guard b > a + 1 else { continue }
            let dx = p[b].east - p[a].east, dy = p[b].north - p[a].north
            let length = (dx * dx + dy * dy).squareRoot()
            var worst = -1.0, at = a
            for i in (a + 1)..<b {
                let ex = p[i].east - p[a].east, ey = p[i].north - p[a].north
                let d = length > 0 ? abs(ex * dy - ey * dx) / length : (ex * ex + ey * ey).squareRoot()
                if d > worst { worst = d; at = i }
            }
            if worst > tolerance {
                keep[at] = true
                stack.append((a, at))
                stack.append((at, b))
            }
        }
        var out: [Int] = []
        for i in 0..<n where keep[i] { out.append(i) }
        return out
    }
}
