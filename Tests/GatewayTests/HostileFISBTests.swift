import GDL90
import Testing
@testable import TrafficGateway
@testable import GatewaySimulation

/// Issue 27, items 2 and 3: FIS-B from a neighbour on the Wi-Fi grew `run` to gigabytes (text
/// that expands, one new key a station) and climbing (gridded blocks anywhere). The product
/// store is bounded in reports, bytes, one report's text and the composites being assembled,
/// and says what it dropped.
@Suite struct HostileFISBTests {
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

    @Test func expandingTextIsBounded() {
        var store = FISBProductStore()
        store.limits.textCharacters = 1_000  // below what the decoder lets through, to cut every text
        for i in 0..<12_000 { _ = store.ingest(payload: HostileFISB.dlacTabRun(station: i), at: start + Double(i) / 250) }
        #expect(store.bytesHeld <= store.limits.bytes)
        #expect(store.reports.count <= store.limits.reports)
        #expect(store.reports.values.allSatisfy { $0.text.utf8.count <= store.limits.textCharacters })
        #expect(store.counters.truncated == 12_000)
        #expect(store.counters.dropped > 0)
        // The newest stay; what went is said in the summary.
        #expect(store.reports["413/METAR/K" + "HTPR"] != nil || store.reports.values.contains { $0.received == start + 11_999.0 / 250 })
        #expect(store.counters.summary.contains("over the store's limits: \(store.counters.dropped) dropped, 12000 texts cut"))
        // The byte count is what the reports hold.
        #expect(store.bytesHeld == store.reports.values.reduce(0) { $0 + $1.storageBytes })
    }

    @Test func griddedFloodIsBounded() {
        var store = FISBProductStore()
        let flood = HostileFISB.griddedFlood(count: 6_000)
        for (i, uplink) in flood.enumerated() { _ = store.ingest(payload: uplink, at: start + Double(i) / 100) }
        _ = store.flushHeld()
        #expect(store.counters.gridded > 20_000)
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
