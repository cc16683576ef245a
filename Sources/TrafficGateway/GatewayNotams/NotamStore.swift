import GatewaySupport
import GatewayRecords
import GatewayDomain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GDL90

/// One change found by a refresh.
package struct NotamChange: Sendable, Equatable {
    /// When.
    package var time: Double
    /// new, modified, expired, cancelled.
    package var kind: String
    /// The NOTAM's store key.
    package var key: String
    /// Number.
    package var number: String?
    /// Location.
    package var location: String?
    /// A line of text.
    package var summary: String
    /// Seen by the user (`notams changes` marks them read).
    package var read: Bool
    /// The NOTAM as the refresh stored it (new, modified) or as it was before it went (cancelled,
    /// expired), for the notifications (issue 54); nil when read back from the database.
    package var notam: Notam? = nil
}

/// The NOTAMs kept for flight, in the gateway's SQLite database: one row per NOTAM (merged
/// across sources by issuer/location + number, so a FIS-B copy and a fetched copy are one), an
/// R*Tree of their areas' bounding boxes, and the changes each refresh found (kept 7 days).
/// A refresh is one transaction, and a failed, empty or malformed reply never replaces what is
/// stored.
package struct NotamStore: Sendable {
    /// The database.
    package let database: GatewayDatabase
    /// A source not refreshed for this long is stale, seconds.
    package var staleAfter: Double = 24 * 3600
    /// Changes older than this are pruned, seconds.
    package var keepChanges: Double = 7 * 24 * 3600

    /// A store in `database`.
    package init(database: GatewayDatabase) { self.database = database }

    /// The merge key: issuer (or location) and number; the source id when there is no number.
    package static func key(_ n: Notam) -> String {
        guard let number = n.number else { return n.id }
        return "\(n.issuer ?? n.location ?? n.designator ?? "?"):\(number)"
    }

    /// Replaces what `source` said about the NOTAMs `inScope` selects with `notams`, at `time`;
    /// returns the changes. An empty `notams` is refused (an outage must not wipe the cache).
    @discardableResult
    /// `alsoInTransaction` runs inside the refresh's transaction with its changes (the
    /// notifications' outbox is written there: a change and what is to be said of it are stored
    /// together or not at all).
    package func refresh(source: String, notams: [Notam], at time: Double, inScope: @escaping @Sendable (Notam) -> Bool = { _ in true },
                         alsoInTransaction: ((SQLiteConnection, [NotamChange]) throws -> Void)? = nil)
        throws(GatewayError) -> [NotamChange]
    {
        guard !notams.isEmpty else {
            throw GatewayError.upstream(source: source, reason: "returned no NOTAMs: kept the \((try? count()) ?? 0) stored ones (an empty reply is never taken as 'no NOTAMs')")
        }
        do {
            return try database.write { db -> [NotamChange] in
                var changes: [NotamChange] = []
                var seen = Set<String>()
                // Cancellations first, wherever they sit in the reply: a NOTAMC before the NOTAM
                // it cancels must not let that NOTAM in again (nor log new + cancelled each time).
                var cancelled: [String: Notam] = [:]
                for n in notams where n.type == "C" {
                    seen.insert(Self.key(n))
                    if let ref = n.refersTo { cancelled["\(n.issuer ?? n.location ?? n.designator ?? "?"):\(ref)"] = n }
                }
                for (refKey, n) in cancelled.sorted(by: { $0.key < $1.key }) {
                    if let row = try db.row("SELECT rid, json FROM notam WHERE key = ?", [refKey]) {
                        try Self.delete(db, rid: row.int64("rid") ?? 0)
                        let old = try? JSONDecoder().decode(Notam.self, from: Data((row.string("json") ?? "").utf8))
                        changes.append(NotamChange(time: time, kind: "cancelled", key: refKey, number: n.refersTo, location: n.location,
                                                   summary: "cancelled by \(n.number ?? "?")", read: false, notam: old))
                    }
                    seen.insert(refKey)
                }
                for n in notams where n.type != "C" {
                    let key = Self.key(n)
                    seen.insert(key)
                    if cancelled[key] != nil { continue }
                    var merged = n
                    var sources = [n.source]
                    let existing = try db.row("SELECT rid, hash, json, sources FROM notam WHERE key = ?", [key])
                    if let existing, let old = try? JSONDecoder().decode(Notam.self, from: Data((existing.string("json") ?? "").utf8)) {
                        sources = Set((existing.string("sources") ?? "").split(separator: "+").map(String.init) + [n.source]).sorted()
                        // Geometry priority: official polygon > FIS-B graphic > text > Q-line.
                        if let og = old.geometry, og.origin > (n.geometry?.origin ?? .qLine) || n.geometry == nil { merged.geometry = og }
                        if merged.text.isEmpty { merged.text = old.text }
                    }
                    let json = merged.storedJSON
                    let content = Self.contentHash(merged)
                    if let existing {
                        let rid = existing.int64("rid") ?? 0
                        if existing.string("hash") != content {
                            changes.append(NotamChange(time: time, kind: "modified", key: key, number: n.number, location: n.location ?? n.designator,
                                                       summary: String(merged.text.prefix(100)), read: false, notam: merged))
                        }
                        try db.execute("""
                            UPDATE notam SET id = ?, number = ?, location = ?, severity = ?, start = ?, "end" = ?, sources = ?, updated = ?, hash = ?, json = ?
                            WHERE rid = ?
                            """, [merged.id, merged.number, merged.location ?? merged.designator, merged.severity, merged.start, merged.end,
                                             sources.joined(separator: "+"), time, content, json, rid])
                        try Self.index(db, rid: rid, merged)
                    } else {
                        try db.execute("""
                            INSERT INTO notam (key, id, number, location, severity, start, "end", sources, updated, hash, json)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """, [key, merged.id, merged.number, merged.location ?? merged.designator, merged.severity, merged.start,
                                             merged.end, sources.joined(separator: "+"), time, content, json])
                        try Self.index(db, rid: db.lastInsertedRowID, merged)
                        changes.append(NotamChange(time: time, kind: "new", key: key, number: n.number, location: n.location ?? n.designator,
                                                   summary: String(merged.text.prefix(100)), read: false, notam: merged))
                    }
                }
                // NOTAMs this source held in the same scope that it no longer lists: cancelled
                // (or expired, if their end has passed).
                // Keys first; a row's JSON is read only for the few not listed (memory stays flat).
                let rows = try db.rows("SELECT rid, key, number, location, sources, \"end\" FROM notam")
                for row in rows {
                    let key = row.string("key") ?? ""
                    guard !seen.contains(key) else { continue }
                    let end = row.double("end")
                    let expired = end.map { $0 <= time } ?? false
                    let mine = (row.string("sources") ?? "").split(separator: "+").contains { $0 == source }
                    guard expired || mine, let json = try db.row("SELECT json FROM notam WHERE rid = ?", [row.int64("rid") ?? 0])?.string("json"),
                          let old = try? JSONDecoder().decode(Notam.self, from: Data(json.utf8)) else { continue }
                    if expired || (mine && inScope(old)) {
                        try Self.delete(db, rid: row.int64("rid") ?? 0)
                        changes.append(NotamChange(time: time, kind: expired ? "expired" : "cancelled", key: key, number: row.string("number"),
                                                   location: row.string("location"), summary: String(old.text.prefix(100)), read: false, notam: old))
                    }
                }
                for c in changes {
                    try db.execute("INSERT INTO notam_change (time, kind, key, number, location, summary) VALUES (?, ?, ?, ?, ?, ?)",
                                   [c.time, c.kind, c.key, c.number, c.location, c.summary])
                }
                try db.execute("DELETE FROM notam_change WHERE time < ?", [time - keepChanges])
                try alsoInTransaction?(db, changes)
                try db.execute("INSERT OR REPLACE INTO notam_refresh (source, time, count) VALUES (?, ?, ?)",
                               [source, time, notams.count])
                return changes
            }
        } catch {
            throw GatewayError.database(path: database.path, reason: "NOTAM refresh from \(source) not stored (nothing changed): \(GatewayDatabase.explain(error))")
        }
    }

    /// A stable digest of what matters in a NOTAM (text, times, geometry), to detect changes.
    package static func contentHash(_ n: Notam) -> String {
        var h: UInt64 = 1_469_598_103_934_665_603
        let text = "\(n.text)|\(n.start ?? -1)|\(n.end ?? -1)|\(n.geometry?.json ?? "")|\(n.type ?? "")"
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 1_099_511_628_211 }
        return String(h, radix: 16)
    }

    static func index(_ db: SQLiteConnection, rid: Int64, _ n: Notam) throws {
        try db.execute("DELETE FROM notam_rtree WHERE rid = ?", [rid])
        guard let g = n.geometry else { return }
        let b = g.bounds
        try db.execute("INSERT INTO notam_rtree (rid, min_lat, max_lat, min_lon, max_lon) VALUES (?, ?, ?, ?, ?)",
                       [rid, b.0, b.1, b.2, b.3])
    }

    static func delete(_ db: SQLiteConnection, rid: Int64) throws {
        try db.execute("DELETE FROM notam WHERE rid = ?", [rid])
        try db.execute("DELETE FROM notam_rtree WHERE rid = ?", [rid])
    }

    /// Stored NOTAMs.
    package func count() throws(GatewayError) -> Int {
        try read { db in try db.row("SELECT COUNT(*) AS n FROM notam")?.int("n") ?? 0 }
    }

    /// Every stored NOTAM, by key.
    package func all() throws(GatewayError) -> [Notam] {
        try allReadable().notams
    }

    /// Every stored NOTAM that reads, by key, and the keys of the rows that do not (their JSON
    /// damaged): a list that skips them says so.
    package func allReadable() throws(GatewayError) -> (notams: [Notam], unreadable: [String]) {
        try read { db in
            var notams: [Notam] = [], unreadable: [String] = []
            for row in try db.rows("SELECT key, json FROM notam ORDER BY key") {
                if let json = row.string("json"), let n = try? JSONDecoder().decode(Notam.self, from: Data(json.utf8)) {
                    notams.append(n)
                } else {
                    unreadable.append(row.string("key") ?? "?")
                }
            }
            return (notams, unreadable)
        }
    }

    /// NOTAMs whose area's bounding box meets the box (R*Tree query).
    package func notams(minLat: Double, maxLat: Double, minLon: Double, maxLon: Double) throws(GatewayError) -> [Notam] {
        try read { db in
            try db.rows("""
                SELECT n.json FROM notam n JOIN notam_rtree r ON r.rid = n.rid
                WHERE r.max_lat >= ? AND r.min_lat <= ? AND r.max_lon >= ? AND r.min_lon <= ? ORDER BY n.key
                """, [minLat, maxLat, minLon, maxLon]).compactMap { $0.string("json") }.compactMap { try? JSONDecoder().decode(Notam.self, from: Data($0.utf8)) }
        }
    }

    /// Airspace areas of NOTAMs active at `time` (near a position when given, via the R*Tree).
    package func activeAreas(at time: Double, near: Position? = nil, radiusNM: Double = 150) throws(GatewayError) -> [AirspaceArea] {
        try areas(activeAt: time, near: near, radiusNM: radiusNM)
    }

    /// Airspace areas of the stored NOTAMs: those in force at `activeAt` (nil: every one not
    /// cancelled or expired for good; each area keeps its activity window), near a position when
    /// given (R*Tree), at the levels `levels` gives each kind.
    package func areas(activeAt: Double?, near: Position? = nil, radiusNM: Double = 150,
                      levels: AirspaceLevelTable = AirspaceLevelTable()) throws(GatewayError) -> [AirspaceArea] {
        // Only rows with an area (an R*Tree entry), in force when asked, are decoded: run reloads
        // every minute and most stored NOTAMs are aerodrome ones without an area.
        var box = (-90.0, 90.0, -180.0, 180.0)
        if let p = near {
            let dLat = radiusNM / 60, dLon = radiusNM / (60 * max(0.05, cos(p.latitude * .pi / 180)))
            box = (p.latitude - dLat, p.latitude + dLat, p.longitude - dLon, p.longitude + dLon)
        }
        let list: [Notam] = try read { db in
            try db.rows("""
                SELECT n.json FROM notam n JOIN notam_rtree r ON r.rid = n.rid
                WHERE r.max_lat >= ? AND r.min_lat <= ? AND r.max_lon >= ? AND r.min_lon <= ?
                AND (? IS NULL OR ((n.start IS NULL OR n.start <= ?) AND (n."end" IS NULL OR n."end" > ?))) ORDER BY n.key
                """, [box.0, box.1, box.2, box.3, activeAt, activeAt, activeAt])
                .compactMap { $0.string("json") }.compactMap { try? JSONDecoder().decode(Notam.self, from: Data($0.utf8)) }
        }
        return list.filter { n in n.type != "C" && (activeAt.map { n.isActive(at: $0) } ?? true) }.flatMap { $0.airspaceAreas(levels: levels) }
    }

    /// Every stored NOTAM with this number (`6/2174`), key (`FDC:6/2174`) or id: one number can
    /// be used by several issuers and locations.
    package func notams(matching number: String) throws(GatewayError) -> [Notam] {
        try all().filter { Self.key($0) == number || $0.number == number || $0.id == number }
    }

    /// Sources' last successful refresh times.
    package func refreshes() throws(GatewayError) -> [String: Double] {
        try read { db in
            var out: [String: Double] = [:]
            for row in try db.rows("SELECT source, time FROM notam_refresh") { if let s = row.string("source") { out[s] = row.double("time") } }
            return out
        }
    }

    /// Whether what is stored is older than `staleAfter` at `time` (no source refreshed since).
    package func isStale(at time: Double) throws(GatewayError) -> Bool {
        guard let last = try refreshes().values.max() else { return true }
        return time - last > staleAfter
    }

    /// Changes, newest first; `unread` only those not yet seen; marks what it returns read.
    package func changes(unreadOnly: Bool, markRead: Bool = true) throws(GatewayError) -> [NotamChange] {
        do {
            return try database.write { db in
                let rows = try db.rows("SELECT * FROM notam_change \(unreadOnly ? "WHERE read = 0" : "") ORDER BY time DESC, rowid DESC")
                if markRead { try db.execute("UPDATE notam_change SET read = 1") }
                return rows.map { r in
                    NotamChange(time: r.double("time") ?? 0, kind: r.string("kind") ?? "", key: r.string("key") ?? "", number: r.string("number"),
                                location: r.string("location"), summary: r.string("summary") ?? "", read: (r.int("read") ?? 0) != 0)
                }
            }
        } catch {
            throw GatewayError.database(path: database.path, reason: GatewayDatabase.explain(error))
        }
    }

    private func read<T>(_ body: (SQLiteConnection) throws -> T) throws(GatewayError) -> T {
        do { return try database.read(body) } catch {
            throw GatewayError.database(path: database.path, reason: GatewayDatabase.explain(error))
        }
    }
}
