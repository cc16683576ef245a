import GatewaySupport
import ServiceLifecycle
import UnixSignals

/// The process's signals, as a service of the one `ServiceGroup`: the first stop signal (SIGTERM,
/// SIGINT) ends it, and the group, run with `successTerminationBehavior: .gracefullyShutdownGroup`
/// for it, stops everything gracefully; each ignored signal (SIGHUP, SIGUSR1, …), whose default
/// action would kill the daemon with no log line and no WAL checkpoint, is passed to `onIgnored`.
/// Made (async) before the gateway starts: `UnixSignalsSequence` returns once its Dispatch
/// sources are registered, so a signal that comes while starting waits here instead of killing us.
package final class SignalService: Service, CustomStringConvertible {
    private let signals: UnixSignalsSequence
    private let stop: [UnixSignal]
    private let onIgnored: @Sendable (UnixSignal) -> Void
    private let first = Locked<UnixSignal?>(nil)

    /// Traps `stop` and `ignored` from now on.
    package init(stop: [UnixSignal], ignored: [UnixSignal], onIgnored: @escaping @Sendable (UnixSignal) -> Void) async {
        signals = await UnixSignalsSequence(trapping: stop + ignored)
        self.stop = stop
        self.onIgnored = onIgnored
    }

    /// The stop signal received, nil before one came.
    package var received: UnixSignal? { first.value }

    /// `signals`.
    package var description: String { "signals" }

    /// Returns at the first stop signal (or when the group stops for another reason).
    package func run() async throws {
        for await signal in signals.cancelOnGracefulShutdown() {
            if stop.contains(signal) {
                first.set(signal)
                return
            }
            onIgnored(signal)
        }
    }
}
