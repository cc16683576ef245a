import Foundation
import Testing
import GatewayTestSupport
@testable import GatewayFuzzSupport
@testable import GatewaySimulation

/// Every input the fuzzers ever crashed on (fixtures/fuzz-regressions/TARGET/, see
/// scripts/fuzz.sh) goes through its target again, plus a deterministic mutation run over the
/// fixtures, so a fixed bug stays fixed and CI exercises the targets without libFuzzer.
@Suite(.timeLimit(.minutes(5))) struct FuzzRegressionTests {
    @Test(arguments: FuzzTarget.allCases)
    func savedCrashesStayFixed(target: FuzzTarget) throws {
        let dir = fixtures.appendingPathComponent("fuzz-regressions/\(target.rawValue)")
        // A target with no crash saved has no folder, or an empty one; the folder of all of them
        // must be there (`savedCrashesAreThere`), so a moved fixtures folder is not a pass.
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { !$0.hasPrefix(".") }
        for file in files.sorted() {
            target.run(Array(try Data(contentsOf: dir.appendingPathComponent(file))))
        }
    }

    /// The saved crashes are where the tests read them: a moved or lost folder fails here rather
    /// than making `savedCrashesStayFixed` pass on nothing.
    @Test func savedCrashesAreThere() throws {
        let root = fixtures.appendingPathComponent("fuzz-regressions")
        let saved = FuzzTarget.allCases.flatMap { target in
            ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(target.rawValue).path)) ?? []).filter { !$0.hasPrefix(".") }
        }
        #expect(FileManager.default.fileExists(atPath: root.path), "\(root.path) is missing")
        #expect(saved.count >= 2, "\(saved.count) saved crash inputs (the airspace and capture targets have one each)")
    }

    /// 2,000 mutations (bit flips, truncations, insertions) of fixture bytes per target.
    @Test(arguments: FuzzTarget.allCases)
    func mutatedFixturesNeverTrap(target: FuzzTarget) throws {
        let seed: [UInt8]
        switch target {
        case .gdl90: seed = Array(try Data(contentsOf: fixtures.appendingPathComponent("demo-flight.gdl90")).prefix(1500))
        case .fisb: seed = FISBSamples.uplinks()[3]
        case .capture: seed = Array(try Data(contentsOf: fixtures.appendingPathComponent("demo-flight.pcapng")).prefix(1500))
        case .airspace: seed = Array(try Data(contentsOf: fixtures.appendingPathComponent("demo-airspace.geojson")))
        case .notam: seed = Array(NotamTexts.icaoRestricted.utf8) + Array(NotamTexts.fdcTFR.utf8)
        case .gpsd: seed = Array(#"{"class":"TPV","mode":3,"lat":45.0,"lon":-123.0,"alt":1e300,"speed":1e308,"track":90.0,"climb":5e6}"#.utf8)
        case .config: seed = Array("[input]\nudp_port = 4000\naccept_from = [\"192.168.10.1\"]\n[notams]\nrefresh_hours = 6\n".utf8)
        case .feeds: seed = (0..<96).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 0x7F) }
        case .notamfeature: seed = Array(try Data(contentsOf: fixtures.appendingPathComponent("hostile/notam-vertex-out-of-range.json")))
        case .events: seed = Array(try Data(contentsOf: fixtures.appendingPathComponent("hostile/events-huge-radius.jsonl")))
        case .http: seed = Array("GET /data/aircraft.json?x=1 HTTP/1.1\r\nHost: g\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n5\r\nhello\r\n0\r\n\r\n".utf8)
        }
        var rng: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17
            return Int(rng % 1_000_000_007)
        }
        // Each http input is two real TCP exchanges: fewer of them.
        for _ in 0..<(target == .http ? 300 : 2000) {
            var data = seed
            for _ in 0..<(1 + next() % 8) {
                guard !data.isEmpty else { break }
                switch next() % 4 {
                case 0: data[next() % data.count] ^= UInt8(1 << (next() % 8))
                case 1: data.removeLast(next() % max(1, data.count / 4))
                case 2: data.insert(UInt8(truncatingIfNeeded: next()), at: next() % data.count)
                default: data[next() % data.count] = [0x7E, 0x7D, 0x00, 0xFF][next() % 4]
                }
            }
            target.run(data)
        }
    }
}
