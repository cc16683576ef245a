import GatewaySupport
import GatewayDomain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One stored alert change.
package struct AlertRecord: Codable, Sendable, Equatable {
    /// Row id.
    package var rowid: Int64?
    /// Stable alert id.
    package var alertID: String
    /// raised, updated or cleared.
    package var event: String
    /// traffic or airspace.
    package var kind: String
    /// advisory, caution or warning.
    package var level: String
    /// Address or NOTAM number.
    package var subject: String
    /// Epoch seconds.
    package var time: Double
    /// The readable sentence.
    package var message: String
    /// The full JSON Lines form.
    package var json: String
    /// The event's stable id (`AlertEventIDs`), when a running gateway gave it one.
    package var eventID: String?

    enum CodingKeys: String, CodingKey {
        case rowid, event, kind, level, subject, time, message, json
        case alertID = "alert_id"
        case eventID = "event_id"
    }

    /// The record of `event`.
    package init(_ event: AlertEvent) { self.init(EncodedAlert(event)) }

    /// The record of an alert already encoded (its JSON is stored as it was sent).
    package init(_ alert: EncodedAlert) {
        let event = alert.event
        rowid = nil
        alertID = event.id
        self.event = event.change.rawValue
        kind = event.kind.rawValue
        level = event.level.description
        subject = event.subject
        time = event.time
        message = event.message
        json = alert.json
        eventID = alert.eventId
    }

    /// The record of a stored row.
    init(row: SQLRow) {
        rowid = row.int64("rowid")
        alertID = row.string("alert_id") ?? ""
        event = row.string("event") ?? ""
        kind = row.string("kind") ?? ""
        level = row.string("level") ?? ""
        subject = row.string("subject") ?? ""
        time = row.double("time") ?? 0
        message = row.string("message") ?? ""
        json = row.string("json") ?? ""
        eventID = row.string("event_id")
    }
}

extension AlertRecord {
    /// The stored change as the feeds send it (its JSON as it was sent, its readable line), nil
    /// for a row whose fields are not a change this gateway makes.
    package var encoded: EncodedAlert? {
        guard let change = AlertEvent.Change(rawValue: event), let kind = AlertEvent.Kind(rawValue: kind),
              let level = AlertLevel.allCases.first(where: { $0.description == self.level }) else { return nil }
        let e = AlertEvent(change: change, kind: kind, id: alertID, subject: subject, level: level, time: time, message: message)
        return EncodedAlert(event: e, json: json, eventId: eventID)
    }
}

/// The alert log: every alert change, in order, in SQLite.
package struct AlertLog: Sendable {
    /// The database.
    package let database: GatewayDatabase

    /// Creates the log on `database`.
    package init(database: GatewayDatabase) { self.database = database }

    /// Appends `events` in one transaction.
    package func append(_ events: [AlertEvent]) throws(GatewayError) {
        try append(encoded: events.map { EncodedAlert($0) })
    }

    /// Appends alerts already encoded, in one transaction.
    package func append(encoded events: [EncodedAlert]) throws(GatewayError) {
        guard !events.isEmpty else { return }
        do {
            try database.write { db in
                for e in events {
                    let r = AlertRecord(e)
                    try db.execute("""
                        INSERT OR IGNORE INTO alert_event (alert_id, event, kind, level, subject, time, message, json, event_id)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, [r.alertID, r.event, r.kind, r.level, r.subject, r.time, r.message, r.json, r.eventID])
                }
            }
        } catch {
            throw GatewayError.database(path: database.path, reason: "cannot write the alert log: " + GatewayDatabase.explain(error))
        }
    }

    /// Alert changes at or after `since` (epoch seconds), oldest first, at most `limit`.
    package func events(since: Double? = nil, limit: Int = 10_000) throws(GatewayError) -> [AlertRecord] {
        do {
            return try database.read { db in
                try db.rows("SELECT * FROM alert_event WHERE time >= ? ORDER BY time, rowid LIMIT ?", [since ?? -Double.infinity, limit])
                    .map(AlertRecord.init(row:))
            }
        } catch {
            throw GatewayError.database(path: database.path, reason: "cannot read the alert log: " + GatewayDatabase.explain(error))
        }
    }

    /// The events after the one with id `eventID`, in the order they happened (rowid), at most
    /// `limit`: how a client that saw `eventID` resumes (`Last-Event-ID`); `"BOOT-0"` asks for
    /// every event of the start BOOT on. Nil when no row has that id.
    package func events(afterEventID eventID: String, limit: Int = 10_000) throws(GatewayError) -> [AlertRecord]? {
        do {
            return try database.read { db -> [AlertRecord]? in
                var after: Int64
                if let (boot, seq) = AlertEventIDs.parse(eventID), seq == 0 {
                    // "BOOT-0": from the first event of that start on.
                    let first = try db.row("SELECT min(rowid) AS r FROM alert_event WHERE event_id LIKE ?", ["\(boot)-%"])?.int64("r")
                    guard let first else { return [] }
                    after = first - 1
                } else {
                    guard let row = try db.row("SELECT rowid FROM alert_event WHERE event_id = ?", [eventID]), let r = row.int64("rowid") else { return nil }
                    after = r
                }
                return try db.rows("SELECT * FROM alert_event WHERE rowid > ? AND event_id IS NOT NULL ORDER BY rowid LIMIT ?", [after, limit])
                    .map(AlertRecord.init(row:))
            }
        } catch {
            throw GatewayError.database(path: database.path, reason: "cannot read the alert log: " + GatewayDatabase.explain(error))
        }
    }

    /// Records that the user acknowledged an airspace alert (alert id or area id); a running
    /// gateway picks it up within seconds and stops repeating that area's warning.
    package func acknowledge(_ target: String, at time: Double) throws(GatewayError) {
        do {
            try database.write { db in
                try db.execute("INSERT INTO alert_ack (target, time) VALUES (?, ?)", [target, time])
            }
        } catch {
            throw GatewayError.database(path: database.path, reason: GatewayDatabase.explain(error))
        }
    }

    /// Acknowledgements after row `after` (rowid, target), oldest first.
    package func acknowledgements(after: Int64) throws(GatewayError) -> [(Int64, String)] {
        do {
            return try database.read { db in
                try db.rows("SELECT rowid, target FROM alert_ack WHERE rowid > ? ORDER BY rowid", [after])
                    .map { ($0.int64("rowid") ?? 0, $0.string("target") ?? "") }
            }
        } catch {
            throw GatewayError.database(path: database.path, reason: GatewayDatabase.explain(error))
        }
    }
}
