import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayCaptures
@testable import GatewayRecords
@testable import GatewayNotams

/// Issue 40, item 16: a NOTAM file cut short imported partly and exited 0; the item splitter
/// rejected valid JSON with `]` or `{` in a string and took the first of two "items"; JSON errors
/// lost their reason and byte offset; invalid `--gps` lines were ignored without a word; a lone
/// `\ud800` swallowed the next `\u` escape.
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct NotamFileHostileTests {
    let demo = fixtures.appendingPathComponent("notams-demo.json").path
    var demoBytes: [UInt8] { [UInt8](FileManager.default.contents(atPath: demo)!) }

    func notams(_ text: [UInt8]) throws(GatewayError) -> [Notam] {
        var out: [Notam] = []
        try NotamFile.parse(text, name: "file.json") { out.append($0) }
        return out
    }

    @Test func aFileCutShortImportsNothing() throws {
        #expect(try notams(demoBytes).count == 5)
        // Cut anywhere after the first NOTAM, up to the array's closing bracket: an error naming
        // the cut, never a partial import. (Cut after the bracket, every NOTAM is whole: read.)
        let text = String(decoding: demoBytes, as: UTF8.self)
        let second = text.range(of: "NOTAM_1_", options: [], range: text.index(text.startIndex, offsetBy: 400)..<text.endIndex)!
        for cut in [text.distance(from: text.startIndex, to: second.lowerBound), demoBytes.count - 12, demoBytes.count - 5] {
            #expect(throws: GatewayError.self) { _ = try notams(Array(demoBytes.prefix(cut))) }
            do { _ = try notams(Array(demoBytes.prefix(cut))) } catch {
                #expect(error.description.contains("is cut short") && error.description.contains("nothing imported"), "\(error)")
            }
        }
    }

    @Test func aFileCutAfterItsArrayIsWhole() throws {
        #expect(try notams(Array(demoBytes.prefix(demoBytes.count - 2))).count == 5)
    }

    @Test func theCommandKeepsWhatWasStoredWhenTheFileIsCut() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-notamfile-\(UUID())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cut = dir + "/cut.json"
        try Data(demoBytes.prefix(demoBytes.count - 40)).write(to: URL(fileURLWithPath: cut))
        func run(_ arguments: [String]) throws -> (Int32, String) {
            let r = try runGatewayd(arguments + ["--database", dir + "/g.sqlite"])
            return (r.status, r.errors)
        }
        #expect(try run(["notams", "import", demo]).0 == 0)
        let refused = try run(["notams", "import", cut])
        #expect(refused.0 != 0 && refused.1.contains("is cut short"), "\(refused)")
        #expect(try NotamStore(database: GatewayDatabase(path: dir + "/g.sqlite")).count() == 5)
    }

    @Test func bracketsInStringsAreText() throws {
        // A top-level string before "items" and a string member, both with ] and {, and a
        // NOTAM whose text holds them: the file reads whole.
        var text = String(decoding: demoBytes, as: UTF8.self)
        text = text.replacingAll("\"pageSize\": 1000,", with: "\"note\": \"a ] and a { here\", \"pageSize\": 1000,")
        text = text.replacingAll("\"items\": [", with: "\"items\": [\"a ] string member {\", ")
        text = text.replacingAll("TEMPORARY FLIGHT RESTRICTIONS", with: "TEMPORARY FLIGHT RESTRICTIONS [SEE ] {ALSO}")
        let read = try notams(Array(text.utf8))
        #expect(read.count == 5)
        #expect(read.contains { $0.text.contains("[SEE ] {ALSO}") })
    }

    @Test func twoItemsArraysAreRefused() {
        var text = String(decoding: demoBytes, as: UTF8.self)
        let close = text.lastIndex(of: "}")!
        text = String(text[..<close]) + ", \"items\": []}"
        #expect(throws: GatewayError.self) { _ = try notams(Array(text.utf8)) }
        do { _ = try notams(Array(text.utf8)) } catch { #expect(error.description.contains("has \"items\" twice"), "\(error)") }
    }

    @Test func aBrokenItemSaysWhatAndWhere() throws {
        let text = String(decoding: demoBytes, as: UTF8.self).replacingAll("\"scenario\": \"6000\"", with: "\"scenario\": 6000x")
        do {
            _ = try notams(Array(text.utf8))
            Issue.record("a broken item was taken")
        } catch {
            let at = text.utf8.count - text[text.range(of: "6000x")!.lowerBound...].utf8.count + 4
            #expect(error.description.contains("item 1 of \"items\"") && error.description.contains("at byte \(at):"), "\(error) (expected byte \(at))")
        }
    }

    @Test func aLoneSurrogateDoesNotSwallowTheNextEscape() throws {
        #expect(try JSONReader.value(Array(#""\ud800\u0041""#.utf8)) as? String == "\u{FFFD}A")
        #expect(try JSONReader.value(Array(#""\ud83d\ude00""#.utf8)) as? String == "😀")
        #expect(try JSONReader.value(Array(#""\udc00x""#.utf8)) as? String == "\u{FFFD}x")
    }

    @Test func invalidGPSLinesAreNamed() {
        let log = GPSLog.parse(Array("""
            {"class":"VERSION","release":"3.22"}
            not json at all
            {"class":"TPV","mode":3,"time":"2026-05-16T14:00:01.000Z","lat":45.0,"lon":-123.0,"altMSL":900,"speed":50,"track":10}
            {"class":"TPV","mode":3,"time":
            """.utf8))
        #expect(log.fixes.count == 1 && log.invalid == [2, 4] && log.skipped == 3)
    }
}
