import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayVoice
@testable import GatewayRuntime

/// An asoundrc defining PCM `skygate_test`: the `file` plugin writing raw frames to `path` in
/// front of a `null` PCM (no sound card needed, as in CI).
func fileDeviceConfiguration(_ path: String) -> String {
    """
    pcm.skygate_test {
        type file
        slave.pcm { type null }
        file "\(path)"
        format "raw"
    }
    """
}

/// Playback through ALSA into a file PCM, and the sink's faults: no device, never a crash or a wait.
@Suite(.serialized, .timeLimit(.minutes(5))) struct VoiceALSATests {
    @Test func playbackIntoFilePCMDeliversEveryFrame() async throws {
        let vocabulary = try renderedVocabulary.get()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-voice-\(getpid()).raw").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let logs = Locked<[String]>([])
        let player = ALSAPlayer(device: "skygate_test", sampleRate: vocabulary.sampleRate, configuration: fileDeviceConfiguration(path)) { line in
            logs.withLock { $0.append(line) }
        }
        player.start()
        let callouts = VoiceCheck.samples
        let started = Locked(0)
        for c in callouts { player.play(vocabulary.pcm(c)) { started.withLock { $0 += 1 } } }
        try await eventually { player.counts.played + player.counts.dropped == 2 }
        player.stop()
        #expect(logs.value.isEmpty, "\(logs.value)")
        #expect(player.counts.played == 2 && started.value == 2)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        let expected = callouts.map { vocabulary.pcm($0) }.joined()
        #expect(written.count == expected.count * 2)
        let back = written.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(back == Array(expected))
    }

    @Test func missingDeviceIsOneLineAndARetryNeverACrash() async throws {
        let vocabulary = try renderedVocabulary.get()
        let logs = Locked<[String]>([])
        let player = ALSAPlayer(device: "hw:77,0", sampleRate: vocabulary.sampleRate, retrySec: 0.2) { line in logs.withLock { $0.append(line) } }
        player.start()
        let began = Date()
        for c in VoiceCheck.samples { player.play(vocabulary.pcm(c)) }
        #expect(Date().timeIntervalSince(began) < 0.05, "play must not wait")
        try await eventually { player.counts.dropped == 2 }
        try await eventually(0.5) { logs.value.count > 1 }  // two retries (every 0.2 s): no second line
        player.stop()
        // One line for the failure (not one per retry), naming the device and what to do.
        #expect(logs.value.count == 1)
        #expect(logs.value.first?.contains("'hw:77,0'") == true && logs.value.first?.contains("voice list") == true)
        #expect(player.counts.dropped == 2 && player.counts.played == 0)
    }

    /// The sink end to end: outputs handed over on the caller's queue return at once, the callout
    /// is decided on the voice's queue and its frames reach the device.
    @Test func sinkSpeaksACalloutIntoTheDevice() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-sink-\(getpid()).raw").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var settings = VoiceSink.Settings()
        settings.device = "skygate_test"
        settings.alsaConfiguration = fileDeviceConfiguration(path)
        let logs = Locked<[String]>([])
        let heard = Locked<[TimedCallout]>([])
        let frames = Locked(0)
        let sink = VoiceSink(settings: settings, onCallout: { c in heard.withLock { $0.append(c) } },
                             onFirstFrames: { _, _ in frames.withLock { $0 += 1 } }) { line in logs.withLock { $0.append(line) } }
        sink.start()
        _ = await Offload.run(on: .global()) { sink.waitUntilReady() }
        var outputs = GatewayOutputs()
        outputs.flight = FlightStatus(phase: .airborne, lastMessage: 1000)
        outputs.alerts = [trafficChange(id: "x", level: .caution, at: 1000)]
        let began = Date()
        sink.carryOut(outputs, at: 1000)
        #expect(Date().timeIntervalSince(began) < 0.05)
        // Stopped once its first frames are out, off the cooperative pool: a test waiting over
        // 10 s for a thread of it (the suite's sync tests hold them) would hear "Traffic not
        // available." too (GDL 90 missing 10 s in flight).
        _ = await Offload.run(on: .global()) {
            _ = eventually(10) { frames.value > 0 }
            sink.stop()
        }
        #expect(heard.value.map(\.callout.text) == ["Traffic! Two o'clock, high, one mile."])
        #expect(frames.value == 1)
        #expect(logs.value.isEmpty, "\(logs.value)")
        #expect(((try? Data(contentsOf: URL(fileURLWithPath: path)))?.count ?? 0) > 10_000)
    }
}
