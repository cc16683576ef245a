#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GatewaySupport

// The benchmarks' threads, child processes and sleeps, on POSIX (Foundation's `Thread` and
// `Process` are not in FoundationEssentials, and the daemon's binary links no ICU).

/// Sleeps this thread for `seconds`.
func pause(_ seconds: Double) {
    var left = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    var rest = timespec()
    while nanosleep(&left, &rest) != 0 && errno == EINTR { left = rest }  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
}

/// A thread of its own for a benchmark's sender, reader or prober (they block in system calls).
final class BenchThread: Sendable {
    private let body: @Sendable () -> Void
    private let done = Locked(false)

    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    /// Starts it.
    func start() {
        DedicatedThread.start { [self] in
            body()
            done.set(true)
        }
    }

    /// Whether `body` returned.
    var isFinished: Bool { done.value }
}

/// A child process (the gateway under test), stdout and stderr to /dev/null.
final class ChildProcess {
    private(set) var processIdentifier: pid_t = 0
    private var exitStatus: Int32?

    /// Starts `executable arguments…` with the current environment plus `extraEnvironment`, its
    /// stderr to `errors` (a file made anew; default /dev/null).
    init(_ executable: String, _ arguments: [String], extraEnvironment: [String: String] = [:], errors: String = "/dev/null") throws(GatewayError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var environment: [UnsafeMutablePointer<CChar>?] = []
        var e = environ
        while let entry = e.pointee {
            let text = String(cString: entry)
            if !extraEnvironment.keys.contains(where: { text.hasPrefix($0 + "=") }) { environment.append(strdup(entry)) }
            e += 1
        }
        for (k, v) in extraEnvironment { environment.append(strdup(k + "=" + v)) }
        environment.append(nil)
        defer { for v in environment { free(v) } }
        // The child starts with no signal blocked and default handlers: a thread of Dispatch's
        // (which blocks signals) would otherwise hand it a mask that ignores SIGTERM.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let rc = posix_spawn(&processIdentifier, executable, &actions, &attributes, argv, environment)
        guard rc == 0 else { throw GatewayError.file(path: executable, reason: "cannot start: \(String(cString: strerror(rc)))") }
    }

    /// Whether it still runs (reaping it when it has exited).
    var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var status: Int32 = 0
        if waitpid(processIdentifier, &status, WNOHANG) == processIdentifier { exitStatus = status; return false }
        return true
    }

    /// Sends SIGTERM.
    func terminate() { kill(processIdentifier, SIGTERM) }

    /// Waits for it to exit: its exit code and resource usage (`wait4`).
    func waitWithUsage() -> (status: Int32, usage: rusage) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(processIdentifier, &status, 0, &usage) < 0 && errno == EINTR {}
        exitStatus = status
        return ((status >> 8) & 0xFF, usage)
    }

    /// Waits for it to exit.
    func waitUntilExit() {
        guard exitStatus == nil else { return }
        var status: Int32 = 0
        while waitpid(processIdentifier, &status, 0) < 0 && errno == EINTR {}
        exitStatus = status
    }
}
