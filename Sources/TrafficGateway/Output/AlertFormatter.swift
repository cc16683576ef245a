/// Renders alert changes for people (one coloured line each) and for programs (JSON Lines).
public struct AlertFormatter: Sendable {
    /// Output style.
    public enum Style: Sendable {
        /// One readable line per change; ANSI colour when `colour` is true.
        case human(colour: Bool)
        /// One JSON object per line (the alert output contract).
        case json
    }

    /// The style in use.
    public var style: Style

    /// Creates a formatter.
    public init(style: Style) { self.style = style }

    /// The line for `event` (no trailing newline).
    public func format(_ event: AlertEvent) -> String {
        switch style {
        case .json: return AlertFormatter.json(event)
        case .human(let colour): return AlertFormatter.human(event, colour: colour)
        }
    }

    /// The JSON Lines form: `{"event":…,"kind":…,"id":…,"subject":…,"level":…,"time":…,"message":…, numbers}`.
    public static func json(_ e: AlertEvent) -> String {
        var w = JSONWriter()
        w.add("event", e.change.rawValue)
        w.add("kind", e.kind.rawValue)
        w.add("id", e.id)
        w.add("subject", e.subject)
        w.add("level", e.level.description)
        w.add("time", Timestamp.iso8601(e.time))
        w.add("message", e.message)
        if let t = e.traffic {
            w.add("rangeNM", t.rangeNM, decimals: 2)
            w.add("bearingDeg", t.bearingDeg, decimals: 0)
            w.add("relativeAltitudeFt", t.relativeAltitudeFt)
            w.add("timeToCPASec", t.timeToCPASec, decimals: 1)
            w.add("cpaMissNM", t.cpaMissNM, decimals: 2)
            w.add("cpaVerticalFt", t.cpaVerticalFt)
            w.add("callsign", t.callsign)
        }
        if let a = e.airspace {
            w.add("distanceNM", a.distanceNM, decimals: 2)
            w.add("timeToEntrySec", a.timeToEntrySec, decimals: 0)
            w.add("floorFt", a.floorFt)
            w.add("ceilingFt", a.ceilingFt)
            w.add("name", a.name)
        }
        return w.result
    }

    /// `14:03:20  WARNING   raised   Traffic N825V (ab4549) 12 o'clock, 1.2 NM, …`
    public static func human(_ e: AlertEvent, colour: Bool) -> String {
        let level = e.level.description.uppercased()
        let paddedLevel = level + String(repeating: " ", count: max(0, 9 - level.count))
        let change = e.change.rawValue + String(repeating: " ", count: max(0, 8 - e.change.rawValue.count))
        let line = "\(Timestamp.timeOfDay(e.time))  \(paddedLevel)\(change) \(e.message)"
        guard colour else { return line }
        let code: String
        switch (e.change, e.level) {
        case (.cleared, _): code = "32"  // green
        case (_, .warning): code = "1;31"  // bold red
        case (_, .caution): code = "33"  // yellow
        case (_, .advisory): code = "36"  // cyan
        }
        return "\u{1B}[\(code)m\(line)\u{1B}[0m"
    }
}
