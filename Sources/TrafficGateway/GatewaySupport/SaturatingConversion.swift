extension Int {
    /// `value` rounded to the nearest integer, clamped to `Int`'s range; 0 for NaN. A total
    /// conversion: `Int(Double)` traps on NaN, infinities and values past ±9.2e18, and numbers from
    /// outside (gpsd, NOTAM texts, configuration) must never take the gateway down.
    @inlinable
    public init(saturating value: Double) {
        guard value.isFinite else {
            self = value.isNaN ? 0 : (value > 0 ? .max : .min)
            return
        }
        let r = value.rounded()
        if r >= 9.223_372_036_854_775e18 { self = .max } else if r <= -9.223_372_036_854_775e18 { self = .min } else { self = Int(r) }
    }
}
