import GDL90

extension Position {
    /// The shared rule for a position read from any input (a fleet message, a weather reply, a
    /// flight's track): both numbers present, finite, `|latitude| ≤ 90` and `|longitude| ≤ 180`;
    /// nil otherwise, so that one `"lon": -123000000` or `1e308` never reaches a map, a
    /// distance or a JSON reply (`JSONReader` already refuses numbers past a `Double`).
    public static func valid(latitude: Double?, longitude: Double?) -> Position? {
        guard let latitude, let longitude, isValid(latitude: latitude, longitude: longitude) else { return nil }
        return Position(latitude: latitude, longitude: longitude)
    }

    /// Whether `latitude`, `longitude` name a place on the Earth (`valid`).
    @inline(__always)
    public static func isValid(latitude: Double, longitude: Double) -> Bool {
        (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }
}
