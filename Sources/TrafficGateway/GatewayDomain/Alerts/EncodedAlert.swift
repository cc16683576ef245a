/// An alert change encoded once, when it happens, in the two forms every consumer reads: the JSON
/// Lines contract (the SSE stream, `/alerts/active`, the cockpit API, the alert log, `run --json`)
/// and the readable line (the terminal, `tail`, the SSE stream's `?format=text`). Encoding is
/// the costly part of an alert; consumers share these bytes instead of formatting it again.
public struct EncodedAlert: Sendable, Equatable {
    /// The change.
    public let event: AlertEvent
    /// `AlertFormatter.json(event)`.
    public let json: String
    /// `AlertFormatter.human(event, colour: false)`.
    public let text: String

    /// Encodes `event` (both forms, once).
    public init(_ event: AlertEvent) {
        self.event = event
        json = AlertFormatter.json(event)
        text = AlertFormatter.human(event, colour: false)
    }

    /// The readable line with ANSI colour by level (cleared green, warning bold red, caution
    /// yellow, advisory cyan), as `AlertFormatter.human(event, colour: true)` gives it.
    public var colouredText: String { AlertFormatter.coloured(text, change: event.change.rawValue, level: event.level.description) }
}
