import GDL90
import Testing
@testable import GatewaySimulation
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures

/// The product store keeps what it decoded from an APDU by the APDU's bytes (FIS-B rebroadcasts
/// the same products over and over): a product received again unchanged is not decoded again,
/// and the store's reports are exactly those of decoding every APDU every time.
@Suite(.timeLimit(.minutes(5))) struct FISBProductCacheTests {
    private static let t0 = FISBSamples.startTime
    private static let apduTime = APDU.Time(month: 5, day: 16, hour: 14, minute: 0)

    private static func uplink(_ frames: [InformationFrame]) -> [UInt8] {
        FISBUplink(header: FISBSamples.station, frames: frames).encode()
    }

    private static func metar(_ text: String, hour: Int = 14) -> [UInt8] {
        uplink([.apdu(APDU(productID: 413, time: .init(hour: hour, minute: 0), payload: GenericTextProduct(records: [.init(text: text)]).encode()))])
    }

    private static func notam(_ number: Int, text: String, active: Bool = true) -> [UInt8] {
        uplink([.apdu(APDU(productID: 8, time: apduTime, payload: TWGOProduct(location: "KSLE", records: .text([
            TWGOTextRecord(reportNumber: number, reportYear: 26, isActive: active, text: text),
        ])).encode()))])
    }

    /// A day of receptions: the sample capture's uplinks again and again, a product changed, a
    /// NOTAM refreshed with an empty text ("still active"), then cancelled, times crossing midnight.
    private static var receptions: [(time: Double, payload: [UInt8])] {
        var out: [(Double, [UInt8])] = []
        let samples = FISBSamples.uplinks()
        var t = t0
        for round in 0..<6 {
            for p in samples {
                out.append((t, p))
                t += 1
            }
            if round == 0 { out.append((t, notam(12, text: ""))) }
            if round == 1 { out.append((t, notam(12, text: "", active: false))) }
            if round == 2 { out.append((t, metar("METAR KSLE 161456Z 35010KT 10SM FEW045 17/06 A3011="))) }
            t += 4 * 3600  // about a day in six rounds: times resolve near each reception
        }
        return out
    }

    @Test func aProductReceivedAgainUnchangedIsNotDecodedAgain() {
        var store = FISBProductStore()
        store.keepsStaleOnArrival = true
        let samples = FISBSamples.uplinks()
        for (i, p) in samples.enumerated() { _ = store.ingest(payload: p, at: Self.t0 + Double(i)) }
        let first = store.productCacheCounts
        #expect(first.kept >= 9)  // METARs, TAF, PIREP, winds, the TFR's text (reassembled) and graphics, NOTAM-D, SUA…
        for (i, p) in samples.enumerated() { _ = store.ingest(payload: p, at: Self.t0 + 60 + Double(i)) }
        for (i, p) in samples.enumerated() { _ = store.ingest(payload: p, at: Self.t0 + 120 + Double(i)) }
        let after = store.productCacheCounts
        #expect(after.kept == first.kept)  // nothing new decoded
        #expect(after.reused == first.reused + 2 * (first.kept + first.reused))
    }

    @Test func theReportsAreThoseOfDecodingEveryTime() {
        var cached = FISBProductStore()
        var uncached = FISBProductStore()
        uncached.reusesDecodedProducts = false
        for (time, payload) in Self.receptions {
            let a = cached.ingest(payload: payload, at: time)
            let b = uncached.ingest(payload: payload, at: time)
            #expect(a == b)
        }
        #expect(cached.all == uncached.all)
        #expect(cached.counters == uncached.counters)
        #expect(cached.lastErrors == uncached.lastErrors)
        #expect(cached.flushHeld() == uncached.flushHeld())
        #expect(uncached.productCacheCounts.reused == 0 && uncached.productCacheCounts.kept == 0)
        #expect(cached.productCacheCounts.reused > 0)
        #expect(cached.counters.cancelled == 1 && cached.counters.expired > 0)
    }

    @Test func aChangedProductIsDecodedAgain() {
        var store = FISBProductStore()
        let first = store.ingest(payload: Self.metar(FISBSamples.metarKSLE), at: Self.t0)
        #expect(first.map(\.text) == [FISBSamples.metarKSLE])
        #expect(store.ingest(payload: Self.metar(FISBSamples.metarKSLE), at: Self.t0 + 10).isEmpty)
        #expect(store.productCacheCounts == (reused: 1, kept: 1))
        let newer = "METAR KSLE 161456Z 35010KT 10SM FEW045 17/06 A3011="
        let changed = store.ingest(payload: Self.metar(newer), at: Self.t0 + 20)
        #expect(changed.map(\.text) == [newer])
        #expect(store.productCacheCounts == (reused: 1, kept: 2))
        // The same text under another APDU time is other bytes: decoded, and the same report.
        #expect(store.ingest(payload: Self.metar(newer, hour: 15), at: Self.t0 + 30).isEmpty)
        #expect(store.productCacheCounts == (reused: 1, kept: 3))
    }

    @Test func anEmptyRefreshReadsTheTextHeld() {
        var cached = FISBProductStore()
        var uncached = FISBProductStore()
        uncached.reusesDecodedProducts = false
        for store in [0, 1] {
            var s = store == 0 ? cached : uncached
            _ = s.ingest(payload: Self.notam(12, text: FISBSamples.notamD), at: Self.t0)
            _ = s.ingest(payload: Self.notam(12, text: ""), at: Self.t0 + 5)
            _ = s.ingest(payload: Self.notam(12, text: ""), at: Self.t0 + 10)
            if store == 0 { cached = s } else { uncached = s }
        }
        let held = cached.all.first { $0.kind == .notam }
        #expect(held?.text == FISBSamples.notamD && held?.number == "05/012" && held?.location == "KSLE")
        #expect(cached.all == uncached.all)
    }

    @Test func theCacheIsBounded() {
        var cache = FISBProductCache()
        cache.maximumEntries = 8
        let product = FISBPreparedProduct(APDU(productID: 413, time: .init(hour: 1, minute: 2), payload: GenericTextProduct(records: [
            .init(text: FISBSamples.metarKEUG),
        ]).encode()))
        for i in 0..<20 { cache.insert(product, for: [UInt8(i), 1, 2, 3]) }
        #expect(cache.count <= 8)
        #expect(cache.product(for: [19, 1, 2, 3]) != nil)
        #expect(cache.product(for: [0, 1, 2, 3]) == nil)
        #expect(cache.product(for: [19, 1, 2]) == nil)  // a prefix is other bytes
        cache.maximumBytes = 1024
        cache.insert(product, for: [UInt8](repeating: 7, count: 1000))  // larger than an eighth of the budget: not kept
        #expect(cache.product(for: [UInt8](repeating: 7, count: 1000)[...]) == nil)
    }

    @Test func hashAndEqualityLookAtEveryByte() {
        let a: [UInt8] = Array(0..<37)
        for i in a.indices {
            var b = a
            b[i] ^= 0x40
            #expect(!FISBProductCache.equal(a, b[...]))
            #expect(FISBProductCache.hash(a[...]) != FISBProductCache.hash(b[...]))
        }
        #expect(FISBProductCache.equal(a, a[...]))
        #expect(FISBProductCache.equal(Array(a[3...]), a[3...]))
        #expect(FISBProductCache.hash(Array(a[3...])[...]) == FISBProductCache.hash(a[3...]))
    }

    @Test func productFamiliesAreTheListedSets() {
        for id in 0..<2048 {
            let family = FISBProductContent.Family.of(productID: id)
            #expect((family == .twgo) == FISBProductContent.twgoProducts.contains(id))
            #expect((family == .gridded) == FISBProductContent.griddedProducts.contains(id))
            #expect((family == .genericText) == (id == GenericTextProduct.productID))
        }
    }
}

