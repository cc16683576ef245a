#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import GatewaySimulation
import GatewaySupport

/// `gatewayd`: the skygate GDL 90 traffic and airspace gateway.
@main
struct Gatewayd: AsyncParsableCommand {
    /// Entry point: SIGPIPE is ignored first, so a closed pipe is an EPIPE that `Terminal`
    /// handles (a quiet end for commands, a log line for `run`) instead of a silent death.
    static func main() async {
        signal(SIGPIPE, SIG_IGN)
        PeakMemory.reportAtExitIfRequested()
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    static let configuration = CommandConfiguration(
        commandName: "gatewayd",
        abstract: "GDL90 traffic and airspace gateway for Stratux-class ADS-B receivers.",
        discussion: """
            Listens for GDL90 on UDP 4000 (what a Stratux sends its Wi-Fi clients), decodes it, fuses traffic with ownship GPS, and prints traffic alerts (closest point of approach). Recorded captures go through the very same pipeline.

            Start here:
              gatewayd replay fixtures/demo-flight.pcap     alerts of the bundled capture
              gatewayd decode --json fixtures/demo-flight.pcap | head
              gatewayd run                                  live, on UDP 0.0.0.0:4000
              gatewayd send fixtures/demo-flight.pcap --to 127.0.0.1:4000 --speed 10
            """,
        version: GatewayVersion.current,
        subcommands: [
            RunCommand.self, TailCommand.self, ReplayCommand.self, NotamsCommand.self, DecodeCommand.self, FISBCommand.self,
            WeatherCommand.self, SendCommand.self, AlertsCommand.self, FlightsCommand.self, FleetCommand.self, NotifyCommand.self, VoiceCommand.self, ConfigCommand.self, SimulateCommand.self, BenchCommand.self,
        ]
    )
}
