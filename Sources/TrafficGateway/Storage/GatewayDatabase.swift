import Foundation
import GRDB

/// The gateway's SQLite database (WAL): the alert log now, NOTAMs and FIS-B products later.
/// The schema changes only through migrations.
public final class GatewayDatabase: Sendable {
    /// The GRDB connection pool.
    public let pool: DatabasePool
    /// The file path.
    public let path: String

    /// The default location: `$XDG_DATA_HOME/gatewayd/gateway.sqlite`, else `~/.local/share/gatewayd/`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/gatewayd/gateway.sqlite" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/share/gatewayd/gateway.sqlite"
    }

    /// Opens (creating if needed) the database at `path` and migrates it.
    public init(path: String) throws(GatewayError) {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw GatewayError.database(path: path, reason: "cannot create its folder \(directory): \(error.localizedDescription)")
            }
        }
        var config = Configuration()
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        config.busyMode = .timeout(5)
        do {
            pool = try DatabasePool(path: path, configuration: config)
            try Self.migrator.migrate(pool)
        } catch {
            throw GatewayError.database(path: path, reason: GatewayDatabase.explain(error))
        }
    }

    /// Closes the database (checkpointing the WAL into the main file). Called on shutdown; the
    /// value must not be used afterwards.
    public func close() throws(GatewayError) {
        do {
            try pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
            try pool.close()
        } catch {
            throw GatewayError.database(path: path, reason: GatewayDatabase.explain(error))
        }
    }

    static func explain(_ error: any Error) -> String {
        if let e = error as? DatabaseError {
            switch e.resultCode {
            case .SQLITE_READONLY: return "the database is read-only (check its permissions and its folder's)"
            case .SQLITE_FULL: return "the disk is full"
            case .SQLITE_CANTOPEN: return "cannot open the file (missing folder or no permission)"
            case .SQLITE_NOTADB, .SQLITE_CORRUPT: return "the file is not a valid SQLite database (corrupt, or another kind of file)"
            case .SQLITE_BUSY, .SQLITE_LOCKED: return "the database is locked by another process"
            default: return e.message ?? "\(e)"
            }
        }
        return "\(error)"
    }

    /// Every schema version, in order.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-alert-log") { db in
            try db.create(table: "alert_event") { t in
                t.autoIncrementedPrimaryKey("rowid")
                t.column("alert_id", .text).notNull().indexed()
                t.column("event", .text).notNull().check { ["raised", "updated", "cleared"].contains($0) }
                t.column("kind", .text).notNull().check { ["traffic", "airspace"].contains($0) }
                t.column("level", .text).notNull().check { ["advisory", "caution", "warning"].contains($0) }
                t.column("subject", .text).notNull()
                t.column("time", .double).notNull().indexed()
                t.column("message", .text).notNull()
                t.column("json", .text).notNull()
            }
        }
        migrator.registerMigration("v2-notams") { db in
            try db.execute(sql: """
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
                """)
        }
        migrator.registerMigration("v3-alert-ack") { db in
            try db.execute(sql: "CREATE TABLE alert_ack (rowid INTEGER PRIMARY KEY AUTOINCREMENT, target TEXT NOT NULL, time REAL NOT NULL)")
        }
        return migrator
    }
}

/// Errors a person can act on, naming what and where.
public enum GatewayError: Error, CustomStringConvertible, Equatable {
    /// The database could not be opened or written.
    case database(path: String, reason: String)
    /// A socket could not be set up.
    case socket(what: String, reason: String)
    /// A file could not be read or written.
    case file(path: String, reason: String)
    /// A user input (flag, argument) is invalid.
    case invalidInput(String)

    /// One sentence.
    public var description: String {
        switch self {
        case .database(let path, let reason): "database \(path): \(reason)"
        case .socket(let what, let reason): "\(what): \(reason)"
        case .file(let path, let reason): "\(path): \(reason)"
        case .invalidInput(let s): s
        }
    }
}
