import GatewaySupport
import GatewayRecords

/// The weather kept for the flight, in the gateway's SQLite database (`weather_report`): each
/// report once (by `WeatherRecord.key`), kept until it expires. A refresh adds and updates; it
/// never removes what a reply left out (an empty or partial reply must not wipe what the Pi took
/// on the ground), and a failed one changes nothing. Each product's last good refresh is kept.
package struct WeatherStore: Sendable {
    /// The database.
    package let database: GatewayDatabase

    /// A store in `database`.
    package init(database: GatewayDatabase) { self.database = database }

    /// What a refresh did.
    package struct Refresh: Sendable, Equatable {
        /// Reports new to the store.
        package var added = 0
        /// Reports whose text changed.
        package var updated = 0
        /// Expired reports removed.
        package var expired = 0
    }

    /// Stores `records` of `product` fetched at `time` (one transaction) and removes the reports
    /// expired by then; an empty `records` is refused (kept what was stored).
    @discardableResult
    package func refresh(product: String, records: [WeatherRecord], at time: Double) throws(GatewayError) -> Refresh {
        guard !records.isEmpty else {
            throw GatewayError.upstream(source: product, reason: "returned no reports: kept the \((try? count()) ?? 0) stored ones (an empty reply is never taken as 'no weather')")
        }
        do {
            return try database.write { db -> Refresh in
                var result = Refresh()
                for r in records {
                    let key = r.key
                    let old = try db.row("SELECT text FROM weather_report WHERE key = ?", [key])
                    if old == nil { result.added += 1 } else if old?.string("text") != r.text { result.updated += 1 }
                    try db.execute("""
                        INSERT INTO weather_report (key, kind, station, time, expires, received, source, text, lat, lon, geometry)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT(key) DO UPDATE SET expires = excluded.expires, received = excluded.received, text = excluded.text,
                            lat = excluded.lat, lon = excluded.lon, geometry = excluded.geometry
                        """, [key, r.kind.rawValue, r.station, r.time, r.expires, r.received, r.source, r.text, r.latitude, r.longitude,
                              r.outline.isEmpty ? nil : JSONWriter.array(r.outline.map { "[\(JSONWriter.format($0[0], decimals: 5)),\(JSONWriter.format($0[1], decimals: 5))]" })])
                }
                result.expired = try Self.prune(db, at: time)
                try db.execute("INSERT INTO weather_refresh (product, time, count) VALUES (?, ?, ?) ON CONFLICT(product) DO UPDATE SET time = excluded.time, count = excluded.count",
                               [product, time, records.count])
                return result
            }
        } catch {
            throw GatewayError.database(path: database.path, reason: "storing the weather: \(error)")
        }
    }

    private static func prune(_ db: SQLiteConnection, at time: Double) throws -> Int {
        let n = try db.row("SELECT count(*) AS n FROM weather_report WHERE expires < ?", [time])?.int64("n") ?? 0
        try db.execute("DELETE FROM weather_report WHERE expires < ?", [time])
        return Int(n)
    }

    /// Reports stored.
    package func count() throws(GatewayError) -> Int {
        do {
            return try database.read { Int(try $0.row("SELECT count(*) AS n FROM weather_report")?.int64("n") ?? 0) }
        } catch {
            throw GatewayError.database(path: database.path, reason: "reading the weather: \(error)")
        }
    }

    /// Every report not expired at `time`, newest first within each kind and station.
    package func all(at time: Double) throws(GatewayError) -> [WeatherRecord] {
        do {
            return try database.read { db in
                try db.rows("SELECT * FROM weather_report WHERE expires >= ? ORDER BY kind, station, time DESC", [time]).compactMap { row in
                    guard let kind = row.string("kind").flatMap(WeatherRecord.Kind.init(rawValue:)), let t = row.double("time") else { return nil }
                    var outline: [[Double]] = []
                    if let g = row.string("geometry"), let points = try? JSONReader.value(Array(g.utf8)) as? [Any] {
                        outline = points.compactMap { ($0 as? [Any])?.compactMap { $0 as? Double } }.filter { $0.count == 2 }
                    }
                    return WeatherRecord(kind: kind, station: row.string("station"), time: t, expires: row.double("expires"),
                                         received: row.double("received") ?? t, source: row.string("source") ?? "?", text: row.string("text") ?? "",
                                         latitude: row.double("lat"), longitude: row.double("lon"), outline: outline)
                }
            }
        } catch {
            throw GatewayError.database(path: database.path, reason: "reading the weather: \(error)")
        }
    }

    /// Each product's last good refresh.
    package func refreshes() throws(GatewayError) -> [String: (time: Double, count: Int)] {
        do {
            return try database.read { db in
                var out: [String: (Double, Int)] = [:]
                for row in try db.rows("SELECT product, time, count FROM weather_refresh") {
                    if let p = row.string("product"), let t = row.double("time") { out[p] = (t, Int(row.int64("count") ?? 0)) }
                }
                return out
            }
        } catch {
            throw GatewayError.database(path: database.path, reason: "reading the weather refreshes: \(error)")
        }
    }
}
