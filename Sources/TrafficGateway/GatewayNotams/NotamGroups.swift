import GatewayRecords
/// The coded groups of a NOTAM text read as values and written in words: date-time groups
/// (`2605161300` → "16 May 2026 13:00 UTC"), times (`1200`), coordinates in every form the
/// geometry reader takes (`341118.10N0971213.30W`, `4736N12220W`, `334805N/1175517W`), heights
/// (`1263.1FT`, `FL180`, `45M`), distances (`4.7NM`), radial/distance fixes (`TFD094017`) and
/// frequencies (`122.8`, `112.500MHZ`). Plain Swift scanning, no regular expressions.
enum NotamGroups {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static let days = ["MON": "Monday", "TUE": "Tuesday", "WED": "Wednesday", "THU": "Thursday", "FRI": "Friday", "SAT": "Saturday", "SUN": "Sunday"]
    static let compass = ["N": "north", "NNE": "north-northeast", "NE": "northeast", "ENE": "east-northeast", "E": "east",
                          "ESE": "east-southeast", "SE": "southeast", "SSE": "south-southeast", "S": "south", "SSW": "south-southwest",
                          "SW": "southwest", "WSW": "west-southwest", "W": "west", "WNW": "west-northwest", "NW": "northwest",
                          "NNW": "north-northwest"]

