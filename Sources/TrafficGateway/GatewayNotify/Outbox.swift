import GatewaySupport
import GatewayRecords

/// The notifications' outbox, in the gateway's database: a notification is written here first
/// (in the same transaction as the change it is about), then delivered to each target, oldest
/// first, with backoff between tries; a target that is down keeps its rows until it is back.
/// Bounded: at most `maximumPending` notifications waiting and none older than `maximumAge`;
/// what the bounds drop is marked failed, counted and said.
package struct Outbox: Sendable {
    /// The database.
    package let database: GatewayDatabase
    /// The most notifications waiting for some target.
    package var maximumPending = 10_000
    /// The oldest a waiting notification may be, seconds (7 days).
    package var maximumAge = 7 * 86_400.0
    /// Delivered and failed notifications are kept this long for `notify list`, seconds (30 days).
    package var keepDone = 30 * 86_400.0

    /// The outbox in `database`.
    package init(database: GatewayDatabase) { self.database = database }

    /// One delivery of one notification to one target, as `notify list` shows it.
    package struct Entry: Sendable, Equatable {
        /// The row of the notification.
        package var rowid: Int64
        /// The notification.
        package var notification: Notification
        /// The target's key.
        package var target: String
        /// The target's URL, masked.
        package var label: String
        /// pending, delivered, failed.
        package var state: String
        /// Attempts so far.
        package var tries: Int
        /// When the next attempt is due (pending).
        package var nextTry: Double
        /// Why the last attempt failed.
        package var lastError: String?
        /// When it was delivered (or given up).
        package var done: Double?
    }

    /// Adds `n` for every target in `targets`, inside the caller's transaction `db`. A
    /// notification whose id is already there is not added again (false).
    @discardableResult
    package static func add(_ n: Notification, targets: [NotifyTarget], in db: SQLiteConnection, now: Double) throws -> Bool {
        try db.execute("INSERT OR IGNORE INTO notify_message (id, kind, created, json) VALUES (?, ?, ?, ?)", [n.id, n.kind.rawValue, now, n.json])
        guard db.changes > 0 else { return false }
        let rowid = db.lastInsertedRowID
        for t in targets {
            try db.execute("INSERT OR IGNORE INTO notify_delivery (message, target, label, state, tries, next_try) VALUES (?, ?, ?, 'pending', 0, ?)",
                           [rowid, t.key, t.description, now])
        }
        return true
    }

    /// Adds `n` in a transaction of its own.
    @discardableResult
    package func add(_ n: Notification, targets: [NotifyTarget], now: Double) throws(GatewayError) -> Bool {
        try write { db in try Self.add(n, targets: targets, in: db, now: now) }
    }

    /// True (and `identity` kept) the first time `identity` is asked about, inside `db`: each
    /// NOTAM change, SIGMET or episode is notified once, ever.
    package static func firstTime(_ identity: String, in db: SQLiteConnection, now: Double) throws -> Bool {
        try db.execute("INSERT OR IGNORE INTO notify_seen (identity, time) VALUES (?, ?)", [identity, now])
        return db.changes > 0
    }

    /// True when `place` had a refresh before (its baseline is set); sets it now otherwise.
    package static func hasBaseline(_ place: String, in db: SQLiteConnection, now: Double) throws -> Bool {
        try db.execute("INSERT OR IGNORE INTO notify_place (place, time) VALUES (?, ?)", [place, now])
        return db.changes == 0
    }

    /// Waiting deliveries to `target`, oldest first: all of them, or (`dueBy`) those whose
    /// backoff has passed.
    package func pending(target: String, dueBy: Double?, limit: Int = 100) throws(GatewayError) -> [Entry] {
        try read { db in
            let rows = try db.rows("""
                SELECT m.rowid AS rowid, m.json AS json, d.target AS target, d.label AS label, d.state AS state, d.tries AS tries,
                       d.next_try AS next_try, d.last_error AS last_error, d.done AS done
                FROM notify_delivery d JOIN notify_message m ON m.rowid = d.message
                WHERE d.state = 'pending' AND d.target = ? \(dueBy == nil ? "" : "AND d.next_try <= ?")
                ORDER BY m.rowid LIMIT ?
                """, dueBy.map { [target, $0, limit] } ?? [target, limit])
            return rows.compactMap(Self.entry)
        }
    }

    /// Every delivery, newest first (`notify list`).
    package func entries(limit: Int = 500) throws(GatewayError) -> [Entry] {
        try read { db in
            try db.rows("""
                SELECT m.rowid AS rowid, m.json AS json, d.target AS target, d.label AS label, d.state AS state, d.tries AS tries,
                       d.next_try AS next_try, d.last_error AS last_error, d.done AS done
                FROM notify_delivery d JOIN notify_message m ON m.rowid = d.message
                ORDER BY m.rowid DESC, d.label LIMIT ?
                """, [limit]).compactMap(Self.entry)
        }
    }

    static func entry(_ r: SQLRow) -> Entry? {
        guard let n = Notification(json: r.string("json") ?? "") else { return nil }
        return Entry(rowid: r.int64("rowid") ?? 0, notification: n, target: r.string("target") ?? "", label: r.string("label") ?? "",
                     state: r.string("state") ?? "pending", tries: r.int("tries") ?? 0, nextTry: r.double("next_try") ?? 0,
                     lastError: r.string("last_error"), done: r.double("done"))
    }

    /// `rowid` reached `target`.
    package func delivered(_ rowid: Int64, target: String, now: Double) throws(GatewayError) {
        try write { db in
            try db.execute("UPDATE notify_delivery SET state = 'delivered', tries = tries + 1, done = ?, last_error = NULL WHERE message = ? AND target = ?",
                           [now, rowid, target])
        }
    }

    /// An attempt failed: tried again after the backoff, or (`giveUp`) marked failed.
    package func failed(_ rowid: Int64, target: String, reason: String, now: Double, giveUp: Bool) throws(GatewayError) {
        try write { db in
            let tries = (try db.row("SELECT tries FROM notify_delivery WHERE message = ? AND target = ?", [rowid, target])?.int("tries") ?? 0) + 1
            try db.execute("""
                UPDATE notify_delivery SET state = ?, tries = ?, next_try = ?, last_error = ?, done = ? WHERE message = ? AND target = ?
                """, [giveUp ? "failed" : "pending", tries, now + Self.backoff(tries: tries), reason, giveUp ? now : nil, rowid, target])
        }
    }

    /// Seconds before try `tries + 1`: 30 s doubling to 30 min.
    package static func backoff(tries: Int) -> Double { min(30 * Double(1 << min(max(tries - 1, 0), 10)), 1_800) }

    /// Applies the bounds at `now`: waiting deliveries older than `maximumAge`, and the oldest
    /// beyond `maximumPending` notifications, marked failed ("dropped"); done ones older than
    /// `keepDone` deleted. Returns how many deliveries were dropped now.
    @discardableResult
    package func prune(now: Double) throws(GatewayError) -> Int {
        try write { db in
            try db.execute("""
                UPDATE notify_delivery SET state = 'failed', done = ?, last_error = 'dropped: not delivered within 7 days'
                WHERE state = 'pending' AND message IN (SELECT rowid FROM notify_message WHERE created < ?)
                """, [now, now - maximumAge])
            var dropped = db.changes
            let waiting = try db.row("SELECT COUNT(DISTINCT message) AS n FROM notify_delivery WHERE state = 'pending'")?.int("n") ?? 0
            if waiting > maximumPending {
                try db.execute("""
                    UPDATE notify_delivery SET state = 'failed', done = ?, last_error = 'dropped: the outbox holds at most \(maximumPending) waiting notifications'
                    WHERE state = 'pending' AND message IN (SELECT DISTINCT message FROM notify_delivery WHERE state = 'pending' ORDER BY message LIMIT ?)
                    """, [now, waiting - maximumPending])
                dropped += db.changes
            }
            if dropped > 0 {
                try db.execute("INSERT INTO notify_counter (name, value) VALUES ('dropped', ?) ON CONFLICT(name) DO UPDATE SET value = value + excluded.value", [dropped])
            }
            try db.execute("""
                DELETE FROM notify_delivery WHERE message IN (SELECT rowid FROM notify_message WHERE created < ?)
                AND message NOT IN (SELECT message FROM notify_delivery WHERE state = 'pending')
                """, [now - keepDone])
            try db.execute("DELETE FROM notify_message WHERE created < ? AND rowid NOT IN (SELECT message FROM notify_delivery)", [now - keepDone])
            try db.execute("DELETE FROM notify_seen WHERE time < ?", [now - 400 * 86_400])
            return dropped
        }
    }

    /// Counts: waiting notifications, delivered and failed deliveries, dropped ever.
    package func counts() throws(GatewayError) -> (pending: Int, delivered: Int, failed: Int, dropped: Int) {
        try read { db in
            let pending = try db.row("SELECT COUNT(DISTINCT message) AS n FROM notify_delivery WHERE state = 'pending'")?.int("n") ?? 0
            let delivered = try db.row("SELECT COUNT(*) AS n FROM notify_delivery WHERE state = 'delivered'")?.int("n") ?? 0
            let failed = try db.row("SELECT COUNT(*) AS n FROM notify_delivery WHERE state = 'failed'")?.int("n") ?? 0
            let dropped = try db.row("SELECT value FROM notify_counter WHERE name = 'dropped'")?.int("value") ?? 0
            return (pending, delivered, failed, dropped)
        }
    }

    /// The targets' keys that have something waiting.
    package func waitingTargets() throws(GatewayError) -> Set<String> {
        try read { db in Set(try db.rows("SELECT DISTINCT target FROM notify_delivery WHERE state = 'pending'").compactMap { $0.string("target") }) }
    }

    /// An open episode (the receiver silent since …), nil when none.
    package func episode(_ name: String) throws(GatewayError) -> (since: Double, detail: String)? {
        try read { db in try db.row("SELECT since, detail FROM notify_episode WHERE name = ?", [name]).map { ($0.double("since") ?? 0, $0.string("detail") ?? "") } }
    }

    /// Opens (`since` non-nil) or closes an episode, with the notification that says so, in one transaction.
    package func episode(_ name: String, since: Double?, detail: String, notification: Notification, targets: [NotifyTarget], now: Double) throws(GatewayError) {
        try write { db in
            if let since {
                try db.execute("INSERT OR REPLACE INTO notify_episode (name, since, detail) VALUES (?, ?, ?)", [name, since, detail])
            } else {
                try db.execute("DELETE FROM notify_episode WHERE name = ?", [name])
            }
            try Self.add(notification, targets: targets, in: db, now: now)
        }
    }

    func write<T>(_ body: (SQLiteConnection) throws -> T) throws(GatewayError) -> T {
        do { return try database.write(body) } catch {
            throw GatewayError.database(path: database.path, reason: "notifications: \(GatewayDatabase.explain(error))")
        }
    }

    func read<T>(_ body: (SQLiteConnection) throws -> T) throws(GatewayError) -> T {
        do { return try database.read(body) } catch {
            throw GatewayError.database(path: database.path, reason: "notifications: \(GatewayDatabase.explain(error))")
        }
    }
}
