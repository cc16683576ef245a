import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures
@testable import GatewaySimulation

/// 2026-05-16T14:00:00Z.
private let t0 = FISBSamples.startTime

private func uplink(_ frames: [InformationFrame]) -> [UInt8] {
    FISBUplink(header: FISBSamples.station, frames: frames).encode()
}

private func notamText(_ number: Int, year: Int, text: String, active: Bool = true, product: Int = 8, location: String = "") -> InformationFrame {
    .apdu(APDU(productID: product, time: .init(month: 5, day: 16, hour: 14, minute: 0),
               payload: TWGOProduct(location: location, records: .text([TWGOTextRecord(reportNumber: number, reportYear: year, isActive: active, text: text)])).encode()))
}

private func graphics(_ records: [TWGOGraphicRecord], product: Int = 8) -> InformationFrame {
    .apdu(APDU(productID: product, time: .init(month: 5, day: 16, hour: 14, minute: 0), payload: TWGOProduct(records: .graphic(records)).encode()))
}

private func metar(_ text: String) -> InformationFrame {
    .apdu(APDU(productID: 413, time: .init(hour: 14, minute: 0), payload: GenericTextProduct(records: [.init(text: text)]).encode()))
}

@Suite(.timeLimit(.minutes(5))) struct FISBSampleFixtureTests {
    @Test func fixtureIsReproducible() throws {
        let text = try String(contentsOf: fixtures.appendingPathComponent("fisb-sample.978"), encoding: .utf8)
        #expect(text == FISBSamples.dump978())
    }

    @Test func fixtureDecodesEndToEnd() throws {
        let capture = try CaptureFile.read(path: fixtures.appendingPathComponent("fisb-sample.978").path)
        #expect(capture.format == .dump978)
        #expect(capture.datagrams.count == 12)
        let (reports, decoder) = FISBCaptureDecoder.decode(capture.datagrams.map { ($0.timestamp, $0.bytes) })
        #expect(reports.map(\.kind) == [.metar, .metar, .taf, .pirep, .winds, .crl, .notam, .notam, .serviceStatus, .metar, .sua, .nexrad, .nexrad])
        #expect(reports.map(\.location) == ["KSLE", "KEUG", "KPDX", "KSLE", "SLE", nil, "ZSE", "KSLE", nil, "KONP", "MOA-0042", nil, nil])
        #expect(reports[0].text == FISBSamples.metarKSLE)
        #expect(reports[0].time == t0 - 4 * 60)  // 161356Z
        #expect(reports[2].subtype == "AMD")
        #expect(reports[2].end == t0 + 28 * 3600)  // valid to 17 18Z
        #expect(reports[4].subtype == "06")  // available 14Z, valid 18Z

        let tfr = reports[6]
        #expect(tfr.text == FISBSamples.tfrText)
        #expect(tfr.number == "6/6101" && tfr.subtype == "TFR")
        #expect(tfr.start == t0 && tfr.end == t0 + 4 * 3600)
        #expect(tfr.geometry.count == 2)
        let circle = tfr.geometry[0]
        #expect(circle.shape == "circle" && circle.radiusNM == 3)
        #expect(circle.floorFt == 0 && circle.ceilingFt == 3000 && circle.ceilingRef == "AGL")
        // On the 18-bit grid: −123.003° → round(236.997 × 2¹⁸/360) = 172576 → −123.0029296875; 44.9095° → 32702.
        let lon: Double = 172_576 * 360 / 262_144.0 - 360
        let lat: Double = 32_702 * 360 / 262_144.0
        #expect(circle.coordinates == [[lon, lat]])
        let box = tfr.geometry[1]
        #expect(box.shape == "polygon" && box.coordinates.count == 4)
        #expect(box.floorFt == 0 && box.ceilingFt == 5000 && box.floorRef == "MSL" && box.ceilingRef == "MSL")
        #expect(box.start == t0 && box.stop == t0 + 4 * 3600)

        let notamD = reports[7]
        #expect(notamD.number == "05/012" && notamD.subtype == "D")
        #expect(notamD.end == t0 + 6 * 3600)

        // The malformed uplink: unknown product and truncated record skipped, its METAR kept.
        #expect(reports[9].text == FISBSamples.metarKONP)
        #expect(decoder.store.counters.unknownProducts == 1)
        #expect(decoder.store.counters.skipped == 2)
        #expect(decoder.store.counters.emptyUplinks == 2)
        #expect(decoder.store.counters.reassembled == 1)

        // SUA: name, status, altitudes, schedule.
        let sua = reports[10]
        #expect(sua.start == t0 && sua.end == t0 + 4 * 3600)
        #expect(FISBFormatter.json(sua).hasSuffix(#""reportNumber":321,"name":"SALEM MOA","status":"H","floorFt":500,"ceilingFt":17900}"#))
        // NEXRAD: the 14:00 composite (one block with bins, four flagged empty) is finished when the
        // 14:02 block arrives; the 14:02 one at the end of the capture.
        #expect(reports[11].time == t0 && reports[12].time == t0 + 120)
        #expect(FISBFormatter.json(reports[11]).hasSuffix(#""blocks":1,"emptyBlocks":4,"bounds":{"north":45,"south":44.9333,"west":-123.2,"east":-122.4}}"#))
        #expect(decoder.store.counters.gridded == 3)
        #expect(reports[11].grid.map(\.blockNumber) == [674 * 450 + 296])
        #expect(reports[11].grid.first?.bins?.prefix(17) == [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3])
    }

    @Test func jsonContract() throws {
        let capture = try CaptureFile.read(path: fixtures.appendingPathComponent("fisb-sample.978").path)
        let (reports, _) = FISBCaptureDecoder.decode(capture.datagrams.map { ($0.timestamp, $0.bytes) })
        #expect(FISBFormatter.json(reports[0]) == """
            {"type":"fisb","product":413,"kind":"METAR","location":"KSLE","text":"\(FISBSamples.metarKSLE)",\
            "time":"2026-05-16T13:56:00Z","received":"2026-05-16T14:00:01Z"}
            """)
        let tfr = FISBFormatter.json(reports[6])
        #expect(tfr.hasPrefix(#"{"type":"fisb","product":8,"kind":"NOTAM","location":"ZSE","number":"6/6101","subtype":"TFR","text":"NOTAM-TFR 6/6101"#))
        #expect(tfr.contains(#""start":"2026-05-16T14:00:00Z","end":"2026-05-16T18:00:00Z","reportNumber":6101,"geometry":[{"shape":"circle","coordinates":[[-123.00293,44.909363]],"radiusNM":3,"floorFt":0,"floorRef":"AGL","ceilingFt":3000,"ceilingRef":"AGL","start":"2026-05-16T14:00:00Z","stop":"2026-05-16T18:00:00Z"},{"shape":"polygon","coordinates":[[-123.079834,44.980087],"#))
        #expect(tfr.hasSuffix(#""floorFt":0,"floorRef":"MSL","ceilingFt":5000,"ceilingRef":"MSL","start":"2026-05-16T14:00:00Z","stop":"2026-05-16T18:00:00Z"}]}"#))
    }
}

@Suite(.timeLimit(.minutes(5))) struct FISBCaptureFormatTests {
    /// The sample uplinks as GDL90 0x07 frames, one datagram a second.
    private func datagrams() -> [(time: Double, bytes: [UInt8])] {
        FISBSamples.uplinks().enumerated().map { i, payload in
            (t0 + Double(i), Message.uplink(Uplink(timeOfReception: nil, payload: payload)).frame())
        }
    }

    @Test func pcapAndRawStreamGiveTheSameProducts() throws {
        let reference = FISBCaptureDecoder.decode(FISBSamples.uplinks().enumerated().map { i, p in
            (t0 + Double(i), Message.uplink(Uplink(timeOfReception: nil, payload: p)).frame())
        }).reports
        #expect(reference.count == 13)
        let pcap = CaptureFile.parse(PcapWriter.pcap(datagrams()), name: "fisb.pcap")
        #expect(pcap.format == .pcap)
        let fromPcap = FISBCaptureDecoder.decode(pcap.datagrams.map { ($0.timestamp, $0.bytes) }).reports
        #expect(fromPcap.map(FISBFormatter.json) == reference.map(FISBFormatter.json))
        // A raw stream has no times: products are dated by the fallback (the --date midnight).
        let raw = datagrams().flatMap(\.bytes)
        let fromRaw = FISBCaptureDecoder.decode([(nil, raw)], fallbackTime: t0).reports
        #expect(fromRaw.map(\.text) == reference.map(\.text))
        #expect(fromRaw.first?.time == t0 - 240)
    }
}

@Suite(.timeLimit(.minutes(5))) struct FISBStoreTests {
    @Test func textFirstThenGraphicsIsOneCompleteProduct() {
        var store = FISBProductStore()
        let list = CurrentReportList(productID: 8, isTFR: true, rangeNM: 100, entries: [.init(yearOrMonth: 6, reportNumber: 9, hasText: true, hasGraphics: true)])
        let text = "NOTAM-TFR 6/9 161400Z OR..AIRSPACE 2605161400-2605161800"
        #expect(store.ingest(payload: uplink([.currentReportList(list), notamText(9, year: 6, text: text)]), at: t0).map(\.kind) == [.crl])
        #expect(store.missingReports(productID: 8)?.map(\.reportNumber) == [9])
        #expect(store.missingReports(productID: 11) == nil)
        let circle = TWGOGeometry(shape: .circle, reference: .msl, circles: [.init(longitude: -123, latitude: 45, floorFt: 0, ceilingFt: 18000, radiusNM: 10)])
        let out = store.ingest(payload: uplink([graphics([TWGOGraphicRecord(reportNumber: 9, reportYear: 6, geometry: circle)])]), at: t0 + 1)
        #expect(out.count == 1)
        #expect(out.first?.text == text && out.first?.geometry.first?.radiusNM == 10)
        #expect(store.missingReports(productID: 8) == [])
        // The same again changes nothing: not reported again.
        #expect(store.ingest(payload: uplink([notamText(9, year: 6, text: text)]), at: t0 + 2).isEmpty)
    }

    @Test func emptyTextIsARefreshThatKeepsTheText() {
        var store = FISBProductStore()
        let text = "NOTAM-D KSLE.05/012 161200Z !SLE 05/012 SLE RWY 13/31 CLSD 2605161200-2605162000"
        _ = store.ingest(payload: uplink([notamText(12, year: 26, text: text, location: "KSLE")]), at: t0)
        #expect(store.ingest(payload: uplink([notamText(12, year: 26, text: "", location: "KSLE")]), at: t0 + 60).isEmpty)
        #expect(store.reports["8/26/12/KSLE"]?.text == text)
        #expect(store.reports["8/26/12/KSLE"]?.received == t0 + 60)
    }

    @Test func cancellationByTextAndByGraphicStatus() {
        var store = FISBProductStore()
        _ = store.ingest(payload: uplink([notamText(1, year: 26, text: "NOTAM-D KSLE.05/001 161200Z A"),
                                          notamText(2, year: 26, text: "NOTAM-D KSLE.05/002 161200Z B")]), at: t0)
        #expect(store.reports.count == 2)
        _ = store.ingest(payload: uplink([notamText(1, year: 26, text: "", active: false)]), at: t0 + 1)
        #expect(store.reports["8/26/1"] == nil && store.reports["8/26/2"] != nil)
        var cancelled = TWGOGraphicRecord(reportNumber: 2, reportYear: 26, objectStatus: TWGOGraphicRecord.statusCancelled,
                                          geometry: TWGOGeometry(shape: .point, reference: .msl, vertices: [.init(longitude: 0, latitude: 0, altitudeFt: 0)]))
        cancelled.element = 0
        _ = store.ingest(payload: uplink([graphics([cancelled])]), at: t0 + 2)
        #expect(store.reports.isEmpty)
        #expect(store.counters.cancelled == 2)
    }

    @Test func expiryByOwnEndTimeAndByLifetime() {
        var store = FISBProductStore()
        _ = store.ingest(payload: uplink([notamText(5, year: 26, text: "NOTAM-D KSLE.05/005 161200Z RWY CLSD 2605161200-2605161500"),
                                          metar("METAR KSLE 161356Z 34008KT 10SM FEW040 16/06 A3012=")]), at: t0)
        #expect(store.reports.count == 2)
        // An empty uplink at 15:00:30 ends the NOTAM (valid to 15:00) but not the METAR (2 h).
        _ = store.ingest(payload: FISBUplink(header: FISBSamples.station, frames: []).encode(), at: t0 + 3630)
        #expect(store.reports.keys.sorted() == ["413/METAR/KSLE"])
        store.expire(at: t0 + 2 * 3600)
        #expect(store.reports.isEmpty)
        #expect(store.counters.expired == 2)
    }

    @Test func sameNumberAtTwoLocationsAreTwoNOTAMs() {
        var store = FISBProductStore()
        _ = store.ingest(payload: uplink([notamText(12_001, year: 26, text: "NOTAM-D KSLE.05/001 161200Z !SLE 05/001 SLE TWY A CLSD", location: "KSLE"),
                                          notamText(12_001, year: 26, text: "NOTAM-D KEUG.05/001 161200Z !EUG 05/001 EUG TWY B CLSD", location: "KEUG")]), at: t0)
        #expect(store.reports.keys.sorted() == ["8/26/12001/KEUG", "8/26/12001/KSLE"])
        // NOTAM-TRA/TMOA are keyed by the APDU month (as their report lists are), not the record year.
        _ = store.ingest(payload: uplink([notamText(13_005, year: 26, text: "NOTAM-TRA 5/13005 …", product: 16, location: "ZSE")]), at: t0)
        #expect(store.reports["16/5/13005"] != nil)
    }

    @Test func staleOnArrivalIsDropped() {
        var store = FISBProductStore()
        // A NOTAM that ended at 13:00 arriving at 14:00 (a queued uplink): not shown, not kept.
        let out = store.ingest(payload: uplink([notamText(6, year: 26, text: "NOTAM-D KSLE.05/006 161100Z RWY CLSD 2605161100-2605161300")]), at: t0)
        #expect(out.isEmpty && store.reports.isEmpty && store.counters.stale == 1)
    }

    @Test func olderMETARDoesNotReplaceNewer() {
        var store = FISBProductStore()
        _ = store.ingest(payload: uplink([metar("METAR KSLE 161356Z NEWER=")]), at: t0)
        #expect(store.ingest(payload: uplink([metar("METAR KSLE 161256Z OLDER=")]), at: t0 + 1).isEmpty)
        #expect(store.reports["413/METAR/KSLE"]?.text == "METAR KSLE 161356Z NEWER=")
    }

    @Test func products18And19ShareReports() {
        var store = FISBProductStore()
        let box = TWGOGeometry(shape: .polygon, reference: .agl, vertices: [
            .init(longitude: -123, latitude: 45, altitudeFt: 0), .init(longitude: -122.9, latitude: 45, altitudeFt: 0),
            .init(longitude: -122.9, latitude: 44.9, altitudeFt: 0),
        ])
        _ = store.ingest(payload: uplink([graphics([TWGOGraphicRecord(reportNumber: 77, reportYear: 6, geometry: box)], product: 19)]), at: t0)
        let out = store.ingest(payload: uplink([notamText(77, year: 6, text: "NOTAM-TFR 6/77 161400Z …", product: 18)]), at: t0 + 1)
        #expect(out.count == 1)
        #expect(out.first?.productID == 18 && out.first?.kind == .notam && out.first?.geometry.first?.shape == "polygon")
    }

    @Test func currentNearAPosition() throws {
        let capture = try CaptureFile.read(path: fixtures.appendingPathComponent("fisb-sample.978").path)
        let (_, decoder) = FISBCaptureDecoder.decode(capture.datagrams.map { ($0.timestamp, $0.bytes) })
        let store = decoder.store
        // Inside the TFR circle at KSLE: the TFR (distance 0) first, then the station's products.
        let here = store.current(near: 44.9095, longitude: -123.003, radiusNM: 50, at: t0 + 600)
        #expect(here.first?.number == "6/6101")
        #expect(here.contains { $0.kind == .metar && $0.location == "KSLE" })
        // Far away (Indianapolis): nothing.
        #expect(store.current(near: 39.7, longitude: -86.3, radiusNM: 50, at: t0 + 600).isEmpty)
        // After the TFR's end, it is no longer current.
        #expect(!store.current(near: 44.9095, longitude: -123.003, radiusNM: 50, at: t0 + 5 * 3600).contains { $0.kind == .notam && $0.subtype == "TFR" })
    }

    @Test func heldTFRWithoutAreasIsFlushedOnce() {
        var d = FISBCaptureDecoder(fallbackTime: t0)
        let frame = Message.uplink(Uplink(timeOfReception: nil, payload: uplink([notamText(3, year: 6, text: "NOTAM-TFR 6/3 161400Z …")]))).frame()
        #expect(d.ingest(frame, at: t0).isEmpty)
        #expect(d.finish().map(\.number) == ["6/3"])
        #expect(d.finish().isEmpty)
    }

    @Test func clockPicksTheNearestYearAndDay() {
        let newYear = Timestamp.midnight(year: 2027, month: 1, day: 1) + 300
        #expect(FISBClock.resolve(month: 12, day: 31, hour: 23, minute: 50, near: newYear) == newYear - 900)
        #expect(FISBClock.resolve(hour: 23, minute: 55, near: newYear) == newYear - 600)
        #expect(FISBClock.resolve(day: 31, hour: 22, minute: 0, near: newYear) == newYear - 7500)
        #expect(FISBClock.notamTime("2605161800") == t0 + 4 * 3600)
        #expect(FISBProductStore.windsForecastHours(apduHour: 14, validTime: t0 + 4 * 3600) == 6)
        #expect(FISBProductStore.windsForecastHours(apduHour: 2, validTime: t0 - 2 * 3600) == 12)
        #expect(FISBProductStore.windsForecastHours(apduHour: 8, validTime: t0 - 8 * 3600 + 86_400) == 24)
    }

    @Test func notamTextFields() {
        let f = NOTAMTextFields("NOTAM-TFR 0/6733 211945Z PART 1 OF 6 OH..AIRSPACE 2009211945-2009220000 END PART 1 OF 6 !FDC 0/6733 ZID PART 2")
        #expect(f.subtype == "TFR" && f.number == "0/6733" && f.location == "ZID")
        #expect(f.start == Timestamp.midnight(year: 2020, month: 9, day: 21) + 19 * 3600 + 45 * 60)
        #expect(f.end == Timestamp.midnight(year: 2020, month: 9, day: 22))
        let d = NOTAMTextFields("NOTAM-D KFWA.07/077 240200Z !FWA 07/077 FWA OBST CRANE 2007240200-PERM")
        #expect(d.subtype == "D" && d.number == "07/077" && d.location == "KFWA")
        #expect(d.end == nil && d.start != nil)
        #expect(NOTAMTextFields("NOTAM-D KNKX.09/123 161200Z !NKX 09/123 NKX AIRSPACE W-291 ACT SFC-FL600 2605161400-2605162200").subtype == "D-SUA")
        #expect(NOTAMTextFields("FIS-B 161200Z ZSE NEXRAD PRODUCT UNAVAILABLE").subtype == "FIS-B-UNAVAILABLE")
    }
}

@Suite(.timeLimit(.minutes(5))) struct FISBRobustnessTests {
    /// A small deterministic generator (64-bit LCG) so failures reproduce.
    private struct LCG {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
    }

    @Test func randomAndMutatedUplinksNeverCrashAndKeepCounting() {
        var rng = LCG(state: 42)
        var store = FISBProductStore()
        let samples = FISBSamples.uplinks()
        var fed = 0
        for round in 0..<3000 {
            var payload: [UInt8]
            if round % 2 == 0 {
                // A sample uplink with a few bytes changed past the header.
                payload = samples[Int(rng.next() % UInt64(samples.count))]
                for _ in 0..<(1 + Int(rng.next() % 6)) {
                    payload[8 + Int(rng.next() % 424)] = UInt8(truncatingIfNeeded: rng.next())
                }
            } else {
                // Random frames behind a valid header.
                payload = FISBSamples.station.encode() + (0..<424).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            }
            _ = store.ingest(payload: payload, at: t0 + Double(round))
            fed += 1
        }
        #expect(store.counters.uplinks == fed)
        #expect(store.counters.skipped > 0)
        // The store still works afterwards.
        let out = store.ingest(payload: uplink([metar("METAR KXYZ 161500Z 00000KT=")]), at: t0 + 3001)
        #expect(out.map(\.location) == ["KXYZ"])
    }
}

/// Issue 28, 3: a raw FIS-B stream carries no date, and a file copied on another day has that
/// day's time. Decoding it must keep every product, dated from the products themselves.
@Suite(.timeLimit(.minutes(5))) struct UndatedFISBTests {
    @Test func rawSampleIsReproducible() throws {
        #expect(try Data(contentsOf: fixtures.appendingPathComponent("fisb-sample.gdl90")) == Data(FISBSamples.rawGDL90()))
    }

    @Test func undatedStreamCopiedMonthsLaterKeepsEveryProductWithItsDates() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-undated-\(getpid()).gdl90").path
        try Data(contentsOf: fixtures.appendingPathComponent("fisb-sample.gdl90")).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Copied on 2026-11-25: six months after the products were received.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: Timestamp.parse("2026-11-25T10:00:00Z")!)], ofItemAtPath: path)

        var probe = try CaptureStream(path: path, port: 4000)
        let (first, products) = CaptureDate.probe(&probe)
        #expect(first == Double(14 * 3600))
        let day = try #require(CaptureDate.resolve(given: nil, path: path, firstHeartbeatSeconds: first, products: products))
        #expect(day.day == "2026-05-16" && day.assumed)
        #expect(day.source.hasPrefix("the FIS-B products' dates"))

        // Decoded as `gatewayd fisb` does: the same 13 products, the same times, as the dated dump978 sample.
        func decode(_ midnight: Double, keeping: Bool) throws -> [FISBReport] {
            var configuration = GatewayCore.Configuration()
            configuration.keepsStaleFISBProducts = keeping
            var replay = CaptureReplay(pipeline: GatewayPipeline(core: GatewayCore(configuration: configuration),
                                                                 timeSource: .heartbeat(midnight: midnight), outputs: .init(fisb: true)))
            var stream = try CaptureStream(path: path, port: 4000)
            var out: [FISBReport] = []
            while let d = stream.next() { out += replay.process(d).fisbProducts }
            return out + replay.finish(.products).fisbProducts
        }
        let dated = try CaptureFile.read(path: fixtures.appendingPathComponent("fisb-sample.978").path)
        let (expected, _) = FISBCaptureDecoder.decode(dated.datagrams.map { ($0.timestamp, $0.bytes) })
        let decoded = try decode(day.midnight, keeping: true)
        #expect(decoded.map(\.key) == expected.map(\.key))
        #expect(decoded.map(\.time) == expected.map(\.time))
        #expect(decoded.map(\.end) == expected.map(\.end))

        // On the file's day the products would arrive long expired: kept, counted, never dropped.
        let fileDay = Timestamp.parse("2026-11-25")!
        #expect(try decode(fileDay, keeping: true).count == expected.count)
        // A live gateway still drops them (what the file's day used to do to `fisb`: 9 of 13 gone).
        #expect(try decode(fileDay, keeping: false).count == expected.count - 9)
    }

    @Test func evidenceFromHeadersWeatherOrNothing() {
        // Issued 23:58 on 31 December, received at 00:03: the reception day is 1 January.
        #expect(ProductDateEvidence.receptionDay(month: 12, day: 31, hour: 23, minute: 58, secondsOfDay: 180)! == (1, 1))
        #expect(ProductDateEvidence.receptionDay(month: 2, day: 28, hour: 23, minute: 58, secondsOfDay: 180)! == (2, 29))
        #expect(ProductDateEvidence.receptionDay(month: 5, day: 16, hour: 13, minute: 56, secondsOfDay: 50_400)! == (5, 16))
        #expect(ProductDateEvidence.receptionDay(month: 13, day: 16, hour: 13, minute: 56, secondsOfDay: 50_400) == nil)

        // Weather reports alone give the day of the month, the file's time the month.
        var weather = ProductDateEvidence()
        let metar = GenericTextProduct(records: [.init(text: FISBSamples.metarKSLE)]).encode()
        let payload = FISBUplink(header: FISBSamples.station, frames: [.apdu(APDU(productID: 413, time: APDU.Time(hour: 13, minute: 56), payload: metar))]).encode()
        weather.add(payload: payload, secondsOfDay: 50_400)
        #expect(weather.monthDays.isEmpty && weather.daysOfMonth == [16: 1])
        let fromWeather = weather.midnight(fallback: Timestamp.parse("2026-06-02T10:00:00Z")!)
        #expect(fromWeather?.midnight == Timestamp.parse("2026-05-16"))
        #expect(fromWeather?.source.contains("day of the month") == true)
        // Nothing dated at all: the caller falls back to the file's time.
        #expect(ProductDateEvidence().midnight(fallback: 1_800_000_000) == nil)
    }
}

@Suite(.timeLimit(.minutes(5))) struct FISBReportContentTests {
    /// `hasContent` (what the store compares a report with what it returned last) is
    /// `content ==` without building the content: over the fixture's reports, each also with one
    /// field changed at a time, and with only what is not content (reception, expiry, station) changed.
    @Test func hasContentIsContentEquality() throws {
        let capture = try CaptureFile.read(path: fixtures.appendingPathComponent("fisb-sample.978").path)
        let (reports, _) = FISBCaptureDecoder.decode(capture.datagrams.map { ($0.timestamp, $0.bytes) })
        #expect(reports.count == 13)
        var variants = reports
        for r in reports {
            let changes: [(inout FISBReport) -> Void] = [
                { $0.text += " " }, { $0.location = ($0.location ?? "") + "X" }, { $0.time = ($0.time ?? 0) + 60 },
                { $0.number = ($0.number ?? "") + "1" }, { $0.subtype = ($0.subtype ?? "") + "X" },
                { $0.start = ($0.start ?? 0) + 1 }, { $0.end = ($0.end ?? 0) + 1 }, { $0.geometry = $0.geometry.isEmpty ? tinyShape : [] },
                { $0.extra += [("n", "1")] }, { $0.grid = $0.grid.isEmpty ? [] : Array($0.grid.dropLast()) },
                { $0.received += 5; $0.expires += 5; $0.station = [1, 2] },
            ]
            for change in changes {
                var v = r
                change(&v)
                variants.append(v)
            }
        }
        var equal = 0, different = 0
        for a in variants {
            for b in variants {
                let same = a.content == b.content
                if a.hasContent(b.content) != same { Issue.record("hasContent says \(!same) where content == says \(same): \(a.key) / \(b.key)") }
                if same { equal += 1 } else { different += 1 }
            }
        }
        // Both answers were exercised: every report equals itself and its not-content variant,
        // and a time change is content only for gridded products (2 NEXRAD reports in the fixture).
        #expect(different > 0 && equal >= variants.count + 2 * reports.count)
    }
}

private let tinyShape = [FISBReport.Shape(shape: "point", coordinates: [[-123, 45]])]
