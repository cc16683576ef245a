import GatewaySupport
#if canImport(Glibc)
import Glibc
#endif

/// A model grid as its GRIB file describes it, and where a latitude/longitude falls on it
/// (fractional grid coordinates from the first grid point): the inverse mapping a picture on a
/// latitude/longitude grid is drawn by. Nothing of a model is assumed: every constant comes from
/// the file.
package enum ForecastGrid: Sendable, Equatable {
    /// How the values are ordered (GRIB's scanning mode).
    package struct Scan: Sendable, Equatable {
        /// Points run west (i increases westward).
        package var iNegative: Bool
        /// Rows run north (j increases northward).
        package var jPositive: Bool
        /// Columns stored first (not read).
        package var jConsecutive: Bool
    }

    /// Template 3.30.
    case lambert(LambertConformal)
    /// Template 3.0: first point, increments in degrees.
    case latLon(lat1: Double, lon1: Double, di: Double, dj: Double, scan: Scan)

    /// Fractional grid coordinates (i along a row, j across rows) of a position.
    package func gridPoint(latitude: Double, longitude: Double) -> (i: Double, j: Double) {
        switch self {
        case .lambert(let l):
            return l.gridPoint(latitude: latitude, longitude: longitude)
        case .latLon(let lat1, let lon1, let di, let dj, let scan):
            var dLon = (longitude - lon1).truncatingRemainder(dividingBy: 360)
            if dLon < 0 { dLon += 360 }
            let i = (scan.iNegative ? (360 - dLon).truncatingRemainder(dividingBy: 360) : dLon) / di
            let j = (scan.jPositive ? latitude - lat1 : lat1 - latitude) / dj
            return (i, j)
        }
    }
}

/// A Lambert conformal conic grid on a sphere (GRIB2 template 3.30): its standard parallels, its
/// orientation (LoV), the first grid point, the spacing, the Earth's radius as the file gives it.
package struct LambertConformal: Sendable, Equatable {
    package var lat1: Double, lon1: Double, lov: Double, latin1: Double, latin2: Double, dx: Double, dy: Double, radius: Double
    package var scan: ForecastGrid.Scan
    /// The cone's constant and the first grid point's plane coordinates.
    private let n: Double, f: Double, x1: Double, y1: Double

    package init(lat1: Double, lon1: Double, lov: Double, latin1: Double, latin2: Double, dx: Double, dy: Double, radius: Double, scan: ForecastGrid.Scan) {
        (self.lat1, self.lon1, self.lov, self.latin1, self.latin2, self.dx, self.dy, self.radius, self.scan) =
            (lat1, lon1, lov, latin1, latin2, dx, dy, radius, scan)
        let p1 = latin1 * .pi / 180, p2 = latin2 * .pi / 180
        let n = abs(p1 - p2) < 1e-9 ? sin(p1) : log(cos(p1) / cos(p2)) / log(tan(.pi / 4 + p2 / 2) / tan(.pi / 4 + p1 / 2))
        self.n = n
        f = cos(p1) * pow(tan(.pi / 4 + p1 / 2), n) / n
        (x1, y1) = Self.plane(latitude: lat1, longitude: lon1, n: n, f: f, lov: lov, radius: radius)
    }

    /// Plane coordinates, metres, of a position (the cone's apex at the origin, y toward it negative).
    static func plane(latitude: Double, longitude: Double, n: Double, f: Double, lov: Double, radius: Double) -> (Double, Double) {
        let phi = latitude * .pi / 180
        var dl = (longitude - lov).truncatingRemainder(dividingBy: 360)
        if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
        let rho = radius * f / pow(tan(.pi / 4 + phi / 2), n)
        let theta = n * dl * .pi / 180
        return (rho * sin(theta), -rho * cos(theta))
    }

    /// Fractional grid coordinates of a position.
    package func gridPoint(latitude: Double, longitude: Double) -> (i: Double, j: Double) {
        let (x, y) = Self.plane(latitude: latitude, longitude: longitude, n: n, f: f, lov: lov, radius: radius)
        let i = (scan.iNegative ? x1 - x : x - x1) / dx
        let j = (scan.jPositive ? y - y1 : y1 - y) / dy
        return (i, j)
    }
}
