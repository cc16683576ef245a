import Testing
@testable import GDL90

/// Hex without spaces: "2c65c1".
private func bytes(_ s: String) -> [UInt8] {
    var out: [UInt8] = []
    var i = s.startIndex
    while i < s.endIndex {
        let j = s.index(i, offsetBy: 2)
        out.append(UInt8(s[i..<j], radix: 16)!)
        i = j
    }
    return out
}

@Suite(.timeLimit(.minutes(5))) struct FISBDLACTests {
    @Test func knownValues() {
        // K=11 C=3 E=5 Y=25 → 001011 000011 000101 011001.
        #expect(DLAC.encode("KCEY") == bytes("2c3159"))
        #expect(DLAC.encode("KFWA") == bytes("2c65c1"))
        #expect(DLAC.decode(bytes("2c65c1")) == "KFWA")
        // '0' = 48, '/' = 47, '6' = 54, '7' = 55, '3' = 51: punctuation and digits are ASCII 0x20–0x3F.
        #expect(DLAC.encode("0/6733") == bytes("c2fdb7cf30"))
        #expect(DLAC.decode(bytes("c2fdb7cf30")) == "0/6733")
    }

    @Test func controlCodes() {
        // A, TAB, count 3, B: the tab expands to three spaces.
        var w = BitWriter()
        for code in [1, 28, 3, 2] { w.write(code, 6) }
        #expect(DLAC.decode(w.bytes) == "A   B")
        // ETX (0) and NC (27) vanish, LF (30) and RS (29) stay.
        var v = BitWriter()
        for code in [1, 0, 27, 30, 2, 29, 3, 0] { v.write(code, 6) }
        #expect(DLAC.decode(v.bytes) == "A\nB\u{1E}C")
    }

    @Test func lowercaseAndUnknownCharacters() {
        #expect(DLAC.decode(DLAC.encode("metar")) == "METAR")
        #expect(DLAC.decode(DLAC.encode("a~b")) == "A?B")
        #expect(DLAC.encode("AB", width: 6) == DLAC.encode("AB") + [0, 0, 0, 0])
    }
}

