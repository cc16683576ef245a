#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import GDL90
import GatewaySupport
import GatewayCaptures

/// `gatewayd bench --only formats` (issue 45): how fast each capture format is read, beside the
/// raw GDL 90 reader in the same run. Each file is the demo flight in that format, repeated to
/// about `megabytes` MB, written to a temporary folder and read as `decode` reads it: the
/// `CaptureStream` (a megabyte window at a time), every datagram deframed and every message
/// decoded. The figure is the file's bytes per second (best of `rounds`); the ratio is against raw
/// GDL 90. Text formats carry fewer messages a megabyte (a hex line is over twice its frame), so
/// messages a second are given too.
package enum FormatBenchmark {
    /// The formats measured, each a file's contents: raw GDL 90 first (the baseline).
    static func files(megabytes: Int) -> [(name: String, bytes: [UInt8])] {
        let flight = DemoFlight()
        let logs = flight.stratuxLogs()
        let target = megabytes << 20
        func repeated(_ make: (Int) -> [UInt8]) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(target + (1 << 20))
            var k = 0
            while out.count < target {
                out += make(k)
                k += 1
            }
            return out
        }
        /// A Stratux log's lines after its START, their offsets moved on by `k` flights.
        func shifted(_ log: String, _ k: Int) -> [UInt8] {
            var out = ""
            for line in log.split(separator: "\n").dropFirst() {
                guard let comma = line.firstIndex(of: ","), let ns = Int64(line[..<comma]) else { continue }
                out += "\(ns + Int64(k) * Int64(DemoFlight.duration) * 1_000_000_000)\(line[comma...])\n"
            }
            return Array(out.utf8)
        }
        let start = Array(DemoFlight.stratuxStart.utf8)
        let raw = flight.datagrams().flatMap(\.bytes)
        let pcap = PcapWriter.pcap(flight.datagrams().map { (time: $0.time, bytes: $0.bytes) })
        // dump978's own output (`t=` on each line), from the UAT log's lines.
        let dump978 = logs.uat.split(separator: "\n").dropFirst().compactMap { line -> String? in
            guard let comma = line.firstIndex(of: ","), let ns = Double(line[..<comma]) else { return nil }
            return "\(line[line.index(after: comma)...])t=\(JSONWriter.format(DemoFlight.start + ns / 1e9, decimals: 3));\n"
        }.joined()
        return [
            ("raw GDL 90", repeated { _ in raw }),
            ("pcap", Array(pcap.prefix(24)) + repeated { _ in Array(pcap.dropFirst(24)) }),
            ("dump978 text", repeated { _ in Array(dump978.utf8) }),
            ("Stratux UAT log", start + repeated { shifted(logs.uat, $0) }),
            ("Stratux 1090ES log (SBS)", start + repeated { shifted(logs.es, $0) }),
            ("Stratux GPS log (NMEA)", start + repeated { shifted(logs.gps, $0) }),
            ("SBS text (port 30003)", repeated { _ in Array(flight.sbsText().utf8) }),
        ]
    }

    /// Each format's read rate against raw GDL 90's.
    package static func run(megabytes: Int = 32, rounds: Int = 5, progress: (String) -> Void = { _ in }) throws -> [Benchmarks.Result] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-formats-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [(name: String, path: String, size: Int)] = []
        for (i, file) in files(megabytes: megabytes).enumerated() {
            let path = folder.appendingPathComponent("format-\(i)").path
            guard FileManager.default.createFile(atPath: path, contents: Data(file.bytes)) else {
                throw GatewayError.file(path: path, reason: "cannot write the benchmark's file (disk full?)")
            }
            paths.append((file.name, path, file.bytes.count))
        }
        // Round by round over every format (not each format's rounds together), best of each:
        // a noisy moment of the machine costs every format alike.
        var best = [Double](repeating: .infinity, count: paths.count)
        var messages = [Int](repeating: 0, count: paths.count)
        for round in 0..<rounds {
            progress("round \(round + 1) of \(rounds): \(paths.count) files of \(megabytes) MB")
            for (i, file) in paths.enumerated() {
                let began = DispatchTime.now().uptimeNanoseconds
                var stream = try CaptureStream(path: file.path)
                var deframer = Deframer()
                var count = 0
                while let d = stream.next() {
                    d.bytes.withUnsafeBytes { bytes in
                        deframer.feed(bytes) { event in
                            if case .frame(let f) = event, (try? Message.decode(f.message)) != nil { count += 1 }
                        }
                    }
                }
                best[i] = min(best[i], Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9)
                messages[i] = count
            }
        }
        let rates = paths.indices.map { Double(paths[$0].size) / 1_048_576 / best[$0] }
        var results: [Benchmarks.Result] = []
        for i in paths.indices {
            results.append(Benchmarks.Result(name: "formats: \(paths[i].name)", value: rates[i], unit: "MB/s", baseline: i == 0 ? nil : rates[0],
                                             note: "\(JSONWriter.format(Double(messages[i]) / best[i] / 1e6, decimals: 2)) M messages/s"))
        }
        return results
    }
}
