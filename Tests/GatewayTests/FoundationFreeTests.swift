import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayRecords
@testable import GatewayNotams

/// Issue 24: the daemon off full Foundation. Its own regex engine and JSON reader agree with
/// Foundation's (which the tests may still use) on every fixture text, and no file of the daemon
/// imports full Foundation again without a listed reason.
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct FoundationFreeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every pattern the NOTAM code compiles.
    static let patterns: [(String, TextPattern)] = [
        ("coordinate", TextPatterns.coordinate), ("range", TextPatterns.range), ("upTo", TextPatterns.upTo),
        ("circle", TextPatterns.circle), ("arc", TextPatterns.arc), ("corridor", TextPatterns.corridor),
        ("stated", TextPatterns.stated), ("prohibited", ClassifierPatterns.prohibited), ("restricted", ClassifierPatterns.restricted),
        ("warning", ClassifierPatterns.warning), ("alert", ClassifierPatterns.alert), ("moa", ClassifierPatterns.moa),
        ("items", NotamPatterns.pattern), ("validity", NotamPatterns.validity), ("qLineGeo", NotamPatterns.qLineGeo),
    ]

    /// NOTAM texts from the fixtures (the English corpus, the airspace and demo sets), upper-cased as
    /// the parser sees them, plus edge cases written for the engine.
    static func texts() throws -> [String] {
        var out = try englishNotamFixtures()
        for name in ["notams-airspace.json", "notams-demo.json"] {
            let data = try Data(contentsOf: fixtures.appendingPathComponent(name))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            for item in object["items"] as? [[String: Any]] ?? [] {
                let core = (item["properties"] as? [String: Any])?["coreNOTAMData"] as? [String: Any]
                if let text = (core?["notam"] as? [String: Any])?["text"] as? String { out.append(text) }
                for t in core?["notamTranslation"] as? [[String: Any]] ?? [] {
                    if let f = t["formattedText"] as? String { out.append(f) }
                    if let f = t["simpleText"] as? String { out.append(f) }
                }
            }
        }
        out += [
            "", "5NM", "2605161300-2605172300EST\n", "2605161300-PERM  ", "2605161300-2605172300\r\n", "X 2605161300-2605172300 Y",
            "5.5 NMR OF 450034N1230011W SFC-3000FT", "123.4560N/0452312.5E", "4500N12300 W", "ZÜRICH 5NM RADIUS OF 4500N01230E",
            "R-2508 RESTRICTED", "R2508A1 AND P-56A, W-291, A-231B", "MOAS", "ATCAA ACTIVE", "1000FT AGL - FL180", "SFC UP TO AND INCLUDING 4000 FEET MSL",
            "UP TO BUT NOT INCLUDING FL225", "AT OR BELOW 400FT AGL", "CLOCKWISE ON A 10NM ARC CENTERED ON KSLE (SLE) 4455N12300W",
            "0.2NM EITHER SIDE OF A LINE FM 4500N12300W TO 4510N12310W", "34.75NM NE LAW", "Q) KZSE/QRTCA/IV/BO/W/000/180/4500N12300W005 A) KZSE B) 2605161300 C) 2605172300 E) TFR",
            "4500N12300W005", "4500N12300W", "450034N1230011W.5", "12345678N", String(repeating: "1", count: 300) + "N",
        ]
        return out.map { $0.uppercased() }
    }

    @Test func patternsMatchWhatNSRegularExpressionMatches() throws {
        let texts = try Self.texts()
        #expect(texts.count > 150)
        var compared = 0, matched = 0
        for (name, pattern) in Self.patterns {
            let reference = try NSRegularExpression(pattern: pattern.source)
            for text in texts {
                let ns = text as NSString
                let expected = reference.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { m in
                    (0..<m.numberOfRanges).map { m.range(at: $0).location == NSNotFound ? nil : ns.substring(with: m.range(at: $0)) }
                }
                let bytes = Array(text.utf8)
                let got = pattern.matches(in: bytes).map { m in (0...pattern.groupCount).map { m.range(at: $0).map { bytes.text($0) } } }
                #expect(got == expected, "\(name) on \(text.prefix(120))")
                compared += 1
                matched += got.count
            }
        }
        #expect(matched > 200)
        #expect(compared == texts.count * Self.patterns.count)
    }

    /// A tree from either reader, with numbers as doubles and nulls as one value.
    static func normal(_ v: Any) -> String {
        switch v {
        case let o as [String: Any]: return "{" + o.keys.sorted().map { "\($0):\(normal(o[$0]!))" }.joined(separator: ",") + "}"
        case let a as [Any]: return "[" + a.map(normal).joined(separator: ",") + "]"
        case let s as String: return "s" + s
        case let b as Bool where type(of: v) == Bool.self: return b ? "true" : "false"
        case let d as Double where type(of: v) == Double.self: return "n\(d)"
        case let n as NSNumber:
            let kind = String(cString: n.objCType)
            return kind == "c" || kind == "B" ? (n.boolValue ? "true" : "false") : "n\(n.doubleValue)"
        case is NSNull, is JSONReader.Null: return "null"
        default: return "?\(type(of: v))"
        }
    }

    @Test func jsonReaderAgreesWithJSONSerializationOnTheFixtures() throws {
        var documents: [Data] = []
        for name in ["notams-airspace.json", "notams-demo.json", "demo-airspace.geojson"] {
            documents.append(try Data(contentsOf: fixtures.appendingPathComponent(name)))
        }
        let gps = try Data(contentsOf: fixtures.appendingPathComponent("scenarios/echo.gps.jsonl"))
        documents += gps.split(separator: 0x0A).map { Data($0) }
        documents += [#"{"a":[1,-2.5e3,0.1,true,false,null,"\u00e9\ud83d\ude00\n\"\\\/"],"b":{}}"#, "[]", "12345678901234567890", "-0.0"].map { Data($0.utf8) }
        for d in documents {
            let expected = try JSONSerialization.jsonObject(with: d, options: .fragmentsAllowed)
            let got = try JSONReader.value(d)
            #expect(Self.normal(got) == Self.normal(expected))
        }
        #expect(documents.count > 20)
    }

    @Test func jsonReaderNamesWhatIsWrongAndWhere() {
        func failure(_ text: String) -> JSONReader.Failure? {
            do { _ = try JSONReader.value(Array(text.utf8)); return nil } catch { return error }
        }
        #expect(failure(#"{"a": 1"#) == .init(offset: 7, reason: "the text ends inside an object"))
        #expect(failure(#"{"a": 1} x"#) == .init(offset: 9, reason: "text after the value"))
        #expect(failure(#"["\q"]"#) == .init(offset: 3, reason: "a bad escape '\\q'"))
        #expect(failure("[1.]") == .init(offset: 3, reason: "a number with no digit after '.'"))
        #expect(failure(String(repeating: "[", count: 600))?.reason == "nested deeper than 512 levels")
        #expect(failure("\"abc") == .init(offset: 4, reason: "the text ends inside a string"))
        #expect(JSONReader.int(4000.0) == 4000 && JSONReader.int(4000.5) == nil && JSONReader.int("4000") == nil)
    }

    /// The daemon's modules (what `gatewayd` links) import FoundationEssentials; full Foundation
    /// only in the `#else` of `#if canImport(FoundationEssentials)` (platforms without it), or in a
    /// file listed here with its reason (none today).
    static let allowedFullFoundation: [String: String] = [:]

    @Test func noDaemonFileImportsFullFoundation() throws {
        var offenders: [String] = []
        var checked = 0
        for target in ["TrafficGateway", "GatewaySimulation", "gatewayd", "GDL90"] {
            let dir = Self.root.appendingPathComponent("Sources/\(target)")
            let files = try #require(FileManager.default.enumerator(atPath: dir.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
            for file in files {
                let lines = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                checked += 1
                for (i, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces).hasPrefix("import Foundation")
                    && !line.contains("FoundationEssentials") {
                    let guarded = i >= 3 && lines[i - 1] == "#else" && lines[i - 3] == "#if canImport(FoundationEssentials)"
                    if !guarded && Self.allowedFullFoundation["\(target)/\(file)"] == nil { offenders.append("\(target)/\(file):\(i + 1)") }
                }
            }
        }
        #expect(checked > 150)
        #expect(offenders.isEmpty, "full Foundation imported (brings ICU into the binary): \(offenders)")
    }

    /// The built daemon links no full Foundation and no ICU (what the import rule is for).
    @Test func builtDaemonLinksNoICU() throws {
        let executable = try #require(gatewaydExecutable(), "build gatewayd first (swift build)")
        let ldd = try runCommand(URL(fileURLWithPath: "/usr/bin/ldd"), [executable.path])
        #expect(ldd.status == 0)
        #expect(ldd.stdout.contains("libFoundationEssentials") || !ldd.stdout.contains("libswiftCore"), "a static binary has no Swift libraries to list")
        for forbidden in ["libFoundation.so", "libFoundationInternationalization", "_FoundationICU", "libicu"] {
            #expect(!ldd.stdout.contains(forbidden), "gatewayd links \(forbidden)")
        }
    }
}

