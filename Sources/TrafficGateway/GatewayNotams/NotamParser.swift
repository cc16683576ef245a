import GatewaySupport
import GatewayRecords
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GDL90

/// Reads NOTAM texts: ICAO format (`Q) … A) … B) … C) … D) … E) … F) … G)`) and FAA domestic
/// format (`!FDC 6/2174 ZSE OR..AIRSPACE … 2605161300-2605161800`, `!SLE 05/012 SLE RWY 13/31
/// CLSD 2605160800-2605170800`), geometry in the text (circles, point lists, limits), severity.
package enum NotamParser {
    /// Parses `raw` (either format) into a NOTAM from `source`; `id` overrides the identity.
    package static func parse(_ raw: String, source: String, id: String? = nil) -> Notam {
        var meter = TextPattern.Meter()
        return parse(raw, source: source, id: id, meter: &meter)
    }

    /// The same, the pattern searches' cost added to `meter`. A search that runs over its budget
    /// (issue 40) leaves the NOTAM as written, with a note (`keptAsWritten`): no items, area or
    /// limits are taken from a text not read to its end.
    static func parse(_ raw: String, source: String, id: String? = nil, meter: inout TextPattern.Meter) -> Notam {
        let text = raw.replacingAll("\r", with: "").trimmingWhitespaceAndNewlines()
        var n = Notam(id: id ?? "", raw: text, source: source)
        let over = meter.overBudget.count
        // An item letter starts a word: "(3.9NM SSW ABQ)" is no Q) item.
        if text.hasPrefix("Q)") || text.has(" Q)") || text.has("\nQ)") || text.has("\tQ)") || text.has("(Q)")
            || text.hasPrefix("E)") || text.has(" E)") || text.has("\nE)") || text.has("\tE)") {
            parseICAO(text, into: &n, meter: &meter)
        } else {
            parseDomestic(text, into: &n, meter: &meter)
        }
        if n.geometry == nil {
            n.geometry = NotamTextGeometry.geometry(in: n.text, reference: n.referencePosition, referenceNames: n.referenceNames, meter: &meter)
        }
        if n.geometry == nil, let q = n.q, let lat = q.latitude, let lon = q.longitude, let r = q.radiusNM, r > 0, r < 999 {
            n.geometry = NotamGeometry.circle(Position(latitude: lat, longitude: lon), radiusNM: r, origin: .qLine)
        }
        noteOverBudget(&n, Array(meter.overBudget[over...]))
        finish(&n, meter: &meter)
        if id == nil || n.id.isEmpty { n.id = identity(n) }
        return n
    }

    /// Settles what depends on everything read: the limits (the source's fields, else the F)/G)
    /// items, else the text, else the Q-line's flight levels when they say more than 000/999),
    /// copied onto the area unless `keepGeometryLimits` (a FIS-B graphic's own); the kind; the
    /// severity. Sources call it again after overlaying their fields.
    package static func finish(_ n: inout Notam, apiLimits: NotamLimits? = nil, keepGeometryLimits: Bool = false) {
        var meter = TextPattern.Meter()
        finish(&n, apiLimits: apiLimits, keepGeometryLimits: keepGeometryLimits, meter: &meter)
    }

    /// The same, the pattern searches' cost added to `meter`.
    static func finish(_ n: inout Notam, apiLimits: NotamLimits? = nil, keepGeometryLimits: Bool = false, meter: inout TextPattern.Meter) {
        let over = meter.overBudget.count
        var limits = apiLimits
        if limits == nil, let l = n.limits, l.origin == "items" || l.origin == "api" { limits = l }
        if limits == nil { limits = NotamTextGeometry.limits(in: n.text, meter: &meter) }
        if limits == nil, let q = n.q, q.lowerFL != nil || q.upperFL != nil, (q.lowerFL ?? 0) > 0 || (q.upperFL ?? 999) < 999 {
            limits = NotamLimits(floorFt: q.lowerFL.flatMap { $0 == 0 ? nil : $0 * 100 }, ceilingFt: q.upperFL.flatMap { $0 >= 999 ? nil : $0 * 100 }, origin: "q-line")
        }
        n.limits = limits
        n.unparsed.removeAll { $0.hasPrefix("coordinate ") }
        if n.geometry.map({ $0.origin <= .text }) ?? true {
            for c in NotamTextGeometry.unreadableCoordinates(in: n.text, reference: n.referencePosition, referenceNames: n.referenceNames, meter: &meter) {
                n.unparsed.append("coordinate \(c): a hemisphere letter or a digit is missing and no stated reference confirms a repair")
            }
        }
        if var g = n.geometry, let l = limits, !keepGeometryLimits {
            (g.floorFt, g.floorAGL, g.ceilingFt, g.ceilingAGL) = (l.floorFt, l.floorAGL, l.ceilingFt, l.ceilingAGL)
            n.geometry = g
        }
        noteOverBudget(&n, Array(meter.overBudget[over...]))
        n.kind = AirspaceClassifier.kind(of: n)
        n.severity = severity(n)
    }

    /// How the note of a NOTAM whose text was too costly to read begins (`notams show` prints it
    /// under "not understood"; `notams import` counts them).
    package static let keptAsWritten = "text kept as written"

    /// Whether `n`'s text was too costly to read (a pattern search ran over its budget).
    package static func isKeptAsWritten(_ n: Notam) -> Bool { n.unparsed.contains { $0.hasPrefix(keptAsWritten) } }

    /// Notes (once) that the searches of `patterns` (sources) ran over their budget on `n`'s text.
    static func noteOverBudget(_ n: inout Notam, _ patterns: [String]) {
        guard !patterns.isEmpty, !isKeptAsWritten(n) else { return }
        let names = TextPatterns.all.filter { p in patterns.contains(p.pattern.source) }.map(\.name)
        n.unparsed.append("\(keptAsWritten): too costly to read (\(names.joined(separator: ", ")) over the search budget); no area or limits taken from it")
    }

    /// issuer + number (`FDC:6/2174`, `SLE:05/012`), or the raw text's hash as a last resort.
    package static func identity(_ n: Notam) -> String {
        if let number = n.number { return "\(n.issuer ?? n.location ?? n.designator ?? "?"):\(number)" }
        var h: UInt64 = 1_469_598_103_934_665_603
        for b in n.raw.utf8 { h = (h ^ UInt64(b)) &* 1_099_511_628_211 }
        return "text:" + String(h, radix: 16)
    }

    // MARK: ICAO

    static func parseICAO(_ text: String, into n: inout Notam, meter: inout TextPattern.Meter) {
        // Header: "A1234/26 NOTAMR A1200/26" (maybe after a leading "(").
        let header = text.prefix { $0 != "\n" && $0 != "Q" }
        let tokens = header.split(whereSeparator: { $0 == " " || $0 == "(" })
        if let first = tokens.first, first.contains("/") {
            n.number = String(first)
            if let s = first.first, s.isLetter { n.series = String(s) }
        }
        if let kind = tokens.first(where: { $0.hasPrefix("NOTAM") }), kind.count == 6 { n.type = String(kind.last!) }
        if tokens.count >= 3, n.type == "R" || n.type == "C" { n.refersTo = String(tokens[2]) }
        let items = icaoItems(text, meter: &meter)
        if let q = items["Q"] { n.q = qLine(q, unparsed: &n.unparsed, meter: &meter); n.fir = n.q?.fir }
        if let a = items["A"] {
            let loc = a.split(separator: " ").first.map(String.init) ?? a
            if isICAO(loc) { n.location = loc } else { n.designator = loc }
        }
        if let b = items["B"] { n.start = time(b) ?? note(&n, "B) \(b)") }
        if let c = items["C"] {
            let up = c.uppercased()
            if up.hasPrefix("PERM") { n.permanent = true } else {
                n.endEstimated = up.has("EST")
                n.end = time(String(up.prefix(10))) ?? note(&n, "C) \(c)")
            }
        }
        n.schedule = items["D"]
        n.text = items["E"] ?? text
        let floor = items["F"].flatMap(limit), ceiling = items["G"].flatMap(limit)
        if floor != nil || ceiling != nil {
            n.limits = NotamLimits(floorFt: floor?.0, floorAGL: floor?.1 ?? false, ceilingFt: ceiling?.0, ceilingAGL: ceiling?.1 ?? false, origin: "items")
        }
    }

    /// The lettered items of an ICAO NOTAM (none when the search ran over its budget), the
    /// search's cost added to `meter`.
    static func icaoItems(_ text: String, meter: inout TextPattern.Meter) -> [String: String] {
        var out: [String: String] = [:]
        let pattern = NotamPatterns.pattern
        let bytes = Array(text.utf8)
        let over = meter.overBudget.count
        let matches = pattern.matches(in: bytes, meter: &meter)
        guard meter.overBudget.count == over else { return [:] }
        for (i, m) in matches.enumerated() {
            let key = bytes.text(m.range(at: 1))
            let from = m.range.upperBound
            let to = i + 1 < matches.count ? matches[i + 1].range.lowerBound : bytes.count
            var value = bytes.text(from..<max(from, to)).trimmingWhitespaceAndNewlines()
            if value.hasSuffix(")") && key == "G" { value.removeLast() }
            if out[key] == nil { out[key] = value }
        }
        return out
    }

    static func qLine(_ q: String, unparsed: inout [String], meter: inout TextPattern.Meter) -> QLine {
        let f = q.split(separator: "/", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        var out = QLine()
        func field(_ i: Int) -> String? { i < f.count && !f[i].isEmpty ? f[i] : nil }
        out.fir = field(0)
        out.code = field(1)
        out.traffic = field(2)
        out.purpose = field(3)
        out.scope = field(4)
        out.lowerFL = field(5).flatMap { $0.count <= 3 ? Int($0) : nil }
        out.upperFL = field(6).flatMap { $0.count <= 3 ? Int($0) : nil }
        if let geo = field(7) {
            // DDMMNDDDMMW + 3-digit radius.
            if NotamPatterns.qLineGeo.occurs(in: Array(geo.utf8), meter: &meter) {
                let c = Array(geo)
                let lat = (Double(String(c[0..<2]))! + Double(String(c[2..<4]))! / 60) * (c[4] == "S" ? -1 : 1)
                let lon = (Double(String(c[5..<8]))! + Double(String(c[8..<10]))! / 60) * (c[10] == "W" ? -1 : 1)
                out.latitude = lat
                out.longitude = lon
                if c.count >= 14 { out.radiusNM = Double(String(c[11..<14])) }
            } else {
                unparsed.append("Q) position \(geo)")
            }
        }
        return out
    }

    // MARK: FAA domestic

    static func parseDomestic(_ text: String, into n: inout Notam, meter: inout TextPattern.Meter) {
        var body = Substring(text)
        if body.hasPrefix("!") { body = body.dropFirst() }
        let parts = body.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[1].contains("/") else {
            n.unparsed.append("no !ISSUER NN/NNN header")
            return
        }
        n.issuer = String(parts[0])
        n.number = String(parts[1])
        n.type = "N"
        var rest = parts.count >= 3 ? String(parts[2...].joined(separator: " ")) : ""
        if parts.count >= 3 {
            let loc = String(parts[2])
            if isICAO(loc) { n.location = loc } else if loc.count <= 5, loc.allSatisfy({ $0.isLetter || $0.isNumber }) { n.designator = loc }
            rest = parts.count >= 4 ? String(parts[3]) : ""
        }
        if n.issuer == "FDC" { n.classification = "FDC" }
        // Validity at the end: YYMMDDHHMM-YYMMDDHHMM[EST] or -PERM.
        let validity = NotamPatterns.validity
        let bytes = Array(rest.utf8)
        if let m = validity.firstMatch(in: bytes, meter: &meter) {
            n.start = time(bytes.text(m.range(at: 1)))
            let e = bytes.text(m.range(at: 2))
            if e == "PERM" { n.permanent = true } else { n.end = time(e) }
            n.endEstimated = m.range(at: 3) != nil
            n.text = bytes.text(0..<m.range.lowerBound).trimmingWhitespace()
        } else {
            n.text = rest
            n.unparsed.append("no validity (YYMMDDHHMM-YYMMDDHHMM)")
        }
        if n.text.uppercased().hasPrefix("CANCEL") { n.type = "C" }
    }

    // MARK: Pieces

    /// `^[A-Z]{4}$`.
    package static func isICAO(_ s: String) -> Bool {
        s.count == 4 && s.allSatisfy { $0.isASCII && $0.isUppercase && $0.isLetter }
    }

    /// YYMMDDHHMM (UTC) → epoch seconds.
    package static func time(_ s: String) -> Double? {
        let d = s.prefix(10)
        guard d.count == 10, d.allSatisfy(\.isNumber) else { return nil }
        let v = Array(d).map { Int(String($0))! }
        let year = 2000 + v[0] * 10 + v[1], month = v[2] * 10 + v[3], day = v[4] * 10 + v[5]
        let hour = v[6] * 10 + v[7], minute = v[8] * 10 + v[9]
        guard (1...12).contains(month), (1...31).contains(day), hour <= 24, minute < 60 else { return nil }
        return Timestamp.midnight(year: year, month: month, day: day) + Double(hour * 3600 + minute * 60)
    }

    static func note(_ n: inout Notam, _ what: String) -> Double? {
        n.unparsed.append(what)
        return nil
    }

    /// Coordinates like 473624N1222007W (DDMMSS/DDDMMSS), 4736N12220W (DDMM/DDDMM), 334805N/1175517W.
    static func coordinate(_ s: String) -> Position? {
        NotamTextGeometry.coordinates(s.uppercased(), reference: nil).first?.position
    }

    /// The area written in `text` (see `NotamTextGeometry`), with the limits the text gives.
    package static func geometry(in text: String) -> NotamGeometry? {
        guard var g = NotamTextGeometry.geometry(in: text) else { return nil }
        if let l = NotamTextGeometry.limits(in: text) { (g.floorFt, g.floorAGL, g.ceilingFt, g.ceilingAGL) = (l.floorFt, l.floorAGL, l.ceilingFt, l.ceilingAGL) }
        return g
    }

    /// One limit: (feet or nil for SFC/UNL, AGL?).
    package static func limit(_ s: String) -> (Int?, Bool)? {
        let t = s.uppercased().trimmingWhitespace()
        if t.hasPrefix("SFC") || t.hasPrefix("GND") || t.hasPrefix("SURFACE") { return (nil, false) }
        if t.hasPrefix("UNL") { return (nil, false) }
        if t.hasPrefix("FL") { return Int(t.dropFirst(2).trimmingWhitespace().prefix(3)).map { ($0 * 100, false) } }
        let digits = t.prefix { $0.isNumber || $0 == "," }.filter(\.isNumber)
        guard let v = Int(digits) else { return nil }
        return (v == 0 ? nil : v, t.has("AGL"))
    }

    // MARK: Severity

    /// critical (prohibited airspace, FIR closed, no ATS), warning (aerodrome or runway closed,
    /// restricted areas), caution (partial closures), info (the rest).
    /// An airspace NOTAM's severity follows its kind's alert levels (a restricted area or TFR:
    /// warning; a MOA: caution; a parachute area: info), a prohibited area or a closed FIR
    /// staying critical.
    package static func severity(_ n: Notam) -> String {
        let t = " " + n.text.uppercased() + " "
        let code = n.selectionCode ?? n.q?.code ?? ""
        if let kind = n.kind {
            if kind == .prohibited || t.has("FIR CLSD") || t.has("AIRSPACE CLSD") { return "critical" }
            return kind.defaultLevels.severity.description
        }
        // "Flight operations are prohibited within…" is how every TFR reads: only a prohibited
        // *area* (or its Q-code) is critical; TFRs are cautions below.
        if code.hasPrefix("QRP") || t.has(" PROHIBITED AREA") || t.has("FIR CLSD") || t.has("NO ATS")
            || t.has("AIRSPACE CLSD") {
            return "critical"
        }
        if code.hasPrefix("QRR") || t.has("RESTRICTED AREA") || (t.has(" AD ") && t.has(" CLSD ") && !t.has(" EXC "))
            || code.hasPrefix("QFALC") || code.hasPrefix("QMRLC") || (t.has(" RWY ") && t.has(" CLSD") && !t.has(" EXC ")) {
            return "warning"
        }
        if code.hasPrefix("QRT") || t.has("TEMPORARY FLIGHT RESTRICTION") || t.has(" TFR ") || t.has(" CLSD ") || t.has(" CLSD")
            || n.issuer == "FDC" && t.has("AIRSPACE") {
            return "caution"
        }
        return "info"
    }
}

/// The parser's regular expressions, compiled once (TextPattern is an immutable value).
enum NotamPatterns {
    static let pattern = TextPattern(#"(?:^|\s|\()([QABCDEFG])\)\s*"#)
    /// The Q-line's DDMMNDDDMMW position and 3-digit radius.
    static let qLineGeo = TextPattern(#"^(\d{2})(\d{2})([NS])(\d{3})(\d{2})([EW])(\d{3})?$"#)
    static let validity = TextPattern(#"(\d{10})-(\d{10}|PERM)(EST)?\s*$"#)
}
