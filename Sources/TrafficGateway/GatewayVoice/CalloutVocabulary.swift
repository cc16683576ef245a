import GatewayDomain
/// Every phrase of every callout rendered to PCM once, at start, and concatenated per callout:
/// speech starts at once and costs no synthesis per callout (a Pi Zero renders the vocabulary in
/// a few seconds, then only copies samples).
package struct CalloutVocabulary: Sendable {
    /// Samples per second (espeak-ng's, 22 050 Hz).
    package let sampleRate: Int
    /// 16-bit mono samples of each phrase (`CalloutWording.vocabulary` keys), silence trimmed,
    /// followed by the pause its punctuation calls for.
    package let clips: [String: [Int16]]

    /// Renders the whole vocabulary with espeak-ng.
    package init(parameters: SpeechSynthesizer.Parameters = .init()) throws(VoiceError) {
        let words = CalloutWording.vocabulary
        let (rate, pcm) = try SpeechSynthesizer.render(words.map(\.speech), parameters: parameters)
        var clips: [String: [Int16]] = [:]
        for (word, samples) in zip(words, pcm) {
            clips[word.key] = Self.trimmed(samples) + [Int16](repeating: 0, count: Int(Self.pause(after: word.key) * Double(rate)))
        }
        for (mark, seconds) in CalloutWording.pauses { clips[mark] = [Int16](repeating: 0, count: Int(seconds * Double(rate))) }
        self.sampleRate = rate
        self.clips = clips
    }

    /// The pause after a phrase: longer after a sentence, shorter after a comma, a breath between words.
    static func pause(after key: String) -> Double {
        switch key.last {
        case "!", ".": 0.18
        case ",": 0.1
        default: 0.04
        }
    }

    /// `samples` without the silence espeak-ng puts before and after a phrase.
    static func trimmed(_ samples: [Int16]) -> [Int16] {
        let threshold: Int16 = 64
        guard let first = samples.firstIndex(where: { abs(Int32($0)) > Int32(threshold) }),
              let last = samples.lastIndex(where: { abs(Int32($0)) > Int32(threshold) }) else { return [] }
        return Array(samples[first...last])
    }

    /// The samples of a callout: its phrases back to back.
    package func pcm(_ callout: Callout) -> [Int16] {
        var out: [Int16] = []
        out.reserveCapacity(callout.phrases.reduce(0) { $0 + (clips[$1]?.count ?? 0) })
        for key in callout.phrases { out += clips[key] ?? [] }
        return out
    }

    /// Each phrase's spoken length, for the scheduler.
    package var durations: CalloutDurations {
        CalloutDurations(phrases: clips.mapValues { Double($0.count) / Double(sampleRate) })
    }
}
