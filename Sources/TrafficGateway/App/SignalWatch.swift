import Dispatch
import Synchronization
import UnixSignals

/// Watches the process's signals from the moment it is made, so that none that comes while the
/// gateway starts is lost or kills it: each ignored signal (SIGHUP, SIGUSR1, …) is passed to
/// `onIgnored`; the first stop signal (SIGTERM, SIGINT) is remembered, for the stopping line to
/// name it, and handed to whatever `whenStopped` registered (the service group's graceful shutdown).
public final class SignalWatch: Sendable {
    private struct State {
        var received: UnixSignal?
        var onStop: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())
    /// Kept behind a lock: Dispatch's sources are not `Sendable`, and are only cancelled here.
    private let sources: Mutex<[any DispatchSourceSignal]>

    /// Starts watching `stop` and `ignored` on `queue` (Dispatch takes the signals over from their
    /// default action, which would end the process).
    public init(stop: [UnixSignal], ignored: [UnixSignal], queue: DispatchQueue = DispatchQueue(label: "gatewayd.signals"),
                onIgnored: @escaping @Sendable (UnixSignal) -> Void) {
        sources = Mutex([])
        sources.withLock { list in
            for signal in stop + ignored {
                let source = DispatchSource.makeSignalSource(signal: signal.rawValue, queue: queue)
                let stops = stop.contains(signal)
                source.setEventHandler { [weak self] in
                    guard stops else { return onIgnored(signal) }
                    self?.received(signal)
                }
                source.resume()
                list.append(source)
            }
        }
    }

    deinit {
        sources.withLock { for source in $0 { source.cancel() } }
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
