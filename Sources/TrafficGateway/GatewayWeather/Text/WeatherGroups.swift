// Groups shared by the METAR and TAF decoders (and parts of the PIREP's): wind, visibility,
// present weather, sky condition, and the FAA flight category. Standard library only; every
// parser returns nil on anything it does not recognise and never traps on hostile text.

/// A day of the month and a UTC time, as weather reports write them ("161356Z", "1614/1718").
/// The hour may be 24 in a TAF's validity ("1618/1624": the end of the 16th).
package struct WeatherDayTime: Sendable, Equatable, Hashable {
    /// Day of the month, 1–31 as written.
    package var day: Int
    /// Hour, UTC (0–24).
    package var hour: Int
    /// Minute (0 when the group gives none).
    package var minute: Int

    /// A day and time.
    package init(day: Int, hour: Int, minute: Int = 0) {
        self.day = day
        self.hour = hour
        self.minute = minute
    }
}

/// A surface wind group ("34008KT", "24015G25KT" with "210V270", "VRB03KT", "00000KT").
package struct WeatherWind: Sendable, Equatable {
    /// True direction in degrees; nil when variable ("VRB") or calm.
    package var directionDeg: Int?
    /// The direction is variable ("VRB").
    package var isVariable: Bool
    /// Mean speed in knots (converted from MPS or KMH when the report uses them).
    package var speedKt: Int?
    /// Gust speed in knots.
    package var gustKt: Int?
    /// Start of the variable sector ("210V270": 210).
    package var variableFrom: Int?
    /// End of the variable sector ("210V270": 270).
    package var variableTo: Int?
    /// Calm ("00000KT"): no direction, speed 0.
    package var isCalm: Bool

    /// A wind.
    package init(directionDeg: Int? = nil, isVariable: Bool = false, speedKt: Int? = nil, gustKt: Int? = nil,
                variableFrom: Int? = nil, variableTo: Int? = nil, isCalm: Bool = false) {
        self.directionDeg = directionDeg
        self.isVariable = isVariable
        self.speedKt = speedKt
        self.gustKt = gustKt
        self.variableFrom = variableFrom
        self.variableTo = variableTo
        self.isCalm = isCalm
    }
}

/// One cloud layer ("FEW040", "BKN008", "SCT030CB", "OVC///", "VV002").
package struct WeatherSkyLayer: Sendable, Equatable {
    /// "FEW", "SCT", "BKN", "OVC" or "VV" (vertical visibility into an obscured sky).
    package var cover: String
    /// Base in feet above ground; nil when unknown ("///").
    package var baseFt: Int?
    /// Cumulonimbus ("CB").
    package var isCumulonimbus: Bool
    /// Towering cumulus ("TCU").
    package var isToweringCumulus: Bool

    /// A layer.
    package init(cover: String, baseFt: Int?, isCumulonimbus: Bool = false, isToweringCumulus: Bool = false) {
        self.cover = cover
        self.baseFt = baseFt
        self.isCumulonimbus = isCumulonimbus
        self.isToweringCumulus = isToweringCumulus
    }
}

