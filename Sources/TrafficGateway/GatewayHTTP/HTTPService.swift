import GatewaySupport
import Dispatch
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// One HTTP server of the gateway (the cockpit feeds, the fleet station), the one way both are
/// made: Hummingbird's application, bounded (connections in all and per client address, a
/// connection idle 30 s closed), on an executor of its own, as a `Service`.
///
/// `start()` serves and returns once the server listens, taking the bound port from the
/// server's running signal (no bind, close and rebind: nothing can take the port in between), or
/// throws the bind's error in the gateway's words ("port 8090 is already in use (…)") before any
/// "listening" line. `run()` (the group's) waits for the graceful shutdown, calls `onShutdown`
/// (which ends the server's long streams, so the server's own graceful shutdown does not wait
/// for them) and stops the server. `stop()` does the same outside a group.
///
/// The server's tasks run on a serial queue of their own, not the cooperative pool: the caller
/// of `start()` may hold a cooperative thread while it waits (2 threads on a Pi), and a burst of
/// page requests cannot crowd out the alert path's tasks. Blocking reads (SQLite) in handlers
/// go further off, through `Offload`.
package final class HTTPService: Service, CustomStringConvertible, Sendable {
    private struct State {
        var port: Int?
        var failure: GatewayError?
        var task: Task<Void, Never>?
        var stopped = false
    }

    /// The server's name in logs and errors ("HTTP feeds").
    package let name: String
    private let host: String
    private let requestedPort: Int
    private let inUse: String
    private let application: any Service
    private let state: Locked<State>
    private let executor: QueueExecutor
    private let onShutdown: @Sendable () -> Void

    /// A server for `router` on `host:port` (0: any free port). `inUse` says what to do when the
    /// port is taken ("choose another with --http-port"); `perAddress` caps connections by client
    /// address; `onShutdown` ends what would hold a graceful shutdown (open event streams).
    package init<Builder: HTTPResponderBuilder>(
        _ name: String, router: Builder, host: String, port: Int, inUse: String, serverName: String,
        maximumConnections: Int, perAddress: ConnectionsPerAddress, onShutdown: @escaping @Sendable () -> Void = {}
    ) throws(GatewayError) where Builder.Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        guard (0...65_535).contains(port) else { throw GatewayError.setting(name: name, message: "port \(port): give 1–65535 (0: any free port)") }
        _ = try IPv4Socket.socketAddress(host, port: UInt16(port))
        self.name = name
        self.host = host
        self.requestedPort = port
        self.inUse = inUse
        self.onShutdown = onShutdown
        self.executor = QueueExecutor(label: "gatewayd.http." + serverName)
        let state = Locked(State())
        self.state = state
        var logger = Logger(label: "gatewayd.http." + serverName)
        logger.logLevel = .critical  // cancellation on stop logs at error level: noise
        // Bounded: at most `maximumConnections` at once (more wait in the backlog), at most the
        // table's limit from one address, and a connection idle for 30 s between requests (a
        // slowloris, an unread body) is closed.
        self.application = Application(
            router: router,
            server: .http1(configuration: .init(additionalChannelHandlers: [perAddress.handler()], idleTimeout: .seconds(30))),
            configuration: .init(address: .hostname(host, port: port), serverName: serverName,
                                 availableConnectionsDelegate: MaximumAvailableConnections(maximumConnections)),
            onServerRunning: { channel in state.withLockWaking { $0.port = channel.localAddress?.port ?? port } },
            logger: logger)
    }

    /// The port the server listens on (after `start`; the one asked for, or the one picked for 0).
    package var port: Int { state.value.port ?? requestedPort }

    /// Whether the server accepts connections.
    package var isRunning: Bool { state.withLock { $0.port != nil && !$0.stopped } }

    /// Serves, returning once the server listens; throws when it cannot (the port in use, the
    /// address not this host's), naming the server, the address and what to do.
    package func start(within seconds: Double = 10) throws(GatewayError) {
        let application = self.application, state = self.state, host = self.host, port = self.requestedPort, inUse = self.inUse
        let task = Task(executorPreference: executor) {  // concurrency: the server's own serial executor (see the type)
            do {
                try await application.run()
            } catch where !(error is CancellationError) && state.value.port == nil {
                state.withLockWaking { $0.failure = Self.bindError(error, host: host, port: port, inUse: inUse) }
            } catch {}
            state.withLockWaking { $0.stopped = true }
        }
        state.withLock { $0.task = task }
        var outcome: (port: Int?, failure: GatewayError?) = (nil, nil)
        let answered = state.withLock(when: { $0.port != nil || $0.failure != nil || $0.stopped }, timeout: seconds) { s, ready in
            outcome = (s.port, s.failure)
            return ready
        }
        if let failure = outcome.failure { throw failure }
        guard answered, outcome.port != nil else {
            stop()
            throw GatewayError.socket(what: "\(name) \(host):\(port)", reason: "the server did not start within \(Int(seconds)) s")
        }
    }

    /// Waits for the graceful shutdown, then stops the server (a service of the gateway's group).
    package func run() async throws {
        // Cancellation ends the wait too: the server is stopped either way.
        try? await gracefulShutdown()
        onShutdown()
        let task = state.withLock { s -> Task<Void, Never>? in defer { s.task = nil }; return s.task }
        task?.cancel()
        await task?.value
    }

    /// Stops the server from outside a group (tests, tools, a start that failed half-way) and
    /// returns once it has stopped (or 10 s have passed).
    package func stop() {
        onShutdown()
        let task = state.withLock { s -> Task<Void, Never>? in defer { s.task = nil }; return s.task }
        guard let task else { return }
        task.cancel()
        _ = state.wait(until: { $0.stopped }, timeout: 10)
    }

    /// A bind's error in the gateway's words.
    static func bindError(_ error: any Error, host: String, port: Int, inUse: String) -> GatewayError {
        if let io = error as? IOError {
            return IPv4Socket.listenError(what: "HTTP", address: host, port: UInt16(port), inUse: inUse, code: io.errnoCode)
        }
        return GatewayError.socket(what: "cannot listen on HTTP \(host):\(port)", reason: "\(error)")
    }

    /// The server's name.
    package var description: String { name }
}
