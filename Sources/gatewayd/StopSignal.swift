import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The write end of the stop pipe, for the signal handler (which cannot capture context).
nonisolated(unsafe) private var stopPipeWriteEnd: Int32 = -1

/// SIGINT and SIGTERM turned into a byte on a pipe (the self-pipe pattern): the handler only
/// calls `write`, which is async-signal-safe, and `wait()` blocks until a signal has come.
struct StopSignal: Sendable {
    private let readEnd: Int32

    /// Installs the handlers for SIGINT and SIGTERM.
    static func install() throws -> StopSignal {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw CommandFailure("cannot create the stop pipe: \(String(cString: strerror(errno)))")
        }
        stopPipeWriteEnd = fds[1]
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(stopPipeWriteEnd, &byte, 1)
            }
        }
        return StopSignal(readEnd: fds[0])
    }

    /// Blocks until SIGINT or SIGTERM arrives; returns its number.
    func wait() -> Int32 {
        var byte: UInt8 = 0
        while read(readEnd, &byte, 1) != 1 {
            if errno != EINTR { return SIGTERM }
        }
        return Int32(byte)
    }
}
