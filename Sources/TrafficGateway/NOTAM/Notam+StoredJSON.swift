/// A NOTAM as the store keeps it: the JSON its `Codable` conformance reads back (the same keys,
/// in sorted order, absent optionals left out), written directly instead of through Foundation's
/// `JSONEncoder`, which was a third of `notams import` (issue 26: ≥ 2,000 NOTAMs/s).
/// `NotamStoredJSONTests` decodes it with `JSONDecoder` and compares every NOTAM of the
/// real-shaped set with the original.
extension Notam {
    /// The stored form.
    public var storedJSON: String {
        var o = StoredObject()
        o.add("classification", classification)
        o.add("designator", designator)
        o.add("end", end)
        o.add("endEstimated", endEstimated)
        o.add("fir", fir)
        if let geometry { o.key("geometry"); o.out.append(geometry.storedJSON) }
        o.add("id", id)
        o.add("issued", issued)
        o.add("issuer", issuer)
        o.add("kind", kind?.rawValue)
        if let limits { o.key("limits"); o.out.append(limits.storedJSON) }
        o.add("location", location)
        o.add("number", number)
        o.add("permanent", permanent)
        if let q { o.key("q"); o.out.append(q.storedJSON) }
        o.add("raw", raw)
        if let reference { o.key("reference"); StoredObject.append(reference, to: &o.out) }
        o.add("refersTo", refersTo)
        o.add("schedule", schedule)
        o.add("selectionCode", selectionCode)
        o.add("series", series)
        o.add("severity", severity)
        o.add("source", source)
        o.add("start", start)
        o.add("text", text)
        o.add("type", type)
        o.key("unparsed")
        o.out.append(byte: UInt8(ascii: "["))
        for (i, s) in unparsed.enumerated() {
            if i > 0 { o.out.append(byte: UInt8(ascii: ",")) }
            o.out.appendJSONQuoted(s)
        }
        o.out.append(byte: UInt8(ascii: "]"))
        return o.close()
    }
}

extension NotamGeometry {
    /// The stored form (see `Notam.storedJSON`).
    var storedJSON: String {
        var o = StoredObject()
        o.add("ceilingAGL", ceilingAGL)
        o.add("ceilingFt", ceilingFt)
        if let center { o.key("center"); StoredObject.append(center, to: &o.out) }
        if let cutouts {
            o.key("cutouts")
            o.out.append(byte: UInt8(ascii: "["))
            for (i, c) in cutouts.enumerated() {
                if i > 0 { o.out.append(byte: UInt8(ascii: ",")) }
                var co = StoredObject()
                co.add("ceilingFt", c.ceilingFt)
                co.add("floorFt", c.floorFt)
                co.key("ring")
                StoredObject.append(c.ring, to: &co.out)
                o.out.append(co.close())
            }
            o.out.append(byte: UInt8(ascii: "]"))
        }
        o.add("floorAGL", floorAGL)
        o.add("floorFt", floorFt)
        o.add("origin", origin.rawValue)
        if let parts {
            o.key("parts")
            o.out.append(byte: UInt8(ascii: "["))
            for (i, part) in parts.enumerated() {
                if i > 0 { o.out.append(byte: UInt8(ascii: ",")) }
                o.out.append(byte: UInt8(ascii: "["))
                for (j, ring) in part.enumerated() {
                    if j > 0 { o.out.append(byte: UInt8(ascii: ",")) }
                    StoredObject.append(ring, to: &o.out)
                }
                o.out.append(byte: UInt8(ascii: "]"))
            }
            o.out.append(byte: UInt8(ascii: "]"))
        }
        if let polygon { o.key("polygon"); StoredObject.append(polygon, to: &o.out) }
        o.add("radiusNM", radiusNM)
        return o.close()
    }
}

extension NotamLimits {
    /// The stored form (see `Notam.storedJSON`).
    var storedJSON: String {
        var o = StoredObject()
        o.add("ceilingAGL", ceilingAGL)
        o.add("ceilingExclusive", ceilingExclusive)
        o.add("ceilingFt", ceilingFt)
        o.add("floorAGL", floorAGL)
        o.add("floorFt", floorFt)
        o.add("origin", origin)
        return o.close()
    }
}

extension QLine {
    /// The stored form (see `Notam.storedJSON`).
    var storedJSON: String {
        var o = StoredObject()
        o.add("code", code)
        o.add("fir", fir)
        o.add("latitude", latitude)
        o.add("longitude", longitude)
        o.add("lowerFL", lowerFL)
        o.add("purpose", purpose)
        o.add("radiusNM", radiusNM)
        o.add("scope", scope)
        o.add("traffic", traffic)
        o.add("upperFL", upperFL)
        return o.close()
    }
}

/// One JSON object being written: keys in the order given, nil values left out, numbers in
/// the shortest form that reads back as the same `Double`.
struct StoredObject {
    var out = OutputBuffer(capacity: 512)
    private var first = true

    init() { out.append(byte: UInt8(ascii: "{")) }

    mutating func key(_ name: StaticString) {
        if !first { out.append(byte: UInt8(ascii: ",")) }
        first = false
        out.append(byte: UInt8(ascii: "\""))
        out.append(name)
        out.append(StaticString("\":"))
    }

    mutating func add(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        out.appendJSONQuoted(value)
    }

    mutating func add(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        key(name)
        out.append(value)
    }

    mutating func add(_ name: StaticString, _ value: Double?) {
        guard let value else { return }
        key(name)
        Self.append(value, to: &out)
    }

    mutating func add(_ name: StaticString, _ value: Bool) {
        key(name)
        out.append(value ? StaticString("true") : StaticString("false"))
    }

    mutating func close() -> String {
        out.append(byte: UInt8(ascii: "}"))
        return out.text
    }

    /// A finite number as its shortest round-trip text (`description`); JSON has no NaN or
    /// infinity, and the store's values are checked before they get here: they are written as 0.
    static func append(_ v: Double, to out: inout OutputBuffer) {
        out.append(v.isFinite ? v.description : "0")
    }

    static func append(_ values: [Double], to out: inout OutputBuffer) {
        out.append(byte: UInt8(ascii: "["))
        for (i, v) in values.enumerated() {
            if i > 0 { out.append(byte: UInt8(ascii: ",")) }
            append(v, to: &out)
        }
        out.append(byte: UInt8(ascii: "]"))
    }

    static func append(_ ring: [[Double]], to out: inout OutputBuffer) {
        out.append(byte: UInt8(ascii: "["))
        for (i, point) in ring.enumerated() {
            if i > 0 { out.append(byte: UInt8(ascii: ",")) }
            append(point, to: &out)
        }
        out.append(byte: UInt8(ascii: "]"))
    }
}
