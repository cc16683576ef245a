import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import UnixSignals

/// The write end of the signal pipe, for the handler (a C function: it cannot capture context).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Watches the process's signals from the moment it is made, so that none that comes while the
/// gateway starts is lost or kills it. The handlers are installed at once (a Dispatch signal
/// source takes effect only when Dispatch gets round to registering it, which a loaded machine
/// can delay past the "listening" line); each only writes the signal's number to a pipe
/// (async-signal-safe), which a Dispatch read source drains. Each ignored signal (SIGHUP,
/// SIGUSR1, …) is passed to `onIgnored`; the first stop signal (SIGTERM, SIGINT) is remembered,
/// for the stopping line to name it, and handed to what `whenStopped` registered (the service
/// group's graceful shutdown). Once the group runs, Dispatch takes SIGTERM and SIGINT over for it,
/// and the group names the signal it caught through `serviceGroupLogger`. One a process.
public final class SignalWatch: Sendable {
    private struct State {
        var received: UnixSignal?
        var onStop: (@Sendable () -> Void)?
    }

    private let state = Locked(State())
    /// Kept behind a lock: Dispatch's sources are not `Sendable`.
    private let source = Locked<(any DispatchSourceRead)?>(nil)

    /// Installs the handlers for `stop` and `ignored` and starts reading what they write on `queue`.
    public init(stop: [UnixSignal], ignored: [UnixSignal], queue: DispatchQueue = DispatchQueue(label: "gatewayd.signals"),
                onIgnored: @escaping @Sendable (UnixSignal) -> Void) throws(GatewayError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw GatewayError.socket(what: "the signal pipe", reason: String(cString: strerror(errno)))
        }
        // Neither end blocks (a full pipe drops a byte rather than stall a handler), neither is inherited.
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        signalPipeWriteEnd = fds[1]
        let readEnd = fds[0], all = stop + ignored
        for signal in all {
            Glibc.signal(signal.rawValue) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeWriteEnd, &byte, 1)
            }
        }
        source.withLock { source in
            let reader = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: queue)
            reader.setEventHandler { [weak self] in
                var bytes = [UInt8](repeating: 0, count: 64)
                let count = read(readEnd, &bytes, bytes.count)
                for byte in bytes.prefix(max(count, 0)) {
                    guard let signal = all.first(where: { $0.rawValue == Int32(byte) }) else { continue }
                    if stop.contains(signal) { self?.received(signal) } else { onIgnored(signal) }
                }
            }
            reader.resume()
            source = reader
        }
    }

    deinit {
        source.withLock { $0?.cancel() }
    }

    /// The first stop signal received, nil before one came.
    public var received: UnixSignal? { state.withLock { $0.received } }

    /// Remembers `signal` when it is the first stop signal, and calls what `whenStopped` registered.
    func received(_ signal: UnixSignal) {
        let onStop = state.withLock { s -> (@Sendable () -> Void)? in
            guard s.received == nil else { return nil }
            s.received = signal
            return s.onStop
        }
        onStop?()
    }

    /// Calls `action` when the first stop signal comes, or now when it has come already.
    public func whenStopped(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> Bool in
            s.onStop = action
            return s.received != nil
        }
        if now { action() }
    }
}
