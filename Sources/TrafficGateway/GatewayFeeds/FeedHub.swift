import GatewaySupport
import GatewayDomain

/// Where the core's queue publishes and the feeds read: the latest `FeedSnapshot`, the active
/// alerts, and one bounded buffer per `/alerts` subscriber. Publishing never waits for a reader:
/// a subscriber whose buffer is full is dropped (and counted); it reconnects and starts again
/// from the active alerts.
package final class FeedHub: Sendable {
    private struct State {
        var snapshot: FeedSnapshot
        var active: [String: EncodedAlert] = [:]
        var order: [String] = []
        var subscribers: [Int: AsyncStream<Line>.Continuation] = [:]
        var nextID = 0
        var counters = FeedCounters()
        var history: [EncodedAlert] = []
        var weather: [FISBReport] = []
        var rateSamples: [(time: Double, messages: Int, uplinks: Int)] = []
    }

    private let state: Locked<State>
    /// Alert lines a subscriber may have waiting before it is dropped.
    package let bufferLimit: Int

    /// Creates a hub holding an empty snapshot.
    package init(bufferLimit: Int = 256, now: Double = 0) {
        self.bufferLimit = bufferLimit
        self.state = Locked(State(snapshot: .empty(at: now)))
    }

    /// The latest snapshot.
    package var snapshot: FeedSnapshot { state.withLock { $0.snapshot } }

    /// Feed counters (SSE clients, drops, forwarding).
    package var counters: FeedCounters { state.withLock { $0.counters } }

    /// Replaces the snapshot (and keeps the message counts of the last 10 s for the rates).
    package func publish(_ snapshot: FeedSnapshot) {
        let uplinks = snapshot.counters.messagesByType["uplink"] ?? 0
        state.withLock { s in
            s.snapshot = snapshot
            s.rateSamples.append((snapshot.time, snapshot.counters.messages, uplinks))
            if let first = s.rateSamples.first, snapshot.time < first.time { s.rateSamples = [s.rateSamples.last!] }
            while s.rateSamples.count > 2, snapshot.time - s.rateSamples[1].time >= 10 { s.rateSamples.removeFirst() }
        }
    }

    /// Messages and uplinks a second over the last 10 s or so (0 before two snapshots).
    package var rates: (messagesPerSec: Double, uplinksPerSec: Double) {
        state.withLock { s in
            guard let a = s.rateSamples.first, let b = s.rateSamples.last, b.time - a.time >= 0.5 else { return (0, 0) }
            let dt = b.time - a.time
            return (Double(b.messages - a.messages) / dt, Double(b.uplinks - a.uplinks) / dt)
        }
    }

    /// How long alert changes stay in `history`, seconds.
    package static let historySeconds = 3600.0
    /// Most alert changes kept in `history`.
    package static let historyLimit = 2_000

    /// Alert changes of the last hour (at most `historyLimit`), oldest first.
    package var history: [AlertEvent] { historyEncoded.map(\.event) }

    /// Alert changes of the last hour as encoded when they happened, oldest first.
    package var historyEncoded: [EncodedAlert] { state.withLock { $0.history } }

    /// The FIS-B products held (METAR, TAF, NOTAMs…), as the core's product store has them.
    package var weather: [FISBReport] { state.withLock { $0.weather } }

    /// Replaces the FIS-B products the cockpit page reads (the live gateway does it every second).
    package func publish(weather reports: [FISBReport]) {
        state.withLock { $0.weather = reports }
    }

    /// Updates the forwarding counters.
    package func countForward(sent: Int, failed: Int) {
        state.withLock {
            $0.counters.forwarded += sent
            $0.counters.forwardFailures += failed
        }
    }

    /// Counts an NMEA client dropped for not reading.
    package func countNMEADrop() { state.withLock { $0.counters.nmeaDropped += 1 } }

    /// Alerts active now, in the order they were raised.
    package var activeAlerts: [AlertEvent] { activeEncoded.map(\.event) }

    /// Alerts active now, as encoded when they changed, in the order they were raised.
    package var activeEncoded: [EncodedAlert] {
        state.withLock { s in s.order.compactMap { s.active[$0] } }
    }

    /// Encodes alert changes and publishes them (`publish(encoded:)`).
    package func publish(_ alerts: [AlertEvent]) {
        publish(encoded: alerts.map { EncodedAlert($0) })
    }

    /// Sends alert changes to every subscriber (the JSON line, or the readable one to a
    /// subscriber that asked for text) and keeps the active set: the encodings made once, when the
    /// change happened, are what every reader gets.
    package func publish(encoded alerts: [EncodedAlert]) {
        guard !alerts.isEmpty else { return }
        let dropped: [AsyncStream<Line>.Continuation] = state.withLock { s in
            s.history += alerts
            let horizon = (alerts.last?.event.time ?? 0) - Self.historySeconds
            if let keep = s.history.firstIndex(where: { $0.event.time >= horizon }), keep > 0 { s.history.removeFirst(keep) }
            if s.history.count > Self.historyLimit { s.history.removeFirst(s.history.count - Self.historyLimit) }
            for a in alerts {
                let e = a.event
                if e.change == .cleared {
                    s.active[e.id] = nil
                    s.order.removeAll { $0 == e.id }
                } else {
                    if s.active[e.id] == nil { s.order.append(e.id) }
                    s.active[e.id] = a
                }
            }
            var slow: [Int] = []
            for (id, continuation) in s.subscribers {
                for alert in alerts {
                    if case .dropped = continuation.yield(.alert(alert)) {
                        slow.append(id)
                        break
                    }
                }
            }
            let gone = slow.compactMap { s.subscribers.removeValue(forKey: $0) }
            s.counters.sseDropped += gone.count
            s.counters.sseClients = s.subscribers.count
            return gone
        }
        for c in dropped { c.finish() }
    }

    /// What a subscriber's stream carries: an alert change, or a keep-alive (the SSE handler
    /// writes it as a comment, so a client that went away during a quiet period is found, the
    /// write failing, within seconds, not at the next alert).
    package enum Line: Sendable, Equatable {
        case alert(EncodedAlert)
        case keepAlive
    }

    /// Sends a keep-alive to every subscriber (the live gateway does it every 10 s).
    package func keepAlive() {
        state.withLock { s in
            for continuation in s.subscribers.values { _ = continuation.yield(.keepAlive) }
        }
    }

    /// Most `/alerts` subscribers at once; `subscribe` returns nil past it (the server answers 503).
    package static let maximumSubscribers = 256

    /// A new subscriber's start: what to send first, then the stream of later changes.
    package struct Subscription: Sendable {
        /// To send first: the changes after the one the client last saw (`resumed`), else the
        /// alerts active now.
        package var backlog: [EncodedAlert]
        /// Whether `backlog` continues from the client's last event id.
        package var resumed: Bool
        /// When not resumed: the newest event id so far, which the client should take as its
        /// last one (the active alerts are not in stream order, so they carry none).
        package var mark: String?
        /// Every later change, in order.
        package var stream: AsyncStream<Line>
    }

    /// Subscribes to alert changes, or nil when `maximumSubscribers` are connected. A client
    /// that saw the event `lastEventID` gets the changes after it (`"BOOT-0"`: from the start
    /// BOOT on): from the hub's hour of history, or, when the history no longer has it (a gateway restarted, a long outage),
    /// from `earlier`, the changes after it the caller read from the alert log, followed by
    /// the history's later ones. Taken under the hub's one lock, so nothing published meanwhile
    /// is missed or sent twice.
    package func subscribe(after lastEventID: String? = nil, earlier: [EncodedAlert]? = nil, ifRoom: Bool = true) -> Subscription? {
        let (stream, continuation) = AsyncStream<Line>.makeStream(bufferingPolicy: .bufferingOldest(bufferLimit))
        let taken = state.withLock { s -> (Int, Subscription)? in
            if ifRoom, s.subscribers.count >= Self.maximumSubscribers {
                s.counters.sseRefused += 1
                return nil
            }
            let id = s.nextID
            s.nextID += 1
            s.subscribers[id] = continuation
            s.counters.sseClients = s.subscribers.count
            var start = Subscription(backlog: [], resumed: true, mark: nil, stream: stream)
            if let lastEventID, let at = s.history.lastIndex(where: { $0.eventId == lastEventID }) {
                start.backlog = Array(s.history[(at + 1)...])
            } else if let lastEventID, earlier == nil, let (boot, seq) = AlertEventIDs.parse(lastEventID), seq == 0 {
                // "BOOT-0" (no alert log to ask): every change of that start the hub still has.
                start.backlog = s.history.filter { $0.eventId.flatMap(AlertEventIDs.parse)?.boot == boot }
            } else if lastEventID != nil, let earlier {
                let seen = Set(earlier.compactMap(\.eventId))
                start.backlog = earlier + s.history.filter { $0.eventId.map { !seen.contains($0) } ?? false }
            } else {
                start.resumed = false
                start.backlog = s.order.compactMap { s.active[$0] }
                start.mark = s.history.last(where: { $0.eventId != nil })?.eventId
            }
            return (id, start)
        }
        guard let (id, start) = taken else {
            continuation.finish()
            return nil
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { s in
                s.subscribers[id] = nil
                s.counters.sseClients = s.subscribers.count
            }
        }
        return start
    }

    /// Whether `eventID` is in the hub's history (a client resuming from it needs nothing from the log).
    package func remembers(eventID: String) -> Bool {
        state.withLock { s in s.history.contains { $0.eventId == eventID } }
    }

    /// Ends every subscription (shutdown).
    package func finishAll() {
        let all = state.withLock { s -> [AsyncStream<Line>.Continuation] in
            let all = Array(s.subscribers.values)
            s.subscribers = [:]
            s.counters.sseClients = 0
            return all
        }
        for c in all { c.finish() }
    }
}
