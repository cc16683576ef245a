import GatewaySupport
/// Closest point of approach of two aircraft moving in straight lines on a local flat plane.
package struct ClosestApproach: Sendable, Equatable {
    /// Seconds from now to the closest point (0 when already diverging).
    package var timeSec: Double
    /// Horizontal distance at the closest point, NM.
    package var missNM: Double
    /// True when the range is decreasing now.
    package var closing: Bool

    /// Computes the CPA of a target at `relative` (NM, from ownship) moving at `relativeVelocity`
    /// (knots, target minus ownship): t = −(p·v)/|v|², clamped at 0.
    package init(relative p: PlanePoint, relativeVelocity v: PlaneVelocity) {
        let vx = v.east / 3600, vy = v.north / 3600  // NM per second
        let v2 = vx * vx + vy * vy
        let dot = p.east * vx + p.north * vy
        closing = dot < 0
        if v2 < 1e-12 || dot >= 0 {
            timeSec = 0
            missNM = p.length
        } else {
            timeSec = -dot / v2
            let x = p.east + vx * timeSec, y = p.north + vy * timeSec
            missNM = (x * x + y * y).squareRoot()
        }
    }
}
