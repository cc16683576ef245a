import ArgumentParser
import GatewayVoice

/// `gatewayd voice list`: the ALSA playback devices.
struct VoiceList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the ALSA playback devices callouts can go to.",
        discussion: """
            Each name can be given as [voice] device or 'voice test --device'.
            A USB card is usually 'plughw:CARD=Device,DEV=0'; 'default' follows
            the system's ALSA configuration.

            Example:
              gatewayd voice list
            """
    )

    func run() throws {
        let devices = ALSAOutput.devices()
        if devices.isEmpty { throw CommandFailure("ALSA lists no playback device: no sound card? (check 'aplay -l')") }
        for d in devices { print(d.description.isEmpty ? d.name : "\(d.name)\n    \(d.description)") }
    }
}
