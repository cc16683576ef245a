// Pilot reports (UA, urgent UUA) decoded for the cockpit page. Standard library only.

/// A PIREP decoded: "PIREP SLE 161350Z KSLE UA /OV SLE090010/TM 1350/FL065/TP C172/SK SCT070/RM SMOOTH".
/// Fields are found by their "/XX" codes in any order; missing or unknown ones are left nil.
package struct DecodedPIREP: Sendable, Equatable {
    /// A cloud layer of a report's /SK field ("BKN030-TOP050": broken, base 3,000 ft, tops 5,000 ft).
    package struct SkyLayer: Sendable, Equatable {
        /// "FEW", "SCT", "BKN", "OVC", "VV", "SKC", "CLR" or "UNKN" when the text gives none.
        package var cover: String
        /// Base, feet MSL; nil when not given.
        package var baseFt: Int?
        /// Tops, feet MSL; nil when not given.
        package var topFt: Int?

        /// A layer.
        package init(cover: String, baseFt: Int? = nil, topFt: Int? = nil) {
            self.cover = cover
            self.baseFt = baseFt
            self.topFt = topFt
        }
    }

    /// The text as given.
    package var raw: String
    /// Urgent ("UUA").
    package var isUrgent = false
    /// The station the record is filed under (the word after "PIREP"), or the first header word.
    package var station: String?
    /// The station before "UA"/"UUA" when it is another word than `station` ("KSLE").
    package var reportingStation: String?
    /// The record's time ("161350Z").
    package var issued: WeatherDayTime?
    /// Location (/OV), as written ("SLE090010": 10 NM on the 090 radial of SLE).
    package var location: String?
    /// Hour of the report's /TM, UTC.
    package var timeHour: Int?
    /// Minute of the report's /TM.
    package var timeMinute: Int?
    /// Altitude in feet (/FL065 → 6,500); nil when unknown or given as climbing or descending.
    package var altitudeFt: Int?
    /// The /FL field when it is not a number: "unknown" (UNKN), "during climb" (DURC), "during descent" (DURD), else as written.
    package var altitudeNote: String?
    /// Aircraft type (/TP).
    package var aircraftType: String?
    /// Cloud layers (/SK).
    package var sky: [SkyLayer] = []
    /// Flight visibility in statute miles (/WX FV05SM).
    package var flightVisibilitySM: Int?
    /// Weather (/WX) in English.
    package var weather: [String] = []
    /// Outside air temperature, °C (/TA M05 → −5).
    package var temperatureC: Int?
    /// Wind aloft (/WV 27045KT).
    package var wind: WeatherWind?
    /// Turbulence (/TB) in English: "light to moderate chop between 8,000 and 10,000 ft", "no turbulence".
    package var turbulence: String?
    /// Icing (/IC) in English: "light rime icing between 5,000 and 7,000 ft", "no icing".
    package var icing: String?
    /// Remarks (/RM) as written.
    package var remarks: String?

    /// An empty report of the given text (the decoder fills the rest).
    package init(raw: String) { self.raw = raw }

    static let codes: Set<String> = ["OV", "TM", "FL", "TP", "SK", "WX", "TA", "WV", "TB", "IC", "RM"]

    /// Decodes a PIREP ("UA" or "UUA"), tolerant of extra spaces, missing fields and fields in any
    /// order. Nil when the text has neither "UA", "UUA" nor "PIREP" in its header nor any field.
    package static func decode(_ text: String) -> DecodedPIREP? {
        let chars = Array(text.uppercased().map { $0.isWhitespace ? " " : $0 })
        var starts: [Int] = []
        for i in chars.indices where chars[i] == "/" && i + 2 < chars.count
            && codes.contains(String(chars[(i + 1)...(i + 2)])) {
            starts.append(i)
        }
        var report = DecodedPIREP(raw: text)
        let header = WeatherGroups.words(String(chars[..<(starts.first ?? chars.count)]))
        for (n, w) in header.enumerated() {
            if w == "UA" || w == "UUA" {
                report.isUrgent = report.isUrgent || w == "UUA"
                if n > 0, WeatherGroups.isStation(header[n - 1]), header[n - 1] != report.station {
                    report.reportingStation = header[n - 1]
                }
            } else if let time = WeatherGroups.dayTime(w) {
                report.issued = report.issued ?? time
            } else if report.station == nil, w != "PIREP", WeatherGroups.isStation(w) {
                report.station = w
            }
        }
        guard header.contains(where: { $0 == "UA" || $0 == "UUA" || $0 == "PIREP" }) || !starts.isEmpty else { return nil }
        for (n, start) in starts.enumerated() {
            let end = n + 1 < starts.count ? starts[n + 1] : chars.count
            let code = String(chars[(start + 1)...(start + 2)])
            let value = String(chars[(start + 3)..<end]).split(separator: " ").joined(separator: " ")
            report.take(code, value)
        }
        return report
    }

    private mutating func take(_ code: String, _ value: String) {
        guard !value.isEmpty else { return }
        let words = WeatherGroups.words(value)
        switch code {
        case "OV": location = value
        case "TP": aircraftType = value
        case "RM": remarks = value
        case "TM":
            let digits = value.filter { $0 != " " }
            if digits.count == 4, let n = WeatherGroups.number(digits), n / 100 <= 24, n % 100 <= 59 {
                timeHour = n / 100
                timeMinute = n % 100
            }
        case "FL":
            let v = value.filter { $0 != " " }
            if v.count >= 3, let n = WeatherGroups.number(v.prefix(3)), v.count == 3 || !WeatherGroups.isDigit(Array(v)[3]) {
                altitudeFt = n * 100
            } else {
                altitudeNote = ["UNKN": "unknown", "DURC": "during climb", "DURD": "during descent"][v] ?? v
            }
        case "TA":
            if let w = words.first { temperatureC = WeatherGroups.temperature(Substring(w)) }
        case "WV":
            guard let w = words.first else { return }
            if let parsed = WeatherGroups.wind(w) ?? WeatherGroups.wind(w + "KT") {
                wind = parsed
            } else if w.count == 6, let d = WeatherGroups.number(w.prefix(3)), let s = WeatherGroups.number(w.suffix(3)), d <= 360 {
                wind = WeatherWind(directionDeg: d, speedKt: s)
            }
        case "WX":
            for w in words {
                if w.hasPrefix("FV"), w.hasSuffix("SM"), let v = WeatherGroups.number(w.dropFirst(2).dropLast(2)) {
                    flightVisibilitySM = v
                } else if let english = WeatherGroups.weather(w) {
                    weather.append(english)
                }
            }
        case "SK": sky = Self.layers(words)
        case "TB": turbulence = Self.describe(value, noun: "turbulence")
        case "IC": icing = Self.describe(value, noun: "icing")
        default: break
        }
    }

    /// "BKN030-TOP050", "OVC010", "SCT070 BKN090-TOP110", "020BKN040", "SKC".
    static func layers(_ words: [String]) -> [SkyLayer] {
        var out: [SkyLayer] = []
        let covers = ["FEW", "SCT", "BKN", "OVC", "VV", "SKC", "CLR"]
        for word in words {
            for part in word.split(whereSeparator: { $0 == "-" || $0 == ";" || $0 == "," }) {
                var p = Substring(part)
                if p.hasPrefix("TOP") {
                    let top = WeatherGroups.number(p.dropFirst(3)).map { $0 * 100 }
                    if out.isEmpty { out.append(SkyLayer(cover: "UNKN")) }
                    out[out.count - 1].topFt = top
                    continue
                }
                let leading = p.prefix(while: WeatherGroups.isDigit)
                p = p.dropFirst(leading.count)
                guard let cover = covers.first(where: { p.hasPrefix($0) }) else { continue }
                let trailing = p.dropFirst(cover.count)
                var layer = SkyLayer(cover: cover)
                if !leading.isEmpty {
                    layer.baseFt = WeatherGroups.number(leading).map { $0 * 100 }
                    layer.topFt = WeatherGroups.number(trailing).map { $0 * 100 }
                } else {
                    layer.baseFt = WeatherGroups.number(trailing).map { $0 * 100 }
                }
                out.append(layer)
            }
        }
        return out
    }

    static let intensities = ["NEG": "none", "SMTH": "smooth", "SMOOTH": "smooth", "TRACE": "trace", "TRC": "trace",
                              "LGT": "light", "LT": "light", "MOD": "moderate", "SEV": "severe", "HVY": "heavy",
                              "EXTRM": "extreme", "EXTM": "extreme"]
    static let frequencies = ["OCNL": "occasional", "INTMT": "intermittent", "CONS": "continuous", "CONT": "continuous",
                              "ISOL": "isolated", "FRQ": "frequent"]
    static let kinds = ["CHOP": "chop", "CAT": "clear-air turbulence", "LLWS": "low-level wind shear",
                        "MWAVE": "mountain wave turbulence", "RIME": "rime", "CLR": "clear", "CLEAR": "clear",
                        "MXD": "mixed", "MX": "mixed", "MIXED": "mixed"]

    /// A /TB or /IC field in English, its parts separated by ";": "LGT-MOD CHOP 080-100" →
    /// "light to moderate chop between 8,000 and 10,000 ft"; "NEG" → "no turbulence".
    static func describe(_ value: String, noun: String) -> String? {
        let parts = value.split(separator: ";").compactMap { describePart(WeatherGroups.words(String($0)), noun: noun) }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    private static func describePart(_ words: [String], noun: String) -> String? {
        var frequency: [String] = [], intensity: [String] = [], kind: String?, tail: [String] = []
        var preposition: String?
        var negative = false
        for w in words {
            let pieces = w.split(separator: "-").map(String.init)
            if !pieces.isEmpty, pieces.allSatisfy({ intensities[$0] != nil }) {
                if pieces == ["NEG"] { negative = true; continue }
                intensity.append(pieces.compactMap { intensities[$0] }.joined(separator: " to "))
            } else if let f = frequencies[w] {
                frequency.append(f)
            } else if let k = kinds[w] {
                kind = k
            } else if w == "BLO" || w == "BLW" || w == "BELOW" {
                preposition = "below"
            } else if w == "ABV" || w == "ABOVE" {
                preposition = "above"
            } else if w == "DURC" || w == "DURD" {
                tail.append(w == "DURC" ? "during climb" : "during descent")
            } else if let heights = altitudes(pieces) {
                if heights.count == 2 {
                    tail.append("between \(WeatherGroups.thousands(heights[0])) and \(WeatherGroups.thousands(heights[1])) ft")
                } else if let h = heights.first {
                    tail.append("\(preposition ?? "at") \(WeatherGroups.thousands(h)) ft")
                }
                preposition = nil
            } else {
                tail.append(w.lowercased())
            }
        }
        if let preposition { tail.append(preposition) }
        if negative && intensity.isEmpty && kind == nil && frequency.isEmpty {
            return (["no \(noun)"] + tail).joined(separator: " ")
        }
        if intensity.isEmpty && frequency.isEmpty && kind == nil && tail.isEmpty { return nil }
        var head = frequency + intensity
        if intensity == ["smooth"] && kind == nil && noun == "turbulence" {
            return (head + tail).joined(separator: " ")
        }
        switch (kind, noun) {
        case (let k?, "icing"): head += [k, "icing"]
        case (let k?, _): head.append(k)
        default: head.append(noun)
        }
        return (head + tail).joined(separator: " ")
    }

    /// "080" → [8000], "080-100" → [8000, 10000], "FL350" → [35000]; nil when not heights.
    private static func altitudes(_ pieces: [String]) -> [Int]? {
        guard (1...2).contains(pieces.count) else { return nil }
        var out: [Int] = []
        for piece in pieces {
            let digits = piece.hasPrefix("FL") ? Substring(piece).dropFirst(2) : Substring(piece)
            guard digits.count == 3, let n = WeatherGroups.number(digits) else { return nil }
            out.append(n * 100)
        }
        return out
    }
}
