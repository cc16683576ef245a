import GatewaySupport
import CEspeak

/// Why speech could not be made, in words a person can act on.
package struct VoiceError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The sentence.
    package var description: String
    /// An error saying `description`.
    package init(_ description: String) { self.description = description }
}

/// espeak-ng (Debian's libespeak-ng) synthesising text to 16-bit mono PCM in memory
/// (`AUDIO_OUTPUT_SYNCHRONOUS`: `espeak_Synth` returns once every sample was handed to the
/// callback). espeak-ng keeps one global state, so every use goes through one process-wide lock.
package enum SpeechSynthesizer {
    /// The voice parameters.
    package struct Parameters: Sendable, Equatable {
        /// espeak-ng voice name ("en-us", "en", "en-gb-x-rp"…).
        package var voice = "en-us"
        /// Words per minute (espeak-ng's range 80–450).
        package var rate = 175
        /// Volume, 0–200 (100: espeak-ng's normal).
        package var volume = 100
        /// The defaults.
        package init() {}
    }

    /// Collects what the callback hands over (one synthesis at a time, under `lock`).
    private final class Buffer {
        var samples: [Int16] = []
    }

    private static let lock = Locked<Int32?>(nil)

    /// Renders each text to PCM at the returned sample rate; throws when espeak-ng cannot start
    /// (its voice data missing) or does not know `parameters.voice`.
    package static func render(_ texts: [String], parameters: Parameters) throws(VoiceError) -> (sampleRate: Int, pcm: [[Int16]]) {
        let result: Result<(Int, [[Int16]]), VoiceError> = lock.withLock { rate in
            if rate == nil {
                guard skygate_espeak_load() != 0 else {
                    let why = skygate_espeak_load_error().map { String(cString: $0) } ?? "not found"
                    return .failure(VoiceError("espeak-ng is not installed (\(why)): sudo apt-get install libespeak-ng1 espeak-ng-data"))
                }
                let r = skygate_espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 200, nil, Int32(espeakINITIALIZE_DONT_EXIT))
                guard r > 0 else {
                    return .failure(VoiceError("espeak-ng could not start (its voice data missing?): install Debian's espeak-ng-data (sudo apt-get install espeak-ng)"))
                }
                rate = r
                skygate_espeak_SetSynthCallback { wav, count, events in
                    guard let events, let context = events.pointee.user_data, let wav, count > 0 else { return 0 }
                    let buffer = Unmanaged<Buffer>.fromOpaque(context).takeUnretainedValue()
                    buffer.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count)))
                    return 0
                }
            }
            guard skygate_espeak_SetVoiceByName(parameters.voice) == EE_OK else {
                return .failure(VoiceError("espeak-ng has no voice '\(parameters.voice)': `espeak-ng --voices=en` lists them; set [voice] voice"))
            }
            skygate_espeak_SetParameter(espeakRATE, Int32(parameters.rate), 0)
            skygate_espeak_SetParameter(espeakVOLUME, Int32(parameters.volume), 0)
            var out: [[Int16]] = []
            for text in texts {
                let buffer = Buffer()
                let context = Unmanaged.passRetained(buffer)
                let status = text.withCString { s in
                    skygate_espeak_Synth(s, text.utf8.count + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, context.toOpaque())
                }
                context.release()
                guard status == EE_OK else { return .failure(VoiceError("espeak-ng could not say \"\(text)\" (error \(status.rawValue))")) }
                out.append(buffer.samples)
            }
            return .success((Int(rate!), out))
        }
        switch result {
        case .success(let r): return (r.0, r.1)
        case .failure(let e): throw e
        }
    }
}
