import GatewaySupport
import GatewayWeather

/// A forecast hour drawn like the radar: an 8-bit indexed picture on a latitude/longitude grid
/// (WGS 84 degrees, a `.pgw` world file), each pixel the 5 dBZ band of the value at the model's
/// grid point nearest to the pixel's centre (inverse mapping), index 0 (below 5 dBZ, or missing)
/// transparent, 1 = 5–10 dBZ … 14 = 70–75, 15 = ≥ 75.
package struct ForecastPicture: Sendable {
    /// Bounds, degrees.
    package var west: Double, south: Double, east: Double, north: Double
    /// Degrees a pixel.
    package var pixel: Double
    /// Pixels.
    package var width: Int, height: Int
    /// Palette indices, row by row from the north-west corner.
    package var indices: [UInt8]

    /// The band index of a reflectivity, dBZ.
    package static func band(_ dbz: Float?) -> UInt8 {
        guard let dbz, dbz >= 5 else { return 0 }
        if dbz >= 75 { return 15 }
        return UInt8(1 + Int((dbz - 5) / 5))
    }

    /// The bands in words, for the `.json` (index, label).
    package static let legend: [(Int, String)] = [(0, "< 5 dBZ (nothing)")] + (1...14).map { ($0, "\(5 * $0)–\(5 * $0 + 5) dBZ") } + [(15, "≥ 75 dBZ")]

    /// The palette: the radar's colours by band (NWS reflectivity scale).
    package static let palette: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (4, 233, 231), (1, 159, 244), (3, 0, 244), (2, 253, 2), (1, 197, 1), (0, 142, 0), (253, 248, 2),
        (229, 188, 0), (253, 149, 0), (253, 0, 0), (212, 0, 0), (188, 0, 0), (248, 0, 253), (152, 84, 198), (253, 253, 253),
    ]

    /// `field` drawn over the box, `pixel` degrees a pixel.
    package static func draw(_ field: ForecastField, west: Double, south: Double, east: Double, north: Double, pixel: Double) -> ForecastPicture {
        let width = max(1, Int(((east - west) / pixel).rounded(.up))), height = max(1, Int(((north - south) / pixel).rounded(.up)))
        var indices = [UInt8](repeating: 0, count: width * height)
        for r in 0..<height {
            let lat = north - (Double(r) + 0.5) * pixel
            for c in 0..<width {
                let lon = west + (Double(c) + 0.5) * pixel
                let (fi, fj) = field.grid.gridPoint(latitude: lat, longitude: lon)
                let i = Int(fi.rounded()), j = Int(fj.rounded())
                indices[r * width + c] = band(field.value(i: i, j: j))
            }
        }
        return ForecastPicture(west: west, south: south, east: west + Double(width) * pixel, north: north, pixel: pixel,
                               width: width, height: height, indices: indices)
    }

    /// The PNG (indexed, index 0 transparent).
    package var png: [UInt8] { PNGEncoder.indexed(width: width, height: height, pixels: indices, palette: Self.palette, transparent: [0]) }

    /// The ESRI world file: pixel size, rotation, the first pixel's centre.
    package var worldFile: String {
        [pixel, 0, 0, -pixel, west + pixel / 2, north - pixel / 2].map { $0 == 0 ? "0" : "\($0)" }.joined(separator: "\n") + "\n"
    }
}
