// METAR and SPECI text decoded for the cockpit page. Standard library only.

/// A METAR or SPECI decoded: the observation's time, wind, visibility, weather, sky, temperature,
/// altimeter and FAA flight category. Groups the decoder does not know are skipped; the body ends
/// at "RMK" (kept raw in `remarks`) or at a trend ("NOSIG", "TEMPO", "BECMG"), which is ignored.
package struct DecodedMETAR: Sendable, Equatable {
    /// The text as given.
    package var raw: String
    /// "METAR" or "SPECI" ("METAR" when the text has no prefix).
    package var kind: String
    /// The station ("KSLE").
    package var station: String
    /// Day of the month of the observation.
    package var day: Int?
    /// Hour of the observation, UTC.
    package var hour: Int?
    /// Minute of the observation.
    package var minute: Int?
    /// An automated observation ("AUTO").
    package var isAuto = false
    /// Wind, visibility, weather and sky.
    package var conditions = WeatherConditions()
    /// Temperature, whole °C from the body ("M05" → −5).
    package var temperatureC: Int?
    /// Dew point, whole °C from the body.
    package var dewpointC: Int?
    /// Temperature to a tenth of a degree from the remarks' T group ("T01560061" → 15.6).
    package var temperatureTenthsC: Double?
    /// Dew point to a tenth of a degree from the remarks' T group ("T01560061" → 6.1).
    package var dewpointTenthsC: Double?
    /// Altimeter setting, inches of mercury ("A3012" → 30.12; "Q1013" converted → 29.91).
    package var altimeterInHg: Double?
    /// Altimeter setting in hectopascals, only when the report gives it so ("Q1013" → 1013).
    package var altimeterHPa: Int?
    /// The remarks after "RMK", words joined by single spaces; nil when there are none.
    package var remarks: String?

    /// A decoded METAR with the given station (the decoder fills the rest).
    package init(raw: String, kind: String = "METAR", station: String) {
        self.raw = raw
        self.kind = kind
        self.station = station
    }

    /// The wind; nil when not reported.
    package var wind: WeatherWind? { conditions.wind }
    /// Visibility, statute miles.
    package var visibilitySM: Double? { conditions.visibilitySM }
    /// The visibility is more than `visibilitySM` ("P6SM", "9999", CAVOK).
    package var visibilityPlus: Bool { conditions.visibilityPlus }
    /// The visibility is less than `visibilitySM` ("M1/4SM").
    package var visibilityLessThan: Bool { conditions.visibilityLessThan }
    /// The visibility as written in metres, for reports outside the US.
    package var visibilityMetres: Int? { conditions.visibilityMetres }
    /// Present weather in English.
    package var weather: [String] { conditions.weather }
    /// Cloud layers.
    package var sky: [WeatherSkyLayer] { conditions.sky }
    /// "CLR", "SKC", "NSC", "NCD" or "CAVOK" when the report says so.
    package var clearSky: String? { conditions.clearSky }
    /// CAVOK was reported.
    package var isCAVOK: Bool { conditions.isCAVOK }
    /// The ceiling, feet above ground: lowest broken or overcast layer or vertical visibility.
    package var ceilingFt: Int? { conditions.ceilingFt }
    /// "VFR", "MVFR", "IFR" or "LIFR" (see `WeatherGroups.flightCategory`); nil when neither
    /// visibility nor sky condition is reported.
    package var flightCategory: String? { conditions.flightCategory }
    /// The temperature, the remarks' tenths when given, else the body's whole degrees.
    package var bestTemperatureC: Double? { temperatureTenthsC ?? temperatureC.map(Double.init) }
    /// The dew point, the remarks' tenths when given, else the body's whole degrees.
    package var bestDewpointC: Double? { dewpointTenthsC ?? dewpointC.map(Double.init) }

    /// One line of English: "Wind 340° 8 kt, visibility 10 SM, few 4,000 ft, 16/6 °C,
    /// altimeter 30.12 inHg, VFR". Parts the report lacks are left out.
    package var summary: String {
        var parts = conditions.summaryParts
        if let t = temperatureC {
            parts.append(dewpointC.map { "\(t)/\($0) °C" } ?? "\(t) °C")
        }
        if let hPa = altimeterHPa {
            parts.append("QNH \(hPa) hPa")
        } else if let inHg = altimeterInHg {
            parts.append("altimeter \(WeatherGroups.twoDecimals(inHg)) inHg")
        }
        if let category = flightCategory { parts.append(category) }
        return WeatherGroups.sentence(parts)
    }

    /// Decodes a METAR or SPECI ("METAR KSLE 161356Z 34008KT 10SM FEW040 16/06 A3012 RMK AO2
    /// T01560061="), with or without its prefix, over any whitespace. Nil when no station
    /// identifier (2–5 letters or digits, at least one a letter) follows the optional prefix.
    package static func decode(_ text: String) -> DecodedMETAR? {
        let words = WeatherGroups.words(text)
        var i = 0
        var kind = "METAR"
        while i < words.count {
            let w = words[i]
            if w.hasPrefix("METAR") || w.hasPrefix("SPECI"), w.count == 5 || w.dropFirst(5).hasPrefix(".") {
                kind = String(w.prefix(5))
            } else if w != "COR" {
                break
            }
            i += 1
        }
        guard i < words.count, WeatherGroups.isStation(words[i]) else { return nil }
        var metar = DecodedMETAR(raw: text, kind: kind, station: words[i])
        i += 1
        if i < words.count, let time = WeatherGroups.dayTime(words[i]) {
            metar.day = time.day
            metar.hour = time.hour
            metar.minute = time.minute
            i += 1
        }
        let remarksAt = words[i...].firstIndex(of: "RMK") ?? words.count
        while i < remarksAt {
            let w = words[i]
            if w == "NOSIG" || w == "TEMPO" || w == "BECMG" { break }
            if w == "AUTO" {
                metar.isAuto = true
                i += 1
                continue
            }
            let used = metar.conditions.absorb(words, at: i)
            if used > 0 {
                i += used
                continue
            }
            if let (t, d) = temperatures(w) {
                if metar.temperatureC == nil {
                    metar.temperatureC = t
                    metar.dewpointC = d
                }
            } else if let (inHg, hPa) = altimeter(w), metar.altimeterInHg == nil {
                metar.altimeterInHg = inHg
                metar.altimeterHPa = hPa
            }
            i += 1
        }
        if remarksAt + 1 < words.count {
            let remarks = words[(remarksAt + 1)...]
            metar.remarks = remarks.joined(separator: " ")
            for w in remarks {
                if let (t, d) = tenths(w) {
                    metar.temperatureTenthsC = t
                    metar.dewpointTenthsC = d
                    break
                }
            }
        }
        return metar
    }

    /// "16/06", "M02/M05", "05/" as (temperature, dew point).
    static func temperatures(_ w: String) -> (Int, Int?)? {
        let parts = w.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, (2...3).contains(parts[0].count), let t = WeatherGroups.temperature(parts[0]),
              !parts[0].hasPrefix("-"), !parts[0].hasPrefix("+") else { return nil }
        // Temperatures a station can measure (M99 is no temperature).
        guard WeatherGroups.temperatures.contains(t) else { return nil }
        if parts[1].isEmpty || parts[1] == "//" { return (t, nil) }
        guard (2...3).contains(parts[1].count), !parts[1].hasPrefix("-"), !parts[1].hasPrefix("+"),
              let d = WeatherGroups.temperature(parts[1]), WeatherGroups.temperatures.contains(d) else { return nil }
        return (t, d)
    }

    /// "A3012" → (30.12 inHg, nil); "Q1013" → (29.91 inHg, 1013 hPa).
    static func altimeter(_ w: String) -> (Double, Int?)? {
        guard w.count == 5, let value = WeatherGroups.number(w.dropFirst()) else { return nil }
        // Pressures the sea-level air has had (870–1084 hPa, 25.69–32.01 inHg), with a margin:
        // A9999 is no altimeter setting.
        if w.hasPrefix("A"), (2500...3300).contains(value) { return (Double(value) / 100, nil) }
        if w.hasPrefix("Q"), (850...1100).contains(value) { return (WeatherGroups.rounded2(Double(value) * 0.0295299830714), value) }
        return nil
    }

    /// The remarks' "T01560061" (or "T0156") as tenths of a degree.
    static func tenths(_ w: String) -> (Double, Double?)? {
        let chars = Array(w)
        guard chars.first == "T", chars.count == 5 || chars.count == 9 else { return nil }
        func value(_ at: Int) -> Double? {
            guard chars[at] == "0" || chars[at] == "1", let n = WeatherGroups.number(String(chars[(at + 1)..<(at + 4)])) else { return nil }
            return Double(chars[at] == "1" ? -n : n) / 10
        }
        guard let t = value(1) else { return nil }
        if chars.count == 5 { return (t, nil) }
        guard let d = value(5) else { return nil }
        return (t, d)
    }
}
