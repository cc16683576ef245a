import GatewayRecords
/// What a NOTAM translation still leaves in code: raw date-time groups (`2605161300`),
/// coordinate groups (`341118.10N0971213.30W`), radial/distance fixes (`TFD094017`), heights
/// (`1263.1FT`, `FL180`, `SFC`, `AGL`), distances (`4.7NM`) and contractions (`VORTAC`, `MDA`).
/// A contraction counts only when its meaning is nowhere in the translation ("air traffic
/// control (ATC)" reads fine); single letters are designators (`TWY N`), never counted.
/// The plain-English measurement (`NotamEnglishMeasureTests`) counts NOTAMs with none.
package enum NotamTranslationAudit {
    /// The kind of a raw group.
    package enum Kind: String, Sendable, CaseIterable {
        /// A date-time group (`2605161300`).
        case date
        /// A coordinate group (`341118.10N0971213.30W`).
        case coordinate
        /// A height or limit (`1263.1FT`, `FL180`, `SFC`, `AGL`).
        case height
        /// A distance or a radial/distance fix (`4.7NM`, `TFD094017`).
        case distance
        /// A contraction of the table whose meaning is nowhere in the translation.
        case contraction
    }

    /// One raw group left in a translation.
    package struct Finding: Sendable, Equatable, CustomStringConvertible {
        /// What it is.
        package var kind: Kind
        /// The token as it stands in the translation.
        package var token: String
        /// `kind: token`.
        package var description: String { "\(kind.rawValue): \(token)" }
    }

    /// Every raw group in `translation`.
    package static func findings(in translation: String) -> [Finding] {
        let lower = translation.lowercased()
        var out: [Finding] = []
        var previous: Substring = ""
        for word in translation.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
            var core = Substring(word)
            while let f = core.first, "(\"'[".contains(f) { core = core.dropFirst() }
            while let l = core.last, ",.;:)\"']".contains(l) { core = core.dropLast() }
            defer { previous = word }
            guard !core.isEmpty else { continue }
            // Names: a designator after its kind ("taxiway NB"), a state after its place ("BOISE, ID").
            if designatorWords.contains(previous.lowercased()) { continue }
            if previous.hasSuffix(","), NotamEnglishWords.states.contains(String(core)) { continue }
            if let k = kind(of: String(core), lower: lower) { out.append(Finding(kind: k, token: String(core))) }
        }
        return out
    }

    static func kind(of token: String, lower: String) -> Kind? {
        let u = Array(token.utf8)
        // Dates: a run of exactly ten digits.
        var run = 0
        for (i, b) in u.enumerated() {
            if isDigit(b) { run += 1 } else { run = 0 }
            if run == 10 && (i + 1 == u.count || !isDigit(u[i + 1])) && (i < 10 || !isDigit(u[i - 10])) { return .date }
        }
        // Coordinates: 4 or 6 digits (and a fraction) then N or S at the start.
        var i = 0
        while i < u.count && isDigit(u[i]) { i += 1 }
        if i == 4 || i == 6 {
            var j = i
            if j < u.count && u[j] == UInt8(ascii: ".") { j += 1; while j < u.count && isDigit(u[j]) { j += 1 } }
            if j < u.count && (u[j] == UInt8(ascii: "N") || u[j] == UInt8(ascii: "S")) && (j + 1 == u.count || isDigit(u[j + 1]) || u[j + 1] == UInt8(ascii: "/")) {
                return .coordinate
            }
        }
        // Radial/distance fixes: 2–3 letters then six digits.
        let letters = u.prefix { $0 >= 65 && $0 <= 90 }.count
        if (2...3).contains(letters) && u.count == letters + 6 && u[letters...].allSatisfy(isDigit) { return .distance }
        // Numbers with a unit.
        if i > 0 || (u.first == UInt8(ascii: ".") && u.count > 1 && isDigit(u[1])) {
            var j = i
            while j < u.count && (isDigit(u[j]) || u[j] == UInt8(ascii: ".") || u[j] == UInt8(ascii: ",")) { j += 1 }
            let unit = String(decoding: u[j...], as: UTF8.self)
            if ["FT", "M", "FEET"].contains(unit) { return .height }
            if ["NM", "NMR", "SM", "KM"].contains(unit) { return .distance }
        }
        if token.hasPrefix("FL"), u.count >= 4, u.count <= 5, u.dropFirst(2).allSatisfy(isDigit) { return .height }
        if ["SFC", "AGL", "MSL", "AMSL", "UNL", "FT", "GND"].contains(token) { return .height }
        if ["NM", "NMR"].contains(token) { return .distance }
        // Contractions (each part of `VOR/DME`), unless the meaning is written out too.
        guard u.count >= 2 else { return nil }
        for part in token.split(separator: "/") where part.count >= 2 {
            let p = String(part)
            if let meaning = NotamContractions.all[p], meaning != p, p.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "-" }),
               !lower.contains(meaning.lowercased()) {
                return .contraction
            }
        }
        if token == "U/S" { return .contraction }
        return nil
    }

    /// Words after which a token is a designator (a name), not a contraction.
    static let designatorWords: Set<String> = ["taxiway", "taxiways", "runway", "runways", "category", "apron"]

    static func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
}
