import GDL90
import GatewaySupport

/// Synthetic FIS-B uplinks built with the project's own encoders: the content of
/// `fixtures/fisb-sample.978` (`gatewayd fisb --sample`) and of the FIS-B benchmark. Invented
/// but shaped like real traffic: a ground station near Salem, Oregon on 2026-05-16 at 14:00Z.
package enum FISBSamples {
    /// Time of the first sample uplink: 2026-05-16T14:00:00Z.
    package static let startTime = Timestamp.midnight(year: 2026, month: 5, day: 16) + 14 * 3600
    /// The ground station header.
    package static let station = UATUplinkHeader(latitude: 45.0, longitude: -123.0, positionValid: true, utcCoupled: true,
                                                applicationDataValid: true, slotID: 7, tisbSiteID: 3)
    /// Product time of the samples: 16 May 14:00.
    static let apduTime = APDU.Time(month: 5, day: 16, hour: 14, minute: 0)

    /// METAR text of KSLE.
    package static let metarKSLE = "METAR KSLE 161356Z 34008KT 10SM FEW040 16/06 A3012 RMK AO2 SLP201 T01560061="
    /// METAR text of KEUG.
    package static let metarKEUG = "METAR KEUG 161354Z 36006KT 10SM CLR 17/04 A3010="
    /// METAR in the uplink with a malformed frame.
    package static let metarKONP = "METAR KONP 161355Z AUTO 31012KT 10SM OVC012 12/10 A3009 RMK AO2="
    /// An amended TAF.
    package static let tafKPDX = "TAF.AMD KPDX 161340Z 1614/1718 33010KT P6SM SCT050\n     FM170000 32012KT P6SM BKN060="
    /// A PIREP.
    package static let pirep = "PIREP SLE 161350Z KSLE UA /OV SLE090010/TM 1350/FL065/TP C172/SK SCT070/RM SMOOTH"
    /// A winds aloft record (APDU at 14Z, valid 18Z: the 6-hour forecast).
    package static let winds = "WINDS SLE 161800Z  FT 3000 6000 9000\nSLE 3010 3115+08 3120+03"
    /// A NOTAM-D (runway closure).
    package static let notamD = "NOTAM-D KSLE.05/012 161200Z !SLE 05/012 SLE RWY 13/31 CLSD 2605161200-2605162000"
    /// Report number of the sample TFR.
    package static let tfrReport = 6101
    /// Product file ID of the TFR text's segments.
    package static let tfrFileID = 77

    /// A product-13 SUA record: a hot (H) MOA from 14:00 to 18:00Z, 500 ft to 17 900 ft (sent in hundreds: 5 and 179).
    package static let suaText = "SUA 161330Z 4242|MOA-0042|H|M|SALEM MOA|2605161400|2605161800|5|179|A|Y"

    /// Two regional NEXRAD blocks near Salem (block row 674, columns 296 and 297): light rain
    /// in the northern half of the first, nothing in the second but a bitmap of empty blocks.
    package static var nexradBlocks: [GriddedBlock] {
        let block = 674 * GriddedBlock.blocksPerRing + 296
        var bins = [UInt8](repeating: 0, count: GriddedBlock.binCount)
        for i in 0..<64 { bins[i] = i % 32 < 16 ? 2 : 3 }
        return [GriddedBlock(productID: 63, blockNumber: block, bins: bins),
                GriddedBlock(productID: 63, blockNumber: block + 1, emptyBlocks: [block + 2, block + 3, block + 9])]
    }

    /// The sample TFR's text, long enough to need three segments.
    package static var tfrText: String {
        let part1 = "NOTAM-TFR 6/6101 161400Z PART 1 OF 2 OR..AIRSPACE SALEM, OREGON..TEMPORARY FLIGHT RESTRICTIONS. "
            + String(repeating: "PILOTS WHO DO NOT ADHERE TO THE FOLLOWING PROCEDURES MAY BE INTERCEPTED. ", count: 6)
            + "2605161400-2605161800 END PART 1 OF 2"
        let part2 = " !FDC 6/6101 ZSE PART 2 OF 2 OR..AIRSPACE SALEM, OREGON..AIRCRAFT FLIGHT OPERATIONS ARE PROHIBITED "
            + "WITHIN AN AREA DEFINED AS 3NM RADIUS OF 445434N1230011W SFC-2999FT AGL AND WITHIN AN AREA DEFINED AS "
            + "445900N1230500W 445900N1225500W 444900N1225500W 444900N1230500W SFC-4999FT MSL "
            + String(repeating: "THE FAA MAY TAKE ADMINISTRATIVE ACTION. ", count: 4)
            + "2605161400-2605161800 END PART 2 OF 2"
        return part1 + part2
    }

    /// The sample TFR's areas: a 3 NM circle SFC–3000 ft AGL and a box 0–5000 ft MSL sent as a
    /// floor polygon and a ceiling polygon.
    package static var tfrGraphics: [TWGOGraphicRecord] {
        let start = TWGOGraphicRecord.Time(month: 5, day: 16, hour: 14, minute: 0)
        let stop = TWGOGraphicRecord.Time(month: 5, day: 16, hour: 18, minute: 0)
        let circle = TWGOGeometry(shape: .circle, reference: .agl, circles: [
            TWGOGeometry.Circle(longitude: -123.003, latitude: 44.9095, floorFt: 0, ceilingFt: 3000, radiusNM: 3),
        ])
        func box(_ alt: Int) -> TWGOGeometry {
            TWGOGeometry(shape: .polygon, reference: .msl, vertices: [
                .init(longitude: -123.08, latitude: 44.98, altitudeFt: alt),
                .init(longitude: -122.92, latitude: 44.98, altitudeFt: alt),
                .init(longitude: -122.92, latitude: 44.82, altitudeFt: alt),
                .init(longitude: -123.08, latitude: 44.82, altitudeFt: alt),
            ])
        }
        return [
            TWGOGraphicRecord(reportNumber: tfrReport, reportYear: 6, overlayID: 1, start: start, stop: stop, geometry: circle),
            TWGOGraphicRecord(reportNumber: tfrReport, reportYear: 6, overlayID: 2, start: start, stop: stop, geometry: box(0)),
            TWGOGraphicRecord(reportNumber: tfrReport, reportYear: 6, overlayID: 3, start: start, stop: stop, geometry: box(5000)),
        ]
    }

    static func textAPDU(_ records: [String]) -> InformationFrame {
        .apdu(APDU(productID: 413, time: apduTime, payload: GenericTextProduct(records: records.map(GenericTextProduct.Record.init)).encode()))
    }

    static func uplink(_ frames: [InformationFrame]) -> [UInt8] {
        FISBUplink(header: station, frames: frames).encode()
    }

    /// The TFR text as three segmented APDUs.
    package static var tfrTextSegments: [APDU] {
        let whole = TWGOProduct(location: "", records: .text([TWGOTextRecord(reportNumber: tfrReport, reportYear: 6, text: tfrText)]))
        return APDUReassembler.segment(APDU(productID: 8, time: apduTime, payload: whole.encode()), fileID: tfrFileID, segmentPayload: 380)
    }

    /// The sample uplink payloads, one a second from `startTime`, in order.
    package static func uplinks() -> [[UInt8]] {
        var out: [[UInt8]] = []
        out.append(FISBUplink(header: station, frames: []).encode())
        out.append(uplink([textAPDU([metarKSLE]), textAPDU([metarKEUG])]))
        let windsPayload = GenericTextProduct(records: [.init(text: winds)]).encode()
        out.append(uplink([textAPDU([tafKPDX]), textAPDU([pirep]),
                           .apdu(APDU(productID: 413, time: APDU.Time(hour: 14, minute: 2), payload: windsPayload))]))
        let graphics = TWGOProduct(location: "", records: .graphic(tfrGraphics))
        let crl = CurrentReportList(productID: 8, isTFR: true, rangeNM: 100, entries: [
            .init(yearOrMonth: 6, reportNumber: tfrReport, hasText: true, hasGraphics: true),
        ])
        out.append(uplink([.apdu(APDU(productID: 8, time: apduTime, payload: graphics.encode())), .currentReportList(crl)]))
        for segment in tfrTextSegments { out.append(uplink([.apdu(segment)])) }
        let notam = TWGOProduct(location: "KSLE", records: .text([TWGOTextRecord(reportNumber: 12, reportYear: 26, text: notamD)]))
        out.append(uplink([.apdu(APDU(productID: 8, time: APDU.Time(month: 5, day: 16, hour: 12, minute: 0), payload: notam.encode())),
                           .serviceStatus(ServiceStatus(entries: [.init(services: 1, address: 0xA1B2C3), .init(services: 3, address: 0xAB4549)]))]))
        out.append(malformedUplink())
        out.append(FISBUplink(header: station, frames: []).encode())
        let sua = TWGOProduct(location: "", records: .text([TWGOTextRecord(reportNumber: 321, reportYear: 26, text: suaText)]))
        out.append(uplink([.apdu(APDU(productID: 13, time: apduTime, payload: sua.encode())),
                           .apdu(APDU(productID: 63, time: APDU.Time(hour: 14, minute: 0), payload: nexradBlocks[0].encode())),
                           .apdu(APDU(productID: 63, time: APDU.Time(hour: 14, minute: 0), payload: nexradBlocks[1].encode()))]))
        out.append(uplink([.apdu(APDU(productID: 63, time: APDU.Time(hour: 14, minute: 2), payload: nexradBlocks[0].encode()))]))
        return out
    }

    /// An uplink whose first frame is an APDU of unknown product 999 and whose second is a TWGO
    /// product cut short (its record declares 200 bytes, 4 are present, header cut), followed by a
    /// good METAR: the METAR must survive.
    package static func malformedUplink() -> [UInt8] {
        var bytes = station.encode()
        InformationFrame.apdu(APDU(productID: 999, time: apduTime, payload: [1, 2, 3])).encode(into: &bytes)
        let cutAIRMET: [UInt8] = [0x82, 0x10, 0, 0, 0, 0xFF, 0x32, 0x00, 0x01, 0x02]
        InformationFrame.apdu(APDU(productID: 11, time: apduTime, payload: cutAIRMET)).encode(into: &bytes)
        textAPDU([metarKONP]).encode(into: &bytes)
        return bytes + [UInt8](repeating: 0, count: FISBUplink.payloadLength - bytes.count)
    }

    /// Regional NEXRAD composites as a ground station sends them, as dump978 text: `composites`
    /// product times a minute apart, each of `blocks` blocks of light rain in rows of 32 around
    /// Salem, three blocks an uplink, an uplink a second. What the FIS-B store must hold as
    /// a composite grows (a real CONUS composite is thousands of blocks).
    package static func nexradDump978(blocks: Int, composites: Int) -> String {
        var bins = [UInt8](repeating: 0, count: GriddedBlock.binCount)
        for i in 0..<bins.count { bins[i] = i % 7 == 0 ? 3 : 2 }
        var payloads: [[UInt8]] = []
        for c in 0..<composites {
            let time = APDU.Time(hour: 14, minute: c % 60)
            var frames: [InformationFrame] = []
            for b in 0..<blocks {
                let number = (660 + b / 32) * GriddedBlock.blocksPerRing + 280 + b % 32
                frames.append(.apdu(APDU(productID: 63, time: time, payload: GriddedBlock(productID: 63, blockNumber: number, bins: bins).encode())))
                if frames.count == 3 || b == blocks - 1 {
                    payloads.append(uplink(frames))
                    frames = []
                }
            }
        }
        return dump978(payloads)
    }

    /// The samples as a raw GDL 90 stream, the form a serial or UDP tap records: a heartbeat a
    /// second from `startTime` (the time of day only: no date), each followed by one uplink
    /// message. Its products are dated 2026-05-16; the file's own time says nothing of that.
    package static func rawGDL90() -> [UInt8] {
        var bytes: [UInt8] = []
        let secondOfDay = UInt32(Int(startTime) % 86_400)
        for (i, payload) in uplinks().enumerated() {
            bytes += Message.heartbeat(Heartbeat(gpsPositionValid: true, uatInitialized: true, utcOK: true,
                                                 secondsSinceMidnight: secondOfDay + UInt32(i))).frame()
            bytes += Message.uplink(Uplink(timeOfReception: nil, payload: payload)).frame()
        }
        return bytes
    }

    /// `bytes` as lowercase hex digits, as dump978 and Stratux's logs write a message.
    package static func hex(_ bytes: [UInt8]) -> String {
        var out = OutputBuffer(capacity: bytes.count * 2)
        for b in bytes { out.appendHex(byte: b) }
        return out.text
    }

    /// The samples as dump978 text lines (`+HEX;rs=…;t=…;`).
    package static func dump978() -> String { dump978(uplinks()) }

    /// `payloads` as dump978 text lines, one a second from `startTime`.
    package static func dump978(_ payloads: [[UInt8]]) -> String {
        var text = ""
        for (i, payload) in payloads.enumerated() {
            text += "+" + hex(payload)
            text += ";rs=\(10 + i % 7);t=\(Int(startTime) + i).000;\n"
        }
        return text
    }
}
