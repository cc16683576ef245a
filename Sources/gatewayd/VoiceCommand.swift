import ArgumentParser

/// `gatewayd voice`: check the spoken callouts' wiring on the ground.
struct VoiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voice",
        abstract: "Check the spoken callouts: list sound devices, speak a sample.",
        discussion: """
            With [voice] enabled, 'run' speaks traffic and airspace callouts
            ("Traffic! Two o'clock, high, one mile.") through ALSA into the
            intercom's music input. Set the device and volume on the ground:

              gatewayd voice list
              gatewayd voice test --device plughw:1,0
              gatewayd voice test --volume 150
              gatewayd replay --callouts fixtures/demo-flight.pcap
            """,
        subcommands: [VoiceTest.self, VoiceList.self]
    )
}
