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
import GatewayRecords

/// `gatewayd alerts`: the alert log.
struct AlertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alerts",
        abstract: "The alert log kept by run (and replay --database); acknowledge airspace alerts.",
        discussion: """
            Examples:
              gatewayd alerts --since 2026-05-16T14:00:00Z --json
              gatewayd alerts ack "FDC 6/2174"   (its warning not repeated for 15 min)
            """,
        subcommands: [AlertsList.self, AlertsAck.self], defaultSubcommand: AlertsList.self)
}

/// `gatewayd alerts [list]`.
struct AlertsList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the alert log kept by run (and replay --database).",
        usage: "gatewayd alerts list [<options>]",
        discussion: "Example: gatewayd alerts --since 2026-05-16T14:00:00Z --json"
    )

    @Option(help: "Only changes at or after this UTC time (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ).")
    var since: String?

    @Flag(help: "JSON Lines output.")
    var json = false

    @Option(help: "SQLite database (default: $XDG_DATA_HOME/gatewayd/gateway.sqlite).")
    var database: String?

    @Option(help: "At most this many changes.")
    var limit: Int = 10_000

    func run() throws {
        var sinceTime: Double?
        if let since {
            guard let t = Timestamp.parse(since) else { throw ValidationError("--since \(since) is not a UTC time like 2026-05-16T14:00:00Z") }
            sinceTime = t
        }
        let path = database ?? GatewayDatabase.defaultPath()
        do {
            let log = AlertLog(database: try GatewayDatabase(readingOnly: path))
            let records = try log.events(since: sinceTime, limit: limit)
            Terminal.out(records.map { r in
                json ? r.json : "\(Timestamp.iso8601(r.time))  \(r.level.uppercased())  \(r.event)  \(r.message)".escapingControlCharacters
            })
            if records.isEmpty { Terminal.error("no alerts in \(path)\(since.map { " since \($0)" } ?? "")") }
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}

/// `gatewayd alerts ack`.
struct AlertsAck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ack",
        abstract: "Acknowledge an airspace alert: a running gateway stops repeating that area's warning for a while.",
        discussion: "The running gateway (same --database) picks it up within 5 s; its warning shows as a caution for 15 minutes.")

    @Argument(help: "Alert id (airspace-…) or area id (the NOTAM number, e.g. \"FDC 6/2174\").")
    var id: String

    @Option(help: "SQLite database (default: $XDG_DATA_HOME/gatewayd/gateway.sqlite).")
    var database: String?

    func run() throws {
        do {
            let log = AlertLog(database: try GatewayDatabase(path: database ?? GatewayDatabase.defaultPath()))
            try log.acknowledge(id, at: Date().timeIntervalSince1970)
            Terminal.error("acknowledged \(id)")
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}
