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
import GDL90
import GatewaySupport
import GatewayRecords
import GatewayNotams
import GatewayNotify
import GatewayRuntime

/// `gatewayd notams fetch`.
struct NotamsFetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch", abstract: "Fetch NOTAMs from the FAA and store them (never replacing good data with a bad reply).",
        usage: "gatewayd notams fetch [<options>]")

    @Option(help: "Source: faa-api (needs a key from api.faa.gov), faa-nms (the FAA's NOTAM Management Service, OAuth2 key) or faa-search (no key; may refuse scripts). Default: [notams] source of --config, else faa-api.")
    var source: NotamSourceKind?

    @Option(help: "Base URL replacing the source's (a mirror, a proxy, a test server). Default: [notams] url of --config.")
    var url: String?

    @Option(help: "ICAO location, repeatable (e.g. KSLE).")
    var location: [String] = []

    @Option(parsing: .unconditional, help: "Centre as LAT,LON or an airport (KSLE, 7S5: from the airport table, no network), with --radius.")
    var near: String?

    @Option(parsing: .unconditional, help: "Radius around --near, NM (at most 100 for the FAA API).")
    var radius: Double = 25

    @Option(help: "Credentials file (client_id=… and client_secret=… lines, chmod 600).")
    var credentials: String?

    @Option(help: "Configuration file: its [notify] targets are told of the changes (and its [notams] locations fetched when no --location or --near is given).")
    var config: String?

    @OptionGroup var db: NotamDatabaseOption

    func validate() throws {
        for l in location where !NotamParser.isICAO(l) { throw ValidationError("--location \(l) is not an ICAO location like KSLE") }
        if location.isEmpty && near == nil && config == nil { throw ValidationError("give --location ICAO (repeatable), --near LAT,LON, or --config FILE with [notams] locations") }
        if let near, Self.point(near) == nil {
            throw ValidationError("--near \(near) is neither LAT,LON like 44.91,-123.00 nor an airport of the airport table (data/airports.bin)")
        }
        if radius <= 0 || radius > 100 { throw ValidationError("--radius must be more than 0 and at most 100 NM") }
    }

    static func point(_ s: String) -> (Double, Double)? {
        // An airport identifier: its position from the airport table (issue 23).
        AirportTable.place(s).map { ($0.latitude, $0.longitude) }
    }

    func run() async throws {
        let settings = try RefreshNotifications.load(config)
        let locations = location.isEmpty && near == nil ? settings?.config.notamLocations ?? [] : location
        if locations.isEmpty && near == nil { throw CommandFailure("notams: no --location, no --near, and no [notams] locations in \(config ?? "the configuration")") }
        let source = self.source ?? settings?.config.notamSource ?? .faaAPI
        let url = self.url ?? settings?.config.notamURL
        let store = try db.store()
        var http = HTTPClient()
        http.onRetry = { attempt, reason in Terminal.error("notams: \(reason); retry \(attempt) of 3") }
        let query = NotamQuery(locations: locations, near: near.flatMap(Self.point).map { ($0.0, $0.1, radius) })
        let notams: [Notam]
        do {
            let file = credentials, config = settings?.config
            let client = try source.client(baseURL: url, http: http) { () throws(FetchError) in
                // --credentials, else what the configuration names (its file, its keys, the environment).
                if let config, file == nil { return try config.notamCredentials() }
                return try Credentials.load(file: file)
            }
            notams = try await client.fetch(query)
        } catch {
            let kept = (try? store.count()) ?? 0
            throw CommandFailure("\(source): \(error) — kept the \(kept) stored NOTAMs")
        }
        do {
            let now = Date().timeIntervalSince1970
            let notices = settings?.config.notamNotices(extra: locations + (near.map { [$0] } ?? []))
            let changes = try store.refresh(source: source.rawValue, notams: notams, at: now, inScope: { query.covers($0) },
                                            alsoInTransaction: { db, changes in try notices?.addToOutbox(changes, in: db, now: now) })
            reportChanges(changes, source: source.rawValue, count: notams.count)
        } catch {
            throw CommandFailure("\(error)")
        }
        await RefreshNotifications.deliver(settings, database: store.database)
    }
}

/// `gatewayd notams import`.
struct NotamsImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Store NOTAMs from a file in the FAA NOTAM API's JSON shape (canned sets, offline copies).")

    @Argument(help: "JSON file ({\"items\": [GeoJSON Feature…]} as the FAA NOTAM API answers).")
    var file: String

    @Option(help: "Configuration file: its [notify] targets are told of the changes.")
    var config: String?

    @OptionGroup var db: NotamDatabaseOption

    func run() async throws {
        let settings = try RefreshNotifications.load(config)
        let notams = try NotamFileCommand.read(path: file)
        let store = try db.store()
        do {
            let now = Date().timeIntervalSince1970
            let notices = settings?.config.notamNotices()
            let changes = try store.refresh(source: "file", notams: notams, at: now, inScope: { _ in false },
                                            alsoInTransaction: { db, changes in try notices?.addToOutbox(changes, in: db, now: now) })
            reportChanges(changes, source: file, count: notams.count)
            let kept = notams.filter(NotamParser.isKeptAsWritten).count
            if kept > 0 { Terminal.error("notams: \(kept) text(s) too costly to read, kept as written with no area or limits from the text (notams show)") }
        } catch {
            throw CommandFailure("\(error)")
        }
        await RefreshNotifications.deliver(settings, database: store.database)
    }
}

/// A NOTAM command's notifications (`--config FILE` with `[notify] targets`): added to the
/// outbox in the refresh's transaction, then everything waiting delivered now (a person is
/// waiting: no backoff), one line a target.
enum RefreshNotifications {
    struct Settings {
        var config: GatewayConfig
    }

    /// The configuration at `path` (nil: none given, or the default file without targets).
    static func load(_ path: String?) throws -> Settings? {
        do {
            let c = try GatewayConfig.load(path: path ?? GatewayConfig.defaultPath, required: path != nil)
            return path != nil || c.notify.enabled ? Settings(config: c) : nil
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    static func deliver(_ settings: Settings?, database: GatewayDatabase) async {
        guard let settings, let notifier = settings.config.notifier(database: database, clock: { Date().timeIntervalSince1970 }, log: { _ in }) else { return }
        for r in await notifier.deliver(ignoringBackoff: true) where r.delivered > 0 || r.problem != nil {
            Terminal.error("notify: \(r.target): \(r.delivered) sent" + (r.problem.map { "; \(r.waiting) kept for later (\($0))" } ?? ""))
        }
    }
}

/// Reading a canned NOTAM file (streamed, see `TrafficGateway.NotamFile`).
enum NotamFileCommand {
    static func read(path: String) throws -> [Notam] {
        do { return try NotamFile.read(path: path) } catch { throw CommandFailure("\(error)") }
    }
}
