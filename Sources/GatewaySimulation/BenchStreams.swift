#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GDL90
import GatewaySupport

/// The command benchmark's streams (issue 24), each deterministic: the same arguments give the
/// same bytes, so a figure can be reproduced with `gatewayd bench --only commands`.
package enum BenchStreams {
    /// A raw GDL 90 stream shaped like a Stratux's on the UDP port, in the proportions of a real
    /// recording a second: heartbeat, Stratux heartbeat and status, ownship, geometric altitude,
    /// five ForeFlight AHRS messages, a ForeFlight ID every 5 s, one traffic report for each of
    /// `targets` targets, and `uplinks` FIS-B uplinks (the text and TFR samples, in turn); about
    /// 1 % of frames carry a damaged CRC, as a noisy link gives. Written until `megabytes` MB.
    package static func stratuxShaped(megabytes: Int, targets: Int = 20, uplinks: Int = 4, into out: OpenFile) throws(GatewayError) {
        let samples = FISBSamples.uplinks()
        let field = TargetField(count: targets)
        var written = 0, second = 0, frameCount = 0
        while written < megabytes << 20 {
            let s = 36_000 + second % 43_200
            var messages: [Message] = [
                .heartbeat(Heartbeat(gpsPositionValid: true, utcOK: true, secondsSinceMidnight: UInt32(s))),
                .stratuxHeartbeat(StratuxHeartbeat(gpsValid: true, ahrsValid: true)),
                .stratuxStatus(StratuxStatus(versionMajor: 1, versionMinor: 6, satellitesLocked: 9, satellitesTracked: 14,
                                             uatTargets: UInt16(targets / 2), esTargets: UInt16(targets - targets / 2),
                                             uatMessagesPerMinute: 900, esMessagesPerMinute: 2400, cpuTemperatureC: 48.5)),
            ]
            messages += field.messages(second: s)
            messages.insert(.ownshipGeoAltitude(OwnshipGeometricAltitude(altitudeFt: 3150)), at: 4)
            for k in 0..<5 {
                messages.append(.foreFlightAHRS(ForeFlightAHRS(rollDeg: Double(k) - 2, pitchDeg: 1.5, headingDeg: 90, indicatedAirspeedKt: 100, trueAirspeedKt: 104)))
            }
            if second % 5 == 0 {
                messages.append(.foreFlightID(ForeFlightID(serialNumber: 0x5354_5241_5455_5801, deviceName: "Stratux", deviceLongName: "Stratux ADS-B")))
            }
            for u in 0..<uplinks {
                messages.append(.uplink(Uplink(timeOfReception: UInt32(u * 1000), payload: samples[(second * uplinks + u) % samples.count])))
            }
            var chunk: [UInt8] = []
            for m in messages {
                var frame = m.frame()
                frameCount += 1
                // About 1 frame in 100 damaged on the link: one bit of its message ID flipped
                // (0x20, which never makes a flag or escape byte of an ID), so its CRC fails.
                if frameCount % 97 == 0, frame[1] != 0x7D { frame[1] ^= 0x20 }
                chunk += frame
            }
            try out.write(chunk)
            written += chunk.count
            second += 1
        }
    }

    /// A message-dense stream: once a second a heartbeat, ownship and `targets` traffic reports,
    /// each frame on its own (the many-small-frames case where the cost per message dominates).
    package static func messageDense(megabytes: Int, targets: Int = 5, into out: OpenFile) throws(GatewayError) {
        let field = TargetField(count: targets)
        var written = 0, second = 0
        while written < megabytes << 20 {
            let s = 36_000 + second % 43_200
            var chunk = Message.heartbeat(Heartbeat(gpsPositionValid: true, utcOK: true, secondsSinceMidnight: UInt32(s))).frame()
            for m in field.messages(second: s) { chunk += m.frame() }
            try out.write(chunk)
            written += chunk.count
            second += 1
        }
    }

    /// A NEXRAD-heavy FIS-B capture (dump978 text): `uplinks` uplinks of `blocksPerUplink`
    /// gridded blocks each, regional and CONUS NEXRAD (products 63 and 64) at 4 and 2 levels of
    /// detail as real composites mix them, every block with its run-length bins.
    package static func nexradHeavy(uplinks: Int, blocksPerUplink: Int = 5) -> String {
        var bins = [UInt8](repeating: 0, count: GriddedBlock.binCount)
        for i in 0..<bins.count { bins[i] = UInt8(i % 11 == 0 ? 4 : i % 5 == 0 ? 3 : i % 3 == 0 ? 1 : 0) }
        var payloads: [[UInt8]] = []
        var n = 0
        for u in 0..<uplinks {
            var frames: [InformationFrame] = []
            for _ in 0..<blocksPerUplink {
                let product = n % 4 == 3 ? 64 : 63
                let time = APDU.Time(hour: 14, minute: (u / 500) % 60)
                let number = (600 + (n / 32) % 200) * GriddedBlock.blocksPerRing + 200 + n % 32
                frames.append(.apdu(APDU(productID: product, time: time, payload: GriddedBlock(productID: product, blockNumber: number, bins: bins).encode())))
                n += 1
            }
            payloads.append(FISBSamples.uplink(frames))
        }
        return FISBSamples.dump978(payloads)
    }

    /// A FIS-B capture shaped like a real ground station's 20 minutes (issue 44), dump978 text,
    /// two uplinks a second: every uplink with regional and CONUS NEXRAD blocks (the same blocks
    /// again each cycle, regional every 2.5 min, CONUS every 15), and the text products in their
    /// proportions: METARs of 60 stations every 5 min (about every third uplink), TAFs of 30 every
    /// 10 min, PIREPs, winds aloft, NOTAM-D texts and current report lists, each station's text
    /// the same until it is issued anew. A real recording repeated (`copies`) sends it all again.
    package static func realShapedFISB(seconds: Int = 1_200) -> String {
        var bins = [UInt8](repeating: 0, count: GriddedBlock.binCount)
        for i in 0..<bins.count { bins[i] = UInt8(i % 11 == 0 ? 4 : i % 5 == 0 ? 3 : i % 3 == 0 ? 1 : 0) }
        let stations = (0..<60).map { i -> String in
            let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
            return "K" + String(letters[i % 26]) + String(letters[(i / 26 + i) % 26]) + String(letters[(i * 7) % 26])
        }
        func text(_ productID: Int, _ records: [String], minute: Int) -> InformationFrame {
            .apdu(APDU(productID: productID, time: APDU.Time(hour: 14, minute: minute % 60),
                       payload: GenericTextProduct(records: records.map(GenericTextProduct.Record.init)).encode()))
        }
        var payloads: [[UInt8]] = []
        var regional = 0, conus = 0, metar = 0, taf = 0, notam = 0
        for u in 0..<(seconds * 2) {
            let second = u / 2
            var frames: [InformationFrame] = []
            // NEXRAD: 3 regional and 2 CONUS blocks an uplink, cycling over their composites.
            for _ in 0..<3 {
                let number = (640 + (regional / 32) % 24) * GriddedBlock.blocksPerRing + 280 + regional % 32
                let time = APDU.Time(hour: 14, minute: (second / 150 * 2) % 60)
                frames.append(.apdu(APDU(productID: 63, time: time, payload: GriddedBlock(productID: 63, blockNumber: number, bins: bins).encode())))
                regional = (regional + 1) % 600
            }
            for _ in 0..<2 {
                let number = (600 + (conus / 64) % 100) * GriddedBlock.blocksPerRing + 150 + conus % 64
                let time = APDU.Time(hour: 14, minute: (second / 900 * 15) % 60)
                frames.append(.apdu(APDU(productID: 64, time: time, payload: GriddedBlock(productID: 64, blockNumber: number, bins: bins).encode())))
                conus = (conus + 1) % 4_000
            }
            // METARs: each station every 5 minutes, the text new each hour (issued at :56).
            if u % 3 == 0 {
                let s = stations[metar % stations.count]
                let hour = 13 + second / 3600
                frames.append(text(413, ["METAR \(s) 16\(hour)56Z 3\(metar % 6)008KT 10SM FEW0\(40 + metar % 5) 16/06 A3012 RMK AO2 SLP201="], minute: 56))
                metar += 1
            }
            if u % 10 == 5 {
                let s = stations[taf % 30]
                frames.append(text(413, ["TAF \(s) 161340Z 1614/1718 33010KT P6SM SCT050\n     FM170000 32012KT P6SM BKN060 TEMPO 1700/1704 5SM -SHRA BKN030="], minute: 40))
                taf += 1
            }
            if u % 40 == 7 { frames.append(text(413, ["PIREP SLE 161350Z \(stations[u % 60]) UA /OV SLE090010/TM 1350/FL065/TP C172/SK SCT070/RM SMOOTH"], minute: 50)) }
            if u % 60 == 11 { frames.append(text(413, ["WINDS SLE 161800Z  FT 3000 6000 9000 12000 18000\nSLE 3010 3115+08 3120+03 3125-03 3135-15"], minute: 2)) }
            if u % 20 == 3 {
                let number = 100 + notam % 80
                let body = "NOTAM-D \(stations[notam % 60]).05/\(number) 161200Z !\(stations[notam % 60].dropFirst()) 05/\(number) RWY 13/31 CLSD 2605161200-2605162000"
                let product = TWGOProduct(location: stations[notam % 60], records: .text([TWGOTextRecord(reportNumber: number, reportYear: 26, text: body)]))
                frames.append(.apdu(APDU(productID: 8, time: APDU.Time(month: 5, day: 16, hour: 12, minute: 0), payload: product.encode())))
                notam += 1
            }
            if u % 4 == 1 {
                frames.append(.currentReportList(CurrentReportList(productID: 8, isTFR: false, rangeNM: 100,
                    entries: (0..<8).map { .init(yearOrMonth: 26, reportNumber: 100 + ($0 + u) % 80, hasText: true, hasGraphics: false) })))
            }
            payloads.append(FISBUplink(header: FISBSamples.station, frames: frames).encode())
        }
        return FISBSamples.dump978(payloads)
    }
}
