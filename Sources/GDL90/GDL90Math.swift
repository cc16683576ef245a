/// The little trigonometry the codec needs, in the standard library alone (no libm), so the
/// module builds for embedded targets.
enum GDL90Math {
    /// atan(x) for any x, accurate to about 1e-12 rad: two half-angle reductions bring |x|
    /// under 0.2, where a short odd series converges fast.
    static func atan(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x.isInfinite { return x > 0 ? Double.pi / 2 : -Double.pi / 2 }
        var t = x
        var factor = 1.0
        for _ in 0..<3 {
            t = t / (1 + (1 + t * t).squareRoot())
            factor *= 2
        }
        let t2 = t * t
        var term = t
        var sum = t
        var n = 1.0
        for _ in 0..<8 {
            term *= -t2
            n += 2
            sum += term / n
        }
        return factor * sum
    }

    /// atan2(y, x) in radians, in (−π, π].
    static func atan2(_ y: Double, _ x: Double) -> Double {
        if x > 0 { return atan(y / x) }
        if x < 0 { return y >= 0 ? atan(y / x) + Double.pi : atan(y / x) - Double.pi }
        if y > 0 { return Double.pi / 2 }
        if y < 0 { return -Double.pi / 2 }
        return 0
    }
}
