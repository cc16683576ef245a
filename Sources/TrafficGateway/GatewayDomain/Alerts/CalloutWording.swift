import GatewaySupport
/// The words of a callout, from an alert change's numbers, as certified systems say them (Garmin
/// TAS/TIS, TCAS, Garmin's airspace voice; PROTOCOL.md "Callouts"):
///
/// - traffic caution: "Traffic! Two o'clock, high, one mile." — clock from ownship's track, "same
///   altitude" within ±200 ft, distance "less than one mile", "one mile" … "ten miles", "more
///   than ten miles";
/// - traffic warning: the same led by "Traffic, traffic!", with "closing" when the closest
///   approach is less than 30 s away;
/// - airspace: "Restricted area R-4499A ahead, less than two minutes." on predicted entry,
///   "Inside TFR." inside, "MOA near." near it; the area's designator only when it is speakable
///   (letters and digits like R-2508 or P-56, spelled out);
/// - system: "Traffic not available." / "Traffic available.".
///
/// Every phrase spoken is a key of `vocabulary`, rendered to PCM once at start.
package enum CalloutWording {
    /// Same altitude within this many feet.
    package static let sameAltitudeFt = 200
    /// "closing" when the closest approach is less than this many seconds away (warnings).
    package static let closingSec = 30.0
    /// The id of the system callouts.
    package static let systemAlert = "system-traffic"

    /// The callout for `event`'s alert as it stands (nil for an alert with no numbers).
    package static func callout(for event: AlertEvent) -> Callout? {
        switch event.kind {
        case .traffic: event.traffic.map { traffic($0, level: event.level, alert: event.id) }
        case .airspace: event.airspace.map { airspace($0, level: event.level, subject: event.subject, alert: event.id) }
        }
    }

    /// A traffic callout.
    package static func traffic(_ n: TrafficAlertNumbers, level: AlertLevel, alert: String) -> Callout {
        var s = Sentence()
        s.add(level == .warning ? "Traffic, traffic!" : "Traffic!")
        s.add(n.clock.map { "\(capitalised(numbers[$0 - 1])) o'clock," } ?? "No bearing,")
        s.add(altitude(n.relativeAltitudeFt) + ",")
        let closing = level == .warning && (n.timeToCPASec.map { $0 < closingSec } ?? false)
        let distance = distance(n.rangeNM)
        if closing {
            s.add(distance + ",")
            s.add("closing.")
        } else {
            s.add(distance + ".")
        }
        return Callout(text: s.text, phrases: s.phrases, alert: alert, kind: .traffic, level: level)
    }

    /// An airspace callout: inside, ahead (predicted entry) or near.
    package static func airspace(_ n: AirspaceAlertNumbers, level: AlertLevel, subject: String, alert: String) -> Callout {
        var s = Sentence()
        let kind = kindName(n.kind, name: n.name ?? subject)
        let designator = speakableDesignator(n.name) ?? speakableDesignator(subject)
        switch stage(n) {
        case 2:
            s.add("Inside")
            // "Inside restricted area", "Inside TFR": acronyms keep their capitals.
            let acronym = kind.prefix(while: { $0 != " " }).allSatisfy(\.isUppercase)
            s.add(acronym ? kind : kind.prefix(1).lowercased() + kind.dropFirst(), key: kind)
            s.addSpelled(designator)
            s.end(".")
        case 1:
            s.add(kind)
            s.addSpelled(designator)
            s.add("ahead,")
            s.add((n.timeToEntrySec ?? 0) > 60 ? "less than two minutes." : "less than one minute.")
        default:
            s.add(kind)
            s.addSpelled(designator)
            s.add("near.")
        }
        return Callout(text: s.text, phrases: s.phrases, alert: alert, kind: .airspace, level: level)
    }

    /// "Traffic not available." (lost) or "Traffic available." (back).
    package static func system(trafficAvailable: Bool) -> Callout {
        let text = trafficAvailable ? "Traffic available." : "Traffic not available."
        return Callout(text: text, phrases: [text], alert: systemAlert, kind: .system, level: trafficAvailable ? .advisory : .caution)
    }

    /// How urgent an airspace alert's situation is: 2 inside, 1 ahead (predicted entry), 0 near.
    package static func stage(_ n: AirspaceAlertNumbers) -> Int {
        if n.distanceNM <= 0 { return 2 }
        if let t = n.timeToEntrySec, t > 0 { return 1 }
        return 0
    }

    // MARK: Words

    /// One to twelve.
    static let numbers = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]

    static func capitalised(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }

    /// "high", "low", "same altitude", "altitude not available".
    static func altitude(_ ft: Int?) -> String {
        guard let ft else { return "altitude not available" }
        if abs(ft) <= sameAltitudeFt { return "same altitude" }
        return ft > 0 ? "high" : "low"
    }

    /// "less than one mile", "one mile", "two miles" … "ten miles", "more than ten miles".
    static func distance(_ nm: Double) -> String {
        if !(nm >= 1) { return "less than one mile" }
        let n = Int(nm.rounded())
        if n > 10 { return "more than ten miles" }
        return n == 1 ? "one mile" : "\(numbers[n - 1]) miles"
    }

    /// What the pilot calls an area of `kind`.
    static func kindName(_ kind: AirspaceKind?, name: String) -> String {
        switch kind {
        case .tfr: return "TFR"
        case .prohibited: return "Prohibited area"
        case .restricted: return "Restricted area"
        case .warning: return "Warning area"
        case .alert: return "Alert area"
        case .moa: return "MOA"
        case .danger: return "Danger area"
        case .parachute: return "Parachute area"
        case .aerobatic: return "Aerobatic area"
        case .uas: return "Drone area"
        case .gps: return "GPS interference area"
        case .other, nil:
            // Areas from GeoJSON files and FIS-B carry no kind: their designator may say it.
            let upper = name.uppercased()
            if upper.hasPrefix("R-") || upper.hasPrefix("R ") { return "Restricted area" }
            if upper.hasPrefix("P-") { return "Prohibited area" }
            if upper.contains("TFR") || upper.hasPrefix("FDC") { return "TFR" }
            if upper.contains("MOA") { return "MOA" }
            return "Airspace"
        }
    }

    /// The designator spelled out when it is speakable: one or two letters, an optional dash,
    /// up to five digits and an optional letter (R-4499A, P-56, W-237); nil otherwise.
    static func speakableDesignator(_ name: String?) -> String? {
        guard let name else { return nil }
        let chars = Array(name.uppercased().unicodeScalars)
        var i = 0
        var letters = 0
        while i < chars.count, chars[i].properties.isUppercase, chars[i].isASCII { letters += 1; i += 1 }
        guard (1...2).contains(letters) else { return nil }
        if i < chars.count, chars[i] == "-" { i += 1 }
        var digits = 0
        while i < chars.count, ("0"..."9").contains(chars[i]) { digits += 1; i += 1 }
        guard (1...5).contains(digits) else { return nil }
        if i < chars.count, chars[i].properties.isUppercase, chars[i].isASCII { i += 1 }
        guard i == chars.count else { return nil }
        return name.uppercased()
    }

    // MARK: Vocabulary

    /// Every phrase a callout may be made of, with the text espeak-ng is given for it (letters
    /// and abbreviations written as they are said).
    package static var vocabulary: [(key: String, speech: String)] {
        var out: [(String, String)] = [("Traffic!", "Traffic!"), ("Traffic, traffic!", "Traffic, traffic!")]
        for n in numbers { out.append(("\(capitalised(n)) o'clock,", "\(n) o'clock,")) }
        out.append(("No bearing,", "No bearing,"))
        for a in ["high", "low", "same altitude", "altitude not available"] { out.append(("\(a),", "\(a),")) }
        var distances = ["less than one mile", "one mile", "more than ten miles"]
        distances += numbers[1..<10].map { "\($0) miles" }
        for d in distances {
            out.append(("\(d).", "\(d)."))
            out.append(("\(d),", "\(d),"))
        }
        out.append(("closing.", "closing."))
        let kinds = ["TFR", "Prohibited area", "Restricted area", "Warning area", "Alert area", "MOA", "Danger area",
                     "Parachute area", "Aerobatic area", "Drone area", "GPS interference area", "Airspace"]
        for k in kinds {
            out.append((k, k.replacingAll("TFR", with: "T F R").replacingAll("MOA", with: "M O A")
                .replacingAll("GPS", with: "G P S")))
        }
        out += [("Inside", "Inside"), ("ahead,", "ahead,"), ("near.", "near."),
                ("less than two minutes.", "less than two minutes."), ("less than one minute.", "less than one minute."),
                ("Traffic not available.", "Traffic not available."), ("Traffic available.", "Traffic available.")]
        for (c, said) in zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", letterNames) { out.append((String(c), said)) }
        for (d, said) in zip("0123456789", ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]) {
            out.append((String(d), said))
        }
        return out
    }

    /// A pause phrase: silence, no speech.
    package static let pauses: [String: Double] = [".": 0.15]

    static let letterNames = ["ay", "bee", "see", "dee", "ee", "eff", "jee", "aitch", "eye", "jay", "kay", "ell", "em",
                              "en", "oh", "pee", "queue", "are", "ess", "tee", "you", "vee", "double you", "ex", "why", "zee"]
}

/// A sentence built phrase by phrase: the printed text and the vocabulary keys spoken.
struct Sentence {
    private(set) var text = ""
    private(set) var phrases: [String] = []

    /// A phrase printed as `shown` and spoken as the vocabulary's `key`.
    mutating func add(_ shown: String, key: String? = nil) {
        if !text.isEmpty { text += " " }
        text += shown
        phrases.append(key ?? shown)
    }

    /// A designator, printed whole and spoken a character at a time (dashes silent).
    mutating func addSpelled(_ designator: String?) {
        guard let designator else { return }
        if !text.isEmpty { text += " " }
        text += designator
        phrases += designator.compactMap { $0 == "-" ? nil : String($0) }
    }

    /// Ends the sentence with `mark`, printed against the last word and spoken as a pause.
    mutating func end(_ mark: String) {
        text += mark
        phrases.append(mark)
    }
}
