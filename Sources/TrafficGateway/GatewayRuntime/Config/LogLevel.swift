/// How much `gatewayd` writes to stderr (`--log-level`, `[log] level`).
package enum LogLevel: String, CaseIterable, Sendable, Equatable, Comparable, CustomStringConvertible {
    /// Errors only.
    case error
    /// Errors and warnings.
    case warning
    /// Everything: start-up lines, status lines, acknowledgements.
    case info

    /// The name as typed.
    package var description: String { rawValue }

    /// The names in words: "error, warning or info".
    package static var choices: String { "error, warning or info" }

    /// error < warning < info: a line is shown when its level is at most the one set.
    package static func < (a: LogLevel, b: LogLevel) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
