import GatewaySupport
/// Renders alert changes for people (one coloured line each) and for programs (JSON Lines).
package struct AlertFormatter: Sendable {
    /// Output style.
    package enum Style: Sendable {
        /// One readable line per change; ANSI colour when `colour` is true.
        case human(colour: Bool)
        /// One JSON object per line (the alert output contract).
        case json
    }

    /// The style in use.
    package var style: Style

    /// Creates a formatter.
    package init(style: Style) { self.style = style }

    /// The line for `event` (no trailing newline).
    package func format(_ event: AlertEvent) -> String {
        switch style {
        case .json: return AlertFormatter.json(event)
        case .human(let colour): return AlertFormatter.human(event, colour: colour)
        }
    }

    /// The line for an alert already encoded (no formatting: the encoding is shared).
    package func format(_ alert: EncodedAlert) -> String {
        switch style {
        case .json: return alert.json
        case .human(let colour): return colour ? alert.colouredText : alert.text
        }
    }

    /// The JSON Lines form: `{"event":…,"kind":…,"id":…,"subject":…,"level":…,"time":…,"message":…, numbers}`,
    /// and, from a running gateway, the event's stable `"eventId"` last (`AlertEventIDs`): the
    /// engine's own output (`replay`, the goldens) has none.
    package static func json(_ e: AlertEvent) -> String { json(e, eventId: nil) }

    /// `json(e)` with `"eventId"` as the last key when `eventId` is given.
    package static func json(_ e: AlertEvent, eventId: String?) -> String {
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
            if let held = t.ownshipDeadReckonedSec { w.add("ownshipDeadReckonedSec", held, decimals: 1) }
        }
        if let a = e.airspace {
            w.add("distanceNM", a.distanceNM, decimals: 2)
            w.add("timeToEntrySec", a.timeToEntrySec, decimals: 0)
            w.add("floorFt", a.floorFt)
            w.add("ceilingFt", a.ceilingFt)
            w.add("name", a.name)
        }
        // What the voice says for it (the cockpit page speaks the same words); null when cleared.
        w.add("callout", e.change == .cleared ? nil : CalloutWording.callout(for: e)?.text)
        if let eventId { w.add("eventId", eventId) }
        return w.result
    }

    /// `14:03:20  WARNING   raised   Traffic N825V (ab4549) 12 o'clock, 1.2 NM, …`
    package static func human(_ e: AlertEvent, colour: Bool) -> String {
        humanLine(time: e.time, level: e.level.description, change: e.change.rawValue, message: e.message, colour: colour)
    }

    /// The human line from an alert's fields (as `tail` reads them from the JSON contract).
    package static func humanLine(time: Double, level: String, change: String, message: String, colour: Bool) -> String {
        let upper = level.uppercased()
        let paddedLevel = upper + String(repeating: " ", count: max(0, 9 - upper.count))
        let paddedChange = change + String(repeating: " ", count: max(0, 8 - change.count))
        // The message names areas and targets from outside: no control character reaches a terminal.
        let line = "\(Timestamp.timeOfDay(time))  \(paddedLevel)\(paddedChange) \(message.escapingControlCharacters)"
        return colour ? coloured(line, change: change, level: level) : line
    }

    /// `line` in the ANSI colour of an alert change: cleared green, warning bold red, caution
    /// yellow, advisory cyan.
    package static func coloured(_ line: String, change: String, level: String) -> String {
        let code: String
        switch (change, level) {
        case ("cleared", _): code = "32"  // green
        case (_, "warning"): code = "1;31"  // bold red
        case (_, "caution"): code = "33"  // yellow
        default: code = "36"  // cyan (advisory)
        }
        return "\u{1B}[\(code)m\(line)\u{1B}[0m"
    }

    /// The colour of a readable alert line as the SSE stream's `?format=text` sends it
    /// (`HH:MM:SS  LEVEL    change   message`), read from its level and change words; nil when it
    /// is not one.
    package static func colouredLine(text line: String) -> String? {
        let words = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
        guard words.count >= 3, ["ADVISORY", "CAUTION", "WARNING"].contains(words[1]),
              ["raised", "updated", "cleared"].contains(words[2]) else { return nil }
        return coloured(line, change: String(words[2]), level: words[1].lowercased())
    }
}
