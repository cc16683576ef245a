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
import GatewayDomain

/// FIS-B decode throughput: synthetic uplinks (half empty, the rest 413 text, TFR graphics with a
/// report list, segmented TFR text, NOTAM-D) decoded into products by the store, beside a baseline
/// measured in the same run over the same bytes (copy + CRC-16 of every payload).
package enum FISBBenchmark {
    /// `count` synthetic uplink payloads: the sample uplinks, cycled, with fresh product file IDs
    /// and report numbers so reassembly and the store do real work.
    package static func uplinks(count: Int) -> [[UInt8]] {
        let empty = FISBUplink(header: FISBSamples.station, frames: []).encode()
        var base: [[UInt8]] = []
        for (i, payload) in FISBSamples.uplinks().enumerated() {
            base.append(payload)
            if i % 2 == 0 { base.append(empty) }
        }
        // About half of real uplinks are empty.
        while base.filter({ FISBUplink.isEmpty($0) }).count * 2 < base.count { base.append(empty) }
        var out: [[UInt8]] = []
        out.reserveCapacity(count)
        while out.count < count { out += base.prefix(count - out.count) }
        return out
    }

    /// Uplinks per second: full decode into products, decode only (frames, APDUs, records), empty
    /// uplinks through the store, and the copy+CRC baseline; each the best of `rounds`.
    package static func run(uplinks count: Int = 200_000, rounds: Int = 3) -> [Benchmarks.Result] {
        let payloads = uplinks(count: count)
        func best(_ body: () -> Int) -> (seconds: Double, sink: Int) {
            var bestTime = Double.infinity
            var sink = 0
            for _ in 0..<rounds {
                let start = DispatchTime.now().uptimeNanoseconds
                sink &+= body()
                bestTime = min(bestTime, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            return (bestTime, sink)
        }
        var scratch = [UInt8](repeating: 0, count: FISBUplink.payloadLength)
        let baseline = best {
            var acc = 0
            for p in payloads {
                scratch.withUnsafeMutableBytes { dst in p.withUnsafeBytes { src in dst.copyMemory(from: src) } }
                acc &+= Int(CRC16.compute(scratch))
            }
            return acc
        }
        let decodeOnly = best {
            var acc = 0
            for p in payloads where !FISBUplink.isEmpty(p) {
                guard let u = try? FISBUplink(payload: p) else { continue }
                for case .apdu(let a) in u.frames where a.segment == nil {
                    if let c = try? FISBProductContent(a) { acc &+= c.hashValue & 1 }
                }
            }
            return acc
        }
        var products = 0
        let full = best {
            var store = FISBProductStore()
            var n = 0
            // Spread over the samples' 4-hour validity, as a receiver near a station sees them.
            let step = 4 * 3600 / Double(max(1, payloads.count))
            for (i, p) in payloads.enumerated() { n += store.ingest(payload: p, at: FISBSamples.startTime + Double(i) * step).count }
            products = n
            return n
        }
        let empty = FISBUplink(header: FISBSamples.station, frames: []).encode()
        let emptyOnly = best {
            var store = FISBProductStore()
            var n = 0
            for i in 0..<payloads.count { n += store.ingest(payload: empty, at: FISBSamples.startTime + Double(i)).count }
            return n + store.counters.emptyUplinks
        }
        let perSecond = { (s: Double) in s > 0 ? Double(count) / s : 0 }
        return [
            Benchmarks.Result(name: "fisb decode to products", value: perSecond(full.seconds), unit: "uplinks/s",
                              baseline: perSecond(baseline.seconds), note: "\(count) uplinks, \(products) product versions; "
                                + "baseline: copy + CRC-16 of each payload (sink \(baseline.sink & 0xF))"),
            Benchmarks.Result(name: "fisb decode only", value: perSecond(decodeOnly.seconds), unit: "uplinks/s",
                              baseline: perSecond(baseline.seconds), note: "frames, APDUs, records; no store (sink \(decodeOnly.sink & 1))"),
            Benchmarks.Result(name: "fisb empty uplinks into the store", value: perSecond(emptyOnly.seconds), unit: "uplinks/s",
                              baseline: perSecond(baseline.seconds), note: "the early out (sink \(emptyOnly.sink & 1))"),
        ]
    }
}
