import Foundation
import Testing
@testable import TrafficGateway

/// The plain-English measurement over `fixtures/notams-english.txt`: the share of NOTAMs whose
/// translation keeps no raw date, coordinate, height or distance group and no contraction.
@Suite struct NotamEnglishMeasureTests {
    static func fixtureNotams() throws -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fixtures/notams-english.txt")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    @Test func shareInPlainEnglish() throws {
        let notams = try Self.fixtureNotams()
        #expect(notams.count >= 100)
        var clean = 0
        var counts: [NotamTranslationAudit.Kind: Int] = [:]
        var report: [String] = []
        for raw in notams {
            let n = NotamParser.parse(raw, source: "fixture")
            let t = NotamTranslator.translate(n.text)
            let f = NotamTranslationAudit.findings(in: t)
            for x in f { counts[x.kind, default: 0] += 1 }
            if f.isEmpty { clean += 1 } else { report.append("\(n.text)\n  -> \(t)\n  !! \(f.map(\.description).joined(separator: "; "))") }
        }
        let share = Double(clean) / Double(notams.count)
        print("NOTAM-ENGLISH: \(clean)/\(notams.count) = \(Int((share * 1000).rounded()) / 10)% in plain English; left: "
              + NotamTranslationAudit.Kind.allCases.map { "\($0.rawValue) \(counts[$0] ?? 0)" }.joined(separator: ", "))
        if ProcessInfo.processInfo.environment["NOTAM_ENGLISH_REPORT"] != nil { print(report.joined(separator: "\n")) }
        #expect(share >= 0.95)
    }
}
