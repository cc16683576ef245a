import GatewaySupport
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
import CSQLite

/// The gateway's SQLite database (WAL): the alert log, the NOTAMs, the acknowledgements. The
/// schema changes only through migrations.
///
/// Two connections, each behind its own lock: one writes (every `write` is one transaction), one
/// reads, so a reader (the page, `run`'s NOTAM re-read) never waits for a refresh's transaction
/// (WAL readers see the last commit).
///
/// `run` opens it with `openForRun`, which never fails: a corrupt file is moved aside (kept) and a
/// new one started; a file that cannot be used (a full disk, a read-only mount, a newer schema, a
/// folder that cannot be made) leaves the database *degraded*, in memory, with the reason
/// (`degradedReason`), until `retry` finds the file usable and writes what was kept into it.
package final class GatewayDatabase: Sendable {
    /// The file path.
    package let path: String
    private let writer: Locked<SQLiteConnection>
    private let reader: Locked<SQLiteConnection>
    /// While the database runs in memory: why, and the in-memory database's URI.
    private let degradation: Locked<(reason: String, memory: String)?>

    /// The default location: `$XDG_DATA_HOME/gatewayd/gateway.sqlite`, else `~/.local/share/gatewayd/`.
    package static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/gatewayd/gateway.sqlite" }
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.local/share/gatewayd/gateway.sqlite"
    }

    /// Opens (creating if needed) the database at `path` and migrates it.
    package init(path: String) throws(GatewayError) {
        self.path = path
        do throws(OpenFailure) {
            let (w, r) = try Self.connect(path)
            writer = Locked(w)
            reader = Locked(r)
        } catch {
            throw GatewayError.database(path: path, reason: error.reason)
        }
        degradation = Locked(nil)
    }

    /// Opens the database at `path` for the commands that only read (`flights list`, `alerts`,
    /// `notams list`): as `init(path:)` when the file can be written, else read-only (a card
    /// remounted read-only, a file without write permission), so what is stored can still be
    /// read.
    package convenience init(readingOnly path: String) throws(GatewayError) {
        let connections: (SQLiteConnection, SQLiteConnection)
        do throws(OpenFailure) {
            connections = try Self.connect(path)
        } catch {
            guard access(path, F_OK) == 0, access(path, W_OK) != 0 || Self.unwritableFolder(of: path) != nil else {
                throw GatewayError.database(path: path, reason: error.reason)
            }
            connections = try Self.readOnlyConnections(path)
        }
        self.init(path: path, writer: connections.0, reader: connections.1)
    }

    /// Two read-only connections to `path`: a URI with mode=ro, or, for a WAL database whose
    /// shared-memory file cannot be made, immutable (nothing else writes a read-only card).
    private static func readOnlyConnections(_ path: String) throws(GatewayError) -> (SQLiteConnection, SQLiteConnection) {
        let escaped = path.replacingAll("%", with: "%25").replacingAll("?", with: "%3f").replacingAll("#", with: "%23")
        var lastError: any Error = SQLiteError(code: SQLITE_CANTOPEN, message: "cannot open", statement: nil)
        for uri in ["file:\(escaped)?mode=ro", "file:\(escaped)?mode=ro&immutable=1"] {
            do {
                let connection = try SQLiteConnection(path: uri, create: false, uri: true)
                let applied = Set(try connection.rows("SELECT identifier FROM grdb_migrations").compactMap { $0.string("identifier") })
                if let unknown = applied.subtracting(migrations.map(\.id)).sorted().first {
                    throw GatewayError.database(path: path, reason: "made by a newer gatewayd (schema step \(unknown) is unknown to this one); upgrade gatewayd")
                }
                return (connection, try SQLiteConnection(path: uri, create: false, uri: true))
            } catch let error as GatewayError {
                throw error
            } catch {
                lastError = error
            }
        }
        throw GatewayError.database(path: path, reason: "cannot be read even read-only: \(explain(lastError))")
    }

    private init(path: String, writer: SQLiteConnection, reader: SQLiteConnection, degraded: (reason: String, memory: String)? = nil) {
        self.path = path
        self.writer = Locked(writer)
        self.reader = Locked(reader)
        degradation = Locked(degraded)
    }

    /// Why the database could not be opened: the reason for a person, and whether the file is
    /// corrupt (not a database at all, or damaged), which moving it aside cures.
    struct OpenFailure: Error {
        var reason: String
        var corrupt = false
    }

    /// The two connections to the file at `path`, migrated.
    private static func connect(_ path: String) throws(OpenFailure) -> (SQLiteConnection, SQLiteConnection) {
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            let directory = String(path[..<slash])
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw OpenFailure(reason: "cannot create its folder \(directory): \(describe(error))")
            }
        }
        do {
            let w = try SQLiteConnection(path: path, create: true, uri: true)
            try w.executeScript("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON")
            try Self.migrate(w)
            let r = try SQLiteConnection(path: path, create: false, uri: true)
            try r.executeScript("PRAGMA foreign_keys = ON")
            return (w, r)
        } catch {
            let code = (error as? SQLiteError)?.primaryCode
            var reason = GatewayDatabase.explain(error)
            if code == SQLITE_CANTOPEN || code == SQLITE_READONLY || code == SQLITE_IOERR, let cause = Self.unwritableFolder(of: path) { reason = cause }
            throw OpenFailure(reason: reason, corrupt: code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
        }
    }

    /// Why the folder of `path` cannot be written, when it cannot: a read-only mount (the
    /// kernel remounts a card so after errors), or its permissions.
    static func unwritableFolder(of path: String) -> String? {
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        var fs = statvfs()
        if statvfs(folder, &fs) == 0, fs.f_flag & UInt(ST_RDONLY) != 0 {
            return "the disk holding it is mounted read-only (a card is remounted so after errors: check it with fsck)"
        }
        if access(folder, W_OK) != 0 { return "its folder \(folder) is not writable (check its permissions)" }
        return nil
    }

    /// The database `run` uses at `path`, whatever state the file is in, and what to say about it
    /// (once, in the log): a corrupt file is moved aside to `PATH.corrupt-TIME` (with its WAL) and
    /// a new one started; a file that cannot be used leaves the database in memory (`degradedReason`).
    package static func openForRun(path: String, now: Double = Date().timeIntervalSince1970) -> (database: GatewayDatabase, notes: [String]) {
        var notes: [String] = []
        var failure: OpenFailure
        do throws(OpenFailure) {
            let (w, r) = try connect(path)
            return (GatewayDatabase(path: path, writer: w, reader: r), [])
        } catch {
            failure = error
        }
        if failure.corrupt {
            switch moveAside(path, now: now) {
            case .success(let aside):
                notes.append("database \(path): \(failure.reason): moved aside to \(aside) (kept, not deleted) and a new database started")
                do throws(OpenFailure) {
                    let (w, r) = try connect(path)
                    return (GatewayDatabase(path: path, writer: w, reader: r), notes)
                } catch {
                    failure = error
                }
            case .failure(let why):
                failure.reason += " and it cannot be moved aside (\(why))"
            }
        }
        let reason = "database \(path): \(failure.reason)"
        let database = inMemory(path: path, reason: reason)
        notes.append("\(reason) — alerts go on; the alert log and logbook are kept in memory until the file can be written (tried again every minute), NOTAMs stored before are not read")
        return (database, notes)
    }

    /// A database in memory standing in for the file at `path`, degraded for `reason`.
    static func inMemory(path: String, reason: String) -> GatewayDatabase {
        let memory = "file:gatewayd-degraded-\(getpid())-\(memoryNames.withLock { $0 += 1; return $0 })?mode=memory&cache=shared"
        // An in-memory database cannot fail to open or migrate but for want of memory itself.
        let w = try! SQLiteConnection(path: memory, create: true, uri: true)
        try! w.executeScript("PRAGMA foreign_keys = ON")
        try! migrate(w)
        let r = try! SQLiteConnection(path: memory, create: false, uri: true)
        // Shared-cache readers would wait on the writer's table locks: read what is there.
        try! r.executeScript("PRAGMA foreign_keys = ON; PRAGMA read_uncommitted = 1")
        return GatewayDatabase(path: path, writer: w, reader: r, degraded: (reason, memory))
    }

    private static let memoryNames = Locked(0)

    /// Renames the corrupt file at `path` (and its WAL and shared-memory files) to
    /// `PATH.corrupt-YYYYMMDDTHHMMSSZ`: the new name, or why it could not be done.
    static func moveAside(_ path: String, now: Double) -> Result<String, GatewayError> {
        let stamp = Timestamp.compact(now)
        var aside = path + ".corrupt-" + stamp
        var n = 1
        while access(aside, F_OK) == 0 { n += 1; aside = path + ".corrupt-" + stamp + "-\(n)" }
        guard rename(path, aside) == 0 else {
            return .failure(.file(path: path, reason: String(cString: strerror(errno))))
        }
        for suffix in ["-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
            _ = rename(path + suffix, aside + suffix)
        }
        return .success(aside)
    }

    /// Why the database runs in memory instead of its file (nil while on its file).
    package var degradedReason: String? { degradation.value?.reason }

    /// While degraded: opens the file again and, when it can be used now, writes into it what was
    /// kept in memory (alert changes, acknowledgements, flights) and goes on with the file. Nil
    /// when nothing changed (not degraded, or still unusable); else what to say.
    package func retry() -> String? {
        guard let (_, memory) = degradation.value else { return nil }
        let fileWriter: SQLiteConnection, fileReader: SQLiteConnection
        do throws(OpenFailure) { (fileWriter, fileReader) = try Self.connect(path) } catch { return nil }
        // Under the writer's lock: nothing is written to memory between the copy and the switch.
        let result: Result<(alerts: Int, flights: Int), any Error> = writer.withLock { current in
            do {
                let copied = try Self.copy(from: memory, into: fileWriter)
                current = fileWriter
                return .success(copied)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let copied):
            reader.withLock { $0 = fileReader }
            degradation.set(nil)
            return "database \(path): usable again: the alert log and logbook are written to it again (\(copied.alerts) alert change(s) and \(copied.flights) flight(s) kept in memory meanwhile were written)"
        case .failure(let error):
            return "database \(path): still not usable: \(Self.explain(error))"
        }
    }

    /// Appends the alert changes, acknowledgements and flights of the in-memory database `memory`
    /// to the file's, in one transaction (flights get new ids; their parts follow them).
    private static func copy(from memory: String, into db: SQLiteConnection) throws -> (alerts: Int, flights: Int) {
        try db.execute("ATTACH DATABASE ? AS degraded", [memory])
        defer { try? db.execute("DETACH DATABASE degraded") }
        return try transaction(db) {
            try db.execute("""
                INSERT OR IGNORE INTO main.alert_event (alert_id, event, kind, level, subject, time, message, json, event_id)
                SELECT alert_id, event, kind, level, subject, time, message, json, event_id FROM degraded.alert_event ORDER BY rowid
                """)
            let alerts = db.changes
            try db.execute("INSERT INTO main.alert_ack (target, time) SELECT target, time FROM degraded.alert_ack ORDER BY rowid")
            let flights = try db.rows("SELECT id FROM degraded.flight ORDER BY id").compactMap { $0.int64("id") }
            // Each part table's columns but the flight's id, read once.
            let parts = try ["flight_alert", "flight_encounter", "flight_airspace"].map { table in
                (table, try db.rows("SELECT name FROM pragma_table_info('\(table)') WHERE name != 'flight_id'").compactMap { $0.string("name") }
                    .map { "\"\($0)\"" }.joined(separator: ", "))
            }
            for old in flights {
                try db.execute("""
                    INSERT INTO main.flight (start, off_block, takeoff, landing, on_block, departure, arrival, distance_nm, max_altitude_ft,
                        max_ground_speed_kt, source, points, track, display_track, uid, gateway)
                    SELECT start, off_block, takeoff, landing, on_block, departure, arrival, distance_nm, max_altitude_ft,
                        max_ground_speed_kt, source, points, track, display_track, uid, gateway FROM degraded.flight WHERE id = ?
                    """, [old])
                let new = db.lastInsertedRowID
                for (table, columns) in parts {
                    try db.execute("INSERT INTO main.\(table) (flight_id, \(columns)) SELECT ?, \(columns) FROM degraded.\(table) WHERE flight_id = ? ORDER BY rowid",
                                   [new, old])
                }
            }
            return (alerts, flights.count)
        }
    }

    /// Records a start of the gateway and returns its number (`AlertEventIDs.boot`): a row of
    /// `gateway_boot`. While degraded (in memory) the number is the start's time in milliseconds,
    /// far above any row's, so the ids of events kept in memory never meet the file's when
    /// `retry` copies them in.
    package func startBoot(time: Double, version: String) -> Int64 {
        if degradation.value != nil { return Int64(time * 1000) }
        do {
            return try write { db in
                try db.execute("INSERT INTO gateway_boot (time, version) VALUES (?, ?)", [time, version])
                return db.lastInsertedRowID
            }
        } catch {
            return Int64(time * 1000)
        }
    }

    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE` … `COMMIT`; rolled back when it
    /// throws, so nothing half-written is ever kept).
    package func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writer.withLock { db in try Self.transaction(db) { try body(db) } }
    }

    /// `body` in one write transaction on `db`: committed when it returns, rolled back when it throws.
    private static func transaction<T>(_ db: SQLiteConnection, _ body: () throws -> T) throws -> T {
        try db.execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try db.execute("COMMIT")
            return result
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` on the write connection outside a transaction (PRAGMAs, checkpoints).
    package func writeWithoutTransaction<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writer.withLock { try body($0) }
    }

    /// Runs `body` with the read connection, in one read transaction (a consistent view).
    package func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try reader.withLock { db in
            try db.execute("BEGIN")
            defer { try? db.execute("COMMIT") }
            return try body(db)
        }
    }

    /// Closes the database (checkpointing the WAL into the main file). Called on shutdown; the
    /// value must not be used afterwards.
    package func close() throws(GatewayError) {
        do {
            try writer.withLock { try $0.executeScript("PRAGMA wal_checkpoint(TRUNCATE)") }
        } catch {
            throw GatewayError.database(path: path, reason: GatewayDatabase.explain(error))
        }
    }

    package static func explain(_ error: any Error) -> String {
        if let e = error as? OpenFailure { return e.reason }
        if let e = error as? SQLiteError {
            switch e.primaryCode {
            case SQLITE_READONLY: return "the database is read-only (check its permissions and its folder's)"
            case SQLITE_FULL: return "the disk is full"
            case SQLITE_CANTOPEN: return "cannot open the file (missing folder or no permission)"
            case SQLITE_NOTADB, SQLITE_CORRUPT: return "the file is not a valid SQLite database (corrupt, or another kind of file)"
            case SQLITE_BUSY, SQLITE_LOCKED: return "the database is locked by another process"
            default: return e.description
            }
        }
        return "\(error)"
    }

    /// One schema step: an id, kept once applied, and the statements that make it.
    package struct Migration: Sendable {
        /// Kept in `grdb_migrations` (the table the first versions, built on GRDB, used).
        package var id: String
        /// The schema script.
        package var sql: String
    }

    /// Every schema version, in order. Append; never edit one already released.
    static let migrations: [Migration] = [
        Migration(id: "v1-alert-log", sql: """
            CREATE TABLE "alert_event" ("rowid" INTEGER PRIMARY KEY AUTOINCREMENT, "alert_id" TEXT NOT NULL,
                "event" TEXT NOT NULL CHECK ("event" IN ('raised', 'updated', 'cleared')),
                "kind" TEXT NOT NULL CHECK ("kind" IN ('traffic', 'airspace')),
                "level" TEXT NOT NULL CHECK ("level" IN ('advisory', 'caution', 'warning')),
                "subject" TEXT NOT NULL, "time" DOUBLE NOT NULL, "message" TEXT NOT NULL, "json" TEXT NOT NULL);
            CREATE INDEX "alert_event_on_alert_id" ON "alert_event"("alert_id");
            CREATE INDEX "alert_event_on_time" ON "alert_event"("time");
            """),
        Migration(id: "v2-notams", sql: """
            CREATE TABLE notam (
                rid INTEGER PRIMARY KEY AUTOINCREMENT,
                key TEXT NOT NULL UNIQUE,
                id TEXT NOT NULL,
                number TEXT,
                location TEXT,
                severity TEXT NOT NULL,
                start REAL,
                "end" REAL,
                sources TEXT NOT NULL,
                updated REAL NOT NULL,
                hash TEXT NOT NULL,
                json TEXT NOT NULL
            );
            CREATE INDEX notam_number ON notam(number);
            CREATE VIRTUAL TABLE notam_rtree USING rtree(rid, min_lat, max_lat, min_lon, max_lon);
            CREATE TABLE notam_change (
                rowid INTEGER PRIMARY KEY AUTOINCREMENT,
                time REAL NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('new', 'modified', 'expired', 'cancelled')),
                key TEXT NOT NULL,
                number TEXT,
                location TEXT,
                summary TEXT NOT NULL,
                read INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX notam_change_time ON notam_change(time);
            CREATE TABLE notam_refresh (source TEXT PRIMARY KEY, time REAL NOT NULL, count INTEGER NOT NULL);
            """),
        Migration(id: "v3-alert-ack", sql: """
            CREATE TABLE alert_ack (rowid INTEGER PRIMARY KEY AUTOINCREMENT, target TEXT NOT NULL, time REAL NOT NULL)
            """),
        // The logbook (issue 23): one row a flight, its track packed (LogbookStore.pack), and what happened on it.
        Migration(id: "v4-logbook", sql: """
            CREATE TABLE flight (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                start REAL NOT NULL,
                off_block REAL NOT NULL,
                takeoff REAL,
                landing REAL,
                on_block REAL NOT NULL CHECK (on_block >= off_block),
                departure TEXT,
                arrival TEXT,
                distance_nm REAL NOT NULL CHECK (distance_nm >= 0),
                max_altitude_ft REAL,
                max_ground_speed_kt REAL NOT NULL,
                source TEXT NOT NULL,
                points INTEGER NOT NULL,
                track BLOB NOT NULL,
                display_track BLOB NOT NULL
            );
            CREATE INDEX flight_start ON flight(start);
            CREATE TABLE flight_alert (
                flight_id INTEGER NOT NULL REFERENCES flight(id) ON DELETE CASCADE,
                time REAL NOT NULL,
                alert_id TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('traffic', 'airspace')),
                level TEXT NOT NULL CHECK (level IN ('advisory', 'caution', 'warning')),
                subject TEXT NOT NULL,
                message TEXT NOT NULL,
                lat REAL, lon REAL, altitude_ft REAL
            );
            CREATE INDEX flight_alert_flight ON flight_alert(flight_id);
            CREATE TABLE flight_encounter (
                flight_id INTEGER NOT NULL REFERENCES flight(id) ON DELETE CASCADE,
                subject TEXT NOT NULL,
                callsign TEXT,
                time REAL NOT NULL,
                range_nm REAL NOT NULL CHECK (range_nm >= 0),
                vertical_ft INTEGER,
                lat REAL NOT NULL, lon REAL NOT NULL, altitude_ft INTEGER,
                own_lat REAL NOT NULL, own_lon REAL NOT NULL,
                track BLOB NOT NULL
            );
            CREATE INDEX flight_encounter_flight ON flight_encounter(flight_id);
            CREATE TABLE flight_airspace (
                flight_id INTEGER NOT NULL REFERENCES flight(id) ON DELETE CASCADE,
                subject TEXT NOT NULL,
                name TEXT NOT NULL,
                kind TEXT,
                entered INTEGER NOT NULL CHECK (entered IN (0, 1)),
                closest_nm REAL NOT NULL,
                level TEXT NOT NULL CHECK (level IN ('advisory', 'caution', 'warning')),
                time REAL NOT NULL,
                lat REAL, lon REAL
            );
            CREATE INDEX flight_airspace_flight ON flight_airspace(flight_id);
            """),
        // Weather fetched before the flight (issue 42): one row a report, kept until it expires;
        // each source's last good refresh.
        Migration(id: "v5-weather", sql: """
            CREATE TABLE weather_report (
                key TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                station TEXT,
                time REAL NOT NULL,
                expires REAL NOT NULL,
                received REAL NOT NULL,
                source TEXT NOT NULL,
                text TEXT NOT NULL,
                lat REAL, lon REAL,
                geometry TEXT
            );
            CREATE INDEX weather_report_kind ON weather_report(kind, station);
            CREATE TABLE weather_refresh (product TEXT PRIMARY KEY, time REAL NOT NULL, count INTEGER NOT NULL);
            """),
        // A club's fleet over MQTT (issue 43). The gateway's starts (`boot`, the first half of an
        // alert event's stable id) and each event's id; a flight's stable id (its start, UTC) and,
        // in a ground station's logbook, the gateway that flew it. What a broker acknowledged:
        // the alert log's rows up to a cursor, the flights by id (`stream` names the broker and
        // the fleet id, so another broker gets the history again). The ground station's own
        // tables: each gateway's last status and every alert event, once.
        Migration(id: "v6-fleet", sql: """
            CREATE TABLE gateway_boot (boot INTEGER PRIMARY KEY AUTOINCREMENT, time REAL NOT NULL, version TEXT NOT NULL);
            ALTER TABLE alert_event ADD COLUMN event_id TEXT;
            CREATE UNIQUE INDEX alert_event_on_event_id ON alert_event(event_id) WHERE event_id IS NOT NULL;
            ALTER TABLE flight ADD COLUMN uid TEXT;
            ALTER TABLE flight ADD COLUMN gateway TEXT;
            UPDATE flight SET uid = strftime('%Y%m%dT%H%M%SZ', CAST(start AS INTEGER), 'unixepoch');
            CREATE INDEX flight_uid ON flight(uid);
            CREATE TABLE fleet_cursor (stream TEXT PRIMARY KEY, after_rowid INTEGER NOT NULL, time REAL NOT NULL);
            CREATE TABLE fleet_flight_sent (stream TEXT NOT NULL, uid TEXT NOT NULL, points INTEGER NOT NULL, time REAL NOT NULL,
                PRIMARY KEY (stream, uid));
            CREATE TABLE fleet_gateway (id TEXT PRIMARY KEY, online INTEGER NOT NULL, reason TEXT, version TEXT,
                last_contact REAL NOT NULL, ownship TEXT, ownship_time REAL, targets INTEGER NOT NULL DEFAULT 0, last_alert TEXT);
            CREATE TABLE fleet_event (rowid INTEGER PRIMARY KEY AUTOINCREMENT, gateway TEXT NOT NULL, event_id TEXT NOT NULL,
                received REAL NOT NULL, json TEXT NOT NULL, UNIQUE (gateway, event_id));
            """),
        // Notifications (issue 54): each written once (`notify_message`, its stable id), with a row
        // per target until that target has it (`notify_delivery`); the identities of what was
        // notified (a NOTAM change, a SIGMET), so nothing is said twice, ever; each place's first
        // refresh (the baseline, which says nothing); the gateway's open episodes (a silent
        // receiver) across restarts; what the outbox's bounds dropped.
        Migration(id: "v7-notify", sql: """
            CREATE TABLE notify_message (rowid INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
                created REAL NOT NULL, json TEXT NOT NULL);
            CREATE TABLE notify_delivery (message INTEGER NOT NULL, target TEXT NOT NULL, label TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')), tries INTEGER NOT NULL DEFAULT 0,
                next_try REAL NOT NULL, last_error TEXT, done REAL, PRIMARY KEY (message, target));
            CREATE INDEX notify_delivery_state ON notify_delivery(state, target, message);
            CREATE TABLE notify_seen (identity TEXT PRIMARY KEY, time REAL NOT NULL);
            CREATE TABLE notify_place (place TEXT PRIMARY KEY, time REAL NOT NULL);
            CREATE TABLE notify_episode (name TEXT PRIMARY KEY, since REAL NOT NULL, detail TEXT NOT NULL);
            CREATE TABLE notify_counter (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
            """),
    ]

    /// Applies the migrations not yet applied, each in its own transaction.
    static func migrate(_ db: SQLiteConnection) throws {
        try db.executeScript("CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        let applied = Set(try db.rows("SELECT identifier FROM grdb_migrations").compactMap { $0.string("identifier") })
        let known = Set(migrations.map(\.id))
        if let unknown = applied.subtracting(known).sorted().first {
            throw SQLiteError(code: SQLITE_ERROR, message: "made by a newer gatewayd (schema step \(unknown) is unknown to this one); upgrade gatewayd", statement: nil)
        }
        for m in migrations where !applied.contains(m.id) {
            try transaction(db) {
                try db.executeScript(m.sql)
                try db.execute("INSERT INTO grdb_migrations (identifier) VALUES (?)", [m.id])
            }
        }
    }
}
