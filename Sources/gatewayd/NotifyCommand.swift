import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewaySupport
import GatewayRecords
import GatewayNotify
import GatewayRuntime

/// `gatewayd notify`: the notifications' targets tried, and the outbox shown.
struct NotifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Push NOTAM changes, weather on the route and the gateway's own state to a phone (ntfy), e-mail or a webhook.",
        discussion: """
            Targets are URLs in [notify] targets of the configuration (one a line):
              ntfy://ntfy.sh/YOUR-SECRET-TOPIC            ntfy's app on the phone, subscribed to that topic
              ntfys://TOKEN@ntfy.example.org/hangar       your own ntfy server, with an access token
              mailto://USER:PASSWORD@smtp.example.org?to=you@example.org   (STARTTLS; mailtos:// for port 465)
              mailto://192.168.1.5:25?to=you@example.org  a relay on the LAN, no credentials
              json://homeassistant.local:8123/api/webhook/skygate?secret=S  a signed JSON POST
            What is sent: NOTAM changes at or above [notify] min_severity (caution: TFRs are in) from each
            refresh of run, notams fetch and notams import (one message per place and refresh, never the
            same change twice), new SIGMETs and CWAs on the [weather] area, and the gateway itself (no
            GDL90 for receiver_silent_min, storage degraded, the fleet broker refusing). Every message
            goes through an outbox in the database first: a target that is down gets it when it is back.

            Examples:
              gatewayd notify test --config /etc/gatewayd/gatewayd.toml
              gatewayd notify list
              gatewayd notify list --json
            """,
        subcommands: [NotifyTest.self, NotifyList.self]
    )
}

/// `gatewayd notify test`.
struct NotifyTest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test", abstract: "Send a test message to every target now and say, per target, delivered or why not (exit 1 if any failed).")

    @Option(help: "Configuration file (default /etc/gatewayd/gatewayd.toml when it exists).")
    var config: String?

    func run() async throws {
        let c: GatewayConfig
        do { c = try GatewayConfig.load(path: config ?? GatewayConfig.defaultPath, required: config != nil) } catch {
            throw CommandFailure("\(error)")
        }
        guard c.notify.enabled else {
            throw CommandFailure("notify: no targets in [notify] targets of \(config ?? GatewayConfig.defaultPath): add one, like targets = [\"ntfy://ntfy.sh/your-secret-topic\"]")
        }
        // The test goes straight to the targets (no outbox: nothing is kept or retried).
        let results = await Notifier.test(c.notify, now: Date().timeIntervalSince1970)
        for (target, failure) in results {
            print("notify: \(target): " + (failure.map { "NOT delivered: \($0)" } ?? "delivered"))
        }
        let failed = results.filter { $0.failure != nil }.count
        if failed > 0 { throw CommandFailure("notify: \(failed) of \(results.count) target(s) failed") }
    }
}

/// `gatewayd notify list`.
struct NotifyList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Show the outbox: waiting, delivered (when, after how many tries) and failed (why), newest first.")

    @Option(help: "SQLite database (default: $XDG_DATA_HOME/gatewayd/gateway.sqlite).")
    var database: String?

    @Flag(help: "One JSON object a delivery: {\"target\", \"state\", \"tries\", \"next\", \"delivered\", \"error\", \"notification\": {the webhook's body}}.")
    var json = false

    @Option(help: "At most this many deliveries.")
    var limit = 200

    func run() throws {
        let path = database ?? GatewayDatabase.defaultPath()
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("notify: no database at \(path) (nothing was ever notified; give --database PATH)")
        }
        let outbox: Outbox
        let entries: [Outbox.Entry]
        let counts: (pending: Int, delivered: Int, failed: Int, dropped: Int)
        do {
            outbox = Outbox(database: try GatewayDatabase(readingOnly: path))
            entries = try outbox.entries(limit: max(1, limit))
            counts = try outbox.counts()
        } catch {
            throw CommandFailure("\(error)")
        }
        if json {
            for e in entries {
                var o = JSONWriter()
                o.add("target", e.label)
                o.add("state", e.state)
                o.add("tries", e.tries)
                o.add("next", e.state == "pending" ? Timestamp.iso8601(e.nextTry) : nil)
                o.add(e.state == "failed" ? "failed" : "delivered", e.done.map(Timestamp.iso8601))
                o.add("error", e.lastError)
                o.addRaw("notification", e.notification.json)
                print(o.result)
            }
            return
        }
        Terminal.error("notify: \(counts.pending) waiting, \(counts.delivered) delivered, \(counts.failed) failed\(counts.dropped > 0 ? ", \(counts.dropped) dropped by the outbox's bounds" : "")")
        for e in entries {
            let when: String
            switch e.state {
            case "delivered": when = "delivered \(e.done.map(Timestamp.iso8601) ?? "?") after \(e.tries) tr\(e.tries == 1 ? "y" : "ies")"
            case "failed": when = "FAILED after \(e.tries) tr\(e.tries == 1 ? "y" : "ies"): \(e.lastError ?? "?")"
            default: when = "waiting (\(e.tries) tr\(e.tries == 1 ? "y" : "ies") so far\(e.lastError.map { ", last: \($0)" } ?? ""); next \(Timestamp.iso8601(e.nextTry)))"
            }
            print("\(Timestamp.iso8601(e.notification.time))  \(e.notification.kind.rawValue)  \(e.notification.title)\n    → \(e.label): \(when)")
        }
    }
}
