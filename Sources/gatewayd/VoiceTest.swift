import ArgumentParser
import GatewayRuntime

/// `gatewayd voice test`: a sample callout through the device.
struct VoiceTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Speak a sample callout through the sound device.",
        usage: "gatewayd voice test [<options>]",
        discussion: """
            Says "Traffic! Two o'clock, high, one mile." and "Traffic, traffic!
            Twelve o'clock, same altitude, less than one mile, closing." with the
            [voice] settings of the configuration, flags overriding them.

            Examples:
              gatewayd voice test
              gatewayd voice test --device plughw:1,0 --volume 150
            """
    )

    @Option(help: "ALSA device (default: [voice] device, else 'default'; see 'voice list').")
    var device: String?

    @Option(help: "Volume, percent of normal, 0-200 (default: [voice] volume).")
    var volume: Int?

    @Option(help: "Configuration file (default /etc/gatewayd/gatewayd.toml when it exists).")
    var config: String?

    func run() throws {
        var c: GatewayConfig
        do { c = try GatewayConfig.load(path: config ?? GatewayConfig.defaultPath, required: config != nil) } catch {
            throw CommandFailure("\(error)")
        }
        do { try c.apply([.init("--device", "voice.device", device.map(TOMLValue.string)),
                          .init("--volume", "voice.volume", volume.map(TOMLValue.integer))]) } catch {
            throw ValidationError("\(error)")
        }
        do {
            let played = try VoiceCheck.speakSample(c.voiceSettings)
            print("voice: said \(played) sample callouts on ALSA device '\(c.voiceDevice)'")
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}
