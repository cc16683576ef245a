/// An alert change encoded once, when it happens, in the two forms every consumer reads: the JSON
/// Lines contract (the SSE stream, `/alerts/active`, the cockpit API, the alert log, `run --json`)
/// and the readable line (the terminal, `tail`, the SSE stream's `?format=text`). Encoding is
/// the costly part of an alert; consumers share these bytes instead of formatting it again.
package struct EncodedAlert: Sendable, Equatable {
    /// The change.
    package let event: AlertEvent
    /// The event's stable id (`"<boot>-<seq>"`, `AlertEventIDs`), when a running gateway stamped
    /// it: the SSE stream's `id:`, the fleet's deduplication key.
    package let eventId: String?
    /// `AlertFormatter.json(event, eventId:)`.
    package let json: String
    /// `AlertFormatter.human(event, colour: false)`.
    package let text: String

    /// Encodes `event` (both forms, once), with its stable id when given.
    package init(_ event: AlertEvent, eventId: String? = nil) {
        self.event = event
        self.eventId = eventId
        json = AlertFormatter.json(event, eventId: eventId)
        text = AlertFormatter.human(event, colour: false)
    }

    /// An alert read back from where it was kept (the alert log): its JSON as it was sent.
    package init(event: AlertEvent, json: String, eventId: String?) {
        self.event = event
        self.eventId = eventId
        self.json = json
        text = AlertFormatter.human(event, colour: false)
    }

    /// The readable line with ANSI colour by level (cleared green, warning bold red, caution
    /// yellow, advisory cyan), as `AlertFormatter.human(event, colour: true)` gives it.
    package var colouredText: String { AlertFormatter.coloured(text, change: event.change.rawValue, level: event.level.description) }
}
