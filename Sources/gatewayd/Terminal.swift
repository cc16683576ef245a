#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import GatewaySupport
import GatewayRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Small helpers for terminal output.
enum Terminal {
    /// True when stdout is a terminal and NO_COLOR is unset.
    static var colourOnStdout: Bool {
        isatty(STDOUT_FILENO) == 1 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }

    /// What start-up sets once and every thread reads, behind the one lock type (it was three
    /// `nonisolated(unsafe)` globals).
    private struct Settings {
        var level = LogLevel.info
        var onStdoutClosed: @Sendable (Int32) -> Void = { code in
            if code != EPIPE {
                Terminal.error("error: writing the output failed: \(Terminal.describe(errno: code)); what was printed is incomplete")
            }
            Glibc.exit(code == EPIPE ? 0 : 1)
        }
        var stdoutClosed = false
    }
    private static let settings = Locked(Settings())

    /// Log level for `info` and `warning` lines: error, warning or info. Set once at start-up.
    static var level: LogLevel {
        get { settings.withLock { $0.level } }
        set { settings.withLock { $0.level = newValue } }
    }

    /// An informational line on stderr (hidden at --log-level warning or error).
    static func info(_ line: String) {
        if level >= .info { error(line) }
    }

    /// Sleeps this thread for `seconds` (pacing replays and sends, waiting between retries).
    static func pause(_ seconds: Double) {
        var left = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var rest = timespec()
        while nanosleep(&left, &rest) != 0 && errno == EINTR { left = rest }  // concurrency: a command's own pacing (replay --speed, send) on its main thread, never the daemon's
    }

    /// A warning on stderr (hidden at --log-level error).
    static func warning(_ line: String) {
        if level >= .warning { error(line) }
    }

    /// What happens when stdout cannot be written, with the `errno`: when its reader has gone
    /// (`| head`, EPIPE) the command ends quietly, as command-line tools do; any other failure (a
    /// full disk, ENOSPC) is an error saying so, exit status 1, since the output is incomplete.
    /// `run` replaces it so the daemon keeps working. Set once at start-up.
    static var onStdoutClosed: @Sendable (Int32) -> Void {
        get { settings.withLock { $0.onStdoutClosed } }
        set { settings.withLock { $0.onStdoutClosed = newValue } }
    }
    /// Set once stdout could not be written: it is not written again.
    private static var stdoutClosed: Bool {
        get { settings.withLock { $0.stdoutClosed } }
        set { settings.withLock { $0.stdoutClosed = newValue } }
    }

    /// Writes a line to stderr (a closed stderr is ignored).
    static func error(_ line: String) {
        _ = writeAll(STDERR_FILENO, line + "\n")
    }

    /// Writes lines to stdout in one write; a closed stdout calls `onStdoutClosed` once and is not
    /// written again (never a trap, never SIGPIPE: the handler is ignored at start-up).
    static func out(_ lines: [String]) {
        guard !lines.isEmpty, !stdoutClosed else { return }
        if let code = writeAll(STDOUT_FILENO, lines.joined(separator: "\n") + "\n") {
            stdoutClosed = true
            onStdoutClosed(code)
        }
    }

    /// Writes `buffer`'s bytes to stdout and empties it (keeping its storage): the commands that
    /// print a line a message fill one buffer and hand it here every few hundred kilobytes.
    static func out(_ buffer: inout OutputBuffer) {
        guard buffer.count > 0 else { return }
        defer { buffer.removeAll() }
        guard !stdoutClosed else { return }
        if let code = buffer.withBytes({ writeAll(STDOUT_FILENO, $0) }) {
            stdoutClosed = true
            onStdoutClosed(code)
        }
    }

    /// `errno`'s text and number: "No space left on device (errno 28)".
    static func describe(errno code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }

    /// Writes the whole of `text` to `fd`; the `errno` when it could not (closed, broken, full).
    @discardableResult
    private static func writeAll(_ fd: Int32, _ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// Writes all of `buffer` to `fd`; the `errno` when it could not (closed, broken, full).
    private static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < buffer.count {
            let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return errno
            }
            offset += n
        }
        return nil
    }
}

extension Terminal {
    /// The terminal as `GatewayApp` writes to it: alerts on stdout, log lines on stderr by level.
    static var console: GatewayConsole {
        GatewayConsole(alerts: { Terminal.out($0) }, info: { Terminal.info($0) }, warning: { Terminal.warning($0) },
                       error: { Terminal.error($0) }, colour: colourOnStdout)
    }
}
