import GatewaySupport
import GatewayDomain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A 16-bit mono PCM WAV file (RIFF, the format every player reads).
package enum WAVFile {
    /// The bytes of a WAV holding `samples` at `sampleRate`.
    package static func data(_ samples: [Int16], sampleRate: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(44 + samples.count * 2)
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian) { out += $0 } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian) { out += $0 } }
        out += Array("RIFF".utf8); u32(36 + samples.count * 2); out += Array("WAVE".utf8)
        out += Array("fmt ".utf8); u32(16); u16(1); u16(1); u32(sampleRate); u32(sampleRate * 2); u16(2); u16(16)
        out += Array("data".utf8); u32(samples.count * 2)
        for s in samples { withUnsafeBytes(of: s.littleEndian) { out += $0 } }
        return out
    }

    /// Silence from `start` to `end` (event times) with each callout's speech at its time: a
    /// replay's audio, whatever pace it was replayed at.
    package static func render(_ callouts: [TimedCallout], vocabulary: CalloutVocabulary, from start: Double, to end: Double) -> [Int16] {
        let rate = Double(vocabulary.sampleRate)
        var samples: [Int16] = []
        for c in callouts {
            let at = max(0, Int(((c.time - start) * rate).rounded()))
            let pcm = vocabulary.pcm(c.callout)
            if samples.count < at + pcm.count { samples += [Int16](repeating: 0, count: at + pcm.count - samples.count) }
            samples.replaceSubrange(at..<(at + pcm.count), with: pcm)
        }
        let total = max(samples.count, Int(((end - start) * rate).rounded()))
        if samples.count < total { samples += [Int16](repeating: 0, count: total - samples.count) }
        return samples
    }

    /// Writes `samples` as a WAV file at `path`.
    package static func write(_ samples: [Int16], sampleRate: Int, to path: String) throws(VoiceError) {
        // Never replaces a device or a link (`--wav /dev/full` once turned the device into a file).
        do throws(GatewayError) { try FileOutput.write(data(samples, sampleRate: sampleRate), to: path) } catch {
            throw VoiceError("\(error)")
        }
    }
}
