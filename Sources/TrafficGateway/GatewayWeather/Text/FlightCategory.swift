/// The flight category of a METAR or SPECI, as the FAA colours it: VFR (ceiling above 3,000 ft
/// and visibility above 5 SM), MVFR (1,000–3,000 ft or 3–5 SM), IFR (500 to below 1,000 ft or 1
/// to below 3 SM), LIFR (below 500 ft or below 1 SM). The ceiling is the lowest broken or
/// overcast layer, or the vertical visibility.
package enum FlightCategory: String, Sendable, CaseIterable {
    /// Visual flight rules.
    case vfr = "VFR"
    /// Marginal VFR.
    case mvfr = "MVFR"
    /// Instrument flight rules.
    case ifr = "IFR"
    /// Low IFR.
    case lifr = "LIFR"

    /// The category of a METAR's text; nil when it gives neither visibility nor sky condition.
    package init?(metar text: String) {
        let (ceiling, visibility, sky) = Self.ceilingAndVisibility(text)
        guard ceiling != nil || visibility != nil || sky else { return nil }
        let c = ceiling ?? Int.max
        let v = visibility ?? 10
        if c < 500 || v < 1 {
            self = .lifr
        } else if c < 1000 || v < 3 {
            self = .ifr
        } else if c <= 3000 || v <= 5 {
            self = .mvfr
        } else {
            self = .vfr
        }
    }

    /// The ceiling (feet above ground; nil: none), the visibility (statute miles; nil: not
    /// given) and whether a sky condition was given, from a METAR's body (up to its remarks).
    static func ceilingAndVisibility(_ text: String) -> (ceiling: Int?, visibility: Double?, sky: Bool) {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        if let rmk = words.firstIndex(of: "RMK") { words = Array(words[..<rmk]) }
        var ceiling: Int?
        var visibility: Double?
        var sawSky = false
        for (i, raw) in words.enumerated() {
            let w = raw.hasSuffix("=") ? String(raw.dropLast()) : raw
            if w.hasSuffix("SM") {
                var number = String(w.dropLast(2))
                var less = false
                if number.hasPrefix("P") { number.removeFirst() }
                if number.hasPrefix("M") { number.removeFirst(); less = true }
                guard var value = Self.miles(number) else { continue }
                // "1 1/2SM": the whole miles are the word before.
                if number.contains("/"), i > 0, let whole = Int(words[i - 1]), whole < 10 { value += Double(whole) }
                visibility = less ? value * 0.99 : value
            } else if w == "CAVOK" {
                visibility = 10
                sawSky = true
            } else if w == "SKC" || w == "CLR" || w == "NSC" || w == "NCD" {
                sawSky = true
            } else {
                for cover in ["BKN", "OVC", "VV"] where w.hasPrefix(cover) {
                    let digits = w.dropFirst(cover.count).prefix(3)
                    if digits.count == 3, let hundreds = Int(digits) {
                        ceiling = min(ceiling ?? Int.max, hundreds * 100)
                    }
                }
                if w.hasPrefix("FEW") || w.hasPrefix("SCT") || w.hasPrefix("BKN") || w.hasPrefix("OVC") || w.hasPrefix("VV") { sawSky = true }
            }
        }
        return (ceiling, visibility, sawSky)
    }

    /// "10", "3/4", "1/2" as miles.
    static func miles(_ s: String) -> Double? {
        if let v = Double(s) { return v }
        let parts = s.split(separator: "/")
        guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), b > 0 else { return nil }
        return a / b
    }
}
