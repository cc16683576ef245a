import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayRecords
@testable import GatewayNotams

/// Issue 40, items 6 and 10: numbers from outside (a stored NOTAM's times, a radius or width in
/// NOTAM text) never reach a conversion that traps, nor become NaN geometry.
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct TotalConversionTests {
    /// Item 6: a time of 1e308, -1e308, infinity or NaN is written, clamped, not trapped on
    /// (it crashed `notams list`, `notams show` and `/api/notams` with SIGILL).
    @Test func timesOutOfRangeAreWritten() {
        #expect(Timestamp.iso8601(1e308) == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp.iso8601(-1e308) == "0000-01-01T00:00:00Z")
        #expect(Timestamp.iso8601(.infinity) == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp.iso8601(.nan) == "1970-01-01T00:00:00Z")
        #expect(Timestamp.timeOfDay(1e308) == "23:59:59")
        #expect(Timestamp.iso8601(1_778_940_000) == "2026-05-16T14:00:00Z")  // in range: unchanged
    }

    /// Item 6 through the commands: a stored NOTAM whose start and end are ±1e308.
    @Test func notamCommandsReadAStoredNotamWithAbsurdTimes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-total-\(UUID())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let database = dir + "/g.sqlite"
        func run(_ arguments: [String]) throws -> (Int32, String) {
            let r = try runGatewayd(arguments + ["--database", database])
            return (r.status, r.output)
        }
        #expect(try run(["notams", "import", fixtures.appendingPathComponent("notams-demo.json").path]).0 == 0)
        let db = try GatewayDatabase(path: database)
        let json = try #require(try db.read { try $0.row("SELECT json FROM notam WHERE key = 'FDC:6/2174'")?.string("json") })
        var object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        object["start"] = 1e308
        object["end"] = -1e308
        let absurd = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        try db.write { try $0.execute("UPDATE notam SET json = ?, start = 1e308, \"end\" = -1e308 WHERE key = 'FDC:6/2174'", [absurd]) }
        try db.close()
        let list = try run(["notams", "list"])
        #expect(list.0 == 0 && list.1.contains("FDC:6/2174") && list.1.contains("9999-12-31"), "\(list.1)")
        let show = try run(["notams", "show", "6/2174"])
        #expect(show.0 == 0 && show.1.contains("6/2174"), "\(show.1)")
        #expect(try run(["notams", "list", "--json"]).0 == 0)
        #expect(try run(["notams", "list", "--active"]).0 == 0)
    }

    /// Item 10: a corridor width or arc radius too large to be a number ("1E999" written out)
    /// gives no area from that part, never NaN points stored as 0, 0 (which lost the corridor
    /// and gave a false "Inside TFR" on the demo route).
    @Test func infiniteWidthsAndRadiiGiveNoNaNGeometry() {
        let huge = String(repeating: "9", count: 400)
        #expect(Double(huge) == .infinity)
        let corridor = "AN AREA DEFINED AS \(huge)NM EITHER SIDE OF A LINE FM 4500N12300W TO 4510N12310W SFC-400FT AGL"
        let arc = "4450N12310W TO 4450N12250W THEN CLOCKWISE ON A \(huge)NM ARC CENTERED ON 4455N12300W TO 4500N12310W TO 4450N12310W"
        for text in [corridor, arc] {
            let g = NotamTextGeometry.geometry(in: text)
            let numbers = (g?.center ?? []) + (g?.polygon ?? []).flatMap { $0 } + (g?.parts ?? []).flatMap { $0.flatMap { $0.flatMap { $0 } } }
            let finite = numbers.allSatisfy { $0.isFinite }
            #expect(finite, "\(text.prefix(40)): NaN in \(String(describing: g))")
            #expect(!(g?.polygon ?? []).contains { $0 == [0, 0] } && g?.center != [0, 0])
        }
        // The same with a real width and radius: areas as before.
        let real = NotamTextGeometry.geometry(in: corridor.replacingAll(huge, with: "0.2"))
        #expect((real?.polygon?.count ?? 0) >= 4, "a 0.2 NM corridor: \(String(describing: real))")
    }
}
