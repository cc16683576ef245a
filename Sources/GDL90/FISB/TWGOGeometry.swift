/// The geometry of a TWGO graphic overlay record: points, polylines, polygons (6-byte vertices,
/// 19-bit coordinates, altitude in 100 ft steps) or circular prisms ("extended range" 14-byte
/// vertices, 18-bit coordinates, floor/ceiling in 500 ft steps, radius in 0.2 NM steps). These
/// scales are the ones real uplinks fit (the published definition has known typos).
public struct TWGOGeometry: Hashable, Sendable {
    /// The kind of shape.
    public enum Shape: String, Hashable, Sendable {
        /// Extended range 3D polygon (options 3 MSL, 4 AGL).
        case polygon
        /// Extended range circular prism (options 7 MSL, 8 AGL).
        case circle
        /// Extended range 3D point (options 9 AGL, 10 MSL).
        case point
        /// Extended range 3D polyline (options 11 MSL, 12 AGL).
        case polyline
    }

    /// Altitude reference of the vertices.
    public enum AltitudeReference: String, Hashable, Sendable {
        /// Mean sea level.
        case msl = "MSL"
        /// Above ground level.
        case agl = "AGL"
    }

    /// One 6-byte vertex.
    public struct Vertex: Hashable, Sendable {
        /// Longitude, degrees east.
        public var longitude: Double
        /// Latitude, degrees north.
        public var latitude: Double
        /// Altitude in feet (100 ft steps, 0–102 300).
        public var altitudeFt: Int

        /// Creates a vertex.
        public init(longitude: Double, latitude: Double, altitudeFt: Int) {
            self.longitude = longitude
            self.latitude = latitude
            self.altitudeFt = altitudeFt
        }
    }

    /// One 14-byte circular prism.
    public struct Circle: Hashable, Sendable {
        /// Centre of the bottom face, longitude.
        public var longitude: Double
        /// Centre of the bottom face, latitude.
        public var latitude: Double
        /// Centre of the top face, longitude (equal to the bottom for a vertical prism).
        public var topLongitude: Double
        /// Centre of the top face, latitude.
        public var topLatitude: Double
        /// Floor in feet (500 ft steps).
        public var floorFt: Int
        /// Ceiling in feet (500 ft steps).
        public var ceilingFt: Int
        /// Major radius in NM (0.2 NM steps).
        public var radiusNM: Double
        /// Minor radius in NM (0.2 NM steps); equal to `radiusNM` for a circle.
        public var minorRadiusNM: Double
        /// Orientation of the major axis (raw 8-bit value).
        public var orientation: Int

        /// Creates a circular prism; the top centre defaults to the bottom centre and the minor
        /// radius to the major one.
        public init(longitude: Double, latitude: Double, floorFt: Int, ceilingFt: Int, radiusNM: Double,
                    topLongitude: Double? = nil, topLatitude: Double? = nil, minorRadiusNM: Double? = nil, orientation: Int = 0) {
            self.longitude = longitude
            self.latitude = latitude
            self.topLongitude = topLongitude ?? longitude
            self.topLatitude = topLatitude ?? latitude
            self.floorFt = floorFt
            self.ceilingFt = ceilingFt
            self.radiusNM = radiusNM
            self.minorRadiusNM = minorRadiusNM ?? radiusNM
            self.orientation = orientation
        }
    }

    /// The kind of shape.
    public var shape: Shape
    /// Altitude reference.
    public var reference: AltitudeReference
    /// Vertices of a point, polyline or polygon (empty for circles).
    public var vertices: [Vertex]
    /// Circular prisms (empty for other shapes).
    public var circles: [Circle]

    /// Creates a geometry.
    public init(shape: Shape, reference: AltitudeReference, vertices: [Vertex] = [], circles: [Circle] = []) {
        self.shape = shape
        self.reference = reference
        self.vertices = vertices
        self.circles = circles
    }

    /// The 4-bit overlay geometry option of this shape and reference.
    public var option: Int {
        switch (shape, reference) {
        case (.polygon, .msl): 3
        case (.polygon, .agl): 4
        case (.circle, .msl): 7
        case (.circle, .agl): 8
        case (.point, .agl): 9
        case (.point, .msl): 10
        case (.polyline, .msl): 11
        case (.polyline, .agl): 12
        }
    }