    static func isDigits(_ s: Substring) -> Bool { !s.isEmpty && s.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
    static func isDigits(_ s: String) -> Bool { isDigits(Substring(s)) }

    /// A decimal number as written (`1263.1`, `.5`, `13,000`).
    static func number(_ s: Substring) -> Double? {
        guard !s.isEmpty, s.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 46 || $0 == 44 }), s.utf8.contains(where: { $0 >= 48 && $0 <= 57 }) else { return nil }
        let plain = s.filter { $0 != "," }
        return Double(plain.hasPrefix(".") ? "0" + plain : plain)
    }

    /// `n` with thousands separators, rounded to a whole number when `whole`.
    static func format(_ n: Double, whole: Bool = true) -> String {
        if !whole, n != n.rounded() {
            var s = String(n)
            if s.hasPrefix("0.") == false, s.hasPrefix(".") { s = "0" + s }
            return s
        }
        guard n.isFinite, abs(n) < 1e15 else { return String(n) }
        let v = Int(n.rounded())
        let digits = String(abs(v))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (v < 0 ? "-" : "") + out
    }

    // MARK: Dates and times

    /// YYMMDDHHMM → (date words, "HH:MM"), nil when not a valid date-time group.
    static func dateTime(_ s: Substring) -> (date: String, time: String)? {
        guard s.count == 10, isDigits(s) else { return nil }
        let v = s.utf8.map { Int($0) - 48 }
        let year = 2000 + v[0] * 10 + v[1], month = v[2] * 10 + v[3], day = v[4] * 10 + v[5]
        let hour = v[6] * 10 + v[7], minute = v[8] * 10 + v[9]
        guard (1...12).contains(month), (1...31).contains(day), hour <= 24, minute < 60 else { return nil }
        return ("\(day) \(months[month - 1]) \(year)", "\(v[6])\(v[7]):\(v[8])\(v[9])")
    }

    /// One date-time group in words: "16 May 2026 13:00 UTC".
    static func date(_ s: Substring) -> String? {
        dateTime(s).map { "\($0.date) \($0.time) UTC" }
    }

    /// `YYMMDDHHMM-YYMMDDHHMM[EST]`, `YYMMDDHHMM-PERM`: "from … to …".
    static func dateRange(_ s: Substring) -> String? {
        guard let dash = s.firstIndex(of: "-"), let from = dateTime(s[..<dash]) else { return nil }
        var end = s[s.index(after: dash)...]
        if end == "PERM" { return "from \(from.date) \(from.time) UTC until further notice (permanent)" }
        var estimated = false
        if end.hasSuffix("EST") { estimated = true; end = end.dropLast(3) }
        guard let to = dateTime(end) else { return nil }
        let tail = estimated ? " (estimated)" : ""
        if to.date == from.date { return "from \(from.date) \(from.time) to \(to.time) UTC\(tail)" }
        return "from \(from.date) \(from.time) UTC to \(to.date) \(to.time) UTC\(tail)"
    }

    /// HHMM → "HH:MM".
    static func clock(_ s: Substring) -> String? {
        guard s.count == 4, isDigits(s) else { return nil }
        let v = s.utf8.map { Int($0) - 48 }
        guard v[0] * 10 + v[1] <= 24, v[2] * 10 + v[3] < 60 else { return nil }
        return "\(v[0])\(v[1]):\(v[2])\(v[3])"
    }

    /// `HHMM-HHMM` → "12:00 to 20:00 UTC".
    static func clockRange(_ s: Substring) -> String? {
        let p = s.split(separator: "-", omittingEmptySubsequences: false)
        guard p.count == 2, let a = clock(p[0]), let b = clock(p[1]) else { return nil }
        return "\(a) to \(b) UTC"
    }

    /// `MON-FRI` → "Monday to Friday".
    static func dayRange(_ s: Substring) -> String? {
        let p = s.split(separator: "-", omittingEmptySubsequences: false)
        guard p.count == 2, let a = days[String(p[0])], let b = days[String(p[1])] else { return nil }
        return "\(a) to \(b)"
    }

    /// `045-090` (bearings) → "045° to 090°".
    static func bearingRange(_ s: Substring) -> String? {
        let p = s.split(separator: "-", omittingEmptySubsequences: false)
        guard p.count == 2, p.allSatisfy({ $0.count == 3 && isDigits($0) && Int($0)! <= 360 }) else { return nil }
        return "\(p[0])° to \(p[1])°"
    }

    // MARK: Coordinates

    /// One coordinate group (`341118.10N0971213.30W`, `4736N12220W`, `334805N/1175517W`) in
    /// degrees, minutes and seconds as written; nil unless it is one, whole and with both
    /// hemisphere letters (a coordinate the text leaves broken stays verbatim).
    static func coordinate(_ s: Substring) -> String? {
        var u = Array(s.utf8)
        if let slash = u.firstIndex(of: UInt8(ascii: "/")) { u.remove(at: slash) }
        guard let h1 = u.firstIndex(where: { $0 == UInt8(ascii: "N") || $0 == UInt8(ascii: "S") }), h1 > 0, u.last == UInt8(ascii: "E") || u.last == UInt8(ascii: "W") else { return nil }
        let lat = String(decoding: u[..<h1], as: UTF8.self), lon = String(decoding: u[(h1 + 1)..<(u.count - 1)], as: UTF8.self)
        guard let a = dms(Substring(lat), degreeDigits: 2, hemisphere: Character(UnicodeScalar(u[h1]))),
              let o = dms(Substring(lon), degreeDigits: 3, hemisphere: Character(UnicodeScalar(u[u.count - 1]))) else { return nil }
        return "\(a) \(o)"
    }

    /// A latitude alone (`334805N`), for groups written in two words.
    static func latitude(_ s: Substring) -> String? {
        guard let h = s.last, h == "N" || h == "S" else { return nil }
        return dms(s.dropLast(), degreeDigits: 2, hemisphere: h)
    }

    /// A longitude alone (`1175517W`).
    static func longitude(_ s: Substring) -> String? {
        guard let h = s.last, h == "E" || h == "W" else { return nil }
        return dms(s.dropLast(), degreeDigits: 3, hemisphere: h)
    }

    /// DD[D]MM[SS][.s] → `34°11′18″N`.
    static func dms(_ t: Substring, degreeDigits: Int, hemisphere: Character) -> String? {
        let parts = t.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts.first ?? ""
        guard isDigits(whole), whole.count == degreeDigits + 2 || whole.count == degreeDigits + 4 else { return nil }
        if parts.count > 1 { guard isDigits(parts[1]) else { return nil } }
        let w = whole.utf8.map { Int($0) - 48 }
        var deg = w[0..<degreeDigits].reduce(0) { $0 * 10 + $1 }
        var min = w[degreeDigits] * 10 + w[degreeDigits + 1]
        guard min < 60, deg <= (degreeDigits == 2 ? 90 : 180) else { return nil }
        let fraction = parts.count > 1 ? Double("0." + parts[1]) ?? 0 : 0
        if whole.count == degreeDigits + 2 {
            return "\(deg)°\(min < 10 ? "0" : "")\(min)′\(hemisphere)"
        }
        var sec = Int((Double(w[degreeDigits + 2] * 10 + w[degreeDigits + 3]) + fraction).rounded())
        guard sec <= 60 else { return nil }
        if sec == 60 { sec = 0; min += 1 }
        if min == 60 { min = 0; deg += 1 }
        return "\(deg)°\(min < 10 ? "0" : "")\(min)′\(sec < 10 ? "0" : "")\(sec)″\(hemisphere)"
    }

    /// Coordinates joined by `-` (a point list written as one word): "A to B to C".
    static func coordinateList(_ s: Substring) -> String? {
        let p = s.split(separator: "-")
        guard p.count >= 2 else { return nil }
        var out: [String] = []
        for c in p { guard let r = coordinate(c) else { return nil }; out.append(r) }
        return out.joined(separator: " to ")
    }

    // MARK: Heights, distances, fixes, frequencies

    /// A number glued to its unit (`1263.1FT`, `4.7NM`, `45M`): (value, unit).
    static func measure(_ s: Substring) -> (Double, String)? {
        let unitStart = s.firstIndex { !($0.isNumber || $0 == "." || $0 == ",") } ?? s.endIndex
        guard unitStart > s.startIndex, let v = number(s[..<unitStart]) else { return nil }
        return (v, String(s[unitStart...]))
    }

    /// `FL180` or `FL 180`'s number.
    static func flightLevel(_ s: Substring) -> Int? {
        guard s.hasPrefix("FL"), (4...5).contains(s.count), isDigits(s.dropFirst(2)) else { return nil }
        return Int(s.dropFirst(2))
    }

    /// `TFD094017` → "17 nautical miles from TFD on the 094° radial".
    static func radialFix(_ s: Substring) -> String? {
        let letters = s.prefix { $0.isASCII && $0.isUppercase && $0.isLetter }
        let rest = s.dropFirst(letters.count)
        let digits = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard (2...3).contains(letters.count), digits[0].count == 6, isDigits(digits[0]), digits.count == 1 || isDigits(digits[1]) else { return nil }
        let radial = digits[0].prefix(3)
        guard let r = Int(radial), r <= 360, let d = number(digits.count > 1 ? rest : digits[0].suffix(3)) else { return nil }
        let distance = digits.count > 1 ? number(Substring(String(digits[0].suffix(3)) + "." + digits[1])) ?? d : d
        return "\(format(distance, whole: false)) nautical mile\(distance == 1 ? "" : "s") from \(letters) on the \(radial)° radial"
    }

    /// A bare VHF/UHF radio frequency (`122.8`, `124.55`, `251.1`): its value, else nil.
    static func frequency(_ s: Substring) -> String? {
        guard let dot = s.firstIndex(of: "."), s[..<dot].count == 3, isDigits(s[..<dot]), (1...3).contains(s[s.index(after: dot)...].count),
              isDigits(s[s.index(after: dot)...]), let v = Double(s) else { return nil }
        return (108...137).contains(v) || (225...400).contains(v) ? String(s) : nil
    }
}