/// dump978 lines read in place: the `t=` time exactly as `Double(String)` reads it, the hex as before.
@Suite(.timeLimit(.minutes(5))) struct Dump978ReaderTests {
    @Test func timesAreReadAsDoubleReadsThem() {
        let samples = ["1778940000.000", "1778940000.123", "1612345678.250", "1612345679.5", "0", "12.5", "999999999999999", "0.000000000000001",
                       "1e3", "+1", "-2.5", "1.", ".5", "", "12a", "1234567890123456789", "1778940000.1234567", "nan", "1.2.3"]
        for s in samples {
            let bytes = Array(s.utf8)
            let ours = bytes.withUnsafeBufferPointer { Dump978Reader.parseTime($0) }
            let theirs = Double(s)
            #expect(ours == theirs || (ours?.isNaN == true && theirs?.isNaN == true), "\(s)")
        }
    }

    @Test func hexIsCheckedAndDecoded() {
        func hex(_ s: String) -> [UInt8]? { Array(s.utf8).withUnsafeBufferPointer { Dump978Reader.decodeHex($0) } }
        #expect(hex("00ff7E80aB") == [0x00, 0xFF, 0x7E, 0x80, 0xAB])
        #expect(hex("") == [])
        #expect(hex("0g") == nil)
        #expect(hex("zz00") == nil)
        #expect(hex("00 1") == nil)
    }

    @Test func linesWithSpacesCarriageReturnsAndFields() {
        let payload = (0..<432).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let hex = payload.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        let text = "+\(hex);rs=3;t=1612345678.250;t=1612345680.5\n# comment\n  +\(hex);t=1612345681.000\r\n+\(hex)\n+\(hex);rs=2;\n+0g;t=1\n"
        let c = CaptureFile.parse(Array(text.utf8))
        #expect(c.datagrams.map(\.timestamp) == [1_612_345_680.5, nil, nil, nil])  // the last t= counts; "…\r" is not a number
        #expect(c.datagrams.allSatisfy { $0.bytes == Message.uplink(Uplink(timeOfReception: nil, payload: payload)).frame() })
        #expect(c.skipped == 2)
        #expect(c.error?.reason == "line 6 is not valid dump978 hex")
    }
}
