import GatewaySupport
/// JSON Lines and one-line text for FIS-B reports. JSON contract:
/// `{"type":"fisb","product":413,"kind":"METAR","location":"KCEY","text":"METAR KCEY …","time":"…"}`;
/// the NOTAM family adds `number`, `subtype`, `start`, `end` and `geometry` (a list of
/// `{"shape","coordinates":[[lon,lat],…],"radiusNM","floorFt","floorRef","ceilingFt","ceilingRef","start","stop"}`);
/// SUA adds `name`, `status`, `floorFt`, `ceilingFt`, `start`, `end`; gridded products add
/// `blocks` (count), `emptyBlocks` and `bounds` (`north`, `south`, `west`, `east`); report lists add
/// `rangeNM`, `tfr` and `reports`; service status adds `aircraft`.
package enum FISBFormatter {
    /// The JSON object of one report.
    package static func json(_ r: FISBReport) -> String {
        var w = JSONWriter()
        w.add("type", "fisb")
        w.add("product", r.productID)
        w.add("kind", r.kind.rawValue)
        w.add("location", r.location)
        if r.kind.isNOTAM || r.kind == .sua {
            w.add("number", r.number)
            w.add("subtype", r.subtype)
        } else if let subtype = r.subtype {
            w.add("subtype", subtype)
        }
        if r.kind != .crl && r.kind != .serviceStatus && !r.kind.isGridded { w.add("text", r.text) }
        w.add("time", r.time.map(Timestamp.iso8601))
        w.add("received", Timestamp.iso8601(r.received))
        if r.kind.isNOTAM || r.kind == .sua || r.start != nil || r.end != nil {
            w.add("start", r.start.map(Timestamp.iso8601))
            w.add("end", r.end.map(Timestamp.iso8601))
        }
        if let number = r.reportNumber { w.add("reportNumber", number) }
        if r.kind.isNOTAM || !r.geometry.isEmpty { w.addRaw("geometry", JSONWriter.array(r.geometry.map(json))) }
        for (k, v) in r.extra { w.addRaw(key: k, v) }
        return w.result
    }

    /// The JSON object of one shape.
    package static func json(_ s: FISBReport.Shape) -> String {
        var w = JSONWriter()
        w.add("shape", s.shape)
        w.addRaw("coordinates", JSONWriter.array(s.coordinates.map { c in
            JSONWriter.array(c.map { JSONWriter.format($0, decimals: 6) })
        }))
        if let radius = s.radiusNM { w.add("radiusNM", radius, decimals: 1) }
        w.add("floorFt", s.floorFt)
        w.add("floorRef", s.floorRef)
        w.add("ceilingFt", s.ceilingFt)
        w.add("ceilingRef", s.ceilingRef)
        w.add("start", s.start.map(Timestamp.iso8601))
        w.add("stop", s.stop.map(Timestamp.iso8601))
        return w.result
    }

    /// One readable line: time, kind, location/number, then the text on one line.
    package static func text(_ r: FISBReport) -> String {
        var s = "\(r.time.map(Timestamp.iso8601) ?? Timestamp.iso8601(r.received))  \(r.kind.rawValue)"
        if let l = r.location { s += " \(l)" }
        if let n = r.number { s += " \(n)" }
        if let t = r.subtype, !r.kind.isNOTAM { s += " (\(t))" }
        if !r.geometry.isEmpty { s += " [\(r.geometry.count) shape\(r.geometry.count == 1 ? "" : "s")]" }
        if !r.text.isEmpty {
            s += "  " + r.text.split(whereSeparator: { $0 == "\n" }).joined(separator: " ")
        } else if !r.extra.isEmpty {
            s += "  " + r.extra.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
        }
        return s
    }
}
