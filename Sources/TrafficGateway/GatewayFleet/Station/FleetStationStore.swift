import GatewaySupport
import GatewayDomain
import GatewayRecords
import GDL90

/// The ground station's database (its own file, never a gateway's): every gateway's alert
/// events once each (`fleet_event`, unique by gateway and event id), each gateway's last status
/// (`fleet_gateway`) and the club logbook, the gateways' flights in the ordinary `flight` tables
/// with `gateway` set, so `gatewayd flights list --database STATION_DB` reads it as any logbook.
package struct FleetStationStore: Sendable {
    package let database: GatewayDatabase
    /// Flights' halves (the summary and the detail arrive as two messages, in either order),
    /// oldest first: at most `mostHalves` wait, the oldest dropped (counted) so that halves
    /// whose other half never comes cannot grow the station (20,000 took it to 465 MB).
    private let halves = Locked<(waiting: [String: (summary: [String: Any]?, detail: [String: Any]?)], order: [String], dropped: Int)>(([:], [], 0))
    /// Halves kept waiting for their other half: a gateway publishes both within a second, and
    /// a broker redelivers both after an outage; 256 flights of the fleet at once is plenty.
    package static let mostHalves = 256

    /// Halves dropped because `mostHalves` were waiting.
    package var droppedHalves: Int { halves.withLock { $0.dropped } }
    /// Halves waiting now.
    package var waitingHalves: Int { halves.withLock { $0.waiting.count } }

    package init(database: GatewayDatabase) { self.database = database }

    /// Keeps an alert event of `gateway`: its row id in `fleet_event` when new, nil when it was
    /// kept already (at-least-once delivery: the same event id twice is one event).
    package func record(alert json: String, gateway: String, eventId: String, at time: Double) throws -> Int64? {
        try database.write { db -> Int64? in
            try db.execute("INSERT OR IGNORE INTO fleet_event (gateway, event_id, received, json) VALUES (?, ?, ?, ?)", [gateway, eventId, time, json])
            return db.changes > 0 ? db.lastInsertedRowID : nil
        }
    }

    /// The events after station row `after`, oldest first: (row, gateway, json).
    package func events(after: Int64, limit: Int = 2_000) throws -> [(rowid: Int64, gateway: String, json: String)] {
        try database.read { db in
            try db.rows("SELECT rowid, gateway, json FROM fleet_event WHERE rowid > ? ORDER BY rowid LIMIT ?", [after, limit])
                .map { ($0.int64("rowid") ?? 0, $0.string("gateway") ?? "", $0.string("json") ?? "") }
        }
    }

    /// How many events of `gateway` are kept.
    package func eventCount(gateway: String) throws -> Int {
        try database.read { db in try db.row("SELECT count(*) AS n FROM fleet_event WHERE gateway = ?", [gateway])?.int("n") ?? 0 }
    }

    /// Keeps one half of a flight; once both are in, the flight goes into the logbook (replacing
    /// an earlier copy with less track). True when the logbook changed.
    @discardableResult
    package func record(flightSummary json: [String: Any]? = nil, detail: [String: Any]? = nil, gateway: String, uid: String) throws -> Bool {
        let key = gateway + "/" + uid
        let both = halves.withLock { h -> (summary: [String: Any], detail: [String: Any])? in
            var entry = h.waiting[key] ?? (nil, nil)
            if let json { entry.summary = json }
            if let detail { entry.detail = detail }
            guard let s = entry.summary, let d = entry.detail else {
                if h.waiting.updateValue(entry, forKey: key) == nil { h.order.append(key) }
                if h.waiting.count > Self.mostHalves {
                    // The oldest waiting (its flight comes whole again when its gateway republishes).
                    while h.waiting.count > Self.mostHalves, !h.order.isEmpty {
                        if h.waiting.removeValue(forKey: h.order.removeFirst()) != nil { h.dropped += 1 }
                    }
                }
                if h.order.count > 4 * Self.mostHalves { h.order.removeAll { h.waiting[$0] == nil } }
                return nil
            }
            h.waiting[key] = nil
            return (s, d)
        }
        guard let both, let flight = Self.flight(summary: both.summary, detail: both.detail) else { return false }
        do {
            switch try LogbookStore(database: database).save(flight, gateway: gateway, uid: uid) {
            case .added, .replaced: return true
            case .alreadyKept: return false
            }
        } catch {
            throw error
        }
    }

    /// A flight rebuilt from a gateway's two messages (`LogbookJSON.summary` and `.flight`).
    static func flight(summary s: [String: Any], detail d: [String: Any]) -> LoggedFlight? {
        func time(_ v: Any?) -> Double? { (v as? String).flatMap { Timestamp.parse($0) } }
        guard let offBlock = time(s["off_block"]), let onBlock = time(s["on_block"]), Timestamp.isPlausible(offBlock), Timestamp.isPlausible(onBlock) else { return nil }
        let track = (d["track"] as? [Any] ?? []).compactMap { p -> LoggedFlight.TrackPoint? in
            guard let a = p as? [Any], a.count >= 3, let t = a[0] as? Double, let lat = a[1] as? Double, let lon = a[2] as? Double,
                  Timestamp.isPlausible(t), Position.isValid(latitude: lat, longitude: lon) else { return nil }
            return LoggedFlight.TrackPoint(time: t, position: Position(latitude: lat, longitude: lon), pressureAltitudeFt: nil,
                                           geometricAltitudeFt: a.count > 3 ? a[3] as? Double : nil, groundSpeedKt: a.count > 4 ? a[4] as? Double ?? 0 : 0, trackDeg: nil)
        }
        func position(_ o: [String: Any], _ lat: String, _ lon: String) -> Position? {
            guard let a = o[lat] as? Double, let b = o[lon] as? Double else { return nil }
            return Position(latitude: a, longitude: b)
        }
        func level(_ v: Any?) -> AlertLevel? { AlertLevel.allCases.first { $0.description == v as? String } }
        let alerts = (d["alerts"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }.compactMap { a -> LoggedFlight.Alert? in
            guard let t = a["time"] as? Double, let kind = (a["kind"] as? String).flatMap(AlertEvent.Kind.init(rawValue:)), let l = level(a["level"]) else { return nil }
            return LoggedFlight.Alert(time: t, alertID: a["id"] as? String ?? "", kind: kind, level: l, subject: a["subject"] as? String ?? "",
                                      message: a["message"] as? String ?? "", position: position(a, "lat", "lon"), altitudeFt: a["altitudeFt"] as? Double)
        }
        let encounters = (d["encounters"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }.compactMap { e -> LoggedFlight.Encounter? in
            guard let t = e["time"] as? Double, let range = e["rangeNM"] as? Double, let p = position(e, "lat", "lon") else { return nil }
            let points = (e["track"] as? [Any] ?? []).compactMap { q -> LoggedFlight.TargetPoint? in
                guard let a = q as? [Any], a.count >= 3, let t = a[0] as? Double, let lat = a[1] as? Double, let lon = a[2] as? Double else { return nil }
                return LoggedFlight.TargetPoint(time: t, position: Position(latitude: lat, longitude: lon), altitudeFt: a.count > 3 ? JSONReader.int(a[3]) : nil)
            }
            return LoggedFlight.Encounter(subject: e["subject"] as? String ?? "", callsign: e["callsign"] as? String, time: t, rangeNM: range,
                                          verticalFt: JSONReader.int(e["verticalFt"]), position: p, altitudeFt: JSONReader.int(e["altitudeFt"]),
                                          ownshipPosition: position(e, "ownLat", "ownLon") ?? p, track: points)
        }
        let airspace = (d["airspace"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }.compactMap { v -> LoggedFlight.AirspaceVisit? in
            guard let l = level(v["level"]) else { return nil }
            return LoggedFlight.AirspaceVisit(subject: v["subject"] as? String ?? "", name: v["name"] as? String ?? "", kind: v["kind"] as? String,
                                              entered: v["entered"] as? Bool ?? false, closestNM: v["closestNM"] as? Double ?? 0, level: l,
                                              time: v["time"] as? Double ?? offBlock, position: position(v, "lat", "lon"))
        }
        return LoggedFlight(id: nil, offBlock: offBlock, takeoff: time(s["takeoff"]), landing: time(s["landing"]), onBlock: max(onBlock, offBlock),
                            departure: s["departure"] as? String, arrival: s["arrival"] as? String, distanceNM: max(0, s["distance_nm"] as? Double ?? 0),
                            maxAltitudeFt: s["max_altitude_ft"] as? Double, maxGroundSpeedKt: s["max_ground_speed_kt"] as? Double ?? 0,
                            track: track, alerts: alerts, encounters: encounters, airspace: airspace, source: "fleet")
    }
}
