#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GDL90
import GatewaySupport
import GatewayDomain

/// Release-mode measurements for `gatewayd bench`, each beside a baseline measured in the same
/// run so that the ratio, not the machine, is the figure that matters.
package enum Benchmarks {
    /// One measurement.
    package struct Result: Sendable {
        /// What was measured.
        package var name: String
        /// The figure.
        package var value: Double
        /// Its unit.
        package var unit: String
        /// The baseline figure, if any.
        package var baseline: Double?
        /// Free text.
        package var note: String = ""
        /// "value unit (baseline …, ×ratio)".
        package var line: String {
            var s = "\(name): \(JSONWriter.format(value, decimals: 2)) \(unit)"
            if let baseline, baseline > 0 {
                s += "  (baseline \(JSONWriter.format(baseline, decimals: 2)) \(unit), ×\(JSONWriter.format(value / baseline, decimals: 2)))"
            }
            if !note.isEmpty { s += "  \(note)" }
            return s
        }
    }

    /// A synthetic stream of about `megabytes` MB: the demo flight's datagrams repeated.
    package static func syntheticStream(megabytes: Int) -> [UInt8] {
        let one = DemoFlight().datagrams().flatMap(\.bytes)
        var out: [UInt8] = []
        out.reserveCapacity(megabytes << 20 + one.count)
        while out.count < megabytes << 20 { out += one }
        return out
    }

    /// Deframe + CRC + decode throughput (MB/s and messages/s) against a naive implementation.
    package static func codec(megabytes: Int = 64, rounds: Int = 3) -> [Result] {
        let stream = syntheticStream(megabytes: megabytes)
        /// Best time over `rounds` of deframing the stream in 1 KiB chunks, handing each frame to `onFrame`.
        func bestTime(_ onFrame: (Frame) -> Void) -> Double {
            var best = Double.infinity
            for _ in 0..<rounds {
                let start = DispatchTime.now().uptimeNanoseconds
                var deframer = Deframer()
                stream.withUnsafeBytes { raw in
                    var i = 0
                    while i < raw.count {
                        let end = min(raw.count, i + 1024)
                        deframer.feed(UnsafeRawBufferPointer(rebasing: raw[i..<end])) { if case .frame(let f) = $0 { onFrame(f) } }
                        i = end
                    }
                }
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            return best
        }
        var messages = 0
        let best = bestTime { f in
            // As a consumer would: switch on the result (no generic Optional comparison).
            do {
                switch try Message.decode(f.message) {
                case .unknown: break
                default: messages += 1
                }
            } catch {}
        }
        messages /= rounds
        var frames = 0
        let deframeBest = bestTime { _ in frames += 1 }
        precondition(frames > 0)
        var naiveBest = Double.infinity
        let naiveStream = Array(stream.prefix(max(1, megabytes / 8) << 20))
        for _ in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = NaiveCodec.decodeAll(naiveStream)
            naiveBest = min(naiveBest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let mb = Double(stream.count) / 1_048_576
        let naiveMB = Double(naiveStream.count) / 1_048_576
        return [
            Result(name: "codec throughput (deframe + CRC + decode, 1 KiB chunks)", value: mb / best, unit: "MB/s",
                   baseline: naiveMB / naiveBest, note: "naive: byte-at-a-time array growth, bitwise CRC, copying decode"),
            Result(name: "codec message rate", value: Double(messages) / best / 1e6, unit: "M messages/s"),
            Result(name: "deframe + CRC only", value: mb / deframeBest, unit: "MB/s"),
        ]
    }

    /// Ingest rate of whole datagrams through the pipeline (core included) and the latency from a
    /// datagram to its alerts with `targets` simultaneous targets, p50/p99.
    package static func pipeline(targets: Int = 500, seconds: Int = 60) -> [Result] {
        let flight = TargetField(count: targets)
        let datagrams = (0..<seconds).flatMap { flight.datagrams(second: $0) }
        var pipeline = GatewayPipeline()
        var latencies: [Double] = []
        latencies.reserveCapacity(datagrams.count)
        var alerts = 0
        let total = ingestAll(datagrams, into: &pipeline, latencies: &latencies, alerts: &alerts)
        latencies.sort()
        func pct(_ p: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        // Baseline: the same datagrams through the deframer and decoder alone (no core).
        let baseStart = DispatchTime.now().uptimeNanoseconds
        var deframer = Deframer()
        for d in datagrams {
            deframer.feed(d.bytes) { if case .frame(let f) = $0 { _ = try? Message.decode(f.message) } }
        }
        let baseTotal = Double(DispatchTime.now().uptimeNanoseconds - baseStart) / 1e9
        return [
            Result(name: "ingest rate, \(targets) targets, whole pipeline", value: Double(datagrams.count) / total, unit: "datagrams/s",
                   baseline: Double(datagrams.count) / baseTotal, note: "baseline: decode only, no core"),
            Result(name: "datagram-to-alert latency p50", value: pct(0.5), unit: "ms"),
            Result(name: "datagram-to-alert latency p99", value: pct(0.99), unit: "ms",
                   note: "\(datagrams.count) datagrams, \(alerts) alert changes, \(pipeline.core.picture.targets.count) targets held"),
        ]
    }

    /// Feeds `datagrams` to `pipeline`, recording each one's latency (ms); returns the total time, s.
    /// Not inlined, so that profilers can attribute the ingest loop alone.
    @inline(never)
    static func ingestAll(_ datagrams: [DemoFlight.Datagram], into pipeline: inout GatewayPipeline,
                          latencies: inout [Double], alerts: inout Int) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for d in datagrams {
            let t0 = DispatchTime.now().uptimeNanoseconds
            alerts += pipeline.process(.datagram(d.bytes), at: d.time).alerts.count
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Resident set size of this process, MB (from /proc/self/status).
    package static func residentMB() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let digits = line.split(separator: " ").compactMap { Double($0) }
            if let kb = digits.first { return kb / 1024 }
        }
        return nil
    }
}

/// `count` targets spread over 20 NM around a circling ownship, each reporting once a second in
/// ~1 kB datagrams as Stratux packs them; a few on conflicting paths so alerts are exercised.
struct TargetField {
    let count: Int
    let plane = LocalPlane(origin: DemoFlight.origin)

    /// Ownship's report and one traffic report a target, at second `s`.
    func messages(second s: Int) -> [Message] {
        let t = Double(s)
        var messages: [Message] = []
        let own = plane.unproject(PlanePoint(east: 0, north: t * 100 / 3600))
        messages.append(.ownship(TrafficReport(address: 0xA1B2C3, position: own, pressureAltitudeFt: 3000, groundSpeedKt: 100,
                                               verticalSpeedFpm: 0, trackDeg: 0)))
        for i in 0..<count {
            let angle = Double(i) * 137.5
            let radius = 0.5 + Double(i % 40) * 0.5
            let heading = (angle + 180 + Double(i % 7) * 5).truncatingRemainder(dividingBy: 360)
            let v = PlaneVelocity(speedKt: 120, trackDeg: heading)
            let p = PlanePoint(east: radius * sinDeg(angle) + v.east * t / 3600, north: radius * cosDeg(angle) + v.north * t / 3600)
            messages.append(.traffic(TrafficReport(
                address: 0x100000 + UInt32(i), position: plane.unproject(p), pressureAltitudeFt: 2000 + (i % 9) * 250,
                groundSpeedKt: 120, verticalSpeedFpm: 0, trackDeg: (heading / 1.40625).rounded() * 1.40625, callsign: "T\(i)")))
        }
        return messages
    }

    func datagrams(second s: Int) -> [DemoFlight.Datagram] {
        let t = Double(s)
        var frames: [[UInt8]] = [Message.heartbeat(Heartbeat(gpsPositionValid: true, utcOK: true, secondsSinceMidnight: UInt32(s))).frame()]
        frames += messages(second: s).map { $0.frame() }
        var out: [DemoFlight.Datagram] = []
        var current: [UInt8] = []
        for f in frames {
            if current.count + f.count > 1024 {
                out.append(.init(time: t + Double(out.count) * 0.001, bytes: current))
                current = []
            }
            current += f
        }
        if !current.isEmpty { out.append(.init(time: t + Double(out.count) * 0.001, bytes: current)) }
        return out
    }
}

/// The baseline: how a first, straightforward implementation would decode (growing arrays byte
/// by byte, a bitwise CRC, copies everywhere).
enum NaiveCodec {
    static func crc(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0
        for b in bytes {
            var x = crc >> 8
            for _ in 0..<8 { x = (x & 0x8000) != 0 ? (x << 1) ^ 0x1021 : x << 1 }
            crc = x ^ (crc << 8) ^ UInt16(b)
        }
        return crc
    }

    static func decodeAll(_ stream: [UInt8]) -> Int {
        var frames: [[UInt8]] = []
        var current: [UInt8]? = nil
        var escape = false
        for b in stream {
            if b == 0x7E {
                if let c = current, c.count >= 3 { frames.append(c) }
                current = []
                continue
            }
            guard current != nil else { continue }
            if escape { current!.append(b ^ 0x20); escape = false } else if b == 0x7D { escape = true } else { current!.append(b) }
        }
        var ok = 0
        for f in frames {
            let body = Array(f.dropLast(2))
            let received = UInt16(f[f.count - 2]) | UInt16(f[f.count - 1]) << 8
            if crc(body) == received, (try? Message.decode(Array(body))) != nil { ok += 1 }
        }
        return ok
    }
}
