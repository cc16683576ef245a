import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures
@testable import GatewayRecords
@testable import GatewayNotams
@testable import GatewayVoice

/// The rendered vocabulary, once for the suite (espeak-ng from Debian: `scripts/setup.sh`).
let renderedVocabulary = Result { () throws(VoiceError) in try CalloutVocabulary() }

/// Replays a capture as `gatewayd replay --callouts` does.
func calloutTimeline(_ capture: String, notams: String? = nil, gps: String? = nil, vocabulary: CalloutVocabulary) throws -> CalloutTimeline {
    let pcap = try CaptureFile.read(path: fixtures.appendingPathComponent(capture).path)
    let fixes = try gps.map { try GPSLog.read(path: fixtures.appendingPathComponent($0).path).fixes } ?? []
    let areas = try AirspaceSet.load(database: nil, notamFiles: notams.map { [fixtures.appendingPathComponent($0).path] } ?? [])
    var replay = CaptureReplay(pipeline: GatewayPipeline(), gpsFixes: fixes)
    var timeline = CalloutTimeline(durations: vocabulary.durations)
    var datagrams = pcap.datagrams.makeIterator()
    timeline.replay(&replay, areas: areas, next: { datagrams.next() })
    return timeline
}

/// Golden callout timelines (fixtures/*.callouts.txt, what `gatewayd replay --callouts` prints)
/// and the demo flight's audio.
@Suite(.timeLimit(.minutes(5))) struct VoiceGoldenTests {
    static let cases: [(name: String, capture: String, notams: String?, gps: String?, golden: String)] = [
        ("demo", "demo-flight.pcap", "notams-demo.json", nil, "demo-flight.callouts.txt")
    ] + ["parked", "gaps", "churn", "twins", "echo", "frozen", "turning", "flicker"].map {
        ($0, "scenarios/\($0).pcap", nil, $0 == "echo" ? "scenarios/echo.gps.jsonl" : nil, "scenarios/\($0).callouts.txt")
    }

    @Test(arguments: cases.map(\.name))
    func goldenTimeline(_ name: String) throws {
        let c = Self.cases.first { $0.name == name }!
        let vocabulary = try renderedVocabulary.get()
        let timeline = try calloutTimeline(c.capture, notams: c.notams, gps: c.gps, vocabulary: vocabulary)
        let golden = try String(contentsOf: fixtures.appendingPathComponent(c.golden), encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(timeline.lines(json: false) == golden, "\(c.golden)")
        let texts = timeline.callouts.map(\.callout.text)
        switch name {
        case "parked", "frozen":
            // Parked ownship, and a frozen copy that only ever advises: nothing said.
            #expect(texts.isEmpty)
        case "twins":
            // The twin's copy never spoken: every callout is N44TW's one alert.
            #expect(Set(timeline.callouts.map(\.callout.alert)).count == 1)
            #expect(timeline.callouts.allSatisfy { $0.callout.alert.contains("a44401") })
        case "echo":
            // Ownship's echo (a5e7c0) never spoken: N55CX only.
            #expect(timeline.callouts.allSatisfy { $0.callout.alert.contains("a55501") })
        case "churn":
            // The crossing's caution → warning escalation: each level said once before the repeats.
            let crossing = timeline.callouts.filter { $0.callout.alert.contains("a33401") }
            #expect(crossing.prefix(2).map(\.callout.level) == [.caution, .warning])
            #expect(crossing.filter { $0.callout.level == .caution }.count == 1)
        case "demo":
            #expect(texts.contains("Traffic! Twelve o'clock, same altitude, two miles."))
            #expect(texts.contains("TFR ahead, less than two minutes."))
            #expect(texts.contains("Inside TFR."))
        default: break
        }
        // No two callouts overlap.
        for (x, y) in zip(timeline.callouts, timeline.callouts.dropFirst()) {
            #expect(y.time >= x.time + vocabulary.durations.seconds(x.callout.phrases), "\(y.line) overlaps \(x.line)")
        }
    }

    /// The demo flight's WAV: speech energy at each callout's time, silence everywhere else.
    @Test func demoFlightAudioHasSpeechAtEachCalloutAndSilenceElsewhere() throws {
        let vocabulary = try renderedVocabulary.get()
        let timeline = try calloutTimeline("demo-flight.pcap", notams: "notams-demo.json", vocabulary: vocabulary)
        let span = try #require(timeline.span)
        let samples = WAVFile.render(timeline.callouts, vocabulary: vocabulary, from: span.lowerBound, to: span.upperBound)
        let rate = vocabulary.sampleRate
        #expect(samples.count >= Int((span.upperBound - span.lowerBound) * Double(rate)))
        // RMS per 50 ms window.
        let window = rate / 20
        func rms(_ w: Int) -> Double {
            let slice = samples[(w * window)..<min(samples.count, (w + 1) * window)]
            return (slice.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, slice.count))).squareRoot()
        }
        var speaking = [Bool](repeating: false, count: samples.count / window)
        for c in timeline.callouts {
            let start = Int((c.time - span.lowerBound) * Double(rate)) / window
            let length = vocabulary.pcm(c.callout).count / window
            // Speech within its first 200 ms, and a good part of its windows loud.
            #expect((start..<(start + 4)).contains { rms($0) > 500 }, "no speech at \(c.line)")
            let loud = (start..<(start + length)).filter { rms($0) > 300 }.count
            #expect(Double(loud) > Double(length) * 0.4, "\(c.line): only \(loud) of \(length) windows loud")
            for w in start...(start + length) where w < speaking.count { speaking[w] = true }
        }
        for w in speaking.indices where !speaking[w] { #expect(rms(w) == 0, "sound at \(Double(w) / 20) s with no callout") }
        // The bytes a player reads: RIFF/WAVE, PCM, mono, 16-bit.
        let wav = WAVFile.data(Array(samples.prefix(100)), sampleRate: rate)
        #expect(Array(wav[0..<4]) == Array("RIFF".utf8) && Array(wav[8..<16]) == Array("WAVEfmt ".utf8))
        #expect(wav[20] == 1 && wav[22] == 1 && wav[34] == 16 && wav.count == 44 + 200)
    }
}
