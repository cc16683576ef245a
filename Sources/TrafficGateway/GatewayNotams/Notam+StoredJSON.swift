import GatewaySupport
import GatewayRecords
/// A NOTAM as the store keeps it: the JSON its `Codable` conformance reads back (the same keys,
/// absent optionals as null), written with the project's `JSONWriter` instead of Foundation's
/// `JSONEncoder`, which was a third of `notams import` (issue 26: ≥ 2,000 NOTAMs/s).
/// `NotamStoredJSONTests` decodes it with `JSONDecoder` and compares every NOTAM of the
/// real-shaped set with the original.
extension Notam {
    /// The stored form.
    package var storedJSON: String {
        var o = JSONWriter()
        o.add("classification", classification)
        o.add("designator", designator)
        o.addExact("end", end)
        o.add("endEstimated", endEstimated)
        o.add("fir", fir)
        o.addRaw("geometry", geometry?.storedJSON ?? "null")
        o.add("id", id)
        o.addExact("issued", issued)
        o.add("issuer", issuer)
        o.add("kind", kind?.rawValue)
        o.addRaw("limits", limits?.storedJSON ?? "null")
        o.add("location", location)
        o.add("number", number)
        o.add("permanent", permanent)
        o.addRaw("q", q?.storedJSON ?? "null")
        o.add("raw", raw)
        o.addRaw("reference", reference.map(JSONWriter.exactArray) ?? "null")
        o.add("refersTo", refersTo)
        o.add("schedule", schedule)
        o.add("selectionCode", selectionCode)
        o.add("series", series)
        o.add("severity", severity)
        o.add("source", source)
        o.addExact("start", start)
        o.add("text", text)
        o.add("type", type)
        var list = OutputBuffer(capacity: 64)
        list.append(byte: UInt8(ascii: "["))
        for (i, s) in unparsed.enumerated() {
            if i > 0 { list.append(byte: UInt8(ascii: ",")) }
            list.appendJSONQuoted(s)
        }
        list.append(byte: UInt8(ascii: "]"))
        o.addRaw("unparsed", list.text)
        return o.result
    }
}

extension NotamGeometry {
    /// The stored form (see `Notam.storedJSON`).
    var storedJSON: String {
        var o = JSONWriter()
        o.add("ceilingAGL", ceilingAGL)
        o.add("ceilingFt", ceilingFt)
        o.addRaw("center", center.map(JSONWriter.exactArray) ?? "null")
        o.addRaw("cutouts", cutouts.map { "[" + $0.map(\.storedJSON).joined(separator: ",") + "]" } ?? "null")
        o.add("floorAGL", floorAGL)
        o.add("floorFt", floorFt)
        o.add("origin", origin.rawValue)
        if let partBands {
            o.addRaw("partBands", "[" + partBands.map { b in
                var w = JSONWriter()
                w.add("ceilingFt", b.ceilingFt)
                w.add("floorFt", b.floorFt)
                return w.result
            }.joined(separator: ",") + "]")
        }
        o.addRaw("parts", parts.map { "[" + $0.map { "[" + $0.map(JSONWriter.exactArray).joined(separator: ",") + "]" }.joined(separator: ",") + "]" } ?? "null")
        o.addRaw("polygon", polygon.map(JSONWriter.exactArray) ?? "null")
        o.addExact("radiusNM", radiusNM)
        return o.result
    }
}

extension NotamCutout {
    /// The stored form (see `Notam.storedJSON`).
    var storedJSON: String {
        var o = JSONWriter()
        o.add("ceilingFt", ceilingFt)
        o.add("floorFt", floorFt)
        o.addRaw("ring", JSONWriter.exactArray(ring))
        return o.result
    }
}

extension NotamLimits {
    /// The stored form (see `Notam.storedJSON`).
    var storedJSON: String {
        var o = JSONWriter()
        o.add("ceilingAGL", ceilingAGL)
        o.add("ceilingExclusive", ceilingExclusive)
        o.add("ceilingFt", ceilingFt)
        o.add("floorAGL", floorAGL)
        o.add("floorFt", floorFt)
        o.add("origin", origin)
        return o.result
    }
}

extension QLine {
    /// The stored form (see `Notam.storedJSON`).
    var storedJSON: String {
        var o = JSONWriter()
        o.add("code", code)
        o.add("fir", fir)
        o.addExact("latitude", latitude)
        o.addExact("longitude", longitude)
        o.add("lowerFL", lowerFL)
        o.add("purpose", purpose)
        o.addExact("radiusNM", radiusNM)
        o.add("scope", scope)
        o.add("traffic", traffic)
        o.add("upperFL", upperFL)
        return o.result
    }
}

extension JSONWriter {
    /// Writes a number as its shortest text that reads back as the same `Double` (or null): what
    /// a store needs, where the outputs' fixed decimals would lose digits. JSON has no NaN or
    /// infinity; stored values are checked before they get here, and such a value is written as 0.
    mutating func addExact(_ k: StaticString, _ v: Double?) {
        addRaw(k, v.map(Self.exact) ?? "null")
    }

    static func exact(_ v: Double) -> String { v.isFinite ? v.description : "0" }

    /// `[1.5,-2]`, each number exact.
    static func exactArray(_ values: [Double]) -> String { "[" + values.map(exact).joined(separator: ",") + "]" }

    /// `[[lat,lon],…]`, each number exact.
    static func exactArray(_ ring: [[Double]]) -> String { "[" + ring.map(exactArray).joined(separator: ",") + "]" }
}