    /// Shape and reference of a geometry option, or nil for a reserved/obsolete option.
    public static func kind(ofOption option: Int) -> (Shape, AltitudeReference)? {
        switch option {
        case 3: (.polygon, .msl)
        case 4: (.polygon, .agl)
        case 7: (.circle, .msl)
        case 8: (.circle, .agl)
        case 9: (.point, .agl)
        case 10: (.point, .msl)
        case 11: (.polyline, .msl)
        case 12: (.polyline, .agl)
        default: nil
        }
    }

    /// Number of vertices or circles (what the 6-bit count field, minus one, carries).
    public var count: Int { shape == .circle ? circles.count : vertices.count }

    // MARK: Coordinates

    /// Converts a raw angle of `bits` bits; longitudes above 180 and latitudes above 90 wrap negative.
    static func degrees(_ raw: Int, bits: Int, limit: Double) -> Double {
        let v = Double(raw) * 360.0 / Double(1 << bits)
        return v > limit ? v - 2 * limit : v
    }

    /// The raw value of an angle in `bits` bits.
    static func raw(_ degrees: Double, bits: Int, limit: Double) -> Int {
        guard degrees.isFinite else { return 0 }
        let positive = degrees < 0 ? degrees + 2 * limit : degrees
        return steps(positive, 360.0 / Double(1 << bits)).clampedBits(bits)
    }

    /// `value / step` rounded, 0 for a non-finite or out-of-range value.
    static func steps(_ value: Double, _ step: Double) -> Int {
        let v = (value / step).rounded()
        return v.isFinite && abs(v) < 1e9 ? Int(v) : 0
    }

    /// Reads `count` vertices or circles of the given option.
    static func read(option: Int, count: Int, from r: inout BitReader) throws(FISBError) -> TWGOGeometry {
        guard let (shape, reference) = kind(ofOption: option) else {
            throw FISBError(.unsupported, at: r.byteOffset, "overlay geometry option \(option) is reserved or obsolete")
        }
        var g = TWGOGeometry(shape: shape, reference: reference)
        if shape == .circle {
            g.circles.reserveCapacity(count)
            for _ in 0..<count {
                let lon = degrees(try r.read(18, "circle longitude"), bits: 18, limit: 180)
                let lat = degrees(try r.read(18, "circle latitude"), bits: 18, limit: 90)
                let topLon = degrees(try r.read(18, "circle top longitude"), bits: 18, limit: 180)
                let topLat = degrees(try r.read(18, "circle top latitude"), bits: 18, limit: 90)
                let floor = try r.read(7, "circle floor") * 500
                let ceiling = try r.read(7, "circle ceiling") * 500
                let major = Double(try r.read(9, "circle radius")) * 0.2
                let minor = Double(try r.read(9, "circle minor radius")) * 0.2
                let alpha = try r.read(8, "circle orientation")
                g.circles.append(Circle(longitude: lon, latitude: lat, floorFt: floor, ceilingFt: ceiling, radiusNM: major,
                                        topLongitude: topLon, topLatitude: topLat, minorRadiusNM: minor, orientation: alpha))
            }
        } else {
            g.vertices.reserveCapacity(count)
            for _ in 0..<count {
                let lon = degrees(try r.read(19, "vertex longitude"), bits: 19, limit: 180)
                let lat = degrees(try r.read(19, "vertex latitude"), bits: 19, limit: 90)
                let alt = try r.read(10, "vertex altitude") * 100
                g.vertices.append(Vertex(longitude: lon, latitude: lat, altitudeFt: alt))
            }
        }
        return g
    }

    /// Writes the vertices or circles.
    func write(to w: inout BitWriter) {
        if shape == .circle {
            for c in circles {
                w.write(Self.raw(c.longitude, bits: 18, limit: 180), 18)
                w.write(Self.raw(c.latitude, bits: 18, limit: 90), 18)
                w.write(Self.raw(c.topLongitude, bits: 18, limit: 180), 18)
                w.write(Self.raw(c.topLatitude, bits: 18, limit: 90), 18)
                w.write((c.floorFt / 500).clampedBits(7), 7)
                w.write((c.ceilingFt / 500).clampedBits(7), 7)
                w.write(Self.steps(c.radiusNM, 0.2).clampedBits(9), 9)
                w.write(Self.steps(c.minorRadiusNM, 0.2).clampedBits(9), 9)
                w.write(c.orientation.clampedBits(8), 8)
            }
        } else {
            for v in vertices {
                w.write(Self.raw(v.longitude, bits: 19, limit: 180), 19)
                w.write(Self.raw(v.latitude, bits: 19, limit: 90), 19)
                w.write((v.altitudeFt / 100).clampedBits(10), 10)
            }
        }
    }
}
