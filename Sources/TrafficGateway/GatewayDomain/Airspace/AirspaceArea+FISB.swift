import GDL90

extension AirspaceArea {
    /// The areas of a FIS-B NOTAM report with TFR graphics (products 8, 18, 19): one per
    /// polygon or circle, id `FDC Y/NNNN` (with `#n` for the second and later shapes), each
    /// with its own limits and times (the report's when a shape has none).
    package static func fromFISB(_ r: FISBReport) -> [AirspaceArea] {
        guard r.kind == .notam, r.subtype == "TFR" || [18, 19].contains(r.productID), let number = r.number else { return [] }
        let base = "FDC \(number)"
        var out: [AirspaceArea] = []
        for shape in r.geometry {
            let points = shape.coordinates.compactMap { c in c.count >= 2 ? Position(latitude: c[1], longitude: c[0]) : nil }
            let geometry: AirspaceArea.Shape
            switch shape.shape {
            case "circle":
                guard let center = points.first, let radius = shape.radiusNM, radius > 0 else { continue }
                geometry = .circle(center: center, radiusNM: radius)
            case "polygon":
                var ring = points
                if ring.count > 1 && ring.first == ring.last { ring.removeLast() }
                guard ring.count >= 3 else { continue }
                geometry = .polygon(ring)
            default:
                continue
            }
            let id = out.isEmpty ? base : "\(base)#\(out.count + 1)"
            out.append(AirspaceArea(
                id: id, name: "TFR \(number)\(r.location.map { " (\($0))" } ?? "") from FIS-B", shape: geometry,
                floorFt: shape.floorFt == 0 ? nil : shape.floorFt, floorIsAGL: shape.floorRef == "AGL",
                ceilingFt: shape.ceilingFt, ceilingIsAGL: shape.ceilingRef == "AGL",
                start: shape.start ?? r.start, end: shape.stop ?? r.end, severity: .caution))
        }
        return out
    }
}