@Suite(.timeLimit(.minutes(5))) struct FISBStructureTests {
    @Test func uplinkHeaderKnownBytes() throws {
        // lat 45.0 = 0x200000 (23 bits), lon −123.0 → 0xA88889 (24 bits), position valid, UTC coupled,
        // application data valid, slot 7, TIS-B site 3.
        let h = try UATUplinkHeader(bytes("400001511113a730"))
        #expect(h.latitude == 45.0)
        #expect(abs(h.longitude - -122.999_989_986_419_68) < 1e-9)
        #expect(h.positionValid && h.utcCoupled && h.applicationDataValid)
        #expect(h.slotID == 7 && h.tisbSiteID == 3)
        #expect(UATUplinkHeader(latitude: 45, longitude: -123, slotID: 7, tisbSiteID: 3).encode() == bytes("400001511113a730"))
        // Southern and western hemispheres wrap.
        let s = try UATUplinkHeader(UATUplinkHeader(latitude: -33.9, longitude: 151.2).encode())
        #expect(abs(s.latitude - -33.9) < 2.2e-5 && abs(s.longitude - 151.2) < 2.2e-5)
    }

    @Test func apduHeaderTimeOptionZero() throws {
        // 413, hours and minutes 14:02: 000 00110011101 0 00 01110 000010 (+4 pad).
        let a = try APDU(bytes("06743820") + [0xAA])
        #expect(a.productID == 413 && a.segment == nil)
        #expect(a.time == APDU.Time(hour: 14, minute: 2))
        #expect(a.payload == [0xAA])
        #expect(APDU(productID: 413, time: .init(hour: 14, minute: 2), payload: [0xAA]).encode() == bytes("06743820aa"))
    }

    @Test func apduHeaderSegmented() throws {
        // Product 8, 21 Sep 19:45, file 454, segment 2 of 3: a 9-byte header.
        let a = try APDU(bytes("00234d676b8c030100") + [1, 2])
        #expect(a.productID == 8)
        #expect(a.time == APDU.Time(month: 9, day: 21, hour: 19, minute: 45))
        #expect(a.segment == APDU.Segment(fileID: 454, count: 3, number: 2))
        #expect(a.payload == [1, 2])
        #expect(a.encode() == bytes("00234d676b8c0301000102"))
    }

    @Test func apduTimeOptionsWithSeconds() throws {
        for t in [APDU.Time(hour: 23, minute: 59, second: 58), APDU.Time(month: 12, day: 31, hour: 1, minute: 2, second: 3)] {
            let a = APDU(productID: 63, time: t, payload: [9], aFlag: true, pFlag: true)
            #expect(try APDU(a.encode()) == a)
        }
        #expect(APDU.Time(hour: 1, minute: 1, second: 1).option == 1)
        #expect(APDU.Time(month: 1, day: 1, hour: 1, minute: 1, second: 1).option == 3)
    }

    @Test func reportListAndServiceStatusRoundTrip() throws {
        let crl = CurrentReportList(productID: 8, isTFR: true, rangeNM: 100, entries: [
            .init(yearOrMonth: 6, reportNumber: 6101, hasText: true, hasGraphics: true),
            .init(yearOrMonth: 25, reportNumber: 16383, hasText: true, hasGraphics: false),
        ])
        let data = crl.encode()
        // product 8 → 00000001 000, TFR 1, reserved 00, overflow 0, location 0; range 20 (×5 NM); count 2.
        #expect(Array(data.prefix(4)) == [0x01, 0x10, 20, 2])
        #expect(try CurrentReportList(data) == crl)
        // A count larger than the entries present is capped.
        #expect(try CurrentReportList(Array(data.prefix(7))).entries.count == 1)
        let ss = ServiceStatus(entries: [.init(services: 1, address: 0xA1B2C3)])
        #expect(ss.encode() == [0x18, 0xA1, 0xB2, 0xC3])
        #expect(ServiceStatus(ss.encode() + [0x18]) == ss)
    }

    @Test func emptyUplinkIsCheap() throws {
        let empty = FISBUplink(header: UATUplinkHeader(latitude: 45, longitude: -123), frames: []).encode()
        #expect(empty.count == 432)
        #expect(FISBUplink.isEmpty(empty))
        let u = try FISBUplink(payload: empty)
        #expect(u.frames.isEmpty && u.errors.isEmpty)
        // Application data not valid: frames are not read.
        var h = UATUplinkHeader(latitude: 45, longitude: -123)
        h.applicationDataValid = false
        let invalid = FISBUplink(header: h, frames: [.serviceStatus(ServiceStatus(entries: [.init(address: 1)]))]).encode()
        #expect(FISBUplink.isEmpty(invalid))
        #expect(try FISBUplink(payload: invalid).frames.isEmpty)
    }

    @Test func uplinkRoundTripKeepsOtherFrameTypes() throws {
        let frames: [InformationFrame] = [
            .apdu(APDU(productID: 413, time: .init(hour: 1, minute: 2), payload: DLAC.encode("METAR KSLE 161356Z="))),
            .other(type: 3, data: [1, 2, 3]),
            .serviceStatus(ServiceStatus(entries: [.init(services: 2, address: 0xABCDEF)])),
        ]
        let u = FISBUplink(header: UATUplinkHeader(latitude: 40, longitude: -86), frames: frames)
        let back = try FISBUplink(payload: u.encode())
        #expect(back.frames == frames)
        #expect(back.errors.isEmpty)
    }
}

