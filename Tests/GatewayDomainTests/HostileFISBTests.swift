import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewaySimulation

/// Issue 27, items 2 and 3: FIS-B from a neighbour on the Wi-Fi grew `run` to gigabytes (text
/// that expands, one new key a station) and climbing (gridded blocks anywhere). The product
/// store is bounded in reports, bytes, one report's text and the composites being assembled,
/// and says what it dropped.
@Suite(.timeLimit(.minutes(5))) struct HostileFISBTests {
    let start = FISBSamples.startTime

    /// The generator makes what the issue measured (440 bytes on the wire, 16 kB of text with
    /// every TAB expanded); the decoder now adds at most 4 spaces a coded byte.
    @Test func tabRunUplinkExpansionIsBounded() throws {
        let uplink = HostileFISB.dlacTabRun(station: 7)
        #expect(uplink.count == Uplink.payloadLength)
        let decoded = try FISBUplink(payload: uplink)
        guard case .apdu(let apdu) = try #require(decoded.frames.first) else { Issue.record("no APDU"); return }
        let text = GenericTextProduct(apdu.payload).records.first?.text ?? ""
        #expect(text.hasPrefix("METAR KHAAA "))
        #expect(apdu.payload.count * 8 / 12 * 63 > 16_000)  // 2 codes (12 bits) a TAB of 63 spaces
        #expect(text.utf8.count <= apdu.payload.count * (DLAC.tabSpacesPerByte + 2))
    }

    /// The fuzz seeds in fixtures/hostile are what the generator makes (`gatewayd simulate`).
    @Test func hostileUplinkFixturesAreReproducible() throws {
        #expect(Array(try Data(contentsOf: fixtures.appendingPathComponent("hostile/fisb-dlac-tab-run.uplink"))) == HostileFISB.dlacTabRun(station: 0))
        #expect(Array(try Data(contentsOf: fixtures.appendingPathComponent("hostile/fisb-gridded-flood.uplink"))) == HostileFISB.griddedFlood(count: 1)[0])
    }

    /// Smaller limits than the shipped ones, so a few thousand uplinks reach them (the shipped
    /// ones are held by `bench --only hostile` on the release daemon).
    @Test func expandingTextIsBounded() async {
        let start = self.start
        let store = await offPool { () -> FISBProductStore in
            var store = FISBProductStore()
            store.limits.textCharacters = 1_000  // below what the decoder lets through, to cut every text
            store.limits.reports = 2_000
            store.limits.bytes = 1 << 20
            for i in 0..<3_000 { _ = store.ingest(payload: HostileFISB.dlacTabRun(station: i), at: start + Double(i) / 250) }
            return store
        }
        #expect(store.bytesHeld <= store.limits.bytes)
        #expect(store.reports.count <= store.limits.reports)
        #expect(store.reports.values.allSatisfy { $0.text.utf8.count <= store.limits.textCharacters })
        #expect(store.counters.truncated == 3_000)
        #expect(store.counters.dropped > 0)
        // The newest stay; what went is said in the summary.
        #expect(store.reports.values.contains { $0.received == start + 2_999.0 / 250 })
        #expect(store.counters.summary.contains("over the store's limits: \(store.counters.dropped) dropped, 3000 texts cut"))
        // The byte count is what the reports hold.
        #expect(store.bytesHeld == store.reports.values.reduce(0) { $0 + $1.storageBytes })
    }

    @Test func griddedFloodIsBounded() async {
        let start = self.start
        let store = await offPool { () -> FISBProductStore in
            var store = FISBProductStore()
            store.limits.compositeBlocks = 4_000
            store.limits.bytes = 1 << 20
            for (i, uplink) in HostileFISB.griddedFlood(count: 2_000).enumerated() { _ = store.ingest(payload: uplink, at: start + Double(i) / 100) }
            _ = store.flushHeld()
            return store
        }
        #expect(store.counters.gridded > 6_000)
        #expect(store.bytesHeld <= store.limits.bytes)
        #expect(store.bytesHeld == store.reports.values.reduce(0) { $0 + $1.storageBytes })
    }

    /// The real-shaped sample is untouched by the limits: nothing dropped, nothing said.
    @Test func realSampleIsUnaffected() {
        var store = FISBProductStore()
        for (i, uplink) in FISBSamples.uplinks().enumerated() { _ = store.ingest(payload: uplink, at: start + Double(i)) }
        #expect(store.counters.dropped + store.counters.truncated + store.counters.droppedBlocks == 0)
        #expect(!store.counters.summary.contains("limits"))
    }
}
