import Testing
@testable import GDL90

@Suite(.timeLimit(.minutes(5))) struct FISBTWGOTests {
    private let start = TWGOGraphicRecord.Time(month: 9, day: 21, hour: 19, minute: 45)
    private let stop = TWGOGraphicRecord.Time(month: 9, day: 22, hour: 0, minute: 0)

    private func roundTrip(_ rec: TWGOGraphicRecord, productID: Int = 8) throws -> TWGOGraphicRecord {
        let product = TWGOProduct(records: .graphic([rec]))
        let decoded = try FISBProductContent(APDU(productID: productID, time: .init(hour: 0, minute: 0), payload: product.encode()))
        guard case .twgo(let p) = decoded, case .graphic(let recs) = p.records, recs.count == 1 else {
            Issue.record("no single graphic record")
            return rec
        }
        #expect(p.errors.isEmpty)
        return recs[0]
    }

    @Test func vertexKnownBytes() throws {
        // −86° → round(274 × 2¹⁹/360) = 399041; 40° → round(40 × 2¹⁹/360) = 58254; 3000 ft → 30.
        let g = TWGOGeometry(shape: .point, reference: .agl, vertices: [.init(longitude: -86, latitude: 40, altitudeFt: 3000)])
        var w = BitWriter()
        g.write(to: &w)
        #expect(w.bytes == [0xC2, 0xD8, 0x23, 0x8E, 0x38, 0x1E])
        var r = BitReader(w.bytes, what: "test")
        let back = try TWGOGeometry.read(option: 9, count: 1, from: &r)
        #expect(back.shape == .point && back.reference == .agl)
        #expect(back.vertices[0].longitude == 399_041 * 360 / 524_288.0 - 360)  // −86.000289916992…
        #expect(back.vertices[0].latitude == 58_254 * 360 / 524_288.0)  // 39.999847412109…
        #expect(back.vertices[0].altitudeFt == 3000)
    }

    @Test func circleKnownBytes() throws {
        // The 14-byte vertex of a 30 NM VIP ring up to 18000 ft MSL: radius 150 × 0.2 NM, ceiling 36 × 500 ft.
        let c = TWGOGeometry.Circle(longitude: -84.218_445, latitude: 39.900_97, floorFt: 0, ceilingFt: 18000, radiusNM: 30)
        let g = TWGOGeometry(shape: .circle, reference: .msl, circles: [c])
        var w = BitWriter()
        g.write(to: &w)
        #expect(w.bytes == [0xC4, 0x1C, 0x87, 0x17, 0xFC, 0x41, 0xC8, 0x71, 0x7F, 0x00, 0x91, 0x2C, 0x96, 0x00])
        var r = BitReader(w.bytes, what: "test")
        let back = try TWGOGeometry.read(option: 7, count: 1, from: &r).circles[0]
        #expect(back.longitude == 200_818 * 360 / 262_144.0 - 360)  // −84.21844482421875
        #expect(back.latitude == 29_055 * 360 / 262_144.0)  // 39.900970458984375
        #expect(back.floorFt == 0 && back.ceilingFt == 18000)
        #expect(back.radiusNM == 30 && back.minorRadiusNM == 30)
    }

    @Test func circleRecordAGL() throws {
        let circle = TWGOGeometry(shape: .circle, reference: .agl, circles: [
            .init(longitude: -86.294_861, latitude: 39.716_949, floorFt: 0, ceilingFt: 3000, radiusNM: 3),
            .init(longitude: -86.143_799, latitude: 39.579_62, floorFt: 500, ceilingFt: 2500, radiusNM: 1.4),
        ])
        let rec = TWGOGraphicRecord(reportNumber: 3298, reportYear: 0, start: start, stop: stop, geometry: circle)
        let back = try roundTrip(rec)
        #expect(back.geometry.option == 8)
        #expect(back.geometry.circles.map(\.radiusNM) == [3, 1.4000000000000001])
        #expect(back.geometry.circles.map(\.ceilingFt) == [3000, 2500])
        #expect(back.geometry.circles.map(\.floorFt) == [0, 500])
        #expect(abs(back.geometry.circles[0].latitude - 39.716_949) < 0.0014)
        #expect(back.start == start && back.stop == stop)
        #expect(back.element == 0 && back.objectType == 14 && back.objectStatus == 15)
    }

    @Test func polygonMSLAndAGL() throws {
        for reference in [TWGOGeometry.AltitudeReference.msl, .agl] {
            let corners: [(Double, Double)] = [(-123.08, 44.98), (-122.92, 44.98), (-122.92, 44.82), (-123.08, 44.82)]
            let g = TWGOGeometry(shape: .polygon, reference: reference, vertices: corners.map { .init(longitude: $0.0, latitude: $0.1, altitudeFt: 17_900) })
            let back = try roundTrip(TWGOGraphicRecord(reportNumber: 1, reportYear: 26, overlayID: 2, geometry: g))
            #expect(back.geometry.option == (reference == .msl ? 3 : 4))
            #expect(back.overlayID == 2)
            #expect(back.geometry.vertices.count == 4)
            // Altitudes in 100 ft steps: 17 900 ft is raw 179.
            #expect(back.geometry.vertices.allSatisfy { $0.altitudeFt == 17_900 })
            // 44.98° → round(44.98 × 2¹⁹/360) = 65507 → 44.980087280273…
            #expect(back.geometry.vertices[0].latitude == 65_507 * 360 / 524_288.0)
            // −123.08° → round(236.92 × 2¹⁹/360) = 345040 → −123.07983398…
            #expect(back.geometry.vertices[0].longitude == 345_040 * 360 / 524_288.0 - 360)
        }
    }

    @Test func polylineMSLAndPointMSL() throws {
        let line = TWGOGeometry(shape: .polyline, reference: .msl, vertices: [
            .init(longitude: -100, latitude: 35, altitudeFt: 10_000), .init(longitude: -99, latitude: 36, altitudeFt: 12_000),
            .init(longitude: -98, latitude: 36.5, altitudeFt: 14_000),
        ])
        let back = try roundTrip(TWGOGraphicRecord(reportNumber: 42, reportYear: 26, geometry: line), productID: 12)
        #expect(back.geometry.option == 11 && back.geometry.vertices.count == 3)
        #expect(back.geometry.vertices.map(\.altitudeFt) == [10_000, 12_000, 14_000])
        #expect(abs(back.geometry.vertices[2].latitude - 36.5) < 0.000_35)
        let point = TWGOGeometry(shape: .point, reference: .msl, vertices: [.init(longitude: 10, latitude: -20, altitudeFt: 0)])
        let p = try roundTrip(TWGOGraphicRecord(reportNumber: 43, reportYear: 26, geometry: point))
        #expect(p.geometry.option == 10)
        #expect(abs(p.geometry.vertices[0].latitude - -20) < 0.000_35 && abs(p.geometry.vertices[0].longitude - 10) < 0.000_35)
    }

    @Test func optionalFieldsRoundTrip() throws {
        var rec = TWGOGraphicRecord(reportNumber: 16_383, reportYear: 127, overlayID: 16, label: "KSLE", element: nil, objectType: 0,
                                    objectStatus: 13, start: .init(hour: 1, minute: 2), stop: .init(hour: 3, minute: 4),
                                    geometry: TWGOGeometry(shape: .point, reference: .agl, vertices: [.init(longitude: 0, latitude: 0, altitudeFt: 0)]))
        rec.qualifier = [0x80, 0, 1]
        rec.parameter = (type: 3, value: 2047)
        rec.overlayOperator = 1
        rec.startYearOffset = 1
        rec.endYearOffset = 2
        let back = try roundTrip(rec, productID: 14)
        #expect(back == rec)
        #expect(back.isCancelled)
        #expect(back.parameter?.value == 2047)
        var dayFormat = rec
        dayFormat.start = .init(day: 5, hour: 6, minute: 7)
        dayFormat.stop = nil
        #expect(try roundTrip(dayFormat, productID: 14).start == .init(day: 5, hour: 6, minute: 7))
    }

    @Test func reservedGeometryOptionIsSkipped() throws {
        let rec = TWGOGraphicRecord(reportNumber: 1, reportYear: 1, geometry: TWGOGeometry(shape: .point, reference: .msl, vertices: [.init(longitude: 0, latitude: 0, altitudeFt: 0)]))
        var bytes = TWGOProduct(records: .graphic([rec, rec])).encode()
        // The first record's geometry option byte sits at 6 + 5 + 2 + 2 = 15: make it 5 (obsolete ellipse).
        bytes[15] = bytes[15] & 0xF0 | 5
        let p = try TWGOProduct(bytes)
        #expect(p.errors.map(\.reason) == [.unsupported])
        #expect(p.records == .graphic([rec]))
    }

    @Test func textRecordsAndHeader() throws {
        let product = TWGOProduct(location: "KFWA", referencePoint: 0, records: .text([
            TWGOTextRecord(reportNumber: 12_077, reportYear: 20, text: "NOTAM-D KFWA.07/077 240200Z !FWA 07/077 FWA OBST CRANE"),
            TWGOTextRecord(reportNumber: 12_078, reportYear: 20, isActive: false, text: ""),
        ]))
        let bytes = product.encode()
        // Header: format 2, version 2; one nibble of count; "KFWA" in DLAC; reference point 0.
        #expect(Array(bytes.prefix(6)) == [0x22, 0x20, 0x2C, 0x65, 0xC1, 0x00])
        // First record: length, then report 12077 (14 bits), year 20 (7 bits), active.
        #expect(bytes[8] == UInt8(12_077 >> 6))
        let back = try TWGOProduct(bytes)
        #expect(back == product)
    }

    @Test func genericTextRecords() {
        let texts = [
            "METAR KCEY 300835Z AUTO 00000KT 10SM CLR 12/11 A3001 RMK AO2=",
            "SPECI KSLE 161410Z 34012G20KT 3SM BR OVC008 14/13 A3010=",
            "TAF.AMD KPDX 161340Z 1614/1718 33010KT P6SM SCT050=",
            "TAF KEUG 161120Z 1612/1712 VRB03KT P6SM SKC=",
            "PIREP SLE 161350Z KSLE UA /OV SLE090010/TM 1350/FL065/TP C172",
            "WINDS SLE 161800Z  FT 3000 6000\nSLE 3010 3115+08",
        ]
        let product = GenericTextProduct(records: texts.map(GenericTextProduct.Record.init))
        let back = GenericTextProduct(product.encode())
        #expect(back.records.map(\.text) == texts)
        #expect(back.records.map(\.kind) == [.metar, .speci, .taf, .taf, .pirep, .winds])
        #expect(back.records.map(\.location) == ["KCEY", "KSLE", "KPDX", "KEUG", "KSLE", "SLE"])
        #expect(back.records[2].isAmendment && !back.records[3].isAmendment)
        #expect(back.records[0].reportTime! == (30, 8, 35))
    }
}

