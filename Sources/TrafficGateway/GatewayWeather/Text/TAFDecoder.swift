// TAF text decoded into its periods for the cockpit page. Standard library only.

/// A TAF decoded: station, issue time, validity and its periods (the base forecast, then each
/// FM, TEMPO, BECMG and PROB group), each with wind, visibility, weather, sky and flight category.
package struct DecodedTAF: Sendable, Equatable {
    /// One period of the forecast.
    package struct Period: Sendable, Equatable {
        /// "base", "FM", "TEMPO", "BECMG", "PROB30", "PROB40", "PROB30 TEMPO", "PROB40 TEMPO".
        package var kind: String
        /// The probability of a PROB group (30, 40); nil otherwise.
        package var probability: Int?
        /// When the period starts: the validity's start for the base, the FM time, the range's start.
        package var start: WeatherDayTime?
        /// When it ends: for the base and FM periods the next FM's time or the validity's end; the
        /// range's end for TEMPO, BECMG and PROB.
        package var end: WeatherDayTime?
        /// The conditions the period states (and only those).
        package var conditions: WeatherConditions
        /// The flight category of the period, with what it does not state (visibility, or sky)
        /// taken from the prevailing conditions before it; see `DecodedTAF.decode`.
        package var flightCategory: String?
        /// The period's groups after its heading, joined by single spaces.
        package var text: String

        /// A period.
        package init(kind: String, probability: Int? = nil, start: WeatherDayTime? = nil, end: WeatherDayTime? = nil,
                    conditions: WeatherConditions = WeatherConditions(), flightCategory: String? = nil, text: String = "") {
            self.kind = kind
            self.probability = probability
            self.start = start
            self.end = end
            self.conditions = conditions
            self.flightCategory = flightCategory
            self.text = text
        }

        /// The wind the period states.
        package var wind: WeatherWind? { conditions.wind }
        /// The visibility the period states, statute miles.
        package var visibilitySM: Double? { conditions.visibilitySM }
        /// The stated visibility is more than `visibilitySM` ("P6SM").
        package var visibilityPlus: Bool { conditions.visibilityPlus }
        /// Weather in English.
        package var weather: [String] { conditions.weather }
        /// Cloud layers the period states.
        package var sky: [WeatherSkyLayer] { conditions.sky }
        /// The ceiling the period states, feet.
        package var ceilingFt: Int? { conditions.ceilingFt }

        /// One line of English: "Wind 330° 10 kt, visibility more than 6 SM, scattered 5,000 ft, VFR".
        package var summary: String {
            var parts = conditions.summaryParts
            if let flightCategory { parts.append(flightCategory) }
            return WeatherGroups.sentence(parts)
        }
    }

    /// The text as given.
    package var raw: String
    /// The station ("KPDX").
    package var station: String
    /// An amendment ("TAF.AMD", "AMD").
    package var isAmended = false
    /// A correction ("TAF.COR", "COR").
    package var isCorrected = false
    /// When it was issued.
    package var issued: WeatherDayTime?
    /// Start of validity (minute 0).
    package var validFrom: WeatherDayTime?
    /// End of validity (minute 0; the hour may be 24).
    package var validTo: WeatherDayTime?
    /// The periods in the order written, the base first.
    package var periods: [Period] = []
    /// Remarks after "RMK"; nil when none.
    package var remarks: String?

    /// A TAF for a station (the decoder fills the rest).
    package init(raw: String, station: String) {
        self.raw = raw
        self.station = station
    }

    /// Decodes a TAF ("TAF.AMD KPDX 161340Z 1614/1718 33010KT P6SM SCT050 FM170000 32012KT P6SM
    /// BKN060="), with or without its "TAF" prefix. Nil when no station identifier follows the prefix.
    ///
    /// Flight categories: each period's own visibility and sky decide; what a period leaves out is
    /// taken from the prevailing conditions, those of the base or latest FM period, as changed by
    /// any BECMG before it (a TEMPO or PROB does not change them). So "TEMPO 1612/1614 3SM BR" under
    /// a base of "P6SM BKN008" is IFR on its ceiling, and a TEMPO of only "BKN008" under "P6SM"
    /// is IFR. Each period's `conditions` hold only what it states.
    package static func decode(_ text: String) -> DecodedTAF? {
        let words = WeatherGroups.words(text)
        var i = 0
        var amended = false, corrected = false
        while i < words.count {
            let w = words[i]
            if w == "AMD" || w == "TAF.AMD" { amended = true }
            else if w == "COR" || w == "TAF.COR" { corrected = true }
            else if w != "TAF" { break }
            i += 1
        }
        guard i < words.count, WeatherGroups.isStation(words[i]) else { return nil }
        var taf = DecodedTAF(raw: text, station: words[i])
        taf.isAmended = amended
        taf.isCorrected = corrected
        i += 1
        if i < words.count, let time = WeatherGroups.dayTime(words[i]) {
            taf.issued = time
            i += 1
        }
        if i < words.count, let range = WeatherGroups.dayHourRange(words[i]) {
            taf.validFrom = range.from
            taf.validTo = range.to
            i += 1
        }
        let end = words[i...].firstIndex(of: "RMK") ?? words.count
        if end + 1 < words.count { taf.remarks = words[(end + 1)...].joined(separator: " ") }

        // Split the body into periods at each change group.
        var periods = [Period(kind: "base", start: taf.validFrom)]
        var groups: [[String]] = [[]]
        while i < end {
            let w = words[i]
            i += 1
            var next: Period?
            if w.count == 8, w.hasPrefix("FM"), let n = WeatherGroups.number(w.dropFirst(2)),
               (1...31).contains(n / 10000), n / 100 % 100 <= 24, n % 100 <= 59 {
                next = Period(kind: "FM", start: WeatherDayTime(day: n / 10000, hour: n / 100 % 100, minute: n % 100))
            } else if w == "TEMPO" || w == "BECMG" {
                next = Period(kind: w)
            } else if w.count == 6, w.hasPrefix("PROB"), let p = WeatherGroups.number(w.dropFirst(4)) {
                next = Period(kind: w, probability: p)
                if i < end, words[i] == "TEMPO" {
                    next?.kind = w + " TEMPO"
                    i += 1
                }
            }
            guard var period = next else {
                groups[groups.count - 1].append(w)
                continue
            }
            if period.kind != "FM", i < end, let range = WeatherGroups.dayHourRange(words[i]) {
                period.start = range.from
                period.end = range.to
                i += 1
            }
            periods.append(period)
            groups.append([])
        }

        // Conditions, the ends of base and FM periods, and flight categories.
        var prevailing = WeatherConditions()
        for p in periods.indices {
            let words = groups[p]
            var k = 0
            while k < words.count {
                k += max(1, periods[p].conditions.absorb(words, at: k))
            }
            periods[p].text = words.joined(separator: " ")
            if periods[p].kind == "base" || periods[p].kind == "FM" {
                periods[p].end = periods[(p + 1)...].first(where: { $0.kind == "FM" })?.start ?? taf.validTo
            }
            let effective = merged(prevailing, with: periods[p].conditions)
            periods[p].flightCategory = effective.flightCategory
            if ["base", "FM", "BECMG"].contains(periods[p].kind) { prevailing = effective }
        }
        taf.periods = periods
        return taf
    }

    /// `stated` over `prevailing`: visibility and sky each from `stated` when it gives them.
    static func merged(_ prevailing: WeatherConditions, with stated: WeatherConditions) -> WeatherConditions {
        var out = stated
        if stated.visibilitySM == nil {
            out.visibilitySM = prevailing.visibilitySM
            out.visibilityPlus = prevailing.visibilityPlus
            out.visibilityLessThan = prevailing.visibilityLessThan
            out.visibilityMetres = prevailing.visibilityMetres
        }
        if !stated.hasSky {
            out.sky = prevailing.sky
            out.clearSky = prevailing.clearSky
        }
        if stated.wind == nil { out.wind = prevailing.wind }
        return out
    }
}
