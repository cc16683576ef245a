import Foundation
import Testing
import GatewayTestSupport
@testable import GatewayCaptures
@testable import GatewayRecords

/// Issue 40, item 5: one datagram dated a year ahead made `flights import` skip the rest of the
/// capture (kept as "overlapping") and keep an 8,760-hour flight of distance 0, losing the
/// 0.08 NM encounter; a clock stepped back an hour lost half the flight. The logbook, like the
/// alerts, survives clock jumps.
@Suite(.timeLimit(.minutes(5))) struct ImportClockJumpTests {
    /// The demo flight's datagrams (a head-on encounter to 0.08 NM with N825V, ab4549).
    func demo() throws -> [CapturedDatagram] {
        try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.pcap").path).datagrams
    }

    /// Imports `datagrams` written as one pcap into a fresh logbook.
    func importing(_ datagrams: [(time: Double, bytes: [UInt8])]) throws -> (FlightImport.Report, LogbookStore) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-jump-\(UUID())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data(PcapWriter.pcap(datagrams)).write(to: URL(fileURLWithPath: dir + "/flight.pcap"))
        let store = LogbookStore(database: try GatewayDatabase(path: dir + "/g.sqlite"))
        var logbook = Logbook(store: store, airports: AirportTable.located(), source: "test")
        return (try FlightImport.run([dir + "/flight.pcap"], into: &logbook), store)
    }

    @Test func aLoneDatagramDatedAYearAheadIsSkipped() throws {
        let source = try demo()
        var datagrams = source.map { (time: $0.timestamp!, bytes: $0.bytes) }
        let clean = try importing(datagrams)
        datagrams[40].time += 365 * 86_400
        let (report, store) = try importing(datagrams)
        #expect(report.outOfLine == 1 && report.overlapping == 0 && report.datagrams == source.count - 1)
        let flights = try store.list(), reference = try clean.1.list()
        #expect(flights.count == 1 && reference.count == 1)
        #expect((flights.first?.onBlock ?? 0) - (flights.first?.offBlock ?? 0) < 3_600)
        #expect(abs((flights.first?.distanceNM ?? 0) - reference[0].distanceNM) < 0.2)
        #expect(flights.first?.closestNM.map { $0 < 0.1 } == true, "the 0.08 NM encounter: \(String(describing: flights.first?.closestNM))")
        // The same a year behind, and for a run of two bad times.
        datagrams = source.map { (time: $0.timestamp!, bytes: $0.bytes) }
        datagrams[40].time -= 365 * 86_400
        datagrams[41].time += 365 * 86_400
        let (behind, _) = try importing(datagrams)
        #expect(behind.outOfLine == 2 && behind.datagrams == source.count - 2)
    }

    @Test func aClockSteppedBackAnHourKeepsBothHalves() throws {
        let source = try demo()
        // From datagram 150 on, the receiver's clock reads an hour early.
        let datagrams = source.enumerated().map { (time: $0.element.timestamp! - ($0.offset >= 150 ? 3_600 : 0), bytes: $0.element.bytes) }
        let (report, store) = try importing(datagrams)
        #expect(report.datagrams == source.count && report.overlapping == 0 && report.outOfLine == 0 && report.clockSteps == 1)
        let flights = try store.list()
        // Two flights, one each side of the step, together as long as the flight.
        #expect(flights.count == 2, "\(flights.map { ($0.offBlock, $0.onBlock) })")
        let clean = try importing(source.map { (time: $0.timestamp!, bytes: $0.bytes) }).1.list()
        let total = flights.reduce(0) { $0 + $1.distanceNM }
        #expect(abs(total - clean[0].distanceNM) < 0.5, "\(total) against \(clean[0].distanceNM)")
        #expect(flights.contains { $0.closestNM.map { $0 < 0.1 } == true })
    }
}
