import GatewaySupport
import GatewayRecords
import GatewayDomain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GDL90

/// Areas and limits written in NOTAM texts, in the wordings the FAA and ICAO use:
/// circles ("5NM RADIUS OF 450034N1230011W", "3 NMR OF 334805N/1175517W", "372NM RADIUS
/// CENTERED AT 330320N1063343W"), point lists (one ring, or several each closed by repeating
/// its first point; "CLOCKWISE ON A 10NM ARC CENTERED ON c TO p" arcs), corridors ("0.2NM EITHER SIDE OF A LINE FM p TO p TO p", buffered), and
/// vertical limits ("SFC-7999FT", "1000FT-FL180", "UP TO BUT NOT INCLUDING FL225", "UP TO AND
/// INCLUDING 3000FT AGL"). A coordinate missing its hemisphere letter or its leading zero is
/// repaired only when a stated reference ("34.75NM NE LAW") puts the repaired point there.
package enum NotamTextGeometry {
    /// One coordinate in a text: where it is and the position read (nil: unreadable as written).
    struct Found {
        var range: Range<Int>
        var position: Position?
        var written: String
    }

    /// Every coordinate in `up` (upper case), repaired against `reference` where needed.
    static func coordinates(_ up: String, reference: Position?, referenceNames: Set<String> = []) -> [Found] {
        var meter = TextPattern.Meter()
        return coordinates(up, reference: reference, referenceNames: referenceNames, meter: &meter)
    }

    /// The same, the searches' cost added to `meter`.
    static func coordinates(_ up: String, reference: Position?, referenceNames: Set<String> = [], meter: inout TextPattern.Meter) -> [Found] {
        // Cheap test first: a coordinate has 4+ digits then N or S.
        guard hasCoordinate(up) else { return [] }
        let bytes = Array(up.utf8)
        let stated = statedReference(up, reference: reference, names: referenceNames, meter: &meter)
        return TextPatterns.coordinate.matches(in: bytes, meter: &meter).map { m in
            let lat = bytes.text(m.range(at: 1)), ns1 = bytes.text(m.range(at: 2))
            let lon = bytes.text(m.range(at: 3))
            let ew = bytes.text(m.range(at: 4))
            let written = bytes.text(m.range)
            if !ew.isEmpty, let p = position(lat: lat, ns: ns1, lon: lon, ew: ew) { return Found(range: m.range, position: p, written: written) }
            // Repairs: a longitude missing its leading zero (6 digits where DDDMMSS has 7), a
            // missing E/W letter; kept only when the stated reference confirms.
            var candidates: [Position] = []
            let lonDigits = lon.prefix { $0 != "." }.count
            let lons = lonDigits == 6 || lonDigits == 4 ? ["0" + lon] : [lon]
            for l in lons { for h in ew.isEmpty ? ["W", "E"] : [ew] { if let p = position(lat: lat, ns: ns1, lon: l, ew: h) { candidates.append(p) } } }
            if let stated, let best = candidates.min(by: { Geodesy.distanceNM($0, stated.point) < Geodesy.distanceNM($1, stated.point) }),
               Geodesy.distanceNM(best, stated.point) <= max(10, stated.distanceNM * 0.6) {
                return Found(range: m.range, position: best, written: written)
            }
            return Found(range: m.range, position: nil, written: written)
        }
    }

    /// The coordinates of `text` that could not be read as written nor repaired with a
    /// confirming reference (for the NOTAM's "not understood" list).
    package static func unreadableCoordinates(in text: String, reference: Position? = nil, referenceNames: Set<String> = []) -> [String] {
        var meter = TextPattern.Meter()
        return unreadableCoordinates(in: text, reference: reference, referenceNames: referenceNames, meter: &meter)
    }

    /// The same, the searches' cost added to `meter` (none when a search ran over budget).
    static func unreadableCoordinates(in text: String, reference: Position? = nil, referenceNames: Set<String> = [],
                                      meter: inout TextPattern.Meter) -> [String] {
        let over = meter.overBudget.count
        let found = coordinates(text.uppercased(), reference: reference, referenceNames: referenceNames, meter: &meter)
        return meter.overBudget.count > over ? [] : found.filter { $0.position == nil }.map(\.written)
    }

    /// Whether `up` may hold a coordinate (four digits then N or S), without a regex.
    static func hasCoordinate(_ up: String) -> Bool {
        var digits = 0
        for b in up.utf8 {
            if b >= 0x30 && b <= 0x39 { digits += 1; continue }
            if digits >= 4 && (b == UInt8(ascii: "N") || b == UInt8(ascii: "S")) { return true }
            if b != UInt8(ascii: ".") { digits = 0 }
        }
        return false
    }

    /// The point a "34.75NM NE LAW" reference names, when `reference` is that location's
    /// position. It describes the area as a whole, so a repaired point is accepted within 60 %
    /// of the stated distance (at least 10 NM) of it; the wrong hemisphere or a dropped digit
    /// lands hundreds of miles away.
    static func statedReference(_ up: String, reference: Position?, names: Set<String>, meter: inout TextPattern.Meter) -> (point: Position, distanceNM: Double)? {
        guard let reference, up.has("NM ") else { return nil }
        let bytes = Array(up.utf8)
        guard let m = TextPatterns.stated.firstMatch(in: bytes, meter: &meter),
              let d = Double(bytes.text(m.range(at: 1))) else { return nil }
        let dirs = ["N": 0.0, "NNE": 22.5, "NE": 45, "ENE": 67.5, "E": 90, "ESE": 112.5, "SE": 135, "SSE": 157.5, "S": 180,
                    "SSW": 202.5, "SW": 225, "WSW": 247.5, "W": 270, "WNW": 292.5, "NW": 315, "NNW": 337.5]
        guard let bearing = dirs[bytes.text(m.range(at: 2))] else { return nil }
        // The place named must be the one whose position we have (LAW for KLAW).
        guard names.contains(bytes.text(m.range(at: 3))) else { return nil }
        return (Geodesy.destination(from: reference, bearingDeg: bearing, distanceNM: d), d)
    }

    /// DDMM[SS][.s] + N/S, DDDMM[SS][.s] + E/W.
    static func position(lat: String, ns: String, lon: String, ew: String) -> Position? {
        func dms(_ t: String, degreeDigits: Int) -> Double? {
            let parts = t.split(separator: ".", maxSplits: 1)
            let whole = Array(parts.first ?? "")
            let fraction = parts.count > 1 ? Double("0." + parts[1]) ?? 0 : 0
            guard whole.count == degreeDigits + 2 || whole.count == degreeDigits + 4, whole.allSatisfy(\.isNumber) else { return nil }
            let deg = Double(String(whole[0..<degreeDigits]))!
            let min = Double(String(whole[degreeDigits..<(degreeDigits + 2)]))!
            guard min < 60 else { return nil }
            if whole.count == degreeDigits + 2 { return deg + (min + fraction) / 60 }
            let sec = Double(String(whole[(degreeDigits + 2)...]))! + fraction
            guard sec < 60 else { return nil }
            return deg + min / 60 + sec / 3600
        }
        guard let a = dms(lat, degreeDigits: 2), let o = dms(lon, degreeDigits: 3), a <= 90, o <= 180 else { return nil }
        return Position(latitude: ns == "S" ? -a : a, longitude: ew == "W" ? -o : o)
    }

    /// The area in `text`: circles, rings and corridors together (several become a region; one
    /// circle stays an exact circle). `reference` confirms repairs.
    /// `referenceNames`: the names that position goes by (`KLAW`, `LAW`); a stated reference
    /// to another place confirms nothing.
    package static func geometry(in text: String, reference: Position? = nil, referenceNames: Set<String> = []) -> NotamGeometry? {
        var meter = TextPattern.Meter()
        return geometry(in: text, reference: reference, referenceNames: referenceNames, meter: &meter)
    }

    /// The same, the searches' cost added to `meter`; nil when one of them ran over budget
    /// (the text is then kept as written: no area is taken from part of it).
    static func geometry(in text: String, reference: Position? = nil, referenceNames: Set<String> = [],
                         meter: inout TextPattern.Meter) -> NotamGeometry? {
        let over = meter.overBudget.count
        let g = readGeometry(in: text, reference: reference, referenceNames: referenceNames, meter: &meter)
        return meter.overBudget.count > over ? nil : g
    }

    private static func readGeometry(in text: String, reference: Position?, referenceNames: Set<String>,
                                     meter: inout TextPattern.Meter) -> NotamGeometry? {
        let up = text.uppercased()
        let bytes = Array(up.utf8)
        let found = coordinates(up, reference: reference, referenceNames: referenceNames, meter: &meter)
        guard !found.isEmpty else { return nil }
        var used = Set<Int>()  // indexes into `found` consumed by circles and corridors
        var circles: [(Position, Double)] = []
        var parts: [AirspacePart] = []
        func index(at location: Int?) -> Int? { found.firstIndex { $0.range.lowerBound == location } }
        for m in up.has("NM") ? TextPatterns.circle.matches(in: bytes, meter: &meter) : [] {
            guard let r = Double(bytes.text(m.range(at: 1))), r > 0, r < 1000,
                  let i = index(at: m.range(at: 2)?.lowerBound), let c = found[i].position else { continue }
            used.insert(i)
            circles.append((c, r))
        }
        for m in up.has("EITHER SIDE") ? TextPatterns.corridor.matches(in: bytes, meter: &meter) : [] {
            // A width in range (an infinite one, "1E999", made NaN geometry stored as 0, 0).
            guard let half = Double(bytes.text(m.range(at: 1))), half > 0, half < AirspaceArea.maximumRadiusNM else { continue }
            // The line: the coordinates after "LINE FM", joined by TO or -, until something else.
            var line: [Position] = []
            var cursor = m.range.upperBound
            for (i, f) in found.enumerated() where f.range.lowerBound >= cursor {
                let gap = bytes.text(cursor..<f.range.lowerBound).trimmingWhitespace()
                guard line.isEmpty ? gap.isEmpty || gap == "FM" || gap == "FROM" : ["TO", "-", "THEN", "THEN TO", ","].contains(gap) || gap.isEmpty,
                      let p = f.position else { break }
                line.append(p)
                used.insert(i)
                cursor = f.range.upperBound
            }
            if line.count >= 2 { parts += corridor(line, halfWidthNM: half) }
        }
        // Arcs: "CLOCKWISE ON A 10NM ARC CENTERED ON c TO p": from the ring's last point to p.
        var arcs: [Int: (clockwise: Bool, radiusNM: Double)] = [:]
        for m in up.has(" ARC ") ? TextPatterns.arc.matches(in: bytes, meter: &meter) : [] {
            guard let r = Double(bytes.text(m.range(at: 2))), r > 0, r < AirspaceArea.maximumRadiusNM,
                  let i = index(at: m.range(at: 3)?.lowerBound) else { continue }
            arcs[i] = (!bytes.text(m.range(at: 1)).hasPrefix("COUNTER"), r)
            used.insert(i)
        }
        // Rings: the other coordinates in order; a point equal to its ring's first closes it.
        var ring: [Position] = []
        var pendingArc: (centre: Position, clockwise: Bool, radiusNM: Double)? = nil
        for (i, f) in found.enumerated() {
            if let arc = arcs[i], let c = f.position { pendingArc = (c, arc.clockwise, arc.radiusNM) }
            guard !used.contains(i), let p = f.position else { continue }
            if let arc = pendingArc, let from = ring.last {
                ring += arcPoints(centre: arc.centre, radiusNM: arc.radiusNM, from: from, to: p, clockwise: arc.clockwise)
                pendingArc = nil
            }
            if ring.count >= 3, let first = ring.first, abs(first.latitude - p.latitude) < 1e-9, abs(first.longitude - p.longitude) < 1e-9 {
                parts.append(AirspacePart(outer: ring))
                ring = []
            } else {
                ring.append(p)
            }
        }
        if let arc = pendingArc, let from = ring.last, let first = ring.first {
            // "…ARC CENTERED ON c TO POINT OF ORIGIN": back to the first point.
            ring += arcPoints(centre: arc.centre, radiusNM: arc.radiusNM, from: from, to: first, clockwise: arc.clockwise)
        }
        if ring.count >= 3 { parts.append(AirspacePart(outer: ring)) }
        // The last guard: a part with a point off the Earth (any arithmetic gone wrong) is no area.
        parts.removeAll { part in part.outer.contains { AirspaceArea.problem($0) != nil } }
        var g: NotamGeometry?
        if circles.count == 1 && parts.isEmpty {
            g = .circle(circles[0].0, radiusNM: circles[0].1, origin: .text)
        } else {
            let all = circles.map { AirspacePart(outer: polygon(circle: $0.0, radiusNM: $0.1)) } + parts
            g = NotamGeometry.region(all, origin: .text)
        }
        return g
    }

    /// The points strictly between `from` and `to` along an arc of `radiusNM` around `centre`,
    /// every 5°, clockwise (bearing increasing) or counter-clockwise.
    static func arcPoints(centre: Position, radiusNM: Double, from: Position, to: Position, clockwise: Bool) -> [Position] {
        let b0 = Geodesy.bearingDeg(centre, from), b1 = Geodesy.bearingDeg(centre, to)
        var sweep = clockwise ? b1 - b0 : b0 - b1
        guard sweep.isFinite, radiusNM.isFinite else { return [] }
        while sweep <= 0 { sweep += 360 }
        while sweep > 360 { sweep -= 360 }
        let steps = Int((sweep / 5).rounded(.up))
        guard steps > 1 else { return [] }
        return (1..<steps).map { k in
            Geodesy.destination(from: centre, bearingDeg: b0 + (clockwise ? 1 : -1) * sweep * Double(k) / Double(steps), distanceNM: radiusNM)
        }
    }

    /// A circle as a 72-gon (only when it is one part of several).
    static func polygon(circle c: Position, radiusNM r: Double, segments: Int = 72) -> [Position] {
        (0..<segments).map { Geodesy.destination(from: c, bearingDeg: Double($0) * 360 / Double(segments), distanceNM: r) }
    }

    /// A polyline buffered by `halfWidthNM` each side: one rectangle a segment and a disc at each
    /// inner vertex (so bends have no gaps); their union is the corridor.
    static func corridor(_ line: [Position], halfWidthNM w: Double) -> [AirspacePart] {
        var out: [AirspacePart] = []
        for i in 0..<(line.count - 1) {
            let a = line[i], b = line[i + 1]
            let course = Geodesy.bearingDeg(a, b)
            out.append(AirspacePart(outer: [
                Geodesy.destination(from: a, bearingDeg: course - 90, distanceNM: w), Geodesy.destination(from: b, bearingDeg: course - 90, distanceNM: w),
                Geodesy.destination(from: b, bearingDeg: course + 90, distanceNM: w), Geodesy.destination(from: a, bearingDeg: course + 90, distanceNM: w),
            ]))
        }
        for p in line.dropFirst().dropLast() { out.append(AirspacePart(outer: polygon(circle: p, radiusNM: w, segments: 24))) }
        return out
    }

    // MARK: Limits

    /// Floor and ceiling in `text`: "SFC-3000FT MSL", "1000FT AGL-FL180", "FL180-UNL", "FROM
    /// SFC UP TO AND INCLUDING 4000 FEET MSL", "UP TO BUT NOT INCLUDING FL225" (floor the
    /// surface), "AT OR BELOW 400FT AGL". nil when the text gives none.
    package static func limits(in text: String) -> NotamLimits? {
        var meter = TextPattern.Meter()
        return limits(in: text, meter: &meter)
    }

    /// The same, the searches' cost added to `meter`; nil when one of them ran over budget (no
    /// limits are taken from a text not read to its end).
    static func limits(in text: String, meter: inout TextPattern.Meter) -> NotamLimits? {
        let up = text.uppercased()
        guard up.has("FT") || up.has("FL") || up.has("FEET") || up.has("UNL") else { return nil }
        let bytes = Array(up.utf8)
        let range = TextPatterns.range.search(in: bytes, meter: &meter)
        if case .overBudget = range { return nil }
        if case .match(let m) = range,
           let floor = NotamParser.limit(bytes.text(m.range(at: 1))), let ceiling = NotamParser.limit(bytes.text(m.range(at: 3))) {
            var l = NotamLimits(floorFt: floor.0, floorAGL: floor.1, ceilingFt: ceiling.0, ceilingAGL: ceiling.1, origin: "text")
            l.ceilingExclusive = bytes.text(m.range(at: 2)).contains("NOT")
            return l
        }
        if let m = TextPatterns.upTo.firstMatch(in: bytes, meter: &meter), let ceiling = NotamParser.limit(bytes.text(m.range(at: 2))) {
            var l = NotamLimits(floorFt: nil, ceilingFt: ceiling.0, ceilingAGL: ceiling.1, origin: "text")
            l.ceilingExclusive = bytes.text(m.range(at: 1)).contains("NOT")
            return l
        }
        return nil
    }
}

