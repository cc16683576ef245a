// Winds and temperatures aloft (FB/FD) text decoded for the cockpit page. Standard library only.

/// A winds-aloft record decoded: "WINDS SLE 161800Z  FT 3000 6000 9000\nSLE 3010 3115+08 3120+03".
///
/// Groups: "DDSS" (direction in tens of degrees, speed in knots), "DDSS±TT" (with temperature),
/// "DDSSTT" (above 24,000 ft: the temperature's minus sign is left out), "9900" light and
/// variable; a direction code of 51–86 means 100 kt more and 50 less on the code ("731960":
/// 230°, 119 kt, −60 °C).
///
/// Levels missing because they are below the station are blank. When the data line keeps the
/// product's fixed-width layout (each group's right edge under its altitude's, counted from "FT"
/// and from the station's first letter), groups are matched to altitudes by column; otherwise
/// they are matched from the right (the highest altitude gets the last group), which is right
/// because blanks only ever open a line.
package struct DecodedWindsAloft: Sendable, Equatable {
    /// One altitude's wind and temperature.
    package struct Level: Sendable, Equatable {
        /// Altitude, feet MSL (the header's label).
        package var altitudeFt: Int
        /// True direction, degrees; nil when light and variable.
        package var directionDeg: Int?
        /// Speed, knots (0 when light and variable).
        package var speedKt: Int
        /// Temperature, °C; nil when not forecast (3,000 ft and levels near the station).
        package var temperatureC: Int?
        /// Light and variable ("9900"): under 5 kt.
        package var isLightAndVariable: Bool
        /// The group as written.
        package var group: String

        /// A level.
        package init(altitudeFt: Int, directionDeg: Int?, speedKt: Int, temperatureC: Int? = nil,
                    isLightAndVariable: Bool = false, group: String = "") {
            self.altitudeFt = altitudeFt
            self.directionDeg = directionDeg
            self.speedKt = speedKt
            self.temperatureC = temperatureC
            self.isLightAndVariable = isLightAndVariable
            self.group = group
        }
    }

    /// The text as given.
    package var raw: String
    /// The station ("SLE"): the word after "WINDS", else the data line's first word.
    package var station: String?
    /// When the forecast is valid (the last "ddhhmmZ" before the altitude header).
    package var valid: WeatherDayTime?
    /// The header's altitudes, feet, in order.
    package var altitudesFt: [Int] = []
    /// The levels that have a decodable group, lowest first.
    package var levels: [Level] = []
    /// Groups were matched to altitudes by column (else from the right).
    package var matchedByColumn = false

    /// An empty record (the decoder fills the rest).
    package init(raw: String) { self.raw = raw }

    /// Decodes a winds-aloft record. Nil when the text has neither a "WINDS" heading nor an "FT"
    /// altitude header; without the header the levels are empty (their altitudes are unknown).
    package static func decode(_ text: String) -> DecodedWindsAloft? {
        let lines = text.uppercased().split(whereSeparator: { $0.isNewline })
            .map { Array($0.map { $0.isWhitespace || $0 == "=" ? " " : $0 }) }
        let tokenized = lines.map(tokens)
        var out = DecodedWindsAloft(raw: text)
        let first = tokenized.first(where: { !$0.isEmpty }) ?? []
        if first.first?.text == "WINDS", first.count > 1, WeatherGroups.isStation(first[1].text) {
            out.station = first[1].text
        }
        guard let h = tokenized.firstIndex(where: { $0.contains(where: { $0.text == "FT" }) }),
              let f = tokenized[h].firstIndex(where: { $0.text == "FT" }) else {
            guard first.first?.text == "WINDS" else { return nil }
            out.valid = first.compactMap { WeatherGroups.dayTime($0.text) }.last
            return out
        }
        let header = tokenized[h]
        let before = tokenized[..<h].joined() + header[..<f]
        out.valid = before.compactMap { WeatherGroups.dayTime($0.text) }.last
        var k = f + 1
        var labels: [(altitude: Int, end: Int)] = []
        while k < header.count, let a = WeatherGroups.number(header[k].text), a > 0, a <= 60000 {
            labels.append((a, header[k].end - header[f].start))
            k += 1
        }
        out.altitudesFt = labels.map(\.altitude)

        // The data: after the altitudes on the header's line, else the next line with words.
        var data = Array(header[k...])
        var columns = data.isEmpty
        if data.isEmpty { data = tokenized[(h + 1)...].first(where: { !$0.isEmpty }) ?? [] }
        var origin = 0
        if let lead = data.first, decodeGroup(lead.text, altitudeFt: 0) == nil {
            if WeatherGroups.isStation(lead.text), out.station == nil { out.station = lead.text }
            origin = lead.start
            data.removeFirst()
        }
        guard !labels.isEmpty, !data.isEmpty else { return out }

        // Match by column: every group's right edge within a column of a label's, in order.
        var assignment: [Int] = []
        if columns, data.count <= labels.count {
            for group in data {
                let e = group.end - origin
                guard let l = labels.indices.min(by: { abs(labels[$0].end - e) < abs(labels[$1].end - e) }),
                      abs(labels[l].end - e) <= 1, l > (assignment.last ?? -1) else {
                    columns = false
                    break
                }
                assignment.append(l)
            }
        } else {
            columns = false
        }
        if !columns {
            let offset = labels.count - data.count
            assignment = data.indices.map { $0 + offset }
        }
        out.matchedByColumn = columns
        for (g, l) in zip(data.indices, assignment) where labels.indices.contains(l) {
            if let level = decodeGroup(data[g].text, altitudeFt: labels[l].altitude) { out.levels.append(level) }
        }
        return out
    }

    /// One group at an altitude: "9900", "2714", "2725+02", "731960"; nil when not a group.
    package static func decodeGroup(_ group: String, altitudeFt: Int) -> Level? {
        let c = Array(group)
        guard c.count >= 4, let code = WeatherGroups.number(String(c[0..<2])),
              let raw = WeatherGroups.number(String(c[2..<4])) else { return nil }
        var direction: Int?
        var speed = raw
        var calm = false
        switch code {
        case 99:
            guard raw == 0 else { return nil }
            calm = true
        case 51...86:
            direction = (code - 50) * 10
            speed = raw + 100
        case 0...36:
            direction = code * 10
        default:
            return nil
        }
        let rest = c[4...]
        var temperature: Int?
        switch rest.count {
        case 0:
            break
        case 2:
            guard let t = WeatherGroups.number(String(rest)) else { return nil }
            temperature = -t
        case 3:
            guard rest.first == "+" || rest.first == "-", let t = WeatherGroups.number(String(rest.dropFirst())) else { return nil }
            temperature = rest.first == "-" ? -t : t
        default:
            return nil
        }
        return Level(altitudeFt: altitudeFt, directionDeg: direction, speedKt: speed, temperatureC: temperature,
                     isLightAndVariable: calm, group: group)
    }

    /// A line's words with their columns (end exclusive).
    static func tokens(_ line: [Character]) -> [(text: String, start: Int, end: Int)] {
        var out: [(text: String, start: Int, end: Int)] = []
        var start: Int?
        for i in 0...line.count {
            let blank = i == line.count || line[i] == " "
            if blank, let s = start {
                out.append((String(line[s..<i]), s, i))
                start = nil
            } else if !blank, start == nil {
                start = i
            }
        }
        return out
    }
}
