import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import GDL90
import GatewaySupport
import GatewayDomain
import GatewayWeather

/// `gatewayd bench --only radar` (issue 42): assembling and drawing the radar pictures, each
/// beside a baseline measured in the same run.
/// - Assembly: blocks a second through `RadarAssembler` (two ground stations' interleaved
///   times), beside decoding the same blocks' payloads (`GriddedBlock(payload:)`, what the FIS-B
///   store does for every block anyway).
/// - Drawing: a whole-CONUS composite of each kind (regional NEXRAD at 1.5′ × 1′, 28,125 blocks,
///   2400 × 1500 pixels; CONUS NEXRAD at medium scale, 1,125 blocks, 480 × 300; icing at one
///   level), the picture alone and with its PNG, beside filling the same number of bytes.
/// - Memory: the assembler's bytes at its block limit (40,000 blocks).
package enum RadarBenchmark {
    /// A whole-CONUS composite of `productID` (25–50° N, 125–65° W): each bin from a smooth field
    /// with storms, a fifth of the blocks announced empty.
    package static func conusBlocks(productID: Int, scale: Int, level: Int? = nil) -> [GriddedBlock] {
        let step = scale == 1 ? 5 : 1
        var out: [GriddedBlock] = []
        let firstRing = 375 + (scale == 1 ? 4 : 0)
        for ring in stride(from: firstRing, to: 750, by: step) {
            for column in stride(from: 294, to: 369, by: step) {
                let number = ring * GriddedBlock.blocksPerRing + column
                if (ring / step + column / step) % 5 == 0 {
                    out.append(GriddedBlock(productID: productID, blockNumber: number, scale: scale, altitudeLevel: level, emptyBlocks: []))
                    continue
                }
                let probe = GriddedBlock(productID: productID, blockNumber: number, scale: scale, bins: [])
                let bins = (0..<GriddedBlock.binCount).map { i -> UInt8 in
                    let b = probe.binBounds(i)
                    let v = (sin(b.north * 3.1) + cos(b.west * 2.3) + sin((b.north + b.west) * 0.7)) * 2.4 + 2
                    let value = max(0, min(7, Int(v)))
                    return productID == 70 ? UInt8(min(5, value) << 3) : UInt8(value)
                }
                out.append(GriddedBlock(productID: productID, blockNumber: number, scale: scale, altitudeLevel: level, bins: bins))
            }
        }
        return out
    }

    private static func seconds(_ body: () -> Void) -> Double {
        let began = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
    }

    /// The results, best of `rounds` each.
    package static func run(rounds: Int = 5) -> [Benchmarks.Result] {
        var results: [Benchmarks.Result] = []
        let time = FISBSamples.startTime
        // Assembly: the regional CONUS composite at two times, interleaved as two stations send it.
        let regional = conusBlocks(productID: 63, scale: 0)
        let payloads = regional.map { $0.encode() }
        var receipts: [GridBlockReceipt] = []
        for (i, b) in regional.enumerated() {
            receipts.append(GridBlockReceipt(block: b, productTime: time + Double(i % 2) * 120, received: time + 60 + Double(i) / 100))
        }
        var decodeBest = Double.infinity, assembleBest = Double.infinity
        var held = 0
        for _ in 0..<rounds {
            decodeBest = min(decodeBest, seconds {
                var n = 0
                for p in payloads { if let b = try? GriddedBlock(productID: 63, payload: p) { n &+= b.blockNumber } }
                precondition(n != 0)
            })
            assembleBest = min(assembleBest, seconds {
                var a = RadarAssembler()
                a.add(receipts)
                held = a.blocksHeld
            })
        }
        results.append(Benchmarks.Result(name: "radar: assembly, regional NEXRAD, two times interleaved", value: Double(receipts.count) / assembleBest / 1e6,
                                         unit: "M blocks/s", baseline: Double(payloads.count) / decodeBest / 1e6,
                                         note: "(baseline: decoding the same blocks' payloads) \(held) blocks held"))
        // Drawing each kind's whole-CONUS composite.
        for (name, productID, scale, level) in [("regional NEXRAD", 63, 0, nil), ("CONUS NEXRAD", 64, 1, nil), ("icing 8,000 ft", 70, 1, 3)] as [(String, Int, Int, Int?)] {
            let blocks = conusBlocks(productID: productID, scale: scale, level: level)
            var a = RadarAssembler()
            a.add(blocks.map { GridBlockReceipt(block: $0, productTime: time, received: time) })
            guard let kind = a.kinds.first, let composite = a.latest(kind), let probe = try? RadarImage(composite) else { continue }
            var drawBest = Double.infinity, pngBest = Double.infinity, fillBest = Double.infinity
            var pngBytes = 0
            for _ in 0..<rounds {
                fillBest = min(fillBest, seconds {
                    var pixels = [UInt8](repeating: 0, count: probe.width * probe.height)
                    pixels.withUnsafeMutableBufferPointer { p in for i in stride(from: 0, to: p.count, by: 1) { p[i] = UInt8(truncatingIfNeeded: i) } }
                    precondition(pixels.count > 0)
                })
                drawBest = min(drawBest, seconds { _ = try? RadarImage(composite) })
                pngBest = min(pngBest, seconds { pngBytes = (try? RadarImage(composite))?.png().count ?? 0 })
            }
            let note = "\(probe.width) × \(probe.height) px, \(blocks.count) blocks; with its PNG \(JSONWriter.format(pngBest * 1000, decimals: 1)) ms, \(pngBytes / 1024) kB (baseline: writing as many pixel bytes)"
            results.append(Benchmarks.Result(name: "radar: drawing \(name) over CONUS", value: drawBest * 1000, unit: "ms", baseline: fillBest * 1000, note: note))
        }
        // Memory at the bound: 40,000 blocks held (a flood of distinct blocks).
        var full = RadarAssembler()
        let bins = [UInt8](repeating: 3, count: GriddedBlock.binCount)
        for n in 0..<45_000 {
            full.add(GridBlockReceipt(block: GriddedBlock(productID: 63, blockNumber: 400 * GriddedBlock.blocksPerRing + n, bins: bins), productTime: time, received: time))
        }
        results.append(Benchmarks.Result(name: "radar: memory at the block limit", value: Double(full.storageBytes) / 1_048_576, unit: "MB",
                                         note: "\(full.blocksHeld) blocks held, \(full.counters.refused) refused"))
        return results
    }
}
