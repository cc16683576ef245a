import ArgumentParser
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
import GatewaySupport
import GatewayDomain
import GatewayRecords
import GatewayFeeds

/// `gatewayd tail`: follows a running gateway's alerts (its `/alerts` Server-Sent Events).
struct TailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail",
        abstract: "Follow a running gateway's alerts and print them as they change.",
        discussion: """
            Connects to the gateway's /alerts stream (gatewayd run serves it on port 8090), prints the alerts active now, then every change. When the gateway restarts or the network drops, it reconnects by itself (every 2 s, then less often), says so on stderr, and resumes after the last alert event it printed (the stream's event ids): nothing is printed twice or missed.

            Examples:
              gatewayd tail                                   the gateway on this machine
              gatewayd tail http://raspberrypi.local:8090     another one
              gatewayd tail --json | jq 'select(.level=="warning")'
            """
    )

    @Argument(help: "The gateway's base URL or its /alerts URL.")
    var url = "http://127.0.0.1:8090"

    @Flag(help: "Print the JSON Lines of the alert contract instead of the human lines.")
    var json = false

    @Option(help: "The gateway's HTTP token, when its configuration sets [feeds] token (default: $GATEWAYD_TOKEN).")
    var token: String?

    @Option(help: "Stop after this many alert lines (0: never; for scripts and tests).")
    var count = 0

    func validate() throws {
        guard HTTPConnection.Target(alertsURL) != nil else {
            throw ValidationError("\(url) is not an http:// URL like http://127.0.0.1:8090")
        }
        if count < 0 { throw ValidationError("--count must be 0 or more") }
    }

    var alertsURL: String {
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        // Readable lines come encoded by the gateway (`?format=text`): each alert is formatted
        // once, where it happens, for every reader.
        let alerts = (base.hasSuffix("/alerts") ? base : base + "/alerts") + (json ? "" : "?format=text")
        let token = self.token ?? ProcessInfo.processInfo.environment["GATEWAYD_TOKEN"]
        guard let token, !token.isEmpty else { return alerts }
        return alerts + (json ? "?" : "&") + "token=" + HTTPClient.escape(token)
    }

    func run() throws {
        let colour = Terminal.colourOnStdout
        var printed = 0
        SSEFollower(name: "tail", target: HTTPConnection.Target(alertsURL)!, shown: SecretMasking.url(alertsURL), peer: "the gateway").follow { event in
            Terminal.out([colour && !json ? AlertFormatter.colouredLine(text: event) ?? event : event])
            printed += 1
            return count == 0 || printed < count
        }
    }
}
