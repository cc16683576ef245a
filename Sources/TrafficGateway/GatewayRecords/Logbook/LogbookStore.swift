import GatewaySupport
import GatewayDomain
import GDL90

/// The logbook in the gateway's SQLite database (schema step `v4-logbook`): one row a flight
/// with its one-second track packed in a blob, a simplified copy for drawing, and its alerts,
/// closest approaches and airspace in their own tables (deleted with the flight).
///
/// A flight is the same flight when it starts within `sameFlightSec` of one kept: saving it
/// again (a recording imported twice, the live logbook and the import of its own recording)
/// keeps the one with more track and never loses the other's row without a replacement.
package struct LogbookStore: Sendable {
    /// The database.
    package let database: GatewayDatabase
    /// Two flights starting this close (seconds) are one.
    package static let sameFlightSec = 60.0
    /// The display track keeps at most this many points.
    package static let displayPoints = 600

    /// A store on `database`.
    package init(database: GatewayDatabase) { self.database = database }

    /// What `save` did.
    package enum Saved: Sendable, Equatable {
        /// A new flight, with its id.
        case added(Int64)
        /// It replaced the same flight kept with a shorter track.
        case replaced(Int64)
        /// The same flight was kept already, with as much track.
        case alreadyKept(Int64)
    }

    /// Where a flight starts (epoch seconds): its takeoff, else its first track point, else off blocks.
    package static func start(of flight: LoggedFlight) -> Double { flight.takeoff ?? flight.track.first?.time ?? flight.offBlock }

    /// A flight's stable id: its start, UTC, as `yyyyMMdd'T'HHmmss'Z'`. The same samples give the
    /// same flight whatever drives them (`Logbook`), so the live logbook, an import of its
    /// recording into another database and a club's ground station all give it the same id.
    package static func uid(start: Double) -> String {
        Timestamp.compact(start)
    }

    /// Keeps `flight` (airports filled in by the caller), in one transaction. A ground station
    /// keeps each gateway's flights apart (`gateway`) under the id the gateway gave (`uid`).
    @discardableResult
    package func save(_ flight: LoggedFlight, gateway: String? = nil, uid: String? = nil) throws(GatewayError) -> Saved {
        let start = Self.start(of: flight)
        return try write { db in
            var replacing: Int64?
            var uid = uid ?? Self.uid(start: start)
            if let old = try db.row("""
                SELECT id, points, uid FROM flight WHERE start BETWEEN ? AND ? AND coalesce(gateway, '') = ? ORDER BY abs(start - ?) LIMIT 1
                """, [start - Self.sameFlightSec, start + Self.sameFlightSec, gateway ?? "", start]),
               let id = old.int64("id") {
                if (old.int("points") ?? 0) >= flight.track.count { return .alreadyKept(id) }
                replacing = id
                // The flight keeps the id it was first given.
                if let kept = old.string("uid") { uid = kept }
                try db.execute("DELETE FROM flight WHERE id = ?", [id])
            }
            try db.execute("""
                INSERT INTO flight (id, start, off_block, takeoff, landing, on_block, departure, arrival, distance_nm, max_altitude_ft,
                    max_ground_speed_kt, source, points, track, display_track, uid, gateway)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [replacing, start, flight.offBlock, flight.takeoff, flight.landing, flight.onBlock, flight.departure, flight.arrival,
                      flight.distanceNM, flight.maxAltitudeFt, flight.maxGroundSpeedKt, flight.source, flight.track.count,
                      Self.pack(flight.track), Self.pack(Self.simplified(flight.track)), uid, gateway])
            let id = db.lastInsertedRowID
            for a in flight.alerts {
                try db.execute("""
                    INSERT INTO flight_alert (flight_id, time, alert_id, kind, level, subject, message, lat, lon, altitude_ft)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [id, a.time, a.alertID, a.kind.rawValue, a.level.description, a.subject, a.message, a.position?.latitude,
                          a.position?.longitude, a.altitudeFt])
            }
            for e in flight.encounters {
                try db.execute("""
                    INSERT INTO flight_encounter (flight_id, subject, callsign, time, range_nm, vertical_ft, lat, lon, altitude_ft,
                        own_lat, own_lon, track) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [id, e.subject, e.callsign, e.time, e.rangeNM, e.verticalFt, e.position.latitude, e.position.longitude, e.altitudeFt,
                          e.ownshipPosition.latitude, e.ownshipPosition.longitude, Self.pack(e.track)])
            }
            for v in flight.airspace {
                try db.execute("""
                    INSERT INTO flight_airspace (flight_id, subject, name, kind, entered, closest_nm, level, time, lat, lon)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [id, v.subject, v.name, v.kind, v.entered, v.closestNM, v.level.description, v.time, v.position?.latitude,
                          v.position?.longitude])
            }
            return replacing == nil ? .added(id) : .replaced(id)
        }
    }

    /// One line of the flight list.
    package struct Summary: Sendable, Equatable {
        /// Database id (`flights show N`).
        package var id: Int64
        /// Off blocks, takeoff, landing, on blocks (epoch seconds).
        package var offBlock: Double, takeoff: Double?, landing: Double?, onBlock: Double
        /// Airports.
        package var departure: String?, arrival: String?
        /// Distance flown, NM; highest altitude, feet; highest ground speed, knots.
        package var distanceNM: Double, maxAltitudeFt: Double?, maxGroundSpeedKt: Double
        /// Alerts, closest approaches and airspace visits kept.
        package var alerts: Int, encounters: Int, airspace: Int
        /// The closest approach, NM.
        package var closestNM: Double?
        /// Where it came from.
        package var source: String
        /// The stable id (`uid(start:)`).
        package var uid: String = ""
        /// The gateway that flew it, in a ground station's logbook (nil on a gateway).
        package var gateway: String? = nil
        /// Track points kept (the fleet republishes a flight whose track grew).
        package var points: Int = 0
    }

    /// Every flight, oldest first.
    package func list() throws(GatewayError) -> [Summary] { try summaries() }

    /// The line of the flight `uid` (of `gateway`, in a ground station's logbook), nil when none.
    package func summary(uid: String, gateway: String? = nil) throws(GatewayError) -> Summary? {
        try summaries(where: "WHERE f.uid = ? AND coalesce(f.gateway, '') = ?", [uid, gateway ?? ""]).first
    }

    /// The lines of the flights `condition` selects, oldest first.
    private func summaries(where condition: String = "", _ arguments: [any SQLBindable] = []) throws(GatewayError) -> [Summary] {
        try read { db in
            try db.rows("""
                SELECT f.*, (SELECT count(*) FROM flight_alert a WHERE a.flight_id = f.id) AS alerts,
                    (SELECT count(*) FROM flight_encounter e WHERE e.flight_id = f.id) AS encounters,
                    (SELECT min(range_nm) FROM flight_encounter e WHERE e.flight_id = f.id) AS closest,
                    (SELECT count(*) FROM flight_airspace s WHERE s.flight_id = f.id) AS airspace
                FROM flight f \(condition) ORDER BY start, id
                """, arguments).map { r in
                Summary(id: r.int64("id") ?? 0, offBlock: r.double("off_block") ?? 0, takeoff: r.double("takeoff"), landing: r.double("landing"),
                        onBlock: r.double("on_block") ?? 0, departure: r.string("departure"), arrival: r.string("arrival"),
                        distanceNM: r.double("distance_nm") ?? 0, maxAltitudeFt: r.double("max_altitude_ft"),
                        maxGroundSpeedKt: r.double("max_ground_speed_kt") ?? 0, alerts: r.int("alerts") ?? 0, encounters: r.int("encounters") ?? 0,
                        airspace: r.int("airspace") ?? 0, closestNM: r.double("closest"), source: r.string("source") ?? "",
                        uid: r.string("uid") ?? Self.uid(start: r.double("start") ?? 0), gateway: r.string("gateway"), points: r.int("points") ?? 0)
            }
        }
    }

    /// Flight `id` whole, or nil when there is none. `display`: the simplified track instead of the 1 s one.
    package func flight(_ id: Int64, display: Bool = false) throws(GatewayError) -> LoggedFlight? {
        try read { db in
            guard let r = try db.row("SELECT * FROM flight WHERE id = ?", [id]) else { return nil }
            var f = LoggedFlight(
                id: id, offBlock: r.double("off_block") ?? 0, takeoff: r.double("takeoff"), landing: r.double("landing"),
                onBlock: r.double("on_block") ?? 0, departure: r.string("departure"), arrival: r.string("arrival"),
                distanceNM: r.double("distance_nm") ?? 0, maxAltitudeFt: r.double("max_altitude_ft"),
                maxGroundSpeedKt: r.double("max_ground_speed_kt") ?? 0,
                track: Self.unpackTrack(r.blob(display ? "display_track" : "track") ?? []), alerts: [], encounters: [], airspace: [],
                source: r.string("source") ?? "")
            f.alerts = try db.rows("SELECT * FROM flight_alert WHERE flight_id = ? ORDER BY time, alert_id", [id]).map { a in
                LoggedFlight.Alert(time: a.double("time") ?? 0, alertID: a.string("alert_id") ?? "", kind: AlertEvent.Kind(rawValue: a.string("kind") ?? "") ?? .traffic,
                                   level: AlertLevel(name: a.string("level") ?? "") ?? .advisory, subject: a.string("subject") ?? "",
                                   message: a.string("message") ?? "", position: Self.position(a, "lat", "lon"), altitudeFt: a.double("altitude_ft"))
            }
            f.encounters = try db.rows("SELECT * FROM flight_encounter WHERE flight_id = ? ORDER BY range_nm, time", [id]).map { e in
                LoggedFlight.Encounter(subject: e.string("subject") ?? "", callsign: e.string("callsign"), time: e.double("time") ?? 0,
                                       rangeNM: e.double("range_nm") ?? 0, verticalFt: e.int("vertical_ft"),
                                       position: Self.position(e, "lat", "lon") ?? Position(latitude: 0, longitude: 0), altitudeFt: e.int("altitude_ft"),
                                       ownshipPosition: Self.position(e, "own_lat", "own_lon") ?? Position(latitude: 0, longitude: 0),
                                       track: Self.unpackTargetTrack(e.blob("track") ?? []))
            }
            f.airspace = try db.rows("SELECT * FROM flight_airspace WHERE flight_id = ? ORDER BY time, subject", [id]).map { v in
                LoggedFlight.AirspaceVisit(subject: v.string("subject") ?? "", name: v.string("name") ?? "", kind: v.string("kind"),
                                           entered: (v.int("entered") ?? 0) != 0, closestNM: v.double("closest_nm") ?? 0,
                                           level: AlertLevel(name: v.string("level") ?? "") ?? .advisory, time: v.double("time") ?? 0,
                                           position: Self.position(v, "lat", "lon"))
            }
            return f
        }
    }

    /// Deletes flight `id` (with its alerts, encounters and airspace); false when there was none.
    @discardableResult
    package func delete(_ id: Int64) throws(GatewayError) -> Bool {
        try write { db in
            try db.execute("DELETE FROM flight WHERE id = ?", [id])
            return db.changes > 0
        }
    }

    private static func position(_ r: SQLRow, _ lat: String, _ lon: String) -> Position? {
        guard let a = r.double(lat), let o = r.double(lon) else { return nil }
        return Position(latitude: a, longitude: o)
    }

    private func write<T>(_ body: (SQLiteConnection) throws -> T) throws(GatewayError) -> T {
        do { return try database.write(body) } catch {
            throw GatewayError.database(path: database.path, reason: GatewayDatabase.explain(error))
        }
    }

    private func read<T>(_ body: (SQLiteConnection) throws -> T) throws(GatewayError) -> T {
        do { return try database.read(body) } catch {
            throw GatewayError.database(path: database.path, reason: GatewayDatabase.explain(error))
        }
    }

    // MARK: Packing

    /// The track for drawing: Douglas–Peucker on the local plane, the tolerance doubled from
    /// 10 m until at most `displayPoints` remain.
    package static func simplified(_ track: [LoggedFlight.TrackPoint]) -> [LoggedFlight.TrackPoint] {
        guard track.count > displayPoints else { return track }
        let plane = LocalPlane(origin: track[0].position)
        let points = track.map { plane.project($0.position) }
        var tolerance = 0.005
        var kept = RingSimplifier.keep(points, tolerance: tolerance)
        while kept.count > displayPoints {
            tolerance *= 2
            kept = RingSimplifier.keep(points, tolerance: tolerance)
        }
        return kept.map { track[$0] }
    }

    /// A track as bytes: 40 a point, little-endian (time, latitude, longitude as Float64; pressure
    /// and geometric altitude, ground speed, track as Float32, NaN for unknown).
    package static func pack(_ track: [LoggedFlight.TrackPoint]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(track.count * 40)
        for p in track {
            out.appendLE(p.time.bitPattern)
            out.appendLE(p.position.latitude.bitPattern)
            out.appendLE(p.position.longitude.bitPattern)
            for v in [p.pressureAltitudeFt, p.geometricAltitudeFt, p.groundSpeedKt, p.trackDeg] { out.appendLE(Float(v ?? .nan).bitPattern) }
        }
        return out
    }

    /// `pack` undone.
    package static func unpackTrack(_ bytes: [UInt8]) -> [LoggedFlight.TrackPoint] {
        var out: [LoggedFlight.TrackPoint] = []
        out.reserveCapacity(bytes.count / 40)
        var i = 0
        func f(_ at: Int) -> Double? { let v = Float(bitPattern: bytes.u32(at)); return v.isNaN ? nil : Double(v) }
        while i + 40 <= bytes.count {
            out.append(.init(time: Double(bitPattern: bytes.u64(i)),
                             position: Position(latitude: Double(bitPattern: bytes.u64(i + 8)), longitude: Double(bitPattern: bytes.u64(i + 16))),
                             pressureAltitudeFt: f(i + 24), geometricAltitudeFt: f(i + 28), groundSpeedKt: f(i + 32) ?? 0, trackDeg: f(i + 36)))
            i += 40
        }
        return out
    }

    /// A target's track as bytes: 28 a point (time, latitude, longitude as Float64; altitude as Int32, Int32.min unknown).
    package static func pack(_ track: [LoggedFlight.TargetPoint]) -> [UInt8] {
        var out: [UInt8] = []
        for p in track {
            out.appendLE(p.time.bitPattern)
            out.appendLE(p.position.latitude.bitPattern)
            out.appendLE(p.position.longitude.bitPattern)
            out.appendLE(UInt32(bitPattern: Int32(clamping: p.altitudeFt ?? Int(Int32.min))))
        }
        return out
    }

    /// `pack` of a target's track undone.
    package static func unpackTargetTrack(_ bytes: [UInt8]) -> [LoggedFlight.TargetPoint] {
        var out: [LoggedFlight.TargetPoint] = []
        var i = 0
        while i + 28 <= bytes.count {
            let alt = Int32(bitPattern: bytes.u32(i + 24))
            out.append(.init(time: Double(bitPattern: bytes.u64(i)),
                             position: Position(latitude: Double(bitPattern: bytes.u64(i + 8)), longitude: Double(bitPattern: bytes.u64(i + 16))),
                             altitudeFt: alt == Int32.min ? nil : Int(alt)))
            i += 28
        }
        return out
    }
}

extension [UInt8] {
    fileprivate mutating func appendLE<T: FixedWidthInteger>(_ v: T) {
        var x = v.littleEndian
        Swift.withUnsafeBytes(of: &x) { append(contentsOf: $0) }
    }

    fileprivate func u64(_ at: Int) -> UInt64 {
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(self[at + k]) << (8 * UInt64(k)) }
        return v
    }

    fileprivate func u32(_ at: Int) -> UInt32 {
        var v: UInt32 = 0
        for k in 0..<4 { v |= UInt32(self[at + k]) << (8 * UInt32(k)) }
        return v
    }
}
