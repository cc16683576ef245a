import GatewayRecords
/// NOTAMs in plain English. The text is read in its parts, not word by word: the keyword frames
/// the sentence ("Runway 13/31 is closed.", "The instrument landing system (ILS) for runway 35
/// is out of service.", "Obstacle: …", "Temporary flight restriction, SALEM, OR: …"); date-time
/// groups, schedules, coordinates, heights and limits, distances and bearings, radial/distance
/// fixes, frequencies and runway/taxiway designators are written as values; contractions
/// (`NotamContractions`) are spelled out; identifiers (airports, navaids, fixes: `APV`, `1F0`,
/// `OAK VORTAC`) and names stay as written, and what cannot be read is kept verbatim rather than
/// guessed. Callers keep the original text beside the translation.
package enum NotamTranslator {
    /// Contraction → meaning (every contraction the translator knows).
    package static let abbreviations: [String: String] = NotamContractions.all

    /// `text` (a NOTAM's E) item or domestic body; a whole domestic NOTAM with its `!` header
    /// and validity also reads) in plain English sentences.
    package static func translate(_ text: String) -> String {
        var writer = NotamEnglishWriter()
        return writer.write(text)
    }
}

/// One word of a NOTAM text: its core and the punctuation around it.
struct NotamWord {
    var lead: String
    var core: Substring
    var trail: String
    /// What follows it in the output (" ", or "" when it was glued to the next: `3520/HAT`).
    var glue = " "

    init(lead: String = "", core: Substring, trail: String = "", glue: String = " ") {
        (self.lead, self.core, self.trail, self.glue) = (lead, core, trail, glue)
    }

    /// Splits a word off its punctuation.
    init(_ word: Substring) {
        var core = word
        var trail = ""
        while let last = core.last, ",.;:)'\"".contains(last), !(last == ")" && core.contains("(") && core.first != "("), core.count > 1 {
            trail = String(last) + trail
            core = core.dropLast()
        }
        var lead = ""
        while let first = core.first, first == "(" || first == "'" || first == "\"", core.count > 1 {
            lead += String(first)
            core = core.dropFirst()
        }
        (self.lead, self.core, self.trail) = (lead, core, trail)
    }
}

/// Writes one NOTAM text as sentences (see `NotamTranslator`).
struct NotamEnglishWriter {
    /// Acronyms already written with their meaning.
    var introduced: Set<String> = []

