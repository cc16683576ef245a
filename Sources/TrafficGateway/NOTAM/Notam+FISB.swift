import Foundation
import GDL90

extension Notam {
    /// A NOTAM heard on FIS-B (products 8, 16, 17, 18, 19): its text as broadcast (possibly
    /// ending "(INCMPL)"), number, location, times, and its first graphic as the geometry
    /// (ranked above parsed text, below an official polygon). TFRs are FDC NOTAMs, so a FIS-B
    /// copy and a fetched copy share the key `FDC:Y/NNNN` and merge in the store.
    public init?(fisb r: FISBReport) {
        guard r.kind.isNOTAM, let number = r.number else { return nil }
        self = NotamParser.parse(r.text, source: "fisb")
        self.number = number
        let isTFR = r.subtype == "TFR" || [18, 19].contains(r.productID)
        if isTFR || r.subtype == "FDC" { issuer = "FDC" } else if issuer == nil { issuer = r.location }
        if let l = r.location { if NotamParser.isICAO(l) { location = l } else { designator = l } }
        if let s = r.start { start = s }
        if let e = r.end { end = e }
        text = r.text
        if let shape = r.geometry.first(where: { $0.shape == "circle" || $0.shape == "polygon" }) {
            let points = shape.coordinates.compactMap { $0.count >= 2 ? Position(latitude: $0[1], longitude: $0[0]) : nil }
            var g: NotamGeometry? = nil
            if shape.shape == "circle", let c = points.first, let radius = shape.radiusNM {
                g = .circle(c, radiusNM: radius, origin: .fisb)
            } else if points.count >= 3 {
                var ring = points
                if ring.first == ring.last { ring.removeLast() }
                g = .polygon(ring, origin: .fisb)
            }
            if var g {
                g.floorFt = shape.floorFt == 0 ? nil : shape.floorFt
                g.floorAGL = shape.floorRef == "AGL"
                g.ceilingFt = shape.ceilingFt
                g.ceilingAGL = shape.ceilingRef == "AGL"
                geometry = g
            }
        }
        id = NotamParser.identity(self)
        NotamParser.finish(&self, keepGeometryLimits: geometry?.origin == .fisb)
        if isTFR && kind == nil {
            kind = .tfr
            severity = NotamParser.severity(self)
        }
    }
}
