import GatewaySupport
import GatewayDomain
import GatewayRecords
import GDL90

/// The club's ground station: subscribes to `skygate/+/#` (MQTT 3.1.1, a persistent session,
/// so the broker queues QoS 1 messages while the station is away), keeps every gateway's alert
/// events once and finished flights in its own database (`FleetStationStore`), and holds each
/// gateway's live picture in memory for `/api/fleet` and the page.
package final class FleetStation: Sendable {
    /// One gateway as the station knows it.
    struct Gateway {
        var id: String
        var online = false
        var reason: String?
        var version: String?
        var lastContact = 0.0
        /// The last known ownship (kept when the gateway loses it or goes offline: `/api/fleet`
        /// gives its age).
        var ownship: String?
        var ownshipAt: Double?
        var track: [(time: Double, lat: Double, lon: Double)] = []
        var targets = 0
        /// Active alerts by alert id (raised or updated, not cleared), in the order raised; at
        /// most `FleetStation.mostActiveAlerts` (the oldest go first).
        var active: [(id: String, json: [String: Any])] = []
        var lastAlert: String?
        /// Each alert id's newest event applied (boot, sequence): an older event arriving later
        /// (a `cleared` before its `raised`, QoS 1 redelivery) changes nothing.
        var applied: [String: (boot: Int64, seq: Int64)] = [:]
        /// A club aircraft followed through OGN (`ClubGlider`): its id as six hex digits; nil for
        /// a gateway heard on the broker.
        var ogn: String?
        /// When the broker last carried this aircraft's own ownship (its gateway's is preferred
        /// to OGN's while fresh).
        var brokerOwnshipAt: Double?
    }

    private struct State {
        var gateways: [String: Gateway] = [:]
        var stopped = false
        var subscribers: [Int: AsyncStream<StreamItem>.Continuation] = [:]
        var nextSubscriber = 0
        /// Messages refused (too large, a position off the Earth, a gateway named in the payload
        /// that is not the topic's), and the kinds already said in the log.
        var refused = 0
        var refusalsSaid: Set<String> = []
    }

    package let settings: FleetSettings
    package let store: FleetStationStore
    private let state = Locked(State())
    /// The session to the broker (the client, its supervision on the clock).
    private let session = Locked<MQTTSession?>(nil)
    private let timers: any Clock<Duration>
    private let password: String?
    private let clock: @Sendable () -> Double
    private let log: @Sendable (String) -> Void
    /// Told of what a club would be notified of (issue 54): a gateway going offline and back, and
    /// every alert event once (set before `start`).
    package let notices = Locked<(@Sendable (FleetNotice) -> Void)?>(nil)

    /// What the station tells the notifications.
    package enum FleetNotice: Sendable {
        /// A gateway's status said offline; `unexpected` when it is its will ("connection lost").
        case offline(gateway: String, reason: String, unexpected: Bool)
        /// A gateway is online again.
        case online(gateway: String)
        /// A new alert event of a gateway (its JSON object's words), once.
        case alert(gateway: String, eventId: String, level: String, event: String, message: String)
    }
    /// Positions kept for each gateway's track on the page, seconds.
    package static let trackSeconds = 600.0
    /// Seconds a club aircraft followed through OGN stays online after its last beacon.
    package static let ognOnlineSeconds = 300.0
    /// Seconds a gateway's own ownship is preferred to its OGN beacons.
    package static let brokerOwnshipPreference = 30.0
    /// Active alerts kept per gateway (a gateway that never clears cannot slow the station).
    package static let mostActiveAlerts = 200

    /// The largest payload taken for each kind of message, bytes: a status or an ownship is a few
    /// hundred bytes, a traffic picture of 500 targets 144 kB, a flight's detail (600 track
    /// points, its encounters) under 200 kB. A larger one is refused, counted and said once.
    package static func largestPayload(_ kind: FleetTopic) -> Int {
        switch kind {
        case .status, .ownship: 4_096
        case .alerts: 16_384
        case .traffic: 2 << 20
        case .flight: 65_536
        case .flightDetail: 1 << 20
        }
    }

    package init(settings: FleetSettings, password: String?, database: GatewayDatabase, clientID: String,
                clock: @escaping @Sendable () -> Double, timers: any Clock<Duration> = ContinuousClock(), log: @escaping @Sendable (String) -> Void) {
        self.timers = timers
        self.settings = settings
        self.password = password
        self.store = FleetStationStore(database: database)
        self.clock = clock
        self.log = log
        self.clientIDValue = clientID
        // The gateways seen before (their last status), so the page lists them at once.
        if let rows = try? database.read({ db in try db.rows("SELECT id, online, reason, version, last_contact FROM fleet_gateway") }) {
            state.withLock { s in
                for r in rows {
                    guard let id = r.string("id") else { continue }
                    var g = Gateway(id: id)
                    g.online = false
                    g.reason = r.string("reason") ?? "not heard since the station started"
                    g.version = r.string("version")
                    g.lastContact = r.double("last_contact") ?? 0
                    s.gateways[id] = g
                }
            }
        }
    }

    private let clientIDValue: String

    /// Connects (the one `MQTTSession`: libmosquitto's thread, the name lookup on the session's
    /// queue, a fresh client after the policy's delay when its thread gave up; the persistent
    /// session keeps what the broker queued) and subscribes on each connection.
    package func start() throws(GatewayError) {
        let broker = settings.broker, clientID = clientIDValue
        let mqtt = MQTTSession("fleet station", broker: broker, clock: timers, makeClient: { [self] handler throws(GatewayError) in
            try makeClient(handler)
        }, words: { change in
            switch change {
            case .connected: "fleet: station connected to \(broker), subscribed to \(FleetTopic.everything)"
            case .lost(let reason): "fleet: station lost \(broker) (\(reason)); reconnecting"
            default: MQTTSession.sharedLine(change, broker: broker, id: clientID)
            }
        }, log: log, onEvent: { [weak self] in self?.handle($0) }, onShutdown: { [weak self] in self?.stop() })
        session.set(mqtt)
        try mqtt.start()
    }

    /// The session, a service of the station's group: its `run` ends in `stop`.
    package var service: MQTTSession? { session.value }

    private func makeClient(_ handler: @escaping @Sendable (MQTTEvent) -> Void) throws(GatewayError) -> MQTTClient {
        var options = MQTTClient.Options(clientID: clientIDValue)
        options.cleanSession = false
        options.username = settings.username
        options.password = password
        options.tls = settings.broker.tls
        options.caFile = settings.caFile
        return try MQTTClient(options, events: handler)
    }

    /// Disconnects.
    package func stop() {
        state.withLockWaking { $0.stopped = true }
        session.value?.close()
        let subscribers = state.withLock { s -> [AsyncStream<StreamItem>.Continuation] in
            defer { s.subscribers = [:] }
            return Array(s.subscribers.values)
        }
        for c in subscribers { c.finish() }
    }

    /// Connected to the broker, and why not.
    package var connection: (connected: Bool, problem: String?) {
        guard let session = session.value else { return (false, "connecting") }
        return (session.isConnected, session.problem)
    }

    // MARK: - Messages (libmosquitto's thread)

    /// The station's part of each event (the session said what it means already).
    private func handle(_ event: MQTTEvent) {
        switch event {
        case .connected:
            _ = session.value?.client?.subscribe(FleetTopic.everything, qos: 1)
        case .refused, .lost: break
        case .message(let topic, let payload, _):
            receive(topic: topic, payload: payload)
        case .acknowledged, .subscribed: break
        }
    }

    /// One message of a gateway. Bad input (not JSON, an unknown topic) is skipped.
    func receive(topic: String, payload: [UInt8]) {
        guard let (gateway, kind) = FleetTopic.parse(topic), FleetSettings.isValidID(gateway) else { return }
        let now = clock()
        // An empty retained message clears a topic (a flight deleted by its gateway): nothing to keep.
        guard !payload.isEmpty else { return }
        guard payload.count <= Self.largestPayload(kind) else {
            return refuse(gateway, kind, "\(payload.count) bytes, more than the \(Self.largestPayload(kind)) taken for \(kind.what)")
        }
        guard let object = JSONReader.object(payload) else { return }
        // The topic names the gateway, always: a payload claiming another is refused (a gateway
        // allowed only its own topics by the broker's ACL cannot speak for another).
        if let claimed = object["gateway"], !(claimed is JSONReader.Null), claimed as? String != gateway {
            return refuse(gateway, kind, "its payload names another gateway (\(String(String(describing: claimed).prefix(40)).escapingControlCharacters))")
        }
        let text = String(decoding: payload, as: UTF8.self)
        do {
            switch kind {
            case .status:
                let online = object["online"] as? Bool ?? false
                let reason = online ? nil : object["reason"] as? String ?? "offline"
                let version = object["version"] as? String
                var wasOnline = false
                update(gateway, at: now) { g in
                    wasOnline = g.online
                    g.online = online
                    g.reason = reason
                    g.version = version ?? g.version
                }
                if wasOnline != online, let tell = notices.value {
                    tell(online ? .online(gateway: gateway) : .offline(gateway: gateway, reason: reason ?? "offline", unexpected: reason == "connection lost"))
                }
                try store.database.write { db in
                    try db.execute("""
                        INSERT INTO fleet_gateway (id, online, reason, version, last_contact) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT (id) DO UPDATE SET online = excluded.online, reason = excluded.reason,
                            version = coalesce(excluded.version, version), last_contact = excluded.last_contact
                        """, [gateway, online, reason, version, now])
                }
            case .ownship:
                let lat = object["lat"] as? Double, lon = object["lon"] as? Double
                // A position off the Earth (`"lon": -123000000`, 1e308) is refused whole: the page
                // would draw a map around it, and the station keeps the last ownship for good.
                if lat != nil || lon != nil, Position.valid(latitude: lat, longitude: lon) == nil {
                    return refuse(gateway, kind, "a position that is not one (lat \(String(describing: object["lat"] ?? "none").prefix(24)), lon \(String(describing: object["lon"] ?? "none").prefix(24)))")
                }
                for key in ["altitudeFt", "trackDeg", "groundSpeedKt"] where object[key] != nil && !(object[key] is Double || object[key] is JSONReader.Null) {
                    return refuse(gateway, kind, "\(key) is not a number")
                }
                update(gateway, at: now) { g in
                    g.ownship = text
                    g.ownshipAt = now
                    g.brokerOwnshipAt = now
                    if !g.online { g.online = true; g.reason = nil }
                    if let lat, let lon {
                        if g.track.last.map({ now - $0.time >= 2 }) ?? true { g.track.append((now, lat, lon)) }
                        if let first = g.track.firstIndex(where: { now - $0.time <= Self.trackSeconds }), first > 0 { g.track.removeFirst(first) }
                    }
                }
            case .traffic:
                let targets = (object["targets"] as? [Any])?.count ?? 0
                update(gateway, at: now) { $0.targets = targets }
            case .alerts:
                guard let eventId = object["eventId"] as? String, let alertID = object["id"] as? String else { return }
                let rowid = try store.record(alert: text, gateway: gateway, eventId: eventId, at: now)
                let cleared = object["event"] as? String == "cleared"
                let order = Self.eventOrder(eventId)
                update(gateway, at: now) { g in
                    guard rowid != nil else { return }
                    g.lastAlert = text
                    // Events of one alert applied in their gateway's order, not the broker's: a
                    // `cleared` that overtook its `raised` leaves nothing active.
                    if let order, let seen = g.applied[alertID], (seen.boot, seen.seq) >= (order.boot, order.seq) { return }
                    if let order {
                        if g.applied.count >= 4 * Self.mostActiveAlerts, g.applied[alertID] == nil { g.applied.removeAll(keepingCapacity: true) }
                        g.applied[alertID] = order
                    }
                    g.active.removeAll { $0.id == alertID }
                    if !cleared { g.active.append((alertID, object)) }
                    if g.active.count > Self.mostActiveAlerts { g.active.removeFirst(g.active.count - Self.mostActiveAlerts) }
                }
                if rowid != nil, let tell = notices.value {
                    tell(.alert(gateway: gateway, eventId: eventId, level: object["level"] as? String ?? "advisory",
                                event: object["event"] as? String ?? "raised", message: object["message"] as? String ?? alertID))
                }
                if let rowid {
                    // A subscriber that comes between gets this row from the database too; its
                    // stream skips rows it has (`FleetServer`).
                    let subscribers = state.withLock { Array($0.subscribers.values) }
                    let line = Self.withGateway(text, gateway)
                    for c in subscribers { c.yield(.event(rowid: rowid, json: line)) }
                }
            case .flight(let uid):
                try store.record(flightSummary: object, gateway: gateway, uid: uid)
            case .flightDetail(let uid):
                try store.record(detail: object, gateway: gateway, uid: uid)
            }
        } catch {
            log("fleet: station: cannot keep \(topic): \(GatewayDatabase.explain(error))")
        }
    }

    /// An event id's order, `"<boot>-<sequence>"` as numbers; nil when it is not of that form.
    static func eventOrder(_ eventId: String) -> (boot: Int64, seq: Int64)? {
        let parts = eventId.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let boot = Int64(parts[0]), let seq = Int64(parts[1]) else { return nil }
        return (boot, seq)
    }

    /// Refuses a message of `gateway`: counted, said once per gateway and kind.
    private func refuse(_ gateway: String, _ kind: FleetTopic, _ why: String) {
        let say = state.withLock { s -> Bool in
            s.refused += 1
            return s.refusalsSaid.count < 1_000 && s.refusalsSaid.insert(gateway + "/" + kind.what).inserted
        }
        if say { log("fleet: station: refused \(kind.what) from \(gateway): \(why) (further refusals of it counted on /healthz)") }
    }

    /// OGN beacons read (`OGNClient`): each of one of the club's aircraft (`gliders`, by id)
    /// makes it an aircraft of the fleet named by its registration, its position the beacon's,
    /// online while heard (`ognOnlineSeconds`). A sender with the no-tracking or stealth bit is
    /// never shown (the OGN's terms), nor a random address (it is no aircraft's for long). An
    /// aircraft whose gateway publishes its ownship keeps the gateway's while it is fresh.
    package func receive(ogn beacons: [OGNBeacon], gliders: [UInt32: ClubGlider], at now: Double) {
        for b in beacons where !b.isAnonymous && b.addressType != .random {
            guard let glider = gliders[b.address] else { continue }
            var w = JSONWriter()
            w.add("lat", b.position.latitude, decimals: 6)
            w.add("lon", b.position.longitude, decimals: 6)
            w.add("altitudeFt", b.altitudeFt)
            w.add("altitudeType", "geometric")
            w.add("trackDeg", b.trackDeg, decimals: 0)
            w.add("groundSpeedKt", b.groundSpeedKt)
            w.add("verticalSpeedFpm", b.climbFpm)
            w.add("airborne", (b.groundSpeedKt ?? 0) > 0 || (b.climbFpm ?? 0) != 0)
            w.add("aircraftType", b.aircraftType.description)
            w.add("source", "ogn")
            w.add("receiver", b.receiver)
            let json = w.result
            update(glider.registration, at: now) { g in
                g.ogn = glider.hex
                g.online = true
                g.reason = nil
                if let own = g.brokerOwnshipAt, now - own < Self.brokerOwnshipPreference { return }
                g.ownship = json
                g.ownshipAt = now
                if g.track.last.map({ now - $0.time >= 2 }) ?? true { g.track.append((now, b.position.latitude, b.position.longitude)) }
                if let first = g.track.firstIndex(where: { now - $0.time <= Self.trackSeconds }), first > 0 { g.track.removeFirst(first) }
            }
        }
    }

    /// Clients following `/alerts` now.
    package var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Messages refused so far (`/healthz`).
    package var refusedMessages: Int { state.withLock { $0.refused } }

    /// Changes what the station knows of `gateway` (made when first heard), its last contact `now`.
    private func update(_ gateway: String, at now: Double, _ body: (inout Gateway) -> Void) {
        state.withLock { s in
            var g = s.gateways[gateway] ?? Gateway(id: gateway)
            g.lastContact = now
            body(&g)
            s.gateways[gateway] = g
        }
    }

    /// A gateway's JSON object with `"gateway"` added first.
    static func withGateway(_ json: String, _ gateway: String) -> String {
        var w = JSONWriter()
        w.add("gateway", gateway)
        let head = w.result
        guard json.hasPrefix("{"), json.count > 2 else { return head }
        return String(head.dropLast()) + "," + json.dropFirst()
    }

    // MARK: - What the HTTP server reads

    /// `/api/fleet`.
    package func fleetJSON() -> String {
        let now = clock()
        let gateways = state.withLock { s in s.gateways.values.sorted { $0.id < $1.id } }.map { g in
            // A club aircraft heard only through OGN is offline once it has not been heard for a while.
            guard g.ogn != nil, g.brokerOwnshipAt == nil, now - g.lastContact > Self.ognOnlineSeconds else { return g }
            var quiet = g
            quiet.online = false
            quiet.reason = "not heard through OGN for \(Int((now - g.lastContact) / 60)) min"
            return quiet
        }
        var out = JSONWriter()
        out.add("time", Timestamp.iso8601(now))
        out.addRaw("gateways", JSONWriter.array(gateways.map { g in
            var w = JSONWriter()
            w.add("id", g.id)
            w.add("online", g.online)
            w.add("reason", g.reason)
            w.add("version", g.version)
            w.add("lastContact", g.lastContact > 0 ? Timestamp.iso8601(g.lastContact) : nil)
            w.add("contactAgeSec", g.lastContact > 0 ? max(0, now - g.lastContact) : nil, decimals: 1)
            w.addRaw("ownship", g.ownship ?? "null")
            w.add("ownshipAgeSec", g.ownshipAt.map { max(0, now - $0) }, decimals: 1)
            w.addRaw("track", JSONWriter.array(g.track.map { "[" + JSONWriter.format($0.lat, decimals: 5) + "," + JSONWriter.format($0.lon, decimals: 5) + "]" }))
            w.add("targets", g.ogn != nil && g.brokerOwnshipAt == nil ? nil : g.targets)
            w.add("ogn", g.ogn)
            w.addRaw("activeAlerts", JSONWriter.array(g.active.map { a in
                var o = JSONWriter()
                o.add("id", a.id)
                o.add("kind", a.json["kind"] as? String)
                o.add("level", a.json["level"] as? String)
                o.add("message", a.json["message"] as? String)
                return o.result
            }))
            w.addRaw("lastAlert", g.lastAlert ?? "null")
            return w.result
        }))
        return out.result
    }

    /// A page of the kept alert events after station row `after` (and before row `before`,
    /// when given), each with `"gateway"` first; read off the cooperative pool.
    package func events(after: Int64, before: Int64? = nil) async throws -> [(rowid: Int64, json: String)] {
        let store = self.store
        let rows = try await Offload.run(on: .global()) { () -> Result<[(rowid: Int64, gateway: String, json: String)], any Error> in
            Result { try store.events(after: after) }
        }?.get() ?? []
        return rows.filter { before == nil || $0.rowid < before! }.map { ($0.rowid, Self.withGateway($0.json, $0.gateway)) }
    }

    /// A subscription to the fleet's alert events (the station's `/alerts`): those after station
    /// row `after` (`Last-Event-ID`) from the database, then the live ones, each with its row.
    package func subscribe(after: Int64?) -> (backlog: [(rowid: Int64, json: String)], stream: AsyncStream<StreamItem>) {
        let (stream, continuation) = AsyncStream<StreamItem>.makeStream(bufferingPolicy: .bufferingOldest(512))
        let id = state.withLock { s -> Int in
            defer { s.nextSubscriber += 1 }
            s.subscribers[s.nextSubscriber] = continuation
            return s.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { s in s.subscribers[id] = nil } }
        let backlog = after.map { after in ((try? store.events(after: after)) ?? []).map { ($0.rowid, Self.withGateway($0.json, $0.gateway)) } } ?? []
        return (backlog, stream)
    }

    /// A keep-alive to every `/alerts` stream (the station's timer, every
    /// `keepAliveSeconds`): a proxy or a phone's network keeps a quiet stream open.
    package func keepAlive() {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for c in subscribers { c.yield(.keepAlive) }
    }

    /// Seconds between keep-alives on a quiet `/alerts` stream.
    package static let keepAliveSeconds = 15

    /// What an `/alerts` stream carries: an alert event with its station row, or a keep-alive.
    package enum StreamItem: Sendable {
        case event(rowid: Int64, json: String)
        case keepAlive

        /// The event, nil for a keep-alive.
        package var event: (rowid: Int64, json: String)? {
            if case .event(let rowid, let json) = self { return (rowid, json) }
            return nil
        }
    }
}