    mutating func write(_ text: String) -> String {
        var body = Substring(text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " "))
        var prefix = "", suffix = ""
        // A whole domestic NOTAM: "!SLE 05/012 SLE RWY 13/31 CLSD 2605160800-2605170800".
        if body.hasPrefix("!") {
            let parts = body.dropFirst().split(separator: " ", maxSplits: 3)
            if parts.count == 4, parts[1].contains("/") {
                prefix = "NOTAM \(parts[1]) (\(parts[2])): "
                body = parts[3]
                if let space = body.lastIndex(of: " "), let v = NotamGroups.dateRange(body[body.index(after: space)...]) {
                    suffix = " In force \(v)."
                    body = body[..<space]
                }
            }
        }
        var sentences = Self.sentences(body)
        var out: [String] = []
        // FDC: "OR..AIRSPACE SALEM, OR..TEMPORARY FLIGHT RESTRICTIONS …", "WA..ROUTE ZSE. …".
        var place: Substring? = nil
        if sentences.count >= 2, sentences[0].count == 2, NotamEnglishWords.states.contains(String(sentences[0])) {
            sentences.removeFirst()
            if sentences[0].hasPrefix("AIRSPACE "), sentences.count >= 2 {
                place = sentences.removeFirst().dropFirst("AIRSPACE ".count)
            }
        }
        for (i, s) in sentences.enumerated() {
            let words = Self.words(s)
            guard !words.isEmpty else { continue }
            if i == 0 {
                out.append(frame(words, place: place, following: sentences.count > 1))
            } else {
                out.append(Self.sentence(statusSentence(words, subjectPrefix: "", article: false) ?? render(words)))
            }
        }
        let joined = out.filter { !$0.isEmpty }.joined(separator: " ")
        return prefix + joined + suffix
    }

    // MARK: Sentences and words

    /// The text's sentences: split at "..", "..." and at a full stop before a space or the end
    /// (not inside numbers: `0.2NM`, `91.137`).
    static func sentences(_ s: Substring) -> [Substring] {
        var out: [Substring] = []
        var start = s.startIndex
        var i = s.startIndex
        while i < s.endIndex {
            if s[i] == "." {
                let next = s.index(after: i)
                if next < s.endIndex && s[next] == "." {
                    var end = next
                    while end < s.endIndex && s[end] == "." { end = s.index(after: end) }
                    out.append(s[start..<i])
                    start = end
                    i = end
                    continue
                }
                // "COMPLIANCE.HEL OPS": a full stop between two words of letters, no space.
                let glued = next < s.endIndex && s[s.index(before: max(i, s.index(after: s.startIndex)))].isLetter
                    && s[next].isLetter && s[next].isUppercase
                    && s[s.startIndex..<i].suffix(3).allSatisfy(\.isLetter) && s[next...].prefix(3).allSatisfy(\.isLetter)
                if next == s.endIndex || s[next] == " " || glued {
                    out.append(s[start..<i])
                    start = next
                    i = next
                    continue
                }
            }
            i = s.index(after: i)
        }
        out.append(s[start...])
        return out.map { $0.trimmingSpaces }.filter { !$0.isEmpty }
    }

    /// A sentence's words, ranges split at their hyphen (`SFC-5000FT`, `AGL-FL180`) and
    /// numbers glued to a procedure word split at their slash (`3520/HAT`).
    static func words(_ s: Substring) -> [NotamWord] {
        var out: [NotamWord] = []
        for raw in s.split(separator: " ") {
            var w = NotamWord(raw)
            let c = w.core
            if c.contains("-"), NotamGroups.dateRange(c) == nil, NotamGroups.coordinateList(c) == nil {
                let parts = c.split(separator: "-", omittingEmptySubsequences: false)
                if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, isLimit(parts[0]) || isDatum(parts[0]), isLimit(parts[1]) {
                    out.append(NotamWord(lead: w.lead, core: parts[0], glue: ""))
                    out.append(NotamWord(core: "-", glue: ""))
                    w.lead = ""
                    w.core = parts[1]
                    out.append(w)
                    continue
                }
            }
            if let slash = c.firstIndex(of: "/"), c.filter({ $0 == "/" }).count == 1 {
                let a = c[..<slash], b = c[c.index(after: slash)...]
                if NotamGroups.isDigits(a), !b.isEmpty, b.allSatisfy({ $0.isLetter }) {
                    out.append(NotamWord(lead: w.lead, core: a, trail: "/", glue: ""))
                    w.lead = ""
                    w.core = b
                }
            }
            out.append(w)
        }
        return out
    }

    /// A vertical limit as one word: SFC, GND, UNL, FL180, 5000FT.
    static func isLimit(_ s: Substring) -> Bool {
        if ["SFC", "GND", "SURFACE", "UNL", "UNLIMITED"].contains(s) { return true }
        if NotamGroups.flightLevel(s) != nil { return true }
        if let (_, unit) = NotamGroups.measure(s), unit == "FT" || unit == "FEET" { return true }
        return false
    }

    static func isDatum(_ s: Substring) -> Bool { s == "AGL" || s == "MSL" || s == "AMSL" }

    /// `s` as a sentence: a capital first letter, a full stop at the end.
    static func sentence(_ s: String) -> String {
        var t = String(s.trimmingSpaces)
        guard let first = t.first else { return "" }
        t = String(first).uppercased() + t.dropFirst()
        if let last = t.last, !".!?".contains(last) {
            if last == "," || last == ";" || last == ":" { t.removeLast() }
            t += "."
        }
        return String(t)
    }

    // MARK: Frames

    /// The first sentence, framed by its keyword.
    mutating func frame(_ words: [NotamWord], place: Substring?, following: Bool) -> String {
        let key = words[0].core
        let rest = Array(words.dropFirst())
        if let written = place {
            // FDC airspace: the place, a name ("SALEM, OR" → "Salem, OR"), then what happens there.
            let place = Self.titledName(Self.words(written))
            let up = words.map { String($0.core) }
            if up.starts(with: ["TEMPORARY", "FLIGHT"]), up.count >= 3, up[2].hasPrefix("RESTRICTION") {
                return Self.sentence("Temporary flight restriction, \(place): " + render(Array(words.dropFirst(3))))
            }
            return Self.sentence("Airspace, \(place): " + (statusSentence(words, subjectPrefix: "", article: false) ?? render(words)))
        }
        switch key {
        case "RWY", "TWY", "TWYS", "RWYS":
            return Self.sentence(surface(words))
        case "NAV":
            if rest.first?.core == "RWY" { return Self.sentence(surface(rest, article: true)) }
            if rest.first?.core == "GPS", let s = statusSentence(rest, subjectPrefix: "", article: false) {
                return Self.sentence("GPS interference testing: " + s)
            }
            return Self.sentence(statusSentence(rest, subjectPrefix: "", article: true) ?? "Navigation: " + render(rest))
        case "COM", "SVC":
            let label = key == "COM" ? "Communications" : "Services"
            return Self.sentence(statusSentence(rest, subjectPrefix: "", article: true) ?? "\(label): " + render(rest))
        case "AD":
            var r = rest
            var what = "aerodrome"
            if r.first?.core == "AP" { r.removeFirst(); what = "airport" }
            if r.first.map({ Self.status(in: [$0], from: 0) != nil }) ?? false {
                return Self.sentence("The \(what) " + (statusSentence(r, subjectPrefix: "", article: false, allowEmptySubject: true) ?? render(r)))
            }
            return Self.sentence(statusSentence(r, subjectPrefix: "\(what) ", article: true) ?? "\(what.capitalizedFirst): " + render(r))
        case "OBST":
            return Self.sentence("Obstacle: " + obstacle(rest))
        case "AIRSPACE":
            return Self.sentence(statusSentence(rest, subjectPrefix: "airspace ", article: false) ?? "Airspace: " + render(rest))
        case "APRON":
            return Self.sentence(statusSentence(rest, subjectPrefix: "apron ", article: false) ?? "Apron: " + render(rest))
        case "IAP", "ODP", "SID", "STAR", "CHART", "DATA", "VFP":
            let labels = ["IAP": "Instrument approach procedure", "ODP": "Obstacle departure procedure", "SID": "Standard instrument departure",
                          "STAR": "Standard terminal arrival", "CHART": "Chart", "DATA": "Data", "VFP": "Visual flight procedure"]
            // The airport's name, as written (its INTL, FLD written out).
            let name = Self.titledName(rest)
            return Self.sentence("\(labels[String(key)]!), \(name)")
        case "ROUTE", "SECURITY", "SPECIAL":
            let labels = ["ROUTE": "Route", "SECURITY": "Security", "SPECIAL": "Special notice"]
            return Self.sentence("\(labels[String(key)]!) " + rest.map { $0.lead + String($0.core) + $0.trail }.joined(separator: " "))
        default:
            return Self.sentence(statusSentence(words, subjectPrefix: "", article: true) ?? render(words))
        }
    }

    /// A runway or taxiway NOTAM (`RWY 13/31 CLSD`, `TWY A, B AND N CLSD`, `RWY 25L PAPI U/S`,
    /// `TWY B BTN TWY B1 AND TWY B3 CLSD`).
    mutating func surface(_ words: [NotamWord], article: Bool = true) -> String {
        let kind = words[0].core.hasPrefix("RWY") ? "runway" : "taxiway"
        var designators: [String] = []
        var i = 1
        while i < words.count {
            let w = words[i]
            guard w.core.count <= 9, w.core.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "/" }) else { break }
            designators.append(String(w.core))
            i += 1
            if w.trail.contains(","), i < words.count { continue }
            if i + 1 < words.count, words[i].core == "AND" || words[i].core == "&" { i += 1; continue }
            break
        }
        guard !designators.isEmpty else { return render(words) }
        let names = designators.count == 1 ? designators[0]
            : designators.dropLast().joined(separator: ", ") + " and " + designators.last!
        let subject = (designators.count > 1 ? kind + "s " : kind + " ") + names
        let remaining = Array(words[i...])
        guard let (k, end, phrase, copula) = Self.status(in: remaining, from: 0) else {
            return subject.capitalizedFirst + (remaining.isEmpty ? "" : ": " + render(remaining))
        }
        let part = Array(remaining[..<k])
        let after = Array(remaining[end...])
        var head: String
        var plural = designators.count > 1
        if part.isEmpty {
            head = subject
        } else if NotamEnglishWords.qualifiers.contains(String(part[0].core)) {
            head = subject + " " + render(part)
        } else {
            let p = render(part)
            head = (article ? "the " : "") + p + " for " + subject
            plural = Self.isPlural(p)
        }
        return head + " " + (copula ? (plural ? "are " : "is ") : "") + phrase + (after.isEmpty ? "" : " " + render(after))
    }

    /// "<subject> is <status> <rest>" when the words hold a status after a subject.
    mutating func statusSentence(_ words: [NotamWord], subjectPrefix: String, article: Bool, allowEmptySubject: Bool = false) -> String? {
        guard let (k, end, phrase, copula) = Self.status(in: words, from: allowEmptySubject ? 0 : 1), k > 0 || allowEmptySubject else { return nil }
        var subjectWords = Array(words[..<k])
        var subject: String
        // "<part> RWY <d>": the part for the runway.
        if subjectWords.count >= 3, subjectWords[subjectWords.count - 2].core == "RWY" {
            let d = subjectWords.removeLast().core
            subjectWords.removeLast()
            subject = render(subjectWords) + " for runway \(d)"
        } else {
            subject = render(subjectWords)
        }
        subject = subjectPrefix + subject
        let plural = Self.isPlural(subject)
        let head = subject.isEmpty ? "" : ((article && !subject.hasPrefix("GPS") ? "the " : "") + subject + " ")
        let after = Array(words[end...])
        return head + (copula ? (plural ? "are " : "is ") : "") + phrase + (after.isEmpty ? "" : " " + render(after))
    }

    /// The first status in `words` (outside parentheses): its index, the index after it, its
    /// reading and whether it takes "is".
    static func status(in words: [NotamWord], from start: Int = 1) -> (Int, Int, String, Bool)? {
        var depth = 0
        for i in words.indices {
            let w = words[i]
            depth += w.lead.filter { $0 == "(" }.count
            defer { depth -= w.trail.filter { $0 == ")" }.count }
            guard depth == 0, i >= start || (start == 0) else { continue }
            for (pattern, reading, copula) in NotamEnglishWords.statuses where i + pattern.count <= words.count {
                if zip(pattern, words[i..<(i + pattern.count)]).allSatisfy({ $0.0 == $0.1.core }) {
                    return (i, i + pattern.count, reading + words[i + pattern.count - 1].trail.filter { $0 == "," }, copula)
                }
            }
        }
        return nil
    }

    static func isPlural(_ subject: String) -> Bool {
        var s = Substring(subject)
        // "… system with … lights": the head is before "with".
        let words = subject.split(separator: " ")
        if let with = words.firstIndex(of: "with"), with > 0 { s = Substring(words[..<with].joined(separator: " ")) }
        // The head word, before any parenthesis: "lights (…)".
        while s.hasSuffix(")"), let open = s.lastIndex(of: "(") { s = s[..<open].trimmingSpaces }
        guard let last = s.split(separator: " ").last?.lowercased() else { return false }
        return last.hasSuffix("s") && !last.hasSuffix("ss") && !last.hasSuffix("us") && !last.hasSuffix("is") && last.count > 3
            || subject.contains(" and ") && !subject.contains("(") && !subject.contains(" between ")
    }

    /// An obstacle: "the light on a tower (…) at … is out of service".
    mutating func obstacle(_ words: [NotamWord]) -> String {
        var i = 0
        var kind: [String] = []
        let things = ["TWR": "tower", "TWRS": "towers", "CRN": "crane", "BLDG": "building", "ANT": "antenna", "BCN": "beacon"]
        while i < words.count, words[i].lead.isEmpty, words[i].core.allSatisfy(\.isLetter), !["LGT", "LGTS"].contains(words[i].core),
              Self.status(in: [words[i]], from: 0) == nil,
              NotamEnglishWords.english.contains(String(words[i].core)) || NotamContractions.all[String(words[i].core)] == nil || things[String(words[i].core)] != nil {
            kind.append(things[String(words[i].core)] ?? words[i].core.lowercased())
            i += 1
            if words[i - 1].trail.count > 0 { break }
        }
        var lights = ""
        if i < words.count, words[i].core == "LGT" || words[i].core == "LGTS" {
            lights = words[i].core == "LGT" ? "the light on " : "the lights on "
            i += 1
        }
        let thing = kind.joined(separator: " ")
        // "Trees", "towers": no article before a plural.
        let article = Self.isPlural(thing) ? "" : "aeiou".contains(thing.first ?? "x") ? "an " : "a "
        let subject = thing.isEmpty ? String(lights.dropLast(4)) : lights + article + thing
        var rest = Array(words[i...])
        // Where it stands: "at" before its coordinates.
        if let p = rest.firstIndex(where: { NotamGroups.coordinate($0.core) != nil }), rest[p].lead.isEmpty,
           p == 0 || !["AT", "PSN", "OF"].contains(rest[p - 1].core) {
            rest[p].lead = "at "
        }
        // A bare height before "(… AGL)" is above mean sea level.
        if let h = rest.firstIndex(where: { NotamGroups.measure($0.core)?.1 == "FT" && $0.lead.isEmpty }),
           h + 1 < rest.count, rest[h + 1].lead == "(", h + 2 < rest.count, rest[h + 2].core == "AGL" {
            rest[h].trail += " MSLX"
        }
        if let (k, end, phrase, copula) = Self.status(in: rest, from: 0) {
            let details = render(Array(rest[..<k]))
            let after = Array(rest[end...])
            let plural = !lights.isEmpty && lights.hasPrefix("the lights")
            let head = subject + (details.isEmpty ? "" : (subject.isEmpty ? "" : " ") + details + (subject.isEmpty ? "" : ","))
            return head + (head.isEmpty ? "" : " ") + (copula ? (plural ? "are " : "is ") : "") + phrase + (after.isEmpty ? "" : " " + render(after))
        }
        return subject + (rest.isEmpty ? "" : (subject.isEmpty ? "" : " ") + render(rest))
    }

    // MARK: Rendering words

    /// `words` in plain English (no sentence frame).
    mutating func render(_ words: [NotamWord]) -> String {
        var out = ""
        var i = 0
        var previousCore: Substring = ""
        var designatorList = false
        func emit(_ text: String, _ from: Int, _ to: Int) {
            let first = words[from], last = words[to - 1]
            var t = text
            if last.trail.hasSuffix(" MSLX") {
                // The obstacle frame's mark: this height is above mean sea level.
                t += " above mean sea level" + last.trail.dropLast(5)
            } else {
                t += last.trail
            }
            out += first.lead + t + last.glue
        }
        while i < words.count {
            let w = words[i]
            let c = w.core
            let next: NotamWord? = i + 1 < words.count ? words[i + 1] : nil
            defer { previousCore = words[min(i, words.count) - 1].core }
            // A name ending in INTL, NTL, MUNI, RGNL, FLD… ("FORT WORTH MEACHAM INTL"): title case.
            if let end = Self.nameRun(words, from: i) {
                var inner = Array(words[i...end])
                inner[0].lead = ""
                inner[inner.count - 1].trail = ""
                emit(Self.titledName(inner), i, end + 1); i = end + 1; continue
            }
            // Designators after TWY/RWY, and their lists.
            if NotamEnglishWords.designatorWords.contains(String(previousCore)) && !c.isEmpty && c.count <= 9
                && c.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "/" }) && Self.status(in: [w], from: 0) == nil
                && (c.count <= 4 || c.contains(where: \.isNumber)) && (NotamContractions.all[String(c)] == nil || c.count == 1) {
                designatorList = ["TWY", "TWYS", "RWY", "RWYS"].contains(String(previousCore))
                emit(String(c), i, i + 1); i += 1; continue
            }
            if designatorList {
                if (c == "AND" || c == "&") && next.map({ $0.core.count <= 4 && $0.core.allSatisfy { $0.isLetter || $0.isNumber } && NotamContractions.all[String($0.core)] == nil }) == true {
                    emit("and", i, i + 1); emit(String(next!.core), i + 1, i + 2); i += 2; continue
                }
                if words[i - 1].trail.contains(","), c.count <= 3, c.allSatisfy({ $0.isLetter || $0.isNumber }), NotamContractions.all[String(c)] == nil {
                    emit(String(c), i, i + 1); i += 1; continue
                }
                designatorList = false
            }
            // Date-time groups and schedules.
            if let r = NotamGroups.dateRange(c) { emit(r, i, i + 1); i += 1; continue }
            if let r = NotamGroups.date(c) {
                if next?.core == "UTC" { emit(r, i, i + 2); i += 2 } else { emit(r, i, i + 1); i += 1 }
                continue
            }
            if let r = NotamGroups.clockRange(c) { emit(r, i, i + 1); i += 1; continue }
            if let r = NotamGroups.dayRange(c) { emit(r, i, i + 1); i += 1; continue }
            if let r = NotamGroups.bearingRange(c) { emit(r, i, i + 1); i += 1; continue }
            // Coordinates.
            if let r = NotamGroups.coordinate(c) ?? NotamGroups.coordinateList(c) { emit(r, i, i + 1); i += 1; continue }
            if let lat = NotamGroups.latitude(c), w.trail.isEmpty, let n = next, let lon = NotamGroups.longitude(n.core) {
                emit(lat + " " + lon, i, i + 2); i += 2; continue
            }
            if let r = NotamGroups.radialFix(c) { emit(r, i, i + 1); i += 1; continue }
            // Heights and limits.
            if let (text, end) = limitPhrase(words, i) { emit(text, i, end); i = end; continue }
            // Distances (and the bearing and place after them).
            if let (text, end) = distancePhrase(words, i) { emit(text, i, end); i = end; continue }
            // Frequencies.
            if let f = NotamGroups.frequency(c) {
                if next?.core == "MHZ" { emit(f + " MHz", i, i + 2); i += 2 } else { emit(f + " MHz", i, i + 1); i += 1 }
                continue
            }
            if let (v, unit) = NotamGroups.measure(c) {
                let s = String(c.prefix { $0.isNumber || $0 == "." || $0 == "," })
                let units = ["MHZ": " MHz", "KHZ": " kHz", "LBS": " pounds", "LB": " pounds", "KT": " knots", "KTS": " knots", "M": " m",
                             "IN": " inches", "SM": " statute miles", "KM": " km", "PCT": " percent", "DEG": "°"]
                if let u = units[unit] {
                    emit((unit == "MHZ" || unit == "KHZ" ? s : NotamGroups.format(v, whole: v == v.rounded())) + u, i, i + 1); i += 1; continue
                }
            }
            if let slash = c.firstIndex(of: "/"), c.hasSuffix("IN"), NotamGroups.isDigits(c[..<slash]) {
                emit(c.dropLast(2) + " inch", i, i + 1); i += 1; continue
            }
            // A bare number after a procedure altitude is in feet (`MDA 560`, `MEA 4000`).
            if NotamGroups.isDigits(c), NotamEnglishWords.procedureAltitudes.contains(String(previousCore)) {
                emit(NotamGroups.format(Double(c)!) + " ft", i, i + 1); i += 1; continue
            }
            // "13275FT X 150FT": by.
            if c == "X", i > 0, NotamGroups.measure(words[i - 1].core) != nil, next.flatMap({ NotamGroups.measure($0.core) }) != nil {
                emit("by", i, i + 1); i += 1; continue
            }
            emit(word(words, i), i, i + 1)
            i += 1
        }
        return String(out.trimmingSpaces)
    }

    /// One word: a contraction spelled out, an English word in lower case, a name or an
    /// identifier as written.
    mutating func word(_ words: [NotamWord], _ i: Int) -> String {
        let w = words[i]
        let c = String(w.core)
        let previous = i > 0 ? String(words[i - 1].core) : ""
        let next = i + 1 < words.count ? String(words[i + 1].core) : ""
        guard !c.isEmpty else { return "" }
        if c == "-" { return "–" }
        // Identifiers: before a navaid type (`OAK VORTAC`), after one and before its frequency.
        let identifierShaped = (2...5).contains(c.count) && c.allSatisfy { ($0.isUppercase && $0.isLetter) || $0.isNumber }
        if identifierShaped, NotamEnglishWords.navaids.contains(next), !NotamEnglishWords.navaids.contains(c),
           !NotamEnglishWords.notIdentifiers.contains(c), !NotamEnglishWords.english.contains(c) {
            return c
        }
        if identifierShaped, NotamEnglishWords.navaids.contains(previous), i + 1 < words.count,
           NotamGroups.frequency(words[i + 1].core) != nil || NotamGroups.measure(words[i + 1].core).map({ $0.1 == "MHZ" || $0.1 == "KHZ" }) == true {
            return c
        }
        // A state after a place: "SALEM, OR", "ALBUQUERQUE, NM".
        if NotamEnglishWords.states.contains(c), i > 0, words[i - 1].trail.hasSuffix(",") {
            return c == "NM" ? "New Mexico" : c
        }
        // "(ATC)" right after "air traffic control" stays as written.
        if w.lead == "(", let meaning = NotamContractions.all[c], i > 0 {
            let before = words[..<i].suffix(meaning.split(separator: " ").count).map { $0.core.lowercased() }.joined(separator: " ")
            if before == meaning.lowercased() { return c }
        }
        if c == "ASR", NotamGroups.isDigits(Substring(next)) { return "antenna structure registration" }
        // A radio position before its frequency: "GND 121.9" is ground control.
        if c == "GND", NotamGroups.frequency(Substring(next)) != nil { return "ground control" }
        // "30 MIN": minutes, not minimum.
        if c == "MIN", NotamGroups.isDigits(Substring(previous)) { return "minutes" }
        // `AWOS-3`: the system, its type as written.
        if let dash = c.firstIndex(of: "-"), let m = NotamContractions.all[String(c[..<dash])], NotamEnglishWords.acronyms.contains(String(c[..<dash])) {
            return "\(m) (\(c))"
        }
        if c == "S", next.hasPrefix("ILS") || next.hasPrefix("LOC") { return "straight-in" }
        if c.hasPrefix("S-"), let m = NotamContractions.all[String(c.dropFirst(2))] {
            return "straight-in " + acronym(String(c.dropFirst(2)), meaning: m)
        }
        if c == "A" {
            // The article, unless a name or designator ("AREA A", "INDEX A", "TWY A").
            return next.isEmpty || NotamEnglishWords.designatorWords.contains(previous) || !w.trail.isEmpty ? c : "a"
        }
        if let m = NotamContractions.all[c], c.count >= 2 {
            if c == "NM" && previous == "PER" { return "nautical mile" }
            if c == "NM" && !(previous.last?.isNumber ?? false) { return "nautical miles" }
            return acronym(c, meaning: m)
        }
        if NotamEnglishWords.english.contains(c) { return c.lowercased() }
        // Sentence case (issue 57): an English word in lower case, a name in title case; what is
        // an airport's identifier (LAX, DEN, SEA are words too) or neither stays as written.
        // An airport's identifier that is also a word (SEE, LAW) is the word inside running
        // English ("PLUS SEE", "FOR LAW"), the airport after "of", "from", "at", "to".
        let airport = Self.isAirportIdentifier(c)
            && (previous.isEmpty || ["OF", "FROM", "AT", "TO", "NEAR", "WI", "AND", "OR"].contains(previous) || !EnglishDictionary.isWord(previous))
        // A fix's five-letter name ("V77 FLOSS INT", "TO KARYN, TX" on a route) is an identifier.
        let fix = c.count == 5 && (["INT", "INTXN", "FIX", "WP", "WAYPOINT"].contains(next) || Self.isRouteDesignator(previous)
            || (w.trail == "," && NotamEnglishWords.states.contains(next)))
        if EnglishDictionary.isCapitalised(c), !airport, !fix {
            if c.count >= 3, EnglishDictionary.isWord(c) { return c.lowercased() }
            if c.count >= 3, EnglishDictionary.isName(c) { return EnglishDictionary.titled(c) }
            if c.contains("-"), c.split(separator: "-").allSatisfy({ $0.count >= 2 && EnglishDictionary.isWord(String($0)) }) { return c.lowercased() }
        }
        // `AGL/1104` ("36 FT AGL/1104 FT MSL"): the datum spelled out, then the next height's number.
        if let slash = c.firstIndex(of: "/"), let m = NotamContractions.all[String(c[..<slash])] {
            let rest = c[c.index(after: slash)...]
            if let v = NotamGroups.number(rest) { return m + "/" + NotamGroups.format(v) }
            if let (v, unit) = NotamGroups.measure(rest), unit == "FT" { return m + "/" + NotamGroups.format(v) + " ft" }
        }
        // `ENFORCEMENT/SECURITY`: English words on both sides of a slash.
        if c.contains("/"), c.split(separator: "/").count >= 2,
           c.split(separator: "/").allSatisfy({ EnglishDictionary.isCapitalised(String($0)) && $0.count >= 3 && EnglishDictionary.isWord(String($0)) }) {
            return c.lowercased()
        }
        // `VOR/DME`, `LNAV/VNAV`, `ILS/DME`: each part.
        if c.contains("/"), !c.contains(where: \.isNumber) {
            let parts = c.split(separator: "/").map(String.init)
            if parts.count >= 2, parts.allSatisfy({ NotamContractions.all[$0] != nil }) {
                let meanings = parts.map { NotamContractions.all[$0]! }
                if parts.contains(where: { NotamEnglishWords.acronyms.contains($0) }) {
                    if introduced.contains(c) { return c }
                    introduced.insert(c)
                    for p in parts { introduced.insert(p) }
                    return meanings.joined(separator: "/") + " (\(c))"
                }
                return meanings.joined(separator: "/")
            }
        }
        return c
    }

    /// Words that end a name's run backwards: what comes before a name, not in it.
    static let beforeNames: Set<String> = ["USE", "AT", "TO", "FROM", "OF", "THE", "AND", "OR", "FOR", "IN", "ON", "WITH", "WHEN", "BY",
                                          "NEAR", "BTN", "WI", "SETTING", "ALTIMETER", "CTC", "VIA", "EXC", "ABV", "BLW", "ADJ"]

    /// The last index of a name that starts at `i` and ends with a name word of an airport
    /// (`INTL`, `NTL`, `MUNI`, `RGNL`, `FLD`, …), at least one word before it, or just before
    /// `MOA`/`ATCAA` (a special-use airspace's name); nil otherwise.
    static func nameRun(_ words: [NotamWord], from i: Int) -> Int? {
        func nameLike(_ w: NotamWord) -> Bool {
            let c = String(w.core)
            return EnglishDictionary.isCapitalised(c) && !beforeNames.contains(c) && Self.status(in: [w], from: 0) == nil
                && (NotamContractions.all[c] == nil || NotamEnglishWords.nameWords[c] != nil)
        }
        let markers: Set<String> = ["INTL", "NTL", "MUNI", "RGNL", "FLD", "ARPT", "MEML", "CNTY", "EXEC"]
        guard i + 1 < words.count, words[i].lead.isEmpty, nameLike(words[i]), !markers.contains(String(words[i].core)) else { return nil }
        var k = i
        while k < words.count, nameLike(words[k]) || ["MOA", "ATCAA"].contains(words[k].core) {
            // A special-use airspace's name ("SELLS LOW MOA"): the words before it; MOA itself is read as ever.
            if ["MOA", "ATCAA"].contains(words[k].core) { return k - 1 }
            // A navaid's name before its identifier and type ("NORTH PLATTE (LBF) VOR/DME",
            // "O'NEILL (ONL) VORTAC"): the words before the identifier.
            if k > i, words[k].lead == "(", words[k].trail.hasPrefix(")"), (2...4).contains(words[k].core.count), k + 1 < words.count,
               NotamEnglishWords.navaids.contains(String(words[k + 1].core)) {
                return k - 1
            }
            if markers.contains(String(words[k].core)) {
                var end = k
                while end + 1 < words.count, markers.contains(String(words[end + 1].core)), words[end].trail.isEmpty { end += 1 }
                return end
            }
            if !words[k].trail.isEmpty { return nil }
            k += 1
        }
        return nil
    }

    /// An airway or route: V77, J12, T315, Q120.
    static func isRouteDesignator(_ c: String) -> Bool {
        guard let first = c.first, "VJTQ".contains(first), c.count >= 2 else { return false }
        return c.dropFirst().allSatisfy(\.isNumber)
    }

    /// `c` is an identifier of the airport table (3 or 4 characters): written as it is.
    static func isAirportIdentifier(_ c: String) -> Bool {
        (3...4).contains(c.count) && AirportTable.shared?.airport(c) != nil
    }

    /// A name as a person writes it: each word in title case ("MCKINNEY NTL" → "McKinney
    /// National" with `nameWords`), identifiers (with digits, or of the airport table) and a state
    /// after a comma as written.
    static func titledName(_ words: [NotamWord]) -> String {
        words.enumerated().map { i, w in
            let c = String(w.core)
            let spelled: String
            if let expanded = NotamEnglishWords.nameWords[c] {
                spelled = EnglishDictionary.titled(expanded)
            } else if NotamEnglishWords.states.contains(c), i > 0, words[i - 1].trail.hasSuffix(",") {
                spelled = c
            } else if c.contains("/"), !c.contains(where: \.isNumber) {
                spelled = c.split(separator: "/").map { p in
                    let part = NotamEnglishWords.nameWords[String(p)] ?? String(p)
                    return EnglishDictionary.isCapitalised(part) ? EnglishDictionary.titled(part) : part
                }.joined(separator: "/")
            } else if EnglishDictionary.isCapitalised(c), c.count >= 3 || EnglishDictionary.isWord(c) {
                spelled = ["OF", "THE", "AND", "AT", "ON"].contains(c) && i > 0 ? c.lowercased() : EnglishDictionary.titled(c)
            } else {
                spelled = c
            }
            return w.lead + spelled + w.trail
        }.joined(separator: " ")
    }

    /// A contraction: a system's acronym as "meaning (ACR)" the first time, else its meaning.
    mutating func acronym(_ c: String, meaning: String) -> String {
        guard NotamEnglishWords.acronyms.contains(c) else { return meaning }
        if introduced.contains(c) { return c }
        introduced.insert(c)
        return "\(meaning) (\(c))"
    }

    /// A height or a range of them at `i`: "from the surface to 5,000 ft above mean sea level".
    func limitPhrase(_ words: [NotamWord], _ i: Int) -> (String, Int)? {
        guard let (a, afterA) = height(words, i, inRange: false) else { return nil }
        if afterA + 1 < words.count, words[afterA].core == "-" || words[afterA - 1].glue.isEmpty && words[afterA].core == "-",
           let (b, afterB) = height(words, afterA + 1, inRange: true) {
            let from = height(words, i, inRange: true)?.0 ?? a
            if b == "unlimited" { return ("from \(from) upward, with no upper limit", afterB) }
            return ("from \(from) to \(b)", afterB)
        }
        guard words[i].core != "SFC" && words[i].core != "GND" && words[i].core != "UNL" else { return nil }
        return (a, afterA)
    }

    /// One height at `i` and the index after it.
    func height(_ words: [NotamWord], _ i: Int, inRange: Bool) -> (String, Int)? {
        guard i < words.count else { return nil }
        let c = words[i].core
        var text: String
        var end = i + 1
        switch c {
        case "SFC", "GND", "SURFACE": text = inRange ? "the surface" : "surface"
        case "UNL", "UNLIMITED": text = "unlimited"
        default:
            if let fl = NotamGroups.flightLevel(c) {
                text = "flight level \(fl)"
            } else if c == "FL", i + 1 < words.count, words[i].trail.isEmpty, NotamGroups.isDigits(words[i + 1].core), words[i + 1].core.count == 3 {
                text = "flight level \(words[i + 1].core)"
                end = i + 2
            } else if let (v, unit) = NotamGroups.measure(c), unit == "FT" || unit == "FEET" {
                text = NotamGroups.format(v) + " ft"
            } else if let v = NotamGroups.number(c), words[i].trail.isEmpty, i + 1 < words.count,
                      ["MSL", "AMSL", "AGL", "AGL/", "MSL/"].contains(words[i + 1].core) {
                // A height without its unit ("65 AGL/ UP TO 605 MSL"): feet, as every US height is.
                text = NotamGroups.format(v) + " ft"
            } else if let v = NotamGroups.number(c), words[i].trail.isEmpty, i + 1 < words.count, ["FT", "FEET"].contains(words[i + 1].core) {
                text = NotamGroups.format(v) + " ft"
                end = i + 2
            } else {
                return nil
            }
        }
        if end < words.count, words[end - 1].trail.isEmpty || words[end - 1].trail == " MSLX" {
            switch words[end].core {
            case "MSL", "AMSL": text += " above mean sea level"; end += 1
            case "AGL": text += " above ground level"; end += 1
            case "AGL/": text += " above ground level,"; end += 1
            case "MSL/": text += " above mean sea level,"; end += 1
            default: break
            }
        }
        return (text, end)
    }

    /// A distance at `i` ("4.7NM WNW 1F0", "5 NM", "3NM RADIUS OF", "3 NMR OF").
    func distancePhrase(_ words: [NotamWord], _ i: Int) -> (String, Int)? {
        let c = words[i].core
        var value: Substring
        var unit: String
        var end = i + 1
        if let (_, u) = NotamGroups.measure(c), ["NM", "NMR", "SM"].contains(u) {
            value = c.prefix { $0.isNumber || $0 == "." }
            unit = u
        } else if NotamGroups.number(c) != nil, words[i].trail.isEmpty, i + 1 < words.count, ["NM", "NMR", "SM"].contains(words[i + 1].core) {
            value = c
            unit = String(words[i + 1].core)
            end = i + 2
        } else {
            return nil
        }
        if value.hasPrefix(".") { value = "0" + value }
        let one = Double(value) == 1
        let name = unit == "SM" ? "statute mile" : "nautical mile"
        if unit == "NMR" || (end < words.count && words[end - 1].trail.isEmpty && words[end].core == "RADIUS") {
            if unit != "NMR" { end += 1 }
            return ("\(value)-\(name.replacingSpaces)-radius".replacingLastHyphen, end)
        }
        var text = "\(value) \(name)\(one ? "" : "s")"
        guard words[end - 1].trail.isEmpty, end < words.count, let dir = NotamGroups.compass[String(words[end].core)] else { return (text, end) }
        text += " " + dir
        end += 1
        if words[end - 1].trail.isEmpty, end < words.count {
            let place = words[end]
            if place.core == "OF" { return (text, end) }
            if place.core == "AD" || place.core == "AP" || place.core == "ARPT" {
                return (text + " of the " + (place.core == "AD" ? "aerodrome" : "airport"), end + 1)
            }
            if place.lead.isEmpty, (2...5).contains(place.core.count), place.core.allSatisfy({ ($0.isLetter && $0.isUppercase) || $0.isNumber }),
               !NotamEnglishWords.english.contains(String(place.core)) {
                return (text + " of " + place.core, end + 1)
            }
        }
        return (text, end)
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces.
    var trimmingSpaces: Substring {
        let s = Substring(self)
        guard let a = s.firstIndex(where: { $0 != " " }), let b = s.lastIndex(where: { $0 != " " }) else { return "" }
        return s[a...b]
    }

    /// With its first letter in upper case.
    var capitalizedFirst: String {
        guard let f = first else { return "" }
        return String(f).uppercased() + dropFirst()
    }
}

extension String {
    /// Spaces as hyphens ("nautical mile" → "nautical-mile").
    var replacingSpaces: String { String(map { $0 == " " ? "-" : $0 }) }

    /// The last hyphen as a space ("3-nautical-mile-radius" → "3-nautical-mile radius").
    var replacingLastHyphen: String {
        guard let i = lastIndex(of: "-") else { return self }
        var s = self
        s.replaceSubrange(i...i, with: " ")
        return s
    }
}
