#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import GDL90

#if canImport(Glibc)
import Glibc
import GatewaySupport
import GatewayCaptures
#endif

/// What a user runs, measured as a user runs it: `gatewayd decode`, `decode --json`,
/// `replay --json --speed max` and `fisb --json` as child processes on real-sized files, output to
/// /dev/null, wall time (best of seven, taken in turn with the baseline's: the runs are a tenth of
/// a second, and this machine's busy spells last longer) and peak resident memory. Each
/// figure stands beside the same command run by a baseline executable in the same run (an earlier
/// build, `--baseline`), and beside the codec alone (deframe + CRC + decode, in this process).
package enum CommandBenchmark {
    /// One child run: seconds of wall time and peak resident memory, MB.
    package struct Run: Sendable {
        /// Wall time, seconds.
        package var seconds: Double
        /// Peak resident set size, MB (`ru_maxrss`).
        package var peakMB: Double
        /// Exit status.
        package var status: Int32
    }

    /// A raw GDL 90 stream of about `megabytes` MB: `targets` targets and ownship, once a second,
    /// heartbeat first (as Stratux sends them), in ~1 kB datagrams; written to `path`.
    package static func writeTrafficStream(path: String, megabytes: Int, targets: Int) throws {
        let field = TargetField(count: targets)
        let out = try OpenFile.writing(path)
        var written = 0
        var second = 0
        while written < megabytes << 20 {
            var chunk: [UInt8] = []
            for d in field.datagrams(second: 36_000 + second % 43_200) { chunk += d.bytes }
            try out.write(chunk)
            written += chunk.count
            second += 1
        }
    }

    /// Writes `path` as `copies` copies of `source` back to back (a long capture of the same shape).
    package static func writeRepeated(source: String, path: String, copies: Int) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let out = try OpenFile.writing(path)
        for _ in 0..<copies { try out.write(bytes) }
    }

    /// Runs `executable arguments…` with stdout and stderr to /dev/null. Spawned and reaped here
    /// (not with `Process`, whose own reaper would take the child's resource usage).
    package static func run(_ executable: String, _ arguments: [String]) throws -> Run {
        // The child's own peak (VmHWM) is reported by the child at exit: `ru_maxrss` would count
        // this process's memory too, which the child shares until it executes (vfork).
        let peakFile = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-peak-\(getpid())").path
        unlink(peakFile)
        defer { unlink(peakFile) }
        let start = DispatchTime.now().uptimeNanoseconds
        let child = try ChildProcess(executable, arguments, extraEnvironment: [PeakMemory.variable: peakFile])
        let (status, usage) = child.waitWithUsage()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let reported = (try? String(contentsOfFile: peakFile, encoding: .utf8)).flatMap { Double($0.trimmingWhitespaceAndNewlines()) }
        return Run(seconds: seconds, peakMB: (reported ?? Double(usage.ru_maxrss)) / 1024, status: status)
    }

    /// The best of `rounds` runs of each executable (least wall time; the largest peak memory
    /// seen), their runs taken in turn so that a busy spell of the machine falls on both. A run
    /// that fails ends the measurement with its status.
    package static func best(_ executables: [String], _ arguments: [String], rounds: Int = 7) throws -> [Run] {
        var best = executables.map { _ in Run(seconds: .infinity, peakMB: 0, status: 0) }
        for _ in 0..<rounds {
            for (i, executable) in executables.enumerated() {
                let r = try run(executable, arguments)
                if r.status != 0 { best[i] = r; return best }
                best[i].seconds = min(best[i].seconds, r.seconds)
                best[i].peakMB = max(best[i].peakMB, r.peakMB)
            }
        }
        return best
    }

    /// The benchmark: a `megabytes` MB stream of `targets` targets for decode and replay, the
    /// `fisb` captures repeated `fisbCopies` times for fisb, and (when `gigabytes` > 0) a capture
    /// of that size for peak memory. Files go to a temporary folder removed afterwards; with
    /// `keepStreams` the three generated streams (`stratux.gdl90`, `dense.gdl90`, `nexrad.978`)
    /// are written to that folder instead and kept, so the commands can be profiled on them.
    package static func run(executable: String, baseline: String?, megabytes: Int = 20, targets: Int = 500,
                           fisb: [String], fisbCopies: Int = 2_000, gigabytes: Int = 0, keepStream: String? = nil,
                           keepStreams: String? = nil, pythonDecoder: String = "scripts/bench/gdl90_json.py",
                           progress: (String) -> Void) throws -> [Benchmarks.Result] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let streams = keepStreams.map { URL(fileURLWithPath: $0) } ?? folder
        if keepStreams != nil { try FileManager.default.createDirectory(at: streams, withIntermediateDirectories: true) }
        // The Stratux-shaped stream (every message type a Stratux sends, in a real recording's
        // proportions, ~1 % damaged) and a message-dense one (heartbeat, ownship, 5 targets).
        let stream = keepStream ?? streams.appendingPathComponent("stratux.gdl90").path
        if keepStream == nil || !FileManager.default.fileExists(atPath: stream) {
            progress("writing a \(megabytes) MB Stratux-shaped stream (20 targets, 4 uplinks a second) to \(stream)")
            try BenchStreams.stratuxShaped(megabytes: megabytes, into: try OpenFile.writing(stream))
        }
        let dense = streams.appendingPathComponent("dense.gdl90").path
        progress("writing a \(megabytes) MB message-dense stream to \(dense)")
        try BenchStreams.messageDense(megabytes: megabytes, into: try OpenFile.writing(dense))
        var results: [Benchmarks.Result] = []

        /// Size and messages (frames decoded or rejected) of a stream, and the codec alone over it
        /// in this process: the ceiling for decode.
        func codec(_ path: String, _ name: String) throws -> (size: Double, messages: Double) {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            var codecBest = Double.infinity
            var messages = 0
            for _ in 0..<3 {
                var deframer = Deframer()
                var sink = 0
                messages = 0
                let start = DispatchTime.now().uptimeNanoseconds
                deframer.feed(bytes) { event in
                    messages += 1
                    if case .frame(let f) = event, let m = try? Message.decode(f.message) { sink &+= m.typeName.utf8.count }
                }
                codecBest = min(codecBest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                if sink == 42 { print("") }
            }
            let size = Double(bytes.count)
            results.append(.init(name: "codec alone (deframe + CRC + decode), \(name), \(JSONWriter.format(size / 1e6, decimals: 0)) MB",
                                 value: size / 1e6 / codecBest, unit: "MB/s",
                                 note: "\(JSONWriter.format(Double(messages) / codecBest / 1e6, decimals: 1)) M messages/s"))
            return (size, Double(messages))
        }
        // How the Swift runtime is linked shows in every figure (a shared one costs 3.5 ms at each
        // start and a PLT call per retain and release): say it for each executable.
        progress("executable \(executable): \(swiftRuntimeLinking(of: executable))")
        if let baseline { progress("baseline \(baseline): \(swiftRuntimeLinking(of: baseline))") }
        let shaped = try codec(stream, "Stratux-shaped")
        let denseShape = try codec(dense, "message-dense")

        func measure(_ name: String, _ arguments: [String], inputBytes: Double, perSecond unit: String, count: Double? = nil, messages: Double? = nil) throws {
            progress(name)
            let runs = try best([executable] + (baseline.map { [$0] } ?? []), arguments)
            let now = runs[0]
            guard now.status == 0 else { throw GatewayError.subprocess(name: name, status: Int32(now.status)) }
            let before = runs.count > 1 && runs[1].status == 0 ? runs[1] : nil  // a failing baseline gives no figure
            let amount = count ?? inputBytes / 1e6
            var result = Benchmarks.Result(name: name, value: amount / now.seconds, unit: unit, baseline: before.map { amount / $0.seconds })
            result.note = (messages.map { "\(JSONWriter.format($0 / now.seconds / 1e6, decimals: 2)) M messages/s; " } ?? "")
                + "\(JSONWriter.format(now.seconds, decimals: 2)) s, peak \(JSONWriter.format(now.peakMB, decimals: 0)) MB"
                + (before.map { "; baseline \(JSONWriter.format($0.seconds, decimals: 2)) s, peak \(JSONWriter.format($0.peakMB, decimals: 0)) MB" } ?? "")
            results.append(result)
        }
        let date = ["--date", "2026-05-16"]
        try measure("decode --json, Stratux-shaped", ["decode", "--json"] + date + [stream], inputBytes: shaped.size, perSecond: "MB/s", messages: shaped.messages)
        // The same-run peer: a plain Python decoder printing the same JSON fields (when python3
        // and the script are here: it is the repository's scripts/bench/gdl90_json.py).
        let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        if let python, FileManager.default.fileExists(atPath: pythonDecoder) {
            progress("Python decoder (\(pythonDecoder)), once")
            let r = try run(python, [pythonDecoder, stream, "2026-05-16"])
            if r.status == 0, let ours = results.last(where: { $0.name == "decode --json, Stratux-shaped" }) {
                let rate = shaped.size / 1e6 / r.seconds
                results.append(.init(name: "Python decoder printing the same fields (\(pythonDecoder)), Stratux-shaped", value: rate, unit: "MB/s",
                                     note: "\(JSONWriter.format(r.seconds, decimals: 1)) s; decode --json is ×\(JSONWriter.format(ours.value / rate, decimals: 0)) of it"))
            }
        }
        try measure("decode --json, message-dense", ["decode", "--json"] + date + [dense], inputBytes: denseShape.size, perSecond: "MB/s", messages: denseShape.messages)
        try measure("decode (readable), Stratux-shaped", ["decode"] + date + [stream], inputBytes: shaped.size, perSecond: "MB/s", messages: shaped.messages)
        try measure("replay --json --speed max, Stratux-shaped", ["replay", "--json", "--speed", "max", "--no-store"] + date + [stream],
                    inputBytes: shaped.size, perSecond: "MB/s", messages: shaped.messages)
        if !fisb.isEmpty {
            var uplinks = 0
            for path in fisb {
                let capture = try CaptureFile.read(path: path)
                for d in capture.datagrams { uplinks += d.bytes.count > 400 ? 1 : 0 }
            }
            let repeated = folder.appendingPathComponent("fisb.978").path
            let joined = folder.appendingPathComponent("fisb-one.978").path
            _ = FileManager.default.createFile(atPath: joined, contents: try fisb.reduce(into: Data()) { $0 += try Data(contentsOf: URL(fileURLWithPath: $1)) })
            try writeRepeated(source: joined, path: repeated, copies: fisbCopies)
            try measure("fisb --json (\(uplinks) uplinks × \(fisbCopies))", ["fisb", "--json", repeated], inputBytes: 0, perSecond: "uplinks/s",
                        count: Double(uplinks * fisbCopies))
        }
        // Real-shaped (issue 44): a ground station's 20 minutes (NEXRAD and the text products in
        // a real recording's proportions) repeated 20 times, as the real recording was measured.
        let realShaped = streams.appendingPathComponent("fisb-real-shaped.978").path
        let oneRealShaped = folder.appendingPathComponent("fisb-real-shaped-one.978").path
        _ = FileManager.default.createFile(atPath: oneRealShaped, contents: Data(BenchStreams.realShapedFISB().utf8))
        try writeRepeated(source: oneRealShaped, path: realShaped, copies: 20)
        try measure("fisb --json, real-shaped (2,400 uplinks × 20 copies)", ["fisb", "--json", realShaped], inputBytes: 0, perSecond: "uplinks/s",
                    count: 48_000)
        // NEXRAD-heavy: 20,000 uplinks of 5 gridded blocks each (regional and CONUS NEXRAD).
        let nexrad = streams.appendingPathComponent("nexrad.978").path
        _ = FileManager.default.createFile(atPath: nexrad, contents: Data(BenchStreams.nexradHeavy(uplinks: 20_000).utf8))
        let nexradName = "fisb --json, NEXRAD-heavy (20,000 uplinks × 5 gridded blocks)"
        try measure(nexradName, ["fisb", "--json", nexrad], inputBytes: 0, perSecond: "uplinks/s", count: 20_000)
        // The same-run peer: fisb-decode (Python, levels 0–3) on the same capture, where it is installed.
        if let ours = results.last(where: { $0.name == nexradName }) {
            results.append(try fisbDecodeComparison(capture: nexrad, uplinks: 20_000, ours: ours.value, progress: progress))
        }
        if gigabytes > 0 {
            let big = folder.appendingPathComponent("big.gdl90").path
            let copies = max(1, Int((Double(gigabytes) * 1_073_741_824 / shaped.size).rounded(.up)))
            progress("writing a \(JSONWriter.format(shaped.size * Double(copies) / 1_073_741_824, decimals: 1)) GB capture")
            try writeRepeated(source: stream, path: big, copies: copies)
            for (name, args) in [("decode --json", ["decode", "--json"]), ("replay --json --speed max", ["replay", "--json", "--speed", "max", "--no-store"])] {
                progress("\(name), \(gigabytes) GB")
                // Not run with the baseline build: one that reads captures whole needs several GB.
                let r = try run(executable, args + date + [big])
                results.append(.init(name: "peak resident memory, \(name) of \(gigabytes) GB", value: r.peakMB, unit: "MB",
                                     note: "\(JSONWriter.format(r.seconds, decimals: 1)) s"))
            }
        }
        return results
    }
}

