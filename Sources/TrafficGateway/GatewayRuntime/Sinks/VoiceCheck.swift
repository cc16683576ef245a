import GatewayDomain
import GatewayVoice
/// The sample callouts `gatewayd voice test` says, for checking the wiring and the volume.
package enum VoiceCheck {
    /// A caution and a warning, as a pilot would hear them.
    package static var samples: [Callout] {
        let caution = TrafficAlertNumbers(rangeNM: 1.2, bearingDeg: 60, relativeAltitudeFt: 500, timeToCPASec: 35, clock: 2)
        let warning = TrafficAlertNumbers(rangeNM: 0.6, bearingDeg: 0, relativeAltitudeFt: 100, timeToCPASec: 15, clock: 12)
        return [CalloutWording.traffic(caution, level: .caution, alert: "voice-test-1"),
                CalloutWording.traffic(warning, level: .warning, alert: "voice-test-2")]
    }

    /// Renders the vocabulary and plays the samples through `settings.device`, waiting until
    /// they were played; returns how many were. Throws what went wrong, in words to act on.
    package static func speakSample(_ settings: VoiceSink.Settings) throws(VoiceError) -> Int {
        let vocabulary = try CalloutVocabulary(parameters: settings.speech)
        let output = try ALSAOutput(device: settings.device, sampleRate: vocabulary.sampleRate, configuration: settings.alsaConfiguration)
        let gap = [Int16](repeating: 0, count: vocabulary.sampleRate / 2)
        for c in samples {
            try output.write(vocabulary.pcm(c) + gap)
        }
        try output.drain()
        return samples.count
    }
}
