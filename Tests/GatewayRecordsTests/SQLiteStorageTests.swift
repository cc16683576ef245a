import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayRecords
@testable import GatewayNotams

/// The gateway's own SQLite layer (Storage/SQLiteConnection.swift, which replaced GRDB): a
/// database written by the GRDB-based gatewayd opens with nothing lost, a failed write keeps
/// nothing, and a database from a newer version or a file that is not one is refused by name.
@Suite(.timeLimit(.minutes(5))) struct SQLiteStorageTests {
    func copy(_ fixture: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-sqlite-\(UUID())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/gateway.sqlite"
        try FileManager.default.copyItem(atPath: fixtures.appendingPathComponent(fixture).path, toPath: path)
        return path
    }

    /// fixtures/gateway-v3.sqlite was written by gatewayd 9b00a9c (GRDB 7.10): `notams import
    /// fixtures/notams-demo.json`, `replay fixtures/demo-flight.pcap --notams … --database`, and
    /// `alerts ack R-2503`. Its counts and values were read with Python's sqlite3.
    @Test func databaseWrittenThroughGRDBOpensWithEverythingKept() throws {
        let path = try copy("gateway-v3.sqlite")
        let database = try GatewayDatabase(path: path)
        let log = AlertLog(database: database)
        let events = try log.events()
        #expect(events.count == 20)
        #expect(events.first?.alertID == "airspace-FDC 6/2174-1778940090")
        #expect(events.first?.event == "raised")
        #expect(events.first?.time == 1778940090.03)
        #expect(events.map(\.json.utf8.count).reduce(0, +) == 7912)  // sum(length(cast(json AS BLOB)))
        #expect(events[1].alertID == "traffic-c0ffee-1778940114" && events[2].event == "updated")
        #expect(try log.acknowledgements(after: 0).map(\.1) == ["R-2503"])

        let store = NotamStore(database: database)
        #expect(try store.all().map(NotamStore.key) == ["FDC:6/2174", "SLE:05/012", "SLE:05/013", "UBG:12/001", "ZSE:A0123/26"])
        // The R*Tree came through: the TFR's box is found around its centre.
        let tfr = try store.notams(minLat: 44.8, maxLat: 45.0, minLon: -123.2, maxLon: -122.9).map(NotamStore.key)
        #expect(tfr.contains("FDC:6/2174"))

        // Writable, and the schema steps are the same ids GRDB kept.
        try log.acknowledge("R-2504", at: 1_778_940_200)
        #expect(try log.acknowledgements(after: 0).map(\.1) == ["R-2503", "R-2504"])
        let steps = try database.read { try $0.rows("SELECT identifier FROM grdb_migrations ORDER BY identifier").compactMap { $0.string("identifier") } }
        #expect(steps == GatewayDatabase.migrations.map(\.id).sorted())
        try database.close()
    }

    @Test func aThrowingWriteKeepsNothing() throws {
        let path = try copy("gateway-v3.sqlite")
        let database = try GatewayDatabase(path: path)
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try database.write { db in
                try db.execute("INSERT INTO alert_ack (target, time) VALUES (?, ?)", ["R-9", 1.0])
                throw Abort()
            }
        }
        #expect(try AlertLog(database: database).acknowledgements(after: 0).map(\.1) == ["R-2503"])
    }

    @Test func valuesRoundTripWithTheirTypes() throws {
        let path = try copy("gateway-v3.sqlite")
        let database = try GatewayDatabase(path: path)
        let row = try database.write { db -> SQLRow? in
            try db.executeScript("CREATE TEMP TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT)")
            let text: String? = "Zürich ✈ \"quoted\""
            try db.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", [Int64.max, -0.1, text, [UInt8]([0, 0x7E, 0xFF]), String?.none])
            return try db.row("SELECT * FROM t")
        }
        #expect(row?.int64("i") == Int64.max)
        #expect(row?.double("r") == -0.1)
        #expect(row?.string("s") == "Zürich ✈ \"quoted\"")
        #expect(row?.blob("b") == [0, 0x7E, 0xFF])
        #expect(row?["n"] == .null)
        #expect(row?["missing"] == .null)
    }

    @Test func aNewerSchemaIsRefusedByName() throws {
        let path = try copy("gateway-v3.sqlite")
        do {
            let database = try GatewayDatabase(path: path)
            try database.write { try $0.execute("INSERT INTO grdb_migrations (identifier) VALUES (?)", ["v99-future"]) }
            try database.close()
        }
        #expect(throws: GatewayError.database(path: path, reason: "made by a newer gatewayd (schema step v99-future is unknown to this one); upgrade gatewayd")) {
            _ = try GatewayDatabase(path: path)
        }
    }

    @Test func aFileThatIsNotADatabaseIsNamed() throws {
        let path = try copy("demo-flight.pcap")
        #expect(throws: GatewayError.database(path: path, reason: "the file is not a valid SQLite database (corrupt, or another kind of file)")) {
            _ = try GatewayDatabase(path: path)
        }
    }
}
