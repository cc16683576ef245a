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
import GatewayNotams
import GatewayRuntime

/// `gatewayd notams`: fetch, import, list, show and follow changes of the NOTAMs kept for flight.
struct NotamsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notams",
        abstract: "Fetch NOTAMs while a network is there and keep them in the database for flight.",
        discussion: """
            NOTAMs are kept in the gateway's SQLite database; `run` and `replay` watch the stored ones (plus any --notams file) for airspace alerts. A failed, empty or malformed reply never replaces what is stored. Credentials for the FAA NOTAM API come from FAA_CLIENT_ID/FAA_CLIENT_SECRET or a file readable only by you (--credentials).

            Examples:
              gatewayd notams import fixtures/notams-demo.json
              FAA_CLIENT_ID=… FAA_CLIENT_SECRET=… gatewayd notams fetch --location KSLE --location KPDX
              gatewayd notams fetch --near 44.91,-123.00 --radius 30
              gatewayd notams list --active --severity warning
              gatewayd notams show FDC:6/2174
              gatewayd notams changes --unread
            """,
        subcommands: [NotamsFetch.self, NotamsImport.self, NotamsList.self, NotamsShow.self, NotamsChanges.self]
    )
}

/// Options every notams subcommand shares.
struct NotamDatabaseOption: ParsableArguments {
    @Option(help: "SQLite database (default: $XDG_DATA_HOME/gatewayd/gateway.sqlite).")
    var database: String?

    /// The database at `path`, else the default one when it exists (replay reads it, as run does;
    /// nil when there is none yet, so replay never creates one).
    static func existing(_ path: String?) throws(GatewayError) -> GatewayDatabase? {
        if let path { return try GatewayDatabase(path: path) }
        let fallback = GatewayDatabase.defaultPath()
        return FileManager.default.fileExists(atPath: fallback) ? try GatewayDatabase(path: fallback) : nil
    }

    /// The store; `readOnly` for commands that only read (they work on a read-only card too).
    func store(readOnly: Bool = false) throws -> NotamStore {
        do {
            let path = database ?? GatewayDatabase.defaultPath()
            return NotamStore(database: try readOnly ? GatewayDatabase(readingOnly: path) : GatewayDatabase(path: path))
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}

/// Prints a refresh's changes, one line each, to stderr.
func reportChanges(_ changes: [NotamChange], source: String, count: Int) {
    Terminal.error(NotamRefresh.summary(changes, source: source, count: count))
}