/// libcurl and libespeak-ng are loaded on first use; when one is missing, the command that needs
/// it says which package to install (at once: it is not a network error to retry), and the rest of
/// gatewayd works without it.
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct LazyLibraryTests {
    func run(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, stderr: String) {
        let executable = try #require(gatewaydExecutable(), "build gatewayd first (swift build)")
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice  // a pipe nobody reads would stop a long output
        try p.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    @Test func missingLibcurlIsNamedAndNotRetried() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-nocurl-\(UUID())").path
        let started = Date()
        let r = try run(["notams", "fetch", "--source", "faa-search", "--url", "http://127.0.0.1:9", "--location", "KSLE",
                         "--database", dir + "/gateway.sqlite"], environment: ["SKYGATE_LIBCURL": "libskygate-missing.so.4"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("libcurl is not installed (libskygate-missing.so.4: cannot open shared object file"), "\(r.stderr)")
        #expect(r.stderr.contains("sudo apt-get install libcurl4"))
        #expect(!r.stderr.contains("retry"), "a missing library is not retried: \(r.stderr)")
        #expect(Date().timeIntervalSince(started) < 5)
        // What needs no network still works: the demo flight decodes.
        let decode = try run(["decode", fixtures.appendingPathComponent("demo-flight.pcap").path], environment: ["SKYGATE_LIBCURL": "libskygate-missing.so.4"])
        #expect(decode.status == 0)
    }

    @Test func missingEspeakIsNamed() throws {
        let r = try run(["voice", "test", "--device", "null"], environment: ["SKYGATE_LIBESPEAK": "libskygate-missing.so.1"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("espeak-ng is not installed (libskygate-missing.so.1: cannot open shared object file"), "\(r.stderr)")
        #expect(r.stderr.contains("sudo apt-get install libespeak-ng1 espeak-ng-data"))
    }
}
