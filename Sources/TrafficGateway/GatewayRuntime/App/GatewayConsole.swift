import GatewaySupport
/// Where `GatewayApp` writes what the user reads: alert lines on stdout, log lines on stderr by
/// level. The executable hands in its terminal; tests hand in closures that collect the lines.
package struct GatewayConsole: Sendable {
    /// Writes alert lines (one formatted alert change each) to the alert output.
    package var alerts: @Sendable ([String]) -> Void
    /// Writes an informational line (hidden at log level warning or error).
    package var info: @Sendable (String) -> Void
    /// Writes a warning (hidden at log level error).
    package var warning: @Sendable (String) -> Void
    /// Writes an error line (always shown).
    package var error: @Sendable (String) -> Void
    /// Whether human-readable alerts are coloured (a terminal without NO_COLOR).
    package var colour: Bool

    /// A console from its writers. Log lines carry text from outside (an acknowledgement id, a
    /// NOTAM's name, a file name): their control characters are escaped here, once for every
    /// line, so nothing can forge a log line ("…%0Agatewayd: stopping on SIGTERM") or send
    /// escape codes to the terminal or the journal.
    package init(alerts: @escaping @Sendable ([String]) -> Void, info: @escaping @Sendable (String) -> Void,
                warning: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void, colour: Bool = false) {
        self.alerts = alerts
        self.info = { info($0.escapingControlCharacters) }
        self.warning = { warning($0.escapingControlCharacters) }
        self.error = { error($0.escapingControlCharacters) }
        self.colour = colour
    }

    /// A console that drops everything.
    package static let silent = GatewayConsole(alerts: { _ in }, info: { _ in }, warning: { _ in }, error: { _ in })
}