@Suite(.timeLimit(.minutes(5))) struct FISBMalformedTests {
    /// Header + raw frame bytes, zero padded to 432.
    private func payload(_ frames: [UInt8]) -> [UInt8] {
        let b = UATUplinkHeader(latitude: 45, longitude: -123).encode() + frames
        return b + [UInt8](repeating: 0, count: 432 - b.count)
    }

    @Test func truncatedAPDUIsSkippedAndTheNextFrameKept() throws {
        // Frame header: length 2, type 0; data 06 74 is an APDU header cut after two bytes.
        var frames: [UInt8] = [0x01, 0x00, 0x06, 0x74]
        InformationFrame.serviceStatus(ServiceStatus(entries: [.init(address: 0x123456)])).encode(into: &frames)
        let u = try FISBUplink(payload: payload(frames))
        #expect(u.errors.count == 1)
        #expect(u.errors[0].reason == .truncated)
        #expect(u.errors[0].offset == 11)  // data starts at byte 10; the time option is in its second byte
        #expect(u.frames == [.serviceStatus(ServiceStatus(entries: [.init(address: 0x123456)]))])
    }

    @Test func frameLengthPastTheEndIsCapped() throws {
        // A service status frame declaring 511 bytes where 422 are left: capped, decoded, reported.
        var frames: [UInt8] = [0xFF, 0x8F, 0x18, 0xA1, 0xB2, 0xC3]
        frames += [UInt8](repeating: 0, count: 10)
        let u = try FISBUplink(payload: payload(frames))
        #expect(u.errors.map(\.reason) == [.truncated])
        guard case .serviceStatus(let s) = u.frames.first else {
            Issue.record("no service status frame")
            return
        }
        #expect(s.entries.first?.address == 0xA1B2C3)
        #expect(s.entries.count == 105)  // 422 bytes hold 105 whole entries
    }

    @Test func unknownProductIsAnError() throws {
        let apdu = APDU(productID: 999, time: .init(hour: 0, minute: 0), payload: [1])
        #expect(throws: FISBError.self) { try FISBProductContent(apdu) }
        do {
            _ = try FISBProductContent(apdu)
        } catch {
            #expect(error.reason == .unknownProduct)
            #expect(error.description.contains("999"))
        }
    }

    @Test func graphicRecordDeclaringMoreThanPresentIsSkippedWithTheRestKept() throws {
        let good = TWGOGraphicRecord(reportNumber: 7, reportYear: 6, geometry: TWGOGeometry(shape: .point, reference: .msl, vertices: [
            .init(longitude: -86, latitude: 40, altitudeFt: 3000),
        ]))
        let product = TWGOProduct(records: .graphic([good, good]))
        var bytes = product.encode()
        // Cut the second record short: its declared length now runs past the payload.
        bytes.removeLast(4)
        let decoded = try TWGOProduct(bytes)
        guard case .graphic(let recs) = decoded.records else {
            Issue.record("not graphic")
            return
        }
        let quantized = try TWGOProduct(TWGOProduct(records: .graphic([good])).encode())
        #expect(decoded.records == quantized.records)
        #expect(recs.count == 1)
        #expect(decoded.errors.map(\.reason) == [.truncated])
    }

    @Test func shortTextRecordIsCappedNotFatal() throws {
        // A "still active" record declaring 200 bytes with 8 present: text from what is there.
        let rec = TWGOTextRecord(reportNumber: 5, reportYear: 25, text: "TFR")
        var out: [UInt8] = []
        rec.encode(into: &out)
        out[0] = 0
        out[1] = 200
        let p = TWGOProduct(records: .text([])).encode()
        var payload = p
        payload[1] = 0x10  // one record
        payload += out
        let decoded = try TWGOProduct(payload)
        #expect(decoded.records == .text([rec]))
        #expect(decoded.errors.isEmpty)
    }

    @Test func badSegmentNumberThrows() {
        var r = APDUReassembler()
        let seg = APDU(productID: 8, time: .init(hour: 0, minute: 0), segment: .init(fileID: 1, count: 2, number: 0), payload: [])
        #expect(throws: FISBError.self) { try r.add(seg) }
        let beyond = APDU(productID: 8, time: .init(hour: 0, minute: 0), segment: .init(fileID: 1, count: 2, number: 3), payload: [])
        #expect(throws: FISBError.self) { try r.add(beyond) }
    }
}
