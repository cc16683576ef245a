#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GDL90
import GatewaySupport

/// The command benchmark's streams (issue 24), each deterministic: the same arguments give the
/// same bytes, so a figure can be reproduced with `gatewayd bench --only commands`.
public enum BenchStreams {
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
    public static func nexradHeavy(uplinks: Int, blocksPerUplink: Int = 5) -> String {
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
}