@Suite(.timeLimit(.minutes(5))) struct FISBSegmentationTests {
    @Test func reassemblesOutOfOrderAndDropsRepeatedHeaders() throws {
        let text = String(repeating: "PILOTS WHO DO NOT ADHERE TO THE FOLLOWING PROCEDURES MAY BE INTERCEPTED. ", count: 16)
        let whole = APDU(productID: 8, time: .init(month: 9, day: 21, hour: 19, minute: 45),
                         payload: TWGOProduct(records: .text([TWGOTextRecord(reportNumber: 6733, reportYear: 0, text: text)])).encode())
        let segments = APDUReassembler.segment(whole, fileID: 454, segmentPayload: 413)
        try #require(segments.count == 3)
        #expect(segments.allSatisfy { $0.payload.prefix(6) == whole.payload.prefix(6) })
        #expect(segments.map { $0.segment!.number } == [1, 2, 3])
        var r = APDUReassembler()
        #expect(try r.add(segments[2]) == nil)
        #expect(try r.add(segments[0]) == nil)
        #expect(r.pendingCount == 1)
        let back = try r.add(segments[1])
        #expect(back == whole)
        #expect(r.pendingCount == 0)
        // Through the frame codec too: each segment survives an uplink.
        for s in segments {
            let u = FISBUplink(header: UATUplinkHeader(latitude: 40, longitude: -86), frames: [.apdu(s)])
            #expect(try FISBUplink(payload: u.encode()).frames == [.apdu(s)])
        }
    }

    @Test func filesAreKeyedByProductAndFileID() throws {
        let a = APDU(productID: 8, time: .init(hour: 1, minute: 0), payload: [0x22, 0x10, 0, 0, 0, 0xFF, 1, 2, 3, 4])
        let b = APDU(productID: 18, time: .init(hour: 1, minute: 0), payload: [0x22, 0x10, 0, 0, 0, 0xFF, 5, 6, 7, 8])
        let sa = APDUReassembler.segment(a, fileID: 9, segmentPayload: 8)
        let sb = APDUReassembler.segment(b, fileID: 9, segmentPayload: 8)
        var r = APDUReassembler(capacity: 1)
        _ = try r.add(sa[0])
        _ = try r.add(sb[0])  // evicts product 8's file: capacity 1
        #expect(r.dropped == 1)
        #expect(try r.add(sb[1]) == b)
        #expect(try r.add(sa[1]) == nil)
    }
}
