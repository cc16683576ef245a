import GatewaySupport
import GatewayRecords
import GatewayDomain

/// What the fleet still has to publish, read from the durable record itself: the alert log's
/// events with an id after the cursor, and the logbook's flights not yet acknowledged with their
/// whole track. The outbox adds only what the broker acknowledged (`fleet_cursor`,
/// `fleet_flight_sent`, schema step `v6-fleet`); it copies and deletes nothing.
struct FleetOutbox: Sendable {
    let database: GatewayDatabase
    /// The broker and the fleet id (`NAME@host:port`): another broker or id gets the history again.
    let stream: String

    /// One alert event to publish.
    struct PendingAlert: Sendable, Equatable {
        var rowid: Int64
        var eventId: String
        var json: String
    }

    /// One flight to publish: its row, id, and the track points it has now.
    struct PendingFlight: Sendable, Equatable {
        var id: Int64
        var uid: String
        var points: Int
    }

    /// The alert log row acknowledged last, nil before the first use.
    func cursor() throws -> Int64? {
        try database.read { db in try db.row("SELECT after_rowid FROM fleet_cursor WHERE stream = ?", [stream])?.int64("after_rowid") }
    }

    /// Where a new stream starts: after the last event older than a day (`now`, the gateway's
    /// clock), so the club gets the last day's alerts, not the whole history.
    func initialCursor(now: Double) throws -> Int64 {
        try database.read { db in
            try db.row("SELECT coalesce(max(rowid), 0) AS r FROM alert_event WHERE time < ?", [now - 86_400])?.int64("r") ?? 0
        }
    }

    /// Moves the cursor.
    func advance(to rowid: Int64, at time: Double) throws {
        try database.write { db in
            try db.execute("""
                INSERT INTO fleet_cursor (stream, after_rowid, time) VALUES (?, ?, ?)
                ON CONFLICT (stream) DO UPDATE SET after_rowid = excluded.after_rowid, time = excluded.time
                """, [stream, rowid, time])
        }
    }

    /// The events with an id after row `after`, oldest first.
    /// The subjects never published: an OGN sender that asked not to be tracked or identified
    /// alerts ownship's pilot, and reaches no broker (OGN's terms of use).
    static let anonymous = TargetKey.hiddenPrefix + "%"

    func alerts(after: Int64, limit: Int) throws -> [PendingAlert] {
        try database.read { db in
            try db.rows("SELECT rowid, event_id, json FROM alert_event WHERE rowid > ? AND event_id IS NOT NULL AND subject NOT LIKE '\(Self.anonymous)' ORDER BY rowid LIMIT ?", [after, limit])
                .map { PendingAlert(rowid: $0.int64("rowid") ?? 0, eventId: $0.string("event_id") ?? "", json: $0.string("json") ?? "") }
        }
    }

    /// How many events wait after row `after`.
    func alertCount(after: Int64) throws -> Int {
        try database.read { db in try db.row("SELECT count(*) AS n FROM alert_event WHERE rowid > ? AND event_id IS NOT NULL AND subject NOT LIKE '\(Self.anonymous)'", [after])?.int("n") ?? 0 }
    }

    /// This gateway's flights the broker has not acknowledged with as much track, oldest first.
    func flights() throws -> [PendingFlight] {
        try database.read { db in
            try db.rows("""
                SELECT f.id, f.uid, f.points FROM flight f LEFT JOIN fleet_flight_sent s ON s.stream = ? AND s.uid = f.uid
                WHERE f.gateway IS NULL AND f.uid IS NOT NULL AND (s.uid IS NULL OR s.points < f.points) ORDER BY f.start
                """, [stream]).map { PendingFlight(id: $0.int64("id") ?? 0, uid: $0.string("uid") ?? "", points: $0.int("points") ?? 0) }
        }
    }

    /// Records that the broker acknowledged flight `uid` with `points` track points.
    func markFlight(uid: String, points: Int, at time: Double) throws {
        try database.write { db in
            try db.execute("""
                INSERT INTO fleet_flight_sent (stream, uid, points, time) VALUES (?, ?, ?, ?)
                ON CONFLICT (stream, uid) DO UPDATE SET points = max(points, excluded.points), time = excluded.time
                """, [stream, uid, points, time])
        }
    }
}
