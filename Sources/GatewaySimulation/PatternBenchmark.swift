import Dispatch
import GatewaySupport
import GatewayRecords
import GatewayNotams

/// The regex engine's worst case (issue 40): every pattern the NOTAM parser uses, on texts made
/// of long runs of each character class the patterns read (white space, digits, letters,
/// punctuation) and of the shapes that were quadratic ("1FT" then spaces), at 1, 4, 16 and 64 kB.
/// Linear matching shows as time(64 kB) / time(16 kB) ≈ 4 (quadratic: 16).
package enum PatternBenchmark {
    /// The sizes measured, in bytes.
    package static let sizes = [1 << 10, 4 << 10, 16 << 10, 64 << 10]

    /// The texts of `bytes` bytes: each a run of one class, or a shape's head then a run.
    package static func texts(bytes n: Int) -> [(name: String, text: [UInt8])] {
        func run(_ unit: String) -> [UInt8] {
            let u = Array(unit.utf8)
            return (0..<n).map { u[$0 % u.count] }
        }
        func head(_ start: String, then unit: String, tail: String = "") -> [UInt8] {
            let s = Array(start.utf8), t = Array(tail.utf8)
            let middle = max(0, n - s.count - t.count)
            return s + Array(run(unit).prefix(middle)) + t
        }
        return [
            ("spaces", run(" ")), ("white space", run(" \t\r\n")), ("digits", run("7")), ("letters", run("A")),
            ("N letters", run("N")), ("dots", run(".")), ("dashes", run("-")), ("slashes", run("/")), ("parentheses", run("(")),
            ("commas", run(",")), ("digit dot", run("1.")), ("1FT spaces", head("1FT", then: " ")),
            ("1 FEET spaces", head("1 FEET", then: " ")),
            ("UP TO…1…FEET", head("UP TO AND INCLUDING 1", then: " ", tail: "FEET" + String(repeating: " ", count: n / 2))),
            ("5NM spaces", head("5NM", then: " ")), ("digits N", head(String(repeating: "1", count: n / 2), then: "N")),
            ("1FT words", run("1FT ")), ("SFC- words", run("SFC-")),
        ]
    }

    /// One row: a pattern on one kind of text, the best time at each size.
    package struct Row: Sendable {
        /// The pattern's name.
        package var pattern: String
        /// The text's kind.
        package var text: String
        /// Seconds at each of `sizes`.
        package var seconds: [Double]
        /// Engine steps a byte at the largest size.
        package var stepsPerByte: Double
        /// Whether a search ran over its budget.
        package var overBudget: Bool

        /// time(64 kB) / time(16 kB).
        package var ratio: Double { seconds[seconds.count - 1] / max(1e-9, seconds[seconds.count - 2]) }

        /// The row as printed.
        package var line: String {
            let times = zip(sizes, seconds).map { "\($0 >> 10)k \(Self.milliseconds($1)) ms" }.joined(separator: ", ")
            return "patterns: \(pattern) on \(text): \(times); 64k/16k ×\(JSONWriter.format(ratio, decimals: 2)); \(JSONWriter.format(stepsPerByte, decimals: 1)) steps/byte"
                + (overBudget ? "; OVER BUDGET" : "")
        }

        /// Seconds as milliseconds, with enough decimals for a few microseconds.
        package static func milliseconds(_ s: Double) -> String { JSONWriter.format(s * 1000, decimals: s < 0.001 ? 4 : 2) }
    }

    /// Every pattern on every text at every size; the best of several runs each (at least
    /// `minimumSeconds` of runs, at most `rounds`).
    package static func run(minimumSeconds: Double = 0.02, rounds: Int = 50) -> [Row] {
        let bySize = sizes.map { texts(bytes: $0) }
        var rows: [Row] = []
        for name in NotamPatternProbe.names {
            for (k, kind) in bySize[0].enumerated() {
                var seconds: [Double] = []
                var steps = 0, over = false
                for texts in bySize {
                    let text = texts[k].text
                    var best = Double.infinity, spent = 0.0, done = 0
                    while done < rounds && (done < 3 || spent < minimumSeconds) {
                        let start = DispatchTime.now().uptimeNanoseconds
                        let cost = NotamPatternProbe.search(name, in: text)
                        let t = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                        best = min(best, t)
                        spent += t
                        done += 1
                        steps = cost.steps
                        over = over || cost.overBudget
                    }
                    seconds.append(best)
                }
                rows.append(Row(pattern: name, text: kind.name, seconds: seconds, stepsPerByte: Double(steps) / Double(sizes.last!), overBudget: over))
            }
        }
        return rows
    }

    /// The engine before issue 40 (no memo) on the shape, `range` on "1FT" then spaces,
    /// at `sizes` (keep them small: quadratic): seconds each.
    package static func before(sizes: [Int] = [1 << 10, 2 << 10, 4 << 10, 8 << 10]) -> [(bytes: Int, seconds: Double)] {
        sizes.map { n in
            let text = texts(bytes: n).first { $0.name == "1FT spaces" }!.text
            let start = DispatchTime.now().uptimeNanoseconds
            _ = NotamPatternProbe.search("range", in: text, memo: false)
            return (n, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
    }
}
