import GatewaySupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GDL90

/// Reads airspace areas from GeoJSON, the format `/airspace.geojson` writes (so a saved feed
/// reads back) and that QGIS and friends export: a FeatureCollection whose features are
/// Polygons and MultiPolygons (holes kept) or Points with a `radiusNM` property (circles); a Polygon with
/// `center` and `radiusNM` properties is read back as the exact circle it was drawn from.
/// Properties: `id` (required), `name`, `floorFt`/`floorRef` (MSL, AGL, SFC), `ceilingFt`/
/// `ceilingRef` (MSL, AGL, UNL), `start`/`end` (ISO-8601 UTC), `severity` (info, caution,
/// warning, critical), `kind` (tfr, restricted, moa…: the kind's alert levels instead of the
/// severity's).
package enum AirspaceFile {
    /// Reads `path`; errors name the file and the feature.
    package static func read(path: String) throws(GatewayError) -> [AirspaceArea] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GatewayError.unreadable(what: "airspace file", path: path)
        }
        return try parse(data, name: path)
    }

    /// Parses GeoJSON `data` (`name` is used in errors).
    package static func parse(_ data: Data, name: String) throws(GatewayError) -> [AirspaceArea] {
        guard let object = JSONReader.object(data) else {
            throw GatewayError.content(place: name, reason: "not JSON (expected a GeoJSON FeatureCollection)")
        }
        guard object["type"] as? String == "FeatureCollection", let features = object["features"] as? [Any] else {
            throw GatewayError.content(place: name, reason: "not a GeoJSON FeatureCollection (no \"features\" array)")
        }
        var out: [AirspaceArea] = []
        for (i, item) in features.enumerated() {
            let place = "\(name): feature \(i)"
            guard let feature = item as? [String: Any], let geometry = feature["geometry"] as? [String: Any],
                  let type = geometry["type"] as? String else {
                throw GatewayError.content(place: place, reason: "no geometry")
            }
            let p = feature["properties"] as? [String: Any] ?? [:]
            guard let id = p["id"] as? String, !id.isEmpty else { throw GatewayError.content(place: place, reason: "no \"id\" property") }
            let shape: AirspaceArea.Shape
            if let r = number(p["radiusNM"]), !(r > 0 && r < 1000) {
                throw GatewayError.content(place: place, reason: "radiusNM \(r) is not a radius in NM (0 to 1000)")
            }
            if let r = number(p["radiusNM"]), let c = p["center"] as? [Any], let center = position(c) {
                shape = .circle(center: center, radiusNM: r)
            } else if type == "Point", let c = geometry["coordinates"] as? [Any], let center = position(c), let r = number(p["radiusNM"]) {
                shape = .circle(center: center, radiusNM: r)
            } else if type == "Polygon" || type == "MultiPolygon", let coordinates = geometry["coordinates"] as? [Any] {
                func ring(_ value: Any) throws(GatewayError) -> [Position] {
                    let list = value as? [Any] ?? []
                    var points = list.compactMap { ($0 as? [Any]).flatMap(position) }
                    guard points.count == list.count else { throw GatewayError.content(place: place, reason: "a polygon position is not [lon, lat]") }
                    if points.count > 1 && points.first == points.last { points.removeLast() }
                    guard points.count >= 3 else { throw GatewayError.content(place: place, reason: "a polygon needs 3 or more points") }
                    return RingSimplifier.simplify(points)
                }
                var parts: [AirspacePart] = []
                for polygon in type == "Polygon" ? [coordinates] : coordinates.compactMap({ $0 as? [Any] }) {
                    guard let outer = polygon.first else { continue }
                    var holes: [[Position]] = []
                    for h in polygon.dropFirst() { holes.append(try ring(h)) }
                    parts.append(AirspacePart(outer: try ring(outer), holes: holes))
                }
                guard !parts.isEmpty else { throw GatewayError.content(place: place, reason: "a polygon needs 3 or more points") }
                shape = parts.count == 1 && parts[0].holes.isEmpty ? .polygon(parts[0].outer) : .region(parts)
            } else {
                throw GatewayError.content(place: place, reason: "geometry \(type) is not a Polygon, a MultiPolygon or a Point with radiusNM")
            }
            func time(_ key: String) throws(GatewayError) -> Double? {
                guard let text = p[key] as? String else { return nil }
                guard let t = Timestamp.parse(text) else { throw GatewayError.content(place: place, reason: "\(key) \(text) is not an ISO-8601 UTC time") }
                return t
            }
            func feet(_ key: String) throws(GatewayError) -> Int? {
                guard let v = number(p[key]) else { return nil }
                guard v.isFinite, (-2_000...200_000).contains(v) else { throw GatewayError.content(place: place, reason: "\(key) \(v) is not an altitude in feet") }
                return Int(v)
            }
            var severity = AirspaceArea.Severity.caution
            if let s = p["severity"] as? String {
                guard let v = AirspaceArea.Severity(name: s) else { throw GatewayError.content(place: place, reason: "severity \(s) is not info, caution, warning or critical") }
                severity = v
            }
            var kind: AirspaceKind? = nil
            if let k = p["kind"] as? String {
                guard let v = AirspaceKind(rawValue: k.lowercased()) else {
                    throw GatewayError.content(place: place, reason: "kind \(k) is not one of \(AirspaceKind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                kind = v
            }
            out.append(AirspaceArea(
                id: id, name: p["name"] as? String ?? id, shape: shape,
                floorFt: try feet("floorFt"), floorIsAGL: (p["floorRef"] as? String)?.uppercased() == "AGL",
                ceilingFt: try feet("ceilingFt"), ceilingIsAGL: (p["ceilingRef"] as? String)?.uppercased() == "AGL",
                start: try time("start"), end: try time("end"), severity: severity, kind: kind))
        }
        return out
    }

    static func number(_ v: Any?) -> Double? {
        if let d = v as? Double { return d }
        if let i = v as? Int { return Double(i) }
        return nil
    }

    /// A GeoJSON `[lon, lat]` pair that is a coordinate on the Earth, else nil.
    package static func position(_ a: [Any]) -> Position? {
        guard a.count >= 2, let lon = number(a[0]), let lat = number(a[1]) else { return nil }
        let p = Position(latitude: lat, longitude: lon)
        return AirspaceArea.problem(p) == nil ? p : nil
    }
}