/// The prevailing conditions a METAR reports or a TAF period forecasts: wind, visibility,
/// weather and sky, with the ceiling and the flight category they give.
package struct WeatherConditions: Sendable, Equatable {
    /// The wind; nil when not given (or "/////KT").
    package var wind: WeatherWind?
    /// Visibility in statute miles ("P6SM" → 6, "1 1/2SM" → 1.5; metres converted, rounded to 0.01).
    package var visibilitySM: Double?
    /// The visibility is more than `visibilitySM` ("P6SM", metres "9999", CAVOK).
    package var visibilityPlus = false
    /// The visibility is less than `visibilitySM` ("M1/4SM").
    package var visibilityLessThan = false
    /// The visibility as written in metres ("9999", "0800"; 9999 for CAVOK); nil in statute miles.
    package var visibilityMetres: Int?
    /// Present weather groups as written ("-TSRA", "BR").
    package var weatherCodes: [String] = []
    /// Present weather in English, one entry a group ("thunderstorm with light rain", "mist").
    package var weather: [String] = []
    /// Cloud layers, lowest first as written.
    package var sky: [WeatherSkyLayer] = []
    /// A clear-sky word: "CLR", "SKC", "NSC", "NCD" or "CAVOK"; nil otherwise.
    package var clearSky: String?
    /// A visibility group was there but is no visibility ("999999999SM"): the flight category
    /// is then unknown, never VFR for want of a visibility.
    package var visibilityUnreadable = false

    /// Empty conditions.
    package init() {}

    /// CAVOK: visibility 10 km or more, no cloud below 5,000 ft or the highest minimum sector altitude, no weather.
    package var isCAVOK: Bool { clearSky == "CAVOK" }

    /// The ceiling, feet: the lowest broken or overcast layer or vertical visibility with a known base.
    package var ceilingFt: Int? {
        sky.filter { $0.cover == "BKN" || $0.cover == "OVC" || $0.cover == "VV" }.compactMap(\.baseFt).min()
    }

    /// A sky condition was given (a layer or a clear-sky word).
    package var hasSky: Bool { !sky.isEmpty || clearSky != nil }

    /// The FAA flight category of these conditions alone ("VFR", "MVFR", "IFR", "LIFR"); nil when
    /// neither visibility nor sky is given. See `WeatherGroups.flightCategory`.
    package var flightCategory: String? {
        if visibilityUnreadable && visibilitySM == nil { return nil }
        return WeatherGroups.flightCategory(ceilingFt: ceilingFt, hasSky: hasSky, visibilitySM: visibilitySM,
                                     visibilityLessThan: visibilityLessThan)
    }

    /// Takes the group at `index` (with "1 1/2SM", the two words) if it is a condition group;
    /// returns how many words it used, 0 when the word is not one. First values win.
    mutating func absorb(_ words: [String], at index: Int) -> Int {
        guard words.indices.contains(index) else { return 0 }
        let w = words[index]
        if let parsed = WeatherGroups.wind(w) {
            if wind == nil { wind = parsed }
            return 1
        }
        if let sector = WeatherGroups.variableSector(w) {
            if wind != nil, wind?.variableFrom == nil {
                wind?.variableFrom = sector.from
                wind?.variableTo = sector.to
            }
            return 1
        }
        if index + 1 < words.count, w.count <= 2, let whole = WeatherGroups.number(w), whole < 10,
           words[index + 1].contains("/"), let fraction = WeatherGroups.statuteMiles(words[index + 1]),
           !fraction.plus, !fraction.less, fraction.value < 1 {
            if visibilitySM == nil { visibilitySM = Double(whole) + fraction.value }
            return 2
        }
        if let miles = WeatherGroups.statuteMiles(w) {
            if visibilitySM == nil {
                visibilitySM = miles.value
                visibilityPlus = miles.plus
                visibilityLessThan = miles.less
            }
            return 1
        }
        if let metres = WeatherGroups.metres(w) {
            if visibilitySM == nil { setMetres(metres) }
            return 1
        }
        if w.hasSuffix("SM"), w.count > 2, w.dropLast(2).allSatisfy({ $0.isNumber || $0 == "/" || $0 == "P" || $0 == "M" }) {
            // Statute miles that are not a visibility (more than three digits: "999999999SM").
            visibilityUnreadable = true
            return 1
        }
        switch w {
        case "CAVOK":
            clearSky = "CAVOK"
            if visibilitySM == nil { setMetres(9999) }
            return 1
        case "CLR", "SKC", "NSC", "NCD":
            if clearSky == nil { clearSky = w }
            return 1
        default:
            break
        }
        if let layer = WeatherGroups.skyLayer(w) {
            sky.append(layer)
            return 1
        }
        if let english = WeatherGroups.weather(w) {
            weatherCodes.append(w)
            weather.append(english)
            return 1
        }
        return 0
    }

    private mutating func setMetres(_ metres: Int) {
        visibilityMetres = metres
        visibilitySM = WeatherGroups.rounded2(Double(metres) / 1609.344)
        visibilityPlus = metres >= 9999
    }

    /// The conditions in English, one part each: wind, visibility, weather, sky.
    var summaryParts: [String] {
        var parts: [String] = []
        if let wind { parts.append(WeatherGroups.describe(wind)) }
        if isCAVOK {
            parts.append("CAVOK")
        } else {
            if let v = visibilitySM {
                if let m = visibilityMetres {
                    parts.append(m >= 9999 ? "visibility 10 km or more"
                                 : m >= 5000 ? "visibility \(m / 1000) km" : "visibility \(m) m")
                } else {
                    let prefix = visibilityPlus ? "more than " : visibilityLessThan ? "less than " : ""
                    parts.append("visibility \(prefix)\(WeatherGroups.miles(v)) SM")
                }
            }
        }
        parts += weather
        parts += sky.map(WeatherGroups.describe)
        switch clearSky {
        case "CLR", "SKC": parts.append("sky clear")
        case "NSC": parts.append("no significant cloud")
        case "NCD": parts.append("no cloud detected")
        default: break
        }
        return parts
    }
}

