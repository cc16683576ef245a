import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The write end of the stop pipe, for the signal handler (which cannot capture context).
nonisolated(unsafe) private var stopPipeWriteEnd: Int32 = -1

/// SIGINT and SIGTERM turned into a byte on a pipe (the self-pipe pattern): the handler only
/// calls `write`, which is async-signal-safe, and `wait()` blocks until a signal has come.
/// SIGHUP, SIGUSR1, SIGUSR2 and SIGALRM, whose default action would kill the daemon with no log
/// line and no WAL checkpoint, come through the same pipe and are reported, then ignored
/// (`wait(onIgnored:)`); SIGPIPE is ignored so a closed stdout or socket is an error, not a death.
struct StopSignal: Sendable {
    private let readEnd: Int32

    /// Installs the handlers for SIGINT and SIGTERM.
    static func install() throws -> StopSignal {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw CommandFailure("cannot create the stop pipe: \(String(cString: strerror(errno)))")
        }
        stopPipeWriteEnd = fds[1]
        signal(SIGPIPE, SIG_IGN)
        for sig in [SIGINT, SIGTERM] + ignoredSignals {
            signal(sig) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(stopPipeWriteEnd, &byte, 1)
            }
        }
        return StopSignal(readEnd: fds[0])
    }

    /// Signals that are reported and ignored: a reload needs a restart; the others mean nothing here.
    static let ignoredSignals: [Int32] = [SIGHUP, SIGUSR1, SIGUSR2, SIGALRM]

    /// The signal's name.
    static func name(_ sig: Int32) -> String {
        switch sig {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        case SIGUSR1: "SIGUSR1"
        case SIGUSR2: "SIGUSR2"
        case SIGALRM: "SIGALRM"
        default: "signal \(sig)"
        }
    }

    /// Blocks until SIGINT or SIGTERM arrives and returns its number; each ignored signal that
    /// comes first is passed to `onIgnored`.
    func wait(onIgnored: (Int32) -> Void = { _ in }) -> Int32 {
        while true {
            var byte: UInt8 = 0
            guard read(readEnd, &byte, 1) == 1 else {
                if errno == EINTR { continue }
                return SIGTERM
            }
            let sig = Int32(byte)
            if Self.ignoredSignals.contains(sig) { onIgnored(sig); continue }
            return sig
        }
    }
}
