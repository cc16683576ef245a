import GatewayRecords
import GatewayDomain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GDL90

extension Notam {
    /// A NOTAM heard on FIS-B (products 8, 16, 17, 18, 19): its text as broadcast (possibly
    /// ending "(INCMPL)"), number, location, times, and all its graphics as the geometry
    /// (ranked above parsed text, below an official polygon). TFRs are FDC NOTAMs, so a FIS-B
    /// copy and a fetched copy share the key `FDC:Y/NNNN` and merge in the store.
    package init?(fisb r: FISBReport) {
        guard r.kind.isNOTAM, let number = r.number else { return nil }
        self = NotamParser.parse(r.text, source: "fisb")
        self.number = number
        let isTFR = r.subtype == "TFR" || [18, 19].contains(r.productID)
        if isTFR || r.subtype == "FDC" { issuer = "FDC" } else if issuer == nil { issuer = r.location }
        if let l = r.location { if NotamParser.isICAO(l) { location = l } else { designator = l } }
        if let s = r.start { start = s }
        if let e = r.end { end = e }
        text = r.text
        // Every circle and polygon of the report: one keeps its exact form, several make a
        // region (circles as polygons) whose limits span theirs.
        let shapes = r.geometry.filter { $0.shape == "circle" || $0.shape == "polygon" }
        var parts: [AirspacePart] = []
        var single: NotamGeometry? = nil
        for shape in shapes {
            let points = shape.coordinates.compactMap { $0.count >= 2 ? Position(latitude: $0[1], longitude: $0[0]) : nil }
            if shape.shape == "circle", let c = points.first, let radius = shape.radiusNM, radius > 0 {
                single = .circle(c, radiusNM: radius, origin: .fisb)
                parts.append(AirspacePart(outer: NotamTextGeometry.polygon(circle: c, radiusNM: radius)))
            } else if points.count >= 3 {
                var ring = points
                if ring.first == ring.last { ring.removeLast() }
                single = .polygon(ring, origin: .fisb)
                parts.append(AirspacePart(outer: ring))
            }
        }
        if var g = parts.count == 1 ? single : NotamGeometry.region(parts, origin: .fisb) {
            let floors = shapes.map { $0.floorFt ?? 0 }, ceilings = shapes.map(\.ceilingFt)
            let floor = floors.min() ?? 0
            g.floorFt = floor == 0 ? nil : floor
            g.floorAGL = shapes.contains { $0.floorRef == "AGL" && ($0.floorFt ?? 0) == floor }
            g.ceilingFt = ceilings.contains { $0 == nil } ? nil : ceilings.compactMap { $0 }.max()
            g.ceilingAGL = shapes.allSatisfy { $0.ceilingRef == "AGL" }
            geometry = g
        }
        id = NotamParser.identity(self)
        NotamParser.finish(&self, keepGeometryLimits: geometry?.origin == .fisb)
        if isTFR && kind == nil {
            kind = .tfr
            severity = NotamParser.severity(self)
        }
    }
}
