import GatewaySupport
import Dispatch
import ServiceLifecycle

/// The one MQTT session to the club's broker, used by the gateway's publisher and the ground
/// station alike (issue 53: each had its own supervisor on a dedicated thread polling every
/// second): the libmosquitto client, its connection's state and the words said about it, and
/// the supervision on the injected clock.
///
/// libmosquitto's own thread reconnects after every loss. Its thread gives up for good after
/// some failures (a TLS handshake refused, a protocol error), so a session down for the
/// `ReconnectPolicy.mqtt` delay since its last attempt is started afresh with a new client
/// (`onRestart` tells the owner, which publishes again what was in flight); a broker away for
/// `unreachableAfter` seconds is said once. Connects run on a queue of the session's own (the
/// name lookup blocks), never on the caller's thread or the cooperative pool.
///
/// `start()` connects and begins the supervision, a task sleeping on the clock; `run()` (the
/// group's) waits for the graceful shutdown and calls `onShutdown` (the owner's stop: a last
/// status, then `close()`).
package final class MQTTSession: Service, CustomStringConvertible, Sendable {
    /// A change of the connection, for the owner to put in words (nil: say nothing).
    package enum Change: Sendable, Equatable {
        /// Connected (outside a run of flaps).
        case connected
        /// The broker refused the connection, with its words and a hint.
        case refused(reason: String, hint: String)
        /// A steady connection was lost.
        case lost(reason: String)
        /// Connections keep dropping right after they are made.
        case flapping(count: Int)
        /// No connection for `unreachableAfter` seconds (or the first attempt failed at once).
        case unreachable(problem: String)
    }

    private struct State {
        var connected = false
        var connectedAt = 0.0
        var lostAt = 0.0
        var lastAttempt = 0.0
        var restartDelay: Double = 0
        var problem: String?
        var problemSaid = false
        var policy = ReconnectPolicy.mqtt
        var stopped = false
        var supervision: Task<Void, Never>?
    }

    /// The broker.
    package let broker: FleetBroker
    /// The session's name in logs ("fleet").
    package let name: String
    /// A session not connected this long after an attempt or a loss is said (once).
    package static let unreachableAfter = 10.0

    private let state = Locked(State())
    private let current = Locked<MQTTClient?>(nil)
    private let makeClient: @Sendable (@escaping @Sendable (MQTTEvent) -> Void) throws(GatewayError) -> MQTTClient
    private let words: @Sendable (Change) -> String?
    private let onEvent: @Sendable (MQTTEvent) -> Void
    private let onRestart: @Sendable () -> Void
    private let onTick: @Sendable (Bool) -> Void
    private let onShutdown: @Sendable () -> Void
    private let log: @Sendable (String) -> Void
    private let clock: any Clock<Duration>
    private let connects: DispatchQueue
    private let supervisor: QueueExecutor

    /// A session to `broker`: `makeClient` makes a client (with the owner's options and will)
    /// that reports to the handler it is given; `words` puts each change in the owner's words;
    /// `onEvent` hears every event after the session's bookkeeping (on libmosquitto's thread);
    /// `onTick` runs each second of `clock` with whether the session is connected.
    package init(_ name: String, broker: FleetBroker, clock: any Clock<Duration> = ContinuousClock(),
                 makeClient: @escaping @Sendable (@escaping @Sendable (MQTTEvent) -> Void) throws(GatewayError) -> MQTTClient,
                 words: @escaping @Sendable (Change) -> String?, log: @escaping @Sendable (String) -> Void,
                 onEvent: @escaping @Sendable (MQTTEvent) -> Void, onRestart: @escaping @Sendable () -> Void = {},
                 onTick: @escaping @Sendable (Bool) -> Void = { _ in }, onShutdown: @escaping @Sendable () -> Void) {
        self.name = name
        self.broker = broker
        self.clock = clock
        self.makeClient = makeClient
        self.words = words
        self.log = log
        self.onEvent = onEvent
        self.onRestart = onRestart
        self.onTick = onTick
        self.onShutdown = onShutdown
        self.connects = DispatchQueue(label: "gatewayd.mqtt-connect." + name)
        self.supervisor = QueueExecutor(label: "gatewayd.mqtt-session." + name)
    }

    /// The client now (nil before `start` and after `close`).
    package var client: MQTTClient? { current.value }

    /// Whether the broker accepted the connection and it is up.
    package var isConnected: Bool { state.withLock { $0.connected } }

    /// Why the session is not connected (nil when it is): the broker's words, a failed attempt's,
    /// or "connecting".
    package var problem: String? {
        state.withLock { s in s.connected ? nil : s.problem ?? (s.lostAt > 0 ? Self.noAnswer(broker) : "connecting") }
    }

    /// The words publisher and station share: a refusal, an unreachable broker, a run of flaps
    /// of the client `id` (nil for `connected` and `lost`, which each owner says its own way).
    package static func sharedLine(_ change: Change, broker: FleetBroker, id: String) -> String? {
        switch change {
        case .refused(let reason, let hint): "fleet: \(broker) refused the connection: \(reason)\(hint); retrying"
        case .unreachable(let problem): "fleet: \(broker) unreachable (\(problem)); retrying with backoff up to 4 min"
        case .flapping(let n): ConnectionFlaps.flappingLine(broker: "\(broker)", id: id, count: n)
        case .connected, .lost: nil
        }
    }

    /// Why a broker may not answer at all.
    package static func noAnswer(_ broker: FleetBroker) -> String {
        "no answer: the broker is down or a firewall drops port \(broker.port)" + (broker.tls ? ", or its certificate does not name \(broker.host)" : "")
    }

    /// Makes the client (loading libmosquitto: an error names the package), connects off the
    /// caller's thread, and begins the supervision.
    package func start() throws(GatewayError) {
        let fresh = try makeClient { [weak self] event in self?.handle(event) }
        current.set(fresh)
        state.withLock { s in
            s.restartDelay = s.policy.delay()
            s.lastAttempt = DedicatedThread.monotonicSeconds
        }
        connect(fresh)
        let clock = self.clock
        // On a queue of the session's own, not the cooperative pool: the supervision never waits
        // behind a caller holding the pool's threads.
        let task = Task(executorPreference: supervisor) { [weak self] in  // concurrency: the session's supervision on a serial executor of its own (see QueueExecutor)
            while !Task.isCancelled {
                do { try await clock.sleep(for: .seconds(1)) } catch { return }  // concurrency: the MQTT session's supervision on the injected clock (the one timer of the fleet's connection)
                guard let self else { return }
                self.check()
            }
        }
        state.withLock { $0.supervision = task }
    }

    /// Waits for the graceful shutdown, then hands over to the owner's stop.
    package func run() async throws {
        try? await gracefulShutdown()
        onShutdown()
    }

    /// Stops the supervision and closes the client (no event is reported after it).
    package func close() {
        let task = state.withLock { s -> Task<Void, Never>? in
            s.stopped = true
            defer { s.supervision = nil }
            return s.supervision
        }
        task?.cancel()
        let client = current.withLock { c -> MQTTClient? in defer { c = nil }; return c }
        client?.close()
    }

    /// The session's name.
    package var description: String { "\(name) MQTT session" }

    // MARK: - Supervision (the clock's)

    /// One look, each second of the clock: says an unreachable broker once, starts a client
    /// afresh when the policy's delay has passed since the last attempt, runs the owner's tick.
    func check() {
        let now = DedicatedThread.monotonicSeconds
        let (stopped, connected, lostAt, problem, due) = state.withLock { s in
            (s.stopped, s.connected, s.lostAt, s.problem, !s.connected && now - s.lastAttempt >= s.restartDelay)
        }
        if stopped { return }
        onTick(connected)
        guard !connected, lostAt > 0, now - lostAt > Self.unreachableAfter else { return }
        sayOnce(.unreachable(problem: problem ?? Self.noAnswer(broker)))
        if due { restart(now: now) }
    }

    private func restart(now: Double) {
        guard let fresh = try? makeClient({ [weak self] event in self?.handle(event) }) else { return }
        let stopped = state.withLock { s -> Bool in
            guard !s.stopped else { return true }
            s.lastAttempt = now
            s.restartDelay = s.policy.delay()
            return false
        }
        if stopped { return fresh.close() }
        let old = current.withLock { c -> MQTTClient? in defer { c = fresh }; return c }
        old?.close()
        onRestart()
        connect(fresh)
    }

    private func connect(_ client: MQTTClient) {
        let broker = self.broker
        connects.async { [weak self] in
            let rc = client.connect(host: broker.host, port: broker.port)
            guard let self else { return }
            self.state.withLock { s in
                if s.lostAt == 0 { s.lostAt = DedicatedThread.monotonicSeconds }
                if rc != 0 { s.problem = MQTTClient.errorText(rc) }
            }
            if rc != 0 { self.sayOnce(.unreachable(problem: MQTTClient.errorText(rc))) }
        }
    }

    // MARK: - Events (libmosquitto's thread)

    private func handle(_ event: MQTTEvent) {
        switch event {
        case .connected:
            let tell = state.withLockWaking { s -> Bool in
                s.connected = true
                s.connectedAt = DedicatedThread.monotonicSeconds
                let tell = s.policy.connected(at: s.connectedAt)
                if tell { s.problemSaid = false }
                s.problem = nil
                return tell
            }
            // The owner's bookkeeping first: its line may count what waits.
            onEvent(event)
            if tell, let line = words(.connected) { log(line) }
            return
        case .refused(_, let reason):
            let hint = reason.contains("authori") || reason.contains("password") || reason.contains("identifier")
                ? " (check [fleet] username and password_file)" : ""
            state.withLock { $0.problem = "refused the connection: \(reason)\(hint)" }
            sayOnce(.refused(reason: reason, hint: hint))
        case .lost(let code, let reason):
            let (was, saying) = state.withLockWaking { s -> (Bool, ConnectionFlaps.Saying) in
                let now = DedicatedThread.monotonicSeconds
                defer { s.connected = false; s.lostAt = now }
                // A lost connection's first fresh client comes the policy's delay after the loss.
                if s.connected { s.lastAttempt = now; s.restartDelay = s.policy.delay() }
                // A failed attempt's reason is what the "unreachable" line says; a refusal's
                // words ("not authorised") stay: the loss that follows it says only "refused".
                if !(s.problem?.hasPrefix("refused the connection") ?? false), code != 0 { s.problem = s.connected ? "connection lost (\(reason))" : reason }
                return (s.connected, s.connected ? s.policy.lost(at: now) : .quiet)
            }
            if was, code != 0 {
                switch saying {
                case .lost: sayOnce(.lost(reason: reason), force: true)
                case .flapping(let n):
                    state.withLock { $0.problemSaid = true }
                    if let line = words(.flapping(count: n)) { log(line) }
                case .quiet: break
                }
            }
        case .acknowledged, .message, .subscribed: break
        }
        onEvent(event)
    }

    /// Says `change` unless a problem was said already this outage (`force`: say it and mark it).
    private func sayOnce(_ change: Change, force: Bool = false) {
        let first = state.withLock { s -> Bool in
            defer { s.problemSaid = true }
            return force || !s.problemSaid
        }
        if first, let line = words(change) { log(line) }
    }
}
