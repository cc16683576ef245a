import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures
@testable import GatewaySimulation

/// Replays a capture the way `gatewayd replay` does and returns the JSON Lines.
func replayJSON(_ contents: CaptureContents, midnight: Double = 0) -> [String] {
    var replay = CaptureReplay(pipeline: GatewayPipeline(timeSource: contents.format == .raw ? .heartbeat(midnight: midnight) : .given))
    return replay.replay(contents.datagrams).alerts.map(AlertFormatter.json)
}

@Suite(.timeLimit(.minutes(5))) struct ReplayGoldenTests {
    /// The bundled fixtures are exactly what the scripted flight produces.
    @Test func fixturesAreReproducible() throws {
        let flight = DemoFlight()
        let datagrams = flight.datagrams().map { (time: $0.time, bytes: $0.bytes) }
        #expect(try Data(contentsOf: fixtures.appendingPathComponent("demo-flight.pcap")) == Data(PcapWriter.pcap(datagrams)))
        #expect(try Data(contentsOf: fixtures.appendingPathComponent("demo-flight.pcapng"))
                == Data(PcapWriter.pcapng(datagrams, link: .linuxSLL2, nanoseconds: true)))
        #expect(try Data(contentsOf: fixtures.appendingPathComponent("demo-flight.gdl90")) == Data(flight.rawStream()))
    }

    /// The whole alert output of the bundled capture is pinned.
    @Test func goldenAlertsOfBundledCapture() throws {
        let capture = try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.pcap").path)
        let golden = try String(contentsOf: fixtures.appendingPathComponent("demo-flight.alerts.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let lines = replayJSON(capture)
        #expect(lines == golden)
        // And the story it tells: the head-on goes caution → warning → clear; the merged crosser is one advisory.
        let headOn = lines.filter { $0.contains("\"subject\":\"ab4549\"") }
        #expect(headOn.first?.contains("\"event\":\"raised\",\"kind\":\"traffic\"") == true)
        #expect(headOn.contains { $0.contains("\"level\":\"warning\"") })
        #expect(headOn.last?.contains("\"event\":\"cleared\"") == true)
        #expect(lines.filter { $0.contains("\"subject\":\"c0ffee\"") && $0.contains("\"event\":\"raised\"") }.count == 1)
        for quiet in ["a00001", "a0beef", "a99999", "a1b2c3", "000000"] {
            #expect(!lines.contains { $0.contains("\"subject\":\"\(quiet)\"") }, "\(quiet) must not alert")
        }
    }

    @Test func replayIsDeterministicAcrossFormats() throws {
        let pcap = try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.pcap").path)
        let pcapng = try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.pcapng").path)
        #expect(replayJSON(pcap) == replayJSON(pcap))
        #expect(replayJSON(pcapng) == replayJSON(pcap))
        // The raw stream is timed by the heartbeat clock (whole seconds): same alerts by subject and level.
        let raw = try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.gdl90").path)
        let rawLines = replayJSON(raw, midnight: Timestamp.midnight(year: 2026, month: 5, day: 16))
        func story(_ lines: [String]) -> Set<String> {
            Set(lines.compactMap { l in
                guard l.contains("\"event\":\"raised\"") || l.contains("\"level\":\"warning\"") else { return nil }
                return String(l.split(separator: ",")[3...4].joined(separator: ","))
            })
        }
        #expect(story(rawLines) == story(replayJSON(pcap)))
    }

    @Test func countersOfBundledCapture() throws {
        let capture = try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.pcap").path)
        var pipeline = GatewayPipeline()
        for d in capture.datagrams { _ = pipeline.process(.datagram(d.bytes), at: d.timestamp) }
        _ = pipeline.finish(.silence(CaptureReplay.trailingSilence))
        let c = pipeline.core.counters
        #expect(c.datagrams == 300)
        #expect(c.messagesByType["heartbeat"] == 300)
        #expect(c.messagesByType["ownship"] == 299)  // one cut short at t = 95
        #expect(c.errorsByReason == ["crc": 3])  // bit flip, garbage, cut frame; the split frame survives
    }
}
