import CALSA
#if canImport(Glibc)
import Glibc
#endif

/// One open ALSA playback PCM taking 16-bit mono samples (Debian's libasound2): opened without
/// waiting (a busy device is an error at once, not a hang), then written in blocking mode — so
/// only ever from a thread of its own (`ALSAPlayer`), never the core's queue.
package final class ALSAOutput {
    private let pcm: OpaquePointer
    /// The device name it was opened with.
    package let device: String

    /// Opens `device` ("default", "plughw:1,0", "null"…) at `sampleRate`; with `configuration`
    /// (asoundrc text), the device is looked up there instead of the system's ALSA files.
    package init(device: String, sampleRate: Int, configuration: String? = nil) throws(VoiceError) {
        Self.quiet
        var handle: OpaquePointer?
        var err: Int32
        if let configuration {
            err = skygate_pcm_open_text(&handle, device, configuration, SND_PCM_NONBLOCK)
        } else {
            err = snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        }
        guard err >= 0, let handle else { throw Self.openError(device, err) }
        err = snd_pcm_nonblock(handle, 0)
        if err >= 0 {
            err = snd_pcm_set_params(handle, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(sampleRate), 1, 200_000)
        }
        guard err >= 0 else {
            snd_pcm_close(handle)
            throw VoiceError("ALSA device '\(device)' refused 16-bit mono at \(sampleRate) Hz (\(Self.text(err))): use a plug device such as 'plughw:1,0' or 'default' ([voice] device)")
        }
        self.pcm = handle
        self.device = device
    }

    deinit { snd_pcm_close(pcm) }

    /// Writes every sample (blocking until ALSA took them); `first` is called once the first
    /// frames were handed over. Throws when the device failed or vanished (a USB card unplugged).
    package func write(_ samples: [Int16], first: () -> Void = {}) throws(VoiceError) {
        var offset = 0
        var told = false
        while offset < samples.count {
            let n = samples.withUnsafeBufferPointer { b in
                snd_pcm_writei(pcm, b.baseAddress! + offset, snd_pcm_uframes_t(samples.count - offset))
            }
            if n >= 0 {
                offset += Int(n)
                if !told { told = true; first() }
                continue
            }
            // An underrun or a suspend is recovered; anything else means the device is gone.
            let err = Int32(n)
            if snd_pcm_recover(pcm, err, 1) < 0 {
                throw VoiceError("ALSA device '\(device)' failed while playing (\(Self.text(err))): is it still plugged in?")
            }
        }
    }

    /// Waits until everything written was played, and readies the device for the next callout.
    package func drain() throws(VoiceError) {
        let err = snd_pcm_drain(pcm)
        if err < 0 && snd_pcm_recover(pcm, err, 1) < 0 {
            throw VoiceError("ALSA device '\(device)' failed while playing (\(Self.text(err))): is it still plugged in?")
        }
        _ = snd_pcm_prepare(pcm)
    }

    /// alsa-lib's own stderr lines silenced, once.
    private static let quiet: Void = skygate_alsa_quiet()

    static func text(_ err: Int32) -> String { String(cString: snd_strerror(err)) }

    static func openError(_ device: String, _ err: Int32) -> VoiceError {
        let what: String
        switch -err {
        case EBUSY: what = "it is busy (another program plays on it: use a 'plug'/'dmix' device or stop the other program)"
        case ENOENT, ENODEV, ENXIO: what = "there is no such device (no sound card? `gatewayd voice list` shows what there is; set [voice] device)"
        case EACCES, EPERM: what = "permission denied (add the user to the 'audio' group; the service has SupplementaryGroups=audio)"
        default: what = Self.text(err) + " (`gatewayd voice list` shows the devices; set [voice] device)"
        }
        return VoiceError("cannot open ALSA device '\(device)': \(what)")
    }

    /// The playback devices ALSA knows (`snd_device_name_hint`): name and description.
    package static func devices() -> [(name: String, description: String)] {
        Self.quiet
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &hints) >= 0, let hints else { return [] }
        defer { snd_device_name_free_hint(hints) }
        var out: [(String, String)] = []
        var i = 0
        while let hint = hints[i] {
            i += 1
            func get(_ key: String) -> String? {
                guard let p = snd_device_name_get_hint(hint, key) else { return nil }
                defer { free(p) }
                return String(cString: p)
            }
            guard let name = get("NAME") else { continue }
            if let io = get("IOID"), io != "Output" { continue }
            out.append((name, (get("DESC") ?? "").split(separator: "\n").joined(separator: " — ")))
        }
        return out
    }
}
