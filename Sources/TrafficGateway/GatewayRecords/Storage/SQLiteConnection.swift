import GatewaySupport
import CSQLite

/// A value SQLite stores: its five storage classes.
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A Swift value that binds to a statement's `?`.
package protocol SQLBindable {
    /// The value bound.
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLBindable { package var sqlValue: SQLValue { self } }
extension Int: SQLBindable { package var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Int64: SQLBindable { package var sqlValue: SQLValue { .integer(self) } }
extension Double: SQLBindable { package var sqlValue: SQLValue { .real(self) } }
extension String: SQLBindable { package var sqlValue: SQLValue { .text(self) } }
extension Bool: SQLBindable { package var sqlValue: SQLValue { .integer(self ? 1 : 0) } }
extension Array: SQLBindable where Element == UInt8 { package var sqlValue: SQLValue { .blob(self) } }
extension Optional: SQLBindable where Wrapped: SQLBindable { package var sqlValue: SQLValue { self?.sqlValue ?? .null } }

/// One result row, by column name.
package struct SQLRow: Sendable {
    let columns: [String]
    let values: [SQLValue]

    /// The column's value; `.null` when the row has no such column.
    package subscript(_ column: String) -> SQLValue {
        guard let i = columns.firstIndex(of: column) else { return .null }
        return values[i]
    }

    /// Text (nil for NULL; numbers are not converted).
    package func string(_ column: String) -> String? {
        if case .text(let s) = self[column] { return s }
        return nil
    }

    /// A real (an integer converted).
    package func double(_ column: String) -> Double? {
        switch self[column] {
        case .real(let d): d
        case .integer(let i): Double(i)
        default: nil
        }
    }

    /// An integer (a real with no fraction converted).
    package func int64(_ column: String) -> Int64? {
        switch self[column] {
        case .integer(let i): i
        case .real(let d) where d == d.rounded() && abs(d) < 9.2e18: Int64(d)
        default: nil
        }
    }

    /// An integer as `Int`.
    package func int(_ column: String) -> Int? { int64(column).map { Int($0) } }

    /// Bytes.
    package func blob(_ column: String) -> [UInt8]? {
        if case .blob(let b) = self[column] { return b }
        return nil
    }
}

/// What SQLite refused: its result code and message, and the statement's first words.
package struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code.
    package var code: Int32
    /// SQLite's message.
    package var message: String
    /// The start of the statement, when one was running.
    package var statement: String?

    /// The primary result code (`SQLITE_FULL`, …).
    package var primaryCode: Int32 { code & 0xFF }

    /// One line.
    package var description: String {
        statement.map { "\(message) (in \($0))" } ?? message
    }
}

/// One SQLite connection with its prepared statements kept for reuse. Not thread-safe: the
/// database holds each connection behind a lock and lends it to one closure at a time.
package final class SQLiteConnection {
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]
    /// The file path.
    package let path: String

    /// Opens (creating when `create`) the database file at `path`; with `uri`, `path` may be a
    /// `file:` URI (an in-memory database shared by name, and `ATTACH` of one).
    init(path: String, create: Bool, uri: Bool = false) throws(SQLiteError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX | (uri ? SQLITE_OPEN_URI : 0)
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: message, statement: nil)
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5000)
    }

    deinit {
        for s in statements.values { sqlite3_finalize(s) }
        sqlite3_close_v2(handle)
    }

    /// The rowid of the last INSERT.
    package var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last statement.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs one statement, discarding any rows.
    package func execute(_ sql: String, _ arguments: [any SQLBindable] = []) throws {
        let s = try prepared(sql, arguments)
        defer { sqlite3_reset(s) }
        while try step(s, sql) {}
    }

    /// Runs several statements separated by semicolons (schema scripts; no arguments).
    package func executeScript(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: rc, message: text, statement: Self.head(sql))
        }
    }

    /// Every row of a query.
    package func rows(_ sql: String, _ arguments: [any SQLBindable] = []) throws -> [SQLRow] {
        var out: [SQLRow] = []
        try forEachRow(sql, arguments) { out.append($0) }
        return out
    }

    /// The first row of a query, if any.
    package func row(_ sql: String, _ arguments: [any SQLBindable] = []) throws -> SQLRow? {
        let s = try prepared(sql, arguments)
        defer { sqlite3_reset(s) }
        return try step(s, sql) ? Self.row(s) : nil
    }

    /// Calls `body` with each row of a query, one at a time (constant memory).
    package func forEachRow(_ sql: String, _ arguments: [any SQLBindable] = [], _ body: (SQLRow) throws -> Void) throws {
        let s = try prepared(sql, arguments)
        defer { sqlite3_reset(s) }
        while try step(s, sql) { try body(Self.row(s)) }
    }

    // MARK: - Statements

    private func prepared(_ sql: String, _ arguments: [any SQLBindable]) throws(SQLiteError) -> OpaquePointer {
        let s: OpaquePointer
        if let cached = statements[sql] {
            s = cached
        } else {
            var made: OpaquePointer?
            let rc = sqlite3_prepare_v2(handle, sql, -1, &made, nil)
            guard rc == SQLITE_OK, let made else { throw error(rc, sql) }
            statements[sql] = made
            s = made
        }
        sqlite3_clear_bindings(s)
        let expected = Int(sqlite3_bind_parameter_count(s))
        guard expected == arguments.count else {
            throw SQLiteError(code: SQLITE_RANGE, message: "\(arguments.count) arguments for \(expected) parameters", statement: Self.head(sql))
        }
        for (i, a) in arguments.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch a.sqlValue {
            case .null: rc = sqlite3_bind_null(s, index)
            case .integer(let v): rc = sqlite3_bind_int64(s, index, v)
            case .real(let v): rc = sqlite3_bind_double(s, index, v)
            case .text(let v): rc = skygate_bind_text(s, index, v, -1)
            case .blob(let v): rc = v.withUnsafeBytes { skygate_bind_blob(s, index, $0.baseAddress, Int32($0.count)) }
            }
            guard rc == SQLITE_OK else { throw error(rc, sql) }
        }
        return s
    }

    /// Steps once: true with a row, false when done.
    private func step(_ s: OpaquePointer, _ sql: String) throws(SQLiteError) -> Bool {
        switch sqlite3_step(s) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let rc: throw error(rc, sql)
        }
    }

    private static func row(_ s: OpaquePointer) -> SQLRow {
        let n = sqlite3_column_count(s)
        var columns: [String] = []
        var values: [SQLValue] = []
        columns.reserveCapacity(Int(n))
        values.reserveCapacity(Int(n))
        for i in 0..<n {
            columns.append(String(cString: sqlite3_column_name(s, i)))
            switch sqlite3_column_type(s, i) {
            case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(s, i)))
            case SQLITE_FLOAT: values.append(.real(sqlite3_column_double(s, i)))
            case SQLITE_TEXT:
                let count = Int(sqlite3_column_bytes(s, i))
                let text = sqlite3_column_text(s, i).map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? ""
                values.append(.text(text))
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(s, i))
                let bytes = sqlite3_column_blob(s, i).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
                values.append(.blob(bytes))
            default: values.append(.null)
            }
        }
        return SQLRow(columns: columns, values: values)
    }

    private func error(_ rc: Int32, _ sql: String?) -> SQLiteError {
        SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)), statement: sql.map(Self.head))
    }

    private static func head(_ sql: String) -> String {
        let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" }).prefix(4)
        return words.joined(separator: " ")
    }
}