/// Text patterns, compiled once.
enum TextPatterns {
    /// Every pattern the NOTAM code searches with, by name (the engine's tests and benchmark).
    static var all: [(name: String, pattern: TextPattern)] {
        [("coordinate", coordinate), ("range", range), ("upTo", upTo), ("circle", circle), ("arc", arc), ("corridor", corridor),
         ("stated", stated), ("prohibited", ClassifierPatterns.prohibited), ("restricted", ClassifierPatterns.restricted),
         ("warning", ClassifierPatterns.warning), ("alert", ClassifierPatterns.alert), ("moa", ClassifierPatterns.moa),
         ("items", NotamPatterns.pattern), ("validity", NotamPatterns.validity), ("qLineGeo", NotamPatterns.qLineGeo)]
    }

    /// lat digits, N/S, optional "/" or space, lon digits, optional E/W.
    static let coordinate = TextPattern( #"(?<![\d.])(\d{4}(?:\d{2})?(?:\.\d+)?)([NS])\s?/?\s?(\d{4,7}(?:\.\d+)?)([EW])?(?![\d])"#)
    static let height = #"(?:SFC|GND|SURFACE|FL\s?\d{2,3}|\d{1,3}(?:,\d{3})|\d{1,6})\s*(?:FT|FEET)?\s*(?:MSL|AGL|AMSL)?"#
    static let range = TextPattern(
        #"(?<![\d/])(SFC|GND|SURFACE|FL\s?\d{2,3}|\d{1,6}\s*(?:FT|FEET)\s*(?:MSL|AGL|AMSL)?)\s*(-|\bTO\b|UP TO AND INCLUDING|UP TO BUT NOT INCLUDING|UP TO|THRU|THROUGH)\s*(UNL|UNLIMITED|FL\s?\d{2,3}|\d{1,6}\s*(?:FT|FEET)\s*(?:MSL|AGL|AMSL)?)"#)
    static let upTo = TextPattern(
        #"(UP TO AND INCLUDING|UP TO BUT NOT INCLUDING|UP TO|AT OR BELOW|AT AND BELOW|BLW)\s+(FL\s?\d{2,3}|\d{1,6}\s*(?:FT|FEET)\s*(?:MSL|AGL|AMSL)?)"#)
    static let circle = TextPattern(
        #"(?<![\d.])(\d*\.\d+|\d+)\s*(?:NMR|NM|NAUTICAL MILES?)\s*(?:RADIUS\s*)?(?:OF|CENTERED AT|CENTERED ON|CENTRED ON|AROUND)\s+(?:THE\s+)?(?:[A-Z]{2,5}\s*)?(?:\([A-Z0-9]*\)\s*)?(\d{4})"#)
    static let arc = TextPattern(
        #"(CLOCKWISE|COUNTERCLOCKWISE|COUNTER-CLOCKWISE)\s+(?:ON|ALONG)\s+(?:AN?|THE)\s+(\d+(?:\.\d+)?)\s*NM\s+(?:RADIUS\s+)?ARC\s+(?:CENTERED\s+(?:ON|AT)|CENTRED\s+ON|OF|AROUND)\s+(?:[A-Z]{2,5}\s*)?(?:\([A-Z0-9]*\)\s*)?(\d{4})"#)
    static let corridor = TextPattern( #"(?<![\d.])(\d*\.\d+|\d+)\s*NM\s+EITHER\s+SIDE\s+OF\s+(?:A\s+|THE\s+)?LINE\s*"#)
    static let stated = TextPattern( #"(?<![\d.])(\d+(?:\.\d+)?)\s*NM\s+(N|NNE|NE|ENE|E|ESE|SE|SSE|S|SSW|SW|WSW|W|WNW|NW|NNW)\s+([A-Z][A-Z0-9]{1,4})\b"#)
}

extension String {
    /// Whether `needle` occurs in the string, byte for byte (on UTF-8): Foundation's
    /// `contains` goes through NSString and dominated parsing time.
    func has(_ needle: String) -> Bool {
        var hay = self, n = needle
        return hay.withUTF8 { h in
            n.withUTF8 { nb in
                guard nb.count > 0 else { return true }
                guard h.count >= nb.count, let hp = h.baseAddress, let np = nb.baseAddress else { return false }
                let first = np[0], last = h.count - nb.count
                var i = 0
                while i <= last {
                    if hp[i] == first && memcmp(hp + i, np, nb.count) == 0 { return true }
                    i += 1
                }
                return false
            }
        }
    }
}

/// The NOTAM parser's text patterns measured from outside the module (`gatewayd bench --only
/// patterns` and the engine's tests, issue 40): each searched as the parser searches, every
/// match left to right.
package enum NotamPatternProbe {
    /// What the search of one text cost.
    package struct Cost: Sendable, Equatable {
        /// Matches found.
        package var matches: Int
        /// The engine's steps (instructions executed).
        package var steps: Int
        /// Whether the search stopped over its budget.
        package var overBudget: Bool
        /// Whether the search switched its memo of failed states on.
        package var memoised: Bool
    }

    /// The patterns' names, in the parser's order.
    package static var names: [String] { TextPatterns.all.map(\.name) }

    /// Every match of the pattern `name` in `text`, as the parser runs it; `memo: false` runs
    /// the plain backtracking machine (no memo, no budget: what the engine did before issue 40).
    package static func search(_ name: String, in text: [UInt8], memo: Bool = true) -> Cost {
        guard let pattern = TextPatterns.all.first(where: { $0.name == name })?.pattern else { return Cost(matches: 0, steps: 0, overBudget: false, memoised: false) }
        var meter = TextPattern.Meter(tuning: memo ? .standard : .memoNever)
        let found = pattern.matches(in: text, meter: &meter)
        return Cost(matches: found.count, steps: meter.steps, overBudget: !meter.overBudget.isEmpty, memoised: meter.memoised > 0)
    }
}