/// The parsers and words shared by the text decoders.
package enum WeatherGroups {
    /// The FAA flight category for a ceiling (feet) and a visibility (statute miles): LIFR below
    /// 500 ft or below 1 SM; IFR 500 to below 1,000 ft or 1 to below 3 SM; MVFR 1,000–3,000 ft or
    /// 3–5 SM; VFR otherwise. A missing ceiling counts as none (unlimited), a missing visibility
    /// as unrestricted, so the one given decides; nil when neither visibility nor a sky condition
    /// is given. A "less than" visibility counts as just below its value.
    package static func flightCategory(ceilingFt: Int?, hasSky: Bool, visibilitySM: Double?,
                                      visibilityLessThan: Bool = false) -> String? {
        guard hasSky || visibilitySM != nil || ceilingFt != nil else { return nil }
        let c = ceilingFt ?? Int.max
        var v = visibilitySM ?? Double.infinity
        if visibilityLessThan { v -= 0.001 }
        if c < 500 || v < 1 { return "LIFR" }
        if c < 1000 || v < 3 { return "IFR" }
        if c <= 3000 || v <= 5 { return "MVFR" }
        return "VFR"
    }

    /// The words of a report: upper-cased, split on any whitespace, trailing "=" removed.
    static func words(_ text: String) -> [String] {
        text.uppercased().split(whereSeparator: { $0.isWhitespace }).compactMap { word -> String? in
            var w = Substring(word)
            while w.hasSuffix("=") { w = w.dropLast() }
            return w.isEmpty ? nil : String(w)
        }
    }

    /// An unsigned decimal of 1–9 ASCII digits.
    static func number<S: StringProtocol>(_ s: S) -> Int? {
        guard !s.isEmpty, s.count <= 9, s.allSatisfy(isDigit) else { return nil }
        return Int(String(s))
    }

    /// An ASCII digit.
    static func isDigit(_ c: Character) -> Bool {
        guard let a = c.asciiValue else { return false }
        return a >= 48 && a <= 57
    }

    /// A station identifier: 2–5 ASCII letters or digits, at least one a letter ("KSLE", "SLE", "0S9").
    static func isStation(_ s: String) -> Bool {
        guard (2...5).contains(s.count), s.contains(where: { $0.isASCII && $0.isLetter }) else { return false }
        return s.allSatisfy { $0.isASCII && ($0.isLetter || isDigit($0)) }
    }

    /// "161356Z" as day 16, 13:56.
    static func dayTime(_ s: String) -> WeatherDayTime? {
        guard s.count == 7, s.hasSuffix("Z"), let n = number(s.dropLast()) else { return nil }
        let day = n / 10000, hour = n / 100 % 100, minute = n % 100
        guard (1...31).contains(day), hour <= 24, minute <= 59 else { return nil }
        return WeatherDayTime(day: day, hour: hour, minute: minute)
    }

    /// "1614/1718" as (16th 14Z, 17th 18Z).
    static func dayHourRange(_ s: String) -> (from: WeatherDayTime, to: WeatherDayTime)? {
        let parts = s.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 4,
              let a = number(parts[0]), let b = number(parts[1]) else { return nil }
        guard (1...31).contains(a / 100), a % 100 <= 24, (1...31).contains(b / 100), b % 100 <= 24 else { return nil }
        return (WeatherDayTime(day: a / 100, hour: a % 100), WeatherDayTime(day: b / 100, hour: b % 100))
    }

    /// A temperature "M05" (−5), "05", "-05", "+05".
    /// The strongest wind or gust read, knots.
    static let strongestWindKt = 250
    /// The temperatures read, °C (the coldest and hottest ever measured are −89 and +57).
    static let temperatures = -90...60

    static func temperature(_ s: Substring) -> Int? {
        if s.hasPrefix("M") || s.hasPrefix("-") { return number(s.dropFirst()).map { -$0 } }
        if s.hasPrefix("+") { return number(s.dropFirst()) }
        return number(s)
    }

    /// A wind group: direction (3 digits or VRB), speed (2–3 digits), gust, unit KT, MPS or KMH.
    static func wind(_ w: String) -> WeatherWind? {
        var body = Substring(w)
        let factor: Double
        if body.hasSuffix("KT") { body = body.dropLast(2); factor = 1 }
        else if body.hasSuffix("MPS") { body = body.dropLast(3); factor = 1.943844 }
        else if body.hasSuffix("KMH") { body = body.dropLast(3); factor = 0.539957 }
        else { return nil }
        let direction = body.prefix(3)
        body = body.dropFirst(3)
        var gustText: Substring?
        if let g = body.firstIndex(of: "G") {
            gustText = body[body.index(after: g)...]
            body = body[..<g]
        }
        guard (2...3).contains(body.count), let rawSpeed = number(body) else { return nil }
        let speed = Int((Double(rawSpeed) * factor).rounded())
        // Winds a station can report (the strongest measured surface gust is 220 kt): "99999KT" is no wind.
        guard speed <= WeatherGroups.strongestWindKt else { return nil }
        var gust: Int?
        if let gustText {
            guard (2...3).contains(gustText.count), let g = number(gustText) else { return nil }
            gust = Int((Double(g) * factor).rounded())
            guard gust! <= WeatherGroups.strongestWindKt else { return nil }
        }
        if direction == "VRB" { return WeatherWind(isVariable: true, speedKt: speed, gustKt: gust) }
        guard direction.count == 3, let degrees = number(direction), degrees <= 360 else { return nil }
        if degrees == 0 && rawSpeed == 0 && gust == nil { return WeatherWind(speedKt: 0, isCalm: true) }
        return WeatherWind(directionDeg: degrees, speedKt: speed, gustKt: gust)
    }

    /// A variable sector "210V270".
    static func variableSector(_ w: String) -> (from: Int, to: Int)? {
        let parts = w.split(separator: "V", omittingEmptySubsequences: false)
        guard w.count == 7, parts.count == 2, parts[0].count == 3, parts[1].count == 3,
              let a = number(parts[0]), let b = number(parts[1]), a <= 360, b <= 360 else { return nil }
        return (a, b)
    }

    /// A visibility in statute miles: "10SM", "P6SM", "M1/4SM", "3/4SM".
    static func statuteMiles(_ w: String) -> (value: Double, plus: Bool, less: Bool)? {
        guard w.hasSuffix("SM") else { return nil }
        var body = Substring(w).dropLast(2)
        var plus = false, less = false
        if body.hasPrefix("P") { plus = true; body = body.dropFirst() }
        else if body.hasPrefix("M") { less = true; body = body.dropFirst() }
        let parts = body.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 1, body.count <= 3, let whole = number(body) { return (Double(whole), plus, less) }
        guard parts.count == 2, parts[0].count <= 2, parts[1].count <= 2,
              let a = number(parts[0]), let b = number(parts[1]), b > 0 else { return nil }
        return (Double(a) / Double(b), plus, less)
    }

    /// A visibility in metres: "9999", "0800", "4000NDV".
    static func metres(_ w: String) -> Int? {
        let body = w.hasSuffix("NDV") ? Substring(w).dropLast(3) : Substring(w)
        guard body.count == 4 else { return nil }
        return number(body)
    }

    /// A cloud layer "FEW040", "SCT030CB", "BKN020TCU", "OVC///", "VV002".
    static func skyLayer(_ w: String) -> WeatherSkyLayer? {
        let chars = Array(w)
        let cover: String
        let rest: ArraySlice<Character>
        let head = String(chars.prefix(3))
        if ["FEW", "SCT", "BKN", "OVC"].contains(head) {
            cover = head
            rest = chars.dropFirst(3)
        } else if w.hasPrefix("VV") {
            cover = "VV"
            rest = chars.dropFirst(2)
        } else {
            return nil
        }
        guard rest.count >= 3 else { return nil }
        let height = String(rest.prefix(3)), suffix = String(rest.dropFirst(3))
        var base: Int?
        if height != "///" {
            guard let h = number(height) else { return nil }
            base = h * 100
        }
        guard ["", "CB", "TCU", "///"].contains(suffix), cover != "VV" || suffix.isEmpty else { return nil }
        return WeatherSkyLayer(cover: cover, baseFt: base, isCumulonimbus: suffix == "CB", isToweringCumulus: suffix == "TCU")
    }

    static let descriptors: [String: String] = [
        "MI": "shallow", "PR": "partial", "BC": "patches of", "DR": "low drifting", "BL": "blowing",
        "SH": "showers", "TS": "thunderstorm", "FZ": "freezing",
    ]
    static let phenomena: [String: String] = [
        "DZ": "drizzle", "RA": "rain", "SN": "snow", "SG": "snow grains", "IC": "ice crystals", "PL": "ice pellets",
        "GR": "hail", "GS": "small hail", "UP": "unknown precipitation", "BR": "mist", "FG": "fog", "FU": "smoke",
        "VA": "volcanic ash", "DU": "widespread dust", "SA": "sand", "HZ": "haze", "PY": "spray", "PO": "dust whirls",
        "SQ": "squalls", "FC": "funnel cloud", "SS": "sandstorm", "DS": "duststorm",
    ]

    /// A present-weather group in English: "-RA" "light rain", "+TSRA" "thunderstorm with heavy
    /// rain", "VCSH" "vicinity showers", "+FC" "tornado or waterspout"; nil when not one.
    package static func weather(_ w: String) -> String? {
        if w == "NSW" { return "no significant weather" }
        var s = Substring(w)
        var intensity = ""
        if s.hasPrefix("-") { intensity = "light"; s = s.dropFirst() }
        else if s.hasPrefix("+") { intensity = "heavy"; s = s.dropFirst() }
        var vicinity = false
        if s.hasPrefix("VC") { vicinity = true; s = s.dropFirst(2) }
        let chars = Array(s)
        guard !chars.isEmpty, chars.count % 2 == 0, chars.count <= 12 else { return nil }
        let codes = stride(from: 0, to: chars.count, by: 2).map { String(chars[$0..<$0 + 2]) }
        var descriptor: String?
        var names: [String] = []
        for (i, code) in codes.enumerated() {
            if i == 0, let d = descriptors[code] { descriptor = d; continue }
            guard let name = phenomena[code] else { return nil }
            names.append(name)
        }
        if names.isEmpty && descriptor != "thunderstorm" && descriptor != "showers" { return nil }
        let list = names.joined(separator: " and ")
        let core: String
        if codes == ["FC"] && intensity == "heavy" {
            core = "tornado or waterspout"
        } else if descriptor == "thunderstorm" {
            core = names.isEmpty ? join(intensity, "thunderstorm") : "thunderstorm with " + join(intensity, list)
        } else if descriptor == "showers" {
            core = join(intensity, join(list, "showers"))
        } else if let descriptor {
            core = join(intensity, join(descriptor, list))
        } else {
            core = join(intensity, list)
        }
        return vicinity ? "vicinity " + core : core
    }

    /// Two words with a space, or the one that is not empty.
    static func join(_ a: String, _ b: String) -> String {
        a.isEmpty ? b : b.isEmpty ? a : a + " " + b
    }

    /// `x` rounded to two decimals.
    static func rounded2(_ x: Double) -> Double { (x * 100).rounded() / 100 }

    /// 4000 → "4,000".
    static func thousands(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

    /// 30.12 → "30.12" (two decimals).
    static func twoDecimals(_ x: Double) -> String {
        guard x.isFinite, abs(x) < 1e12 else { return "\(x)" }
        let hundredths = Int((abs(x) * 100).rounded())
        let fraction = hundredths % 100
        return (x < 0 ? "-" : "") + "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    /// Statute miles as written on a chart: 10 → "10", 1.5 → "1 1/2", 0.25 → "1/4".
    static func miles(_ v: Double) -> String {
        guard v.isFinite, v >= 0, v < 100_000 else { return "\(v)" }
        var whole = Int(v.rounded(.down))
        var sixteenths = Int(((v - Double(whole)) * 16).rounded())
        if sixteenths == 16 { whole += 1; sixteenths = 0 }
        guard sixteenths > 0 else { return "\(whole)" }
        var d = 16
        while sixteenths % 2 == 0 { sixteenths /= 2; d /= 2 }
        return whole > 0 ? "\(whole) \(sixteenths)/\(d)" : "\(sixteenths)/\(d)"
    }

    /// 40 → "040".
    static func degrees(_ d: Int) -> String {
        d >= 0 && d < 10 ? "00\(d)" : d >= 10 && d < 100 ? "0\(d)" : "\(d)"
    }

    /// "Wind 340° 8 kt", "Wind 240° 15 kt gusting 25 kt (varying 210° to 270°)", "Wind calm".
    static func describe(_ wind: WeatherWind) -> String {
        if wind.isCalm { return "Wind calm" }
        var out = "Wind"
        if wind.isVariable { out += " variable" } else if let d = wind.directionDeg { out += " \(degrees(d))°" }
        if let s = wind.speedKt { out += " \(s) kt" }
        if let g = wind.gustKt { out += " gusting \(g) kt" }
        if let a = wind.variableFrom, let b = wind.variableTo { out += " (varying \(degrees(a))° to \(degrees(b))°)" }
        return out
    }

    /// "few 4,000 ft", "broken 800 ft cumulonimbus", "vertical visibility 200 ft", "overcast, height unknown".
    static func describe(_ layer: WeatherSkyLayer) -> String {
        let names = ["FEW": "few", "SCT": "scattered", "BKN": "broken", "OVC": "overcast", "VV": "vertical visibility"]
        var out = names[layer.cover] ?? layer.cover.lowercased()
        out += layer.baseFt.map { " \(thousands($0)) ft" } ?? ", height unknown"
        if layer.isCumulonimbus { out += " cumulonimbus" }
        if layer.isToweringCumulus { out += " towering cumulus" }
        return out
    }

    /// The parts joined with commas, the first letter upper-cased.
    static func sentence(_ parts: [String]) -> String {
        let text = parts.joined(separator: ", ")
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }
}
