import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Small helpers for terminal output.
enum Terminal {
    /// True when stdout is a terminal and NO_COLOR is unset.
    static var colourOnStdout: Bool {
        isatty(STDOUT_FILENO) == 1 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Log level for `info` and `warning` lines: error, warning or info. Set once at start-up.
    nonisolated(unsafe) static var level = "info"

    /// An informational line on stderr (hidden at --log-level warning or error).
    static func info(_ line: String) {
        if level == "info" { error(line) }
    }

    /// A warning on stderr (hidden at --log-level error).
    static func warning(_ line: String) {
        if level != "error" { error(line) }
    }

    /// Writes a line to stderr.
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Writes lines to stdout in one write.
    static func out(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