extension CommandBenchmark {
    /// How the executable at `path` links the Swift runtime: dynamically when its dynamic string
    /// table (in the file's first megabytes) names libswiftCore.so.
    static func swiftRuntimeLinking(of path: String) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "not readable" }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 4 << 20)
        let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        guard n > 0 else { return "not readable" }
        let name = Array("libswiftCore.so".utf8)
        let dynamic = head[..<n].withUnsafeBytes { bytes in
            bytes.withMemoryRebound(to: UInt8.self) { b in
                b.indices.dropLast(name.count - 1).contains { i in b[i] == name[0] && b[i..<(i + name.count)].elementsEqual(name) }
            }
        }
        return dynamic ? "Swift runtime linked dynamically (swift build -c release)"
            : "Swift runtime linked statically (swift build -c release --static-swift-stdlib, as deploy/install.sh builds it)"
    }

    /// The name `fisbDecode` looks for on PATH.
    package static let fisbDecodeCommand = "fisb-decode"

    /// How to install fisb-decode for the comparison (said when it is not on PATH).
    package static let fisbDecodeInstall = "fisb-decode is not on PATH, so no comparison: it is not a registry package; check out the public repository "
        + "rand-projects/fisb-decode (Python 3, standard library only for levels 0-3), set CALCULATE_RSR = False in fisb/level0/level0Config.py "
        + "(else it needs pymongo and a MongoDB), PRINT_TO_STDOUT = True and WRITE_TO_FILE = False in fisb/level3/level3Config.py, and put "
        + "scripts/bench/fisb-decode on PATH with FISB_DECODE_DIR set to the checkout (it runs levels 0 | 1 | 2 | 3 on a dump978 capture, "
        + "as the repository's bin/decode-nopp does)"

    /// The executable `fisb-decode` on PATH, if any.
    package static func fisbDecode(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        guard let path else { return nil }
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(fisbDecodeCommand)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// fisb-decode run once on `capture` (`uplinks` uplinks), beside `ours` (uplinks/s of
    /// `fisb --json` on it): its rate and our ratio, or, when it is not installed, how to install it.
    static func fisbDecodeComparison(capture: String, uplinks: Int, ours: Double, progress: (String) -> Void) throws -> Benchmarks.Result {
        let name = "fisb-decode (Python peer, levels 0-3), NEXRAD-heavy"
        guard let peer = fisbDecode() else {
            return .init(name: name, value: 0, unit: "uplinks/s", note: fisbDecodeInstall)
        }
        progress("fisb-decode (\(peer)), once")
        let r = try run(peer, [capture])
        guard r.status == 0 else {
            return .init(name: name, value: 0, unit: "uplinks/s", note: "\(peer) exited with status \(r.status): no comparison")
        }
        let rate = Double(uplinks) / r.seconds
        return .init(name: name, value: rate, unit: "uplinks/s",
                     note: "\(peer): \(JSONWriter.format(r.seconds, decimals: 1)) s; fisb --json is ×\(JSONWriter.format(ours / rate, decimals: 0)) of it")
    }
}

/// A process's own peak resident memory, written at exit to the file named by
/// `GATEWAYD_PEAK_FILE` when it is set (the command benchmark sets it for the commands it times).
package enum PeakMemory {
    /// The environment variable.
    package static let variable = "GATEWAYD_PEAK_FILE"

    /// Registers the report at exit when the variable is set; call once at start-up.
    package static func reportAtExitIfRequested() {
        guard getenv(variable) != nil else { return }
        atexit {
            guard let path = getenv(PeakMemory.variable), let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                  let kB = line.split(separator: " ").dropFirst().first
            else { return }
            try? String(kB).write(toFile: String(cString: path), atomically: false, encoding: .utf8)
        }
    }
}
