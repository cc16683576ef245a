import GatewaySupport
import GatewayDomain
import GatewayRecords

/// A gateway's side of the fleet: publishes its status, live picture, alert events and finished
/// flights to the club's broker under `skygate/NAME/…` (`FleetTopic`), and loses nothing while
/// the broker is out of reach (in flight, usually).
///
/// Alert events and flights are published from the durable record, never from memory: the alert
/// log's rows with an event id after a cursor (in order, QoS 1, at most `window` unacknowledged at
/// once) and the logbook's flights not yet acknowledged. Only acknowledgements are stored (the
/// cursor moves past a row once it and every row before it were acknowledged), so a restart, a
/// power cut or an outage of any length publishes the rest again, oldest first: at least once;
/// consumers deduplicate by `eventId` and the flight's uid. Status, ownship and traffic are
/// live only (QoS 0 for the picture: a stale position has no value).
///
/// One thread of its own (the pump) reads the record and publishes; libmosquitto's thread
/// reports connections and acknowledgements. Neither ever runs on the core's queue.
package final class FleetPublisher: Sendable {
    /// What a person sees of it: the status line, `/healthz`.
    package struct Status: Sendable, Equatable {
        package var connected: Bool
        /// Alert events not yet acknowledged (read at the last look).
        package var queuedAlerts: Int
        /// Flights not yet acknowledged.
        package var queuedFlights: Int
        /// Why it is not connected, when it is not.
        package var problem: String?
        /// Events and flights acknowledged since start.
        package var acknowledged: Int
    }

    private enum Item: Sendable {
        case alert(rowid: Int64, sent: Double)
        case detail(uid: String)
        case flight(uid: String, points: Int)
        case status
    }

    private struct State {
        var connected = false
        var stopping = false
        var stopped = false
        var nudged = true
        var statusDue = false
        var inflight: [Int32: Item] = [:]
        /// Rows published after the cursor, in order, and those acknowledged.
        var sent: [Int64] = []
        var acked: Set<Int64> = []
        var sentRowid: Int64 = 0
        var cursor: Int64 = 0
        var cursorWritten: Int64 = 0
        var flightsInFlight: Set<String> = []
        var flightsAcked: [(uid: String, points: Int)] = []
        var connectedAt = 0.0
        /// The session's second: count what waits (offline) or look for work (online).
        var tick = false
        /// A storage problem was said (once a connection, as before the session).
        var storageSaid = false
        var queuedAlerts = 0
        var queuedFlights = 0
        var acknowledged = 0
        var statusAcked = false
    }

    /// Unacknowledged alert events at once.
    package static let window = 64

    package let settings: FleetSettings
    private let id: String
    private let outbox: FleetOutbox
    private let logbook: LogbookStore
    private let state = Locked(State())
    /// The session to the broker (the client, its supervision on the gateway's clock).
    private let session: Locked<MQTTSession?> = Locked(nil)
    private let password: String?
    private let timers: any Clock<Duration>
    private let clock: @Sendable () -> Double
    private let log: @Sendable (String) -> Void
    private let version: String

    /// A publisher for the gateway `settings.id` on `database` (its alert log and logbook), the
    /// password read already; `clock` is the gateway's (a replay's), `log` hears one line a
    /// change of state (connected, refused, unreachable), never a password.
    package init(settings: FleetSettings, password: String?, database: GatewayDatabase, version: String,
                clock: @escaping @Sendable () -> Double, timers: any Clock<Duration> = ContinuousClock(), log: @escaping @Sendable (String) -> Void) {
        self.timers = timers
        self.settings = settings
        self.id = settings.id ?? "gateway"
        self.password = password
        self.outbox = FleetOutbox(database: database, stream: "\(settings.id ?? "")@\(settings.broker.host):\(settings.broker.port)")
        self.logbook = LogbookStore(database: database)
        self.clock = clock
        self.log = log
        self.version = version
    }

    /// The client id the broker knows this gateway by.
    var clientID: String { "skygate-gw-" + id }

    /// Loads libmosquitto, starts the session (which connects off the caller's thread: the name
    /// lookup blocks) and the pump. Throws when the library cannot be loaded or the client set up.
    package func start() throws(GatewayError) {
        let broker = settings.broker, id = self.id
        let mqtt = MQTTSession("fleet", broker: broker, clock: timers, makeClient: { [self] handler throws(GatewayError) in
            try makeClient(handler)
        }, words: { [weak self] change in
            switch change {
            case .connected:
                let (alerts, flights) = self?.state.withLock { ($0.queuedAlerts, $0.queuedFlights) } ?? (0, 0)
                return "fleet: connected to \(broker) as \(id)\(alerts + flights > 0 ? " (\(alerts) alert event(s) and \(flights) flight(s) to send)" : "")"
            case .lost(let reason): return "fleet: lost \(broker) (\(reason)); reconnecting"
            default: return MQTTSession.sharedLine(change, broker: broker, id: id)
            }
        }, log: log, onEvent: { [weak self] in self?.handle($0) }, onRestart: { [weak self] in self?.restarted() },
        onTick: { [weak self] _ in self?.state.withLockWaking { $0.tick = true } }, onShutdown: { [weak self] in self?.stop() })
        session.set(mqtt)
        do {
            let stored = try outbox.cursor()
            let cursor = try stored ?? outbox.initialCursor(now: clock())
            // A new stream's start is kept at once: what this run logs while the broker is away
            // is after it, and the next run (broker up) publishes it. Chosen again by the next
            // run, the start skipped events older than a day by their (capture) time: 16 queued
            // alert events were never sent.
            if stored == nil { try outbox.advance(to: cursor, at: clock()) }
            state.withLock { s in
                s.cursor = cursor
                s.cursorWritten = cursor
                s.sentRowid = cursor
            }
        } catch {
            log("fleet: cannot read what was published before (\(GatewayDatabase.explain(error))): starting from the newest event")
        }
        try mqtt.start()
        // The pump: a thread of its own that waits for work (a nudge, an acknowledgement, the
        // session's second), never polling.
        DedicatedThread.start { [self] in pump() }
    }

    /// The session, a service of the gateway's group: its `run` ends in `stop`.
    package var service: MQTTSession? { session.value }

    private var client: MQTTClient? { session.value?.client }

    /// A client for the broker, with the will set (not connected), reporting to `handler`.
    private func makeClient(_ handler: @escaping @Sendable (MQTTEvent) -> Void) throws(GatewayError) -> MQTTClient {
        var options = MQTTClient.Options(clientID: clientID)
        options.username = settings.username
        options.password = password
        options.tls = settings.broker.tls
        options.caFile = settings.caFile
        options.will = (FleetTopic.status.name(gateway: id), statusJSON(online: false, reason: "connection lost", time: nil), true)
        return try MQTTClient(options, events: handler)
    }

    /// The session started a fresh client (libmosquitto's thread had given up): what the old one
    /// had in flight is published again from the cursor (at least once).
    private func restarted() {
        state.withLock { s in
            s.inflight = [:]
            s.sent = []
            s.acked = []
            s.sentRowid = s.cursor
            s.flightsInFlight = []
        }
    }

    /// The status now.
    package var status: Status {
        let problem = session.value?.problem ?? "connecting"
        return state.withLock { s in
            Status(connected: s.connected, queuedAlerts: s.queuedAlerts, queuedFlights: s.queuedFlights,
                   problem: s.connected ? nil : problem, acknowledged: s.acknowledged)
        }
    }

    /// New alert events are in the alert log (or soon will be): publish them.
    package func nudge() { state.withLockWaking { $0.nudged = true } }

    /// The live picture (QoS 0, dropped while disconnected): `traffic` whole (when given) and
    /// ownship's part.
    package func picture(traffic: String?, ownship: String?) {
        guard state.withLock({ $0.connected }), let mqtt = client else { return }
        if let traffic { mqtt.publish(FleetTopic.traffic.name(gateway: id), text: traffic, qos: 0) }
        if let ownship { mqtt.publish(FleetTopic.ownship.name(gateway: id), text: ownship, qos: 0) }
    }

    /// Refreshes the retained status (every minute of the gateway's clock).
    package func refreshStatus() { state.withLockWaking { $0.statusDue = true } }

    /// Waits (at most `timeout` seconds) until every flight kept is acknowledged: the flight
    /// closed at shutdown reaches the broker before the process ends, when the broker is there.
    /// Writes the cursor.
    package func finish(timeout: Double) {
        state.withLockWaking { $0.nudged = true }
        let deadline = DedicatedThread.monotonicSeconds + timeout
        // The pump publishes; wait for its look at the logbook, then for the acknowledgements.
        state.wait(until: { !$0.nudged || !$0.connected }, timeout: timeout)
        let left = max(0, deadline - DedicatedThread.monotonicSeconds)
        state.wait(until: { !$0.connected || ($0.flightsInFlight.isEmpty && $0.queuedFlights == 0) }, timeout: left)
        writeCursor()
    }

    /// Publishes the retained offline status (waiting a moment for its acknowledgement),
    /// disconnects and stops the pump. Whatever was not acknowledged stays for the next start.
    package func stop() {
        let connected = state.withLockWaking { s -> Bool in
            s.stopping = true
            s.statusAcked = false
            return s.connected
        }
        state.wait(until: { $0.stopped }, timeout: 2)
        if connected, let mqtt = client {
            let text = statusJSON(online: false, reason: "stopped", time: clock())
            if let mid = mqtt.publish(FleetTopic.status.name(gateway: id), text: text, qos: 1, retain: true) {
                state.withLock { $0.inflight[mid] = .status }
                state.wait(until: { $0.statusAcked || !$0.connected }, timeout: 0.5)
            }
        }
        writeCursor()
        session.value?.close()
    }

    // MARK: - libmosquitto's thread

    /// The publisher's part of each event (the session said what it means already).
    private func handle(_ event: MQTTEvent) {
        switch event {
        case .connected:
            state.withLockWaking { s in
                s.connected = true
                s.connectedAt = DedicatedThread.monotonicSeconds
                s.statusDue = true
                s.nudged = true
                s.storageSaid = false
            }
        case .lost:
            state.withLockWaking { $0.connected = false }
        case .refused: break
        case .acknowledged(let mid):
            state.withLockWaking { s in
                guard let item = s.inflight.removeValue(forKey: mid) else { return }
                switch item {
                case .alert(let rowid, _):
                    s.acked.insert(rowid)
                    s.acknowledged += 1
                    // The cursor passes every row acknowledged with all before it.
                    var n = 0
                    while n < s.sent.count, s.acked.contains(s.sent[n]) { s.acked.remove(s.sent[n]); n += 1 }
                    if n > 0 { s.cursor = s.sent[n - 1]; s.sent.removeFirst(n) }
                    s.queuedAlerts = max(0, s.queuedAlerts - 1)
                    // Room in the window: the pump sends the next ones (a backlog drains at the
                    // broker's pace, not one window a second).
                    s.nudged = true
                case .detail: break
                case .flight(let uid, let points):
                    s.flightsAcked.append((uid, points))
                    s.flightsInFlight.remove(uid)
                    s.acknowledged += 1
                    s.nudged = true
                case .status: s.statusAcked = true
                }
            }
        case .message, .subscribed: break
        }
    }

    /// Says a storage problem once (until the pump reads again).
    private func sayStorage(_ line: String) {
        if state.withLock({ s -> Bool in defer { s.storageSaid = true }; return !s.storageSaid }) { log(line) }
    }

    // MARK: - The pump

    private func pump() {
        var lastCursorWrite = 0.0
        while true {
            let (stopping, connected, tick) = state.withLock(when: { $0.stopping || $0.tick || $0.nudged || ($0.connected && ($0.statusDue || !$0.flightsAcked.isEmpty)) }) { s, _ in
                // Offline, a nudge is counted (the status line's queue) and waits for the connection,
                // which nudges again.
                defer { s.tick = false; if !s.connected { s.nudged = false } }
                return (s.stopping, s.connected, s.tick || s.nudged)
            }
            if stopping { break }
            let now = DedicatedThread.monotonicSeconds
            guard connected, let mqtt = client else {
                // What waits, for the status line and the "connected (N … to send)" line.
                if tick { countQueued() }
                continue
            }
            if state.withLock({ s -> Bool in defer { s.statusDue = false }; return s.statusDue }) {
                mqtt.publish(FleetTopic.status.name(gateway: id), text: statusJSON(online: true, reason: nil, time: clock()), qos: 1, retain: true)
            }
            state.withLock { $0.nudged = false }
            publishAlerts(mqtt, now: now)
            publishFlights(mqtt)
            if now - lastCursorWrite >= 1 {
                writeCursor()
                lastCursorWrite = now
            }
        }
        state.withLockWaking { $0.stopped = true }
    }

    /// Publishes the next events of the log (up to the window), oldest first. An event in
    /// flight for a minute on a live connection is published again from the cursor (at least once).
    private func publishAlerts(_ mqtt: MQTTClient, now: Double) {
        let (after, room, stuck) = state.withLock { s -> (Int64, Int, Bool) in
            let oldest = s.inflight.values.compactMap { item -> Double? in if case .alert(_, let t) = item { t } else { nil } }.min()
            let stuck = oldest.map { now - $0 > 60 && now - s.connectedAt > 60 } ?? false
            if stuck {
                s.inflight = s.inflight.filter { if case .alert = $0.value { false } else { true } }
                s.sent = []
                s.acked = []
                s.sentRowid = s.cursor
            }
            let inflightAlerts = s.inflight.values.count { if case .alert = $0 { true } else { false } }
            return (s.sentRowid, Self.window - inflightAlerts, stuck)
        }
        if stuck { log("fleet: \(settings.broker) has not acknowledged for a minute: publishing again from the last acknowledged event") }
        do {
            countQueued()
            guard room > 0 else { return }
            let rows = try outbox.alerts(after: after, limit: room)
            let topic = FleetTopic.alerts.name(gateway: id)
            for row in rows {
                // Under the lock the acknowledgement takes: an early one cannot miss its id.
                let published = state.withLock { s -> Bool in
                    guard s.connected, let mid = mqtt.publish(topic, text: row.json, qos: 1) else { return false }
                    s.inflight[mid] = .alert(rowid: row.rowid, sent: now)
                    s.sent.append(row.rowid)
                    s.sentRowid = row.rowid
                    return true
                }
                if !published { return }
            }
        } catch {
            sayStorage("fleet: cannot read the alert log: \(GatewayDatabase.explain(error)); retrying")
        }
    }

    /// Publishes each flight not yet acknowledged with its whole track: the detail, then the
    /// summary (whose acknowledgement marks it).
    private func publishFlights(_ mqtt: MQTTClient) {
        do {
            let acked = state.withLock { s -> [(uid: String, points: Int)] in defer { s.flightsAcked = [] }; return s.flightsAcked }
            for f in acked { try outbox.markFlight(uid: f.uid, points: f.points, at: clock()) }
            let pending = try outbox.flights()
            let busy = state.withLock { s -> Set<String> in s.queuedFlights = pending.count; return s.flightsInFlight }
            let todo = pending.filter { !busy.contains($0.uid) }
            guard !todo.isEmpty else { return }
            for p in todo {
                guard let summary = try logbook.summary(uid: p.uid), let flight = try logbook.flight(p.id, display: true) else { continue }
                let detail = LogbookJSON.flight(flight)
                let item = LogbookJSON.summary(summary)
                state.withLock { s in
                    guard s.connected else { return }
                    if let mid = mqtt.publish(FleetTopic.flightDetail(uid: p.uid).name(gateway: id), text: detail, qos: 1, retain: true) {
                        s.inflight[mid] = .detail(uid: p.uid)
                    }
                    if let mid = mqtt.publish(FleetTopic.flight(uid: p.uid).name(gateway: id), text: item, qos: 1, retain: true) {
                        s.inflight[mid] = .flight(uid: p.uid, points: p.points)
                        s.flightsInFlight.insert(p.uid)
                    }
                }
            }
        } catch {
            sayStorage("fleet: cannot read the logbook: \(error); retrying")
        }
    }

    /// Counts the alert events and flights not yet acknowledged (one look at the record).
    private func countQueued() {
        guard let alerts = try? outbox.alertCount(after: state.withLock { $0.cursor }) else { return }
        let flights = (try? outbox.flights().count) ?? 0
        state.withLock { s in
            s.queuedAlerts = alerts
            if !s.connected { s.queuedFlights = flights }
        }
    }

    private func writeCursor() {
        let (cursor, written) = state.withLock { ($0.cursor, $0.cursorWritten) }
        guard cursor != written else { return }
        do {
            try outbox.advance(to: cursor, at: clock())
            state.withLock { $0.cursorWritten = cursor }
        } catch {
            // Kept in memory and tried again; at worst the events after the stored cursor are published again.
        }
    }

    /// The status message: `{"id","version","online","time"}` (and `reason` when offline).
    func statusJSON(online: Bool, reason: String?, time: Double?) -> String {
        var w = JSONWriter()
        w.add("id", id)
        w.add("version", version)
        w.add("online", online)
        if let time { w.add("time", Timestamp.iso8601(time)) }
        if let reason { w.add("reason", reason) }
        return w.result
    }
}
