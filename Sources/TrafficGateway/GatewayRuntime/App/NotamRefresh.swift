import GatewaySupport
import GatewayRecords
import GatewayNotams
import GatewayNotify
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One refresh of the stored NOTAMs from a source while the gateway runs: fetch the configured
/// locations, store them (never replacing good data with a bad reply), and say what changed.
/// Credentials and the base URL come from the configuration, read at each refresh.
package struct NotamRefresh: Sendable {
    /// Where from.
    package let source: NotamSourceKind
    /// The ICAO locations refreshed; stored NOTAMs of other locations are left alone.
    package let locations: [String]
    /// Base URL replacing the source's, and the credentials (`GatewayConfig.notamCredentials`).
    package let config: GatewayConfig
    /// Where to.
    package let store: NotamStore
    /// What the changes tell the pilot (`[notify]`), added to the outbox in the refresh's
    /// transaction; nil without targets.
    package var notices: NotamNotices?

    /// A refresh of `config.notamLocations` from `source` into `store`.
    package init(source: NotamSourceKind, config: GatewayConfig, store: NotamStore) {
        self.source = source
        self.locations = config.notamLocations
        self.config = config
        self.store = store
    }

    /// Fetches (libcurl with its timeouts off the cooperative pool, retries after `Task.sleep`s,
    /// each passed to `onRetry`).
    package func fetch(onRetry: @escaping @Sendable (Int, String) -> Void) async throws(FetchError) -> [Notam] {
        var http = HTTPClient()
        http.onRetry = onRetry
        let config = self.config
        let client = try source.client(baseURL: config.notamURL, http: http) { () throws(FetchError) in try config.notamCredentials() }
        return try await client.fetch(NotamQuery(locations: locations))
    }

    /// Stores what `fetch` returned; the line to log says what changed.
    package func store(_ notams: [Notam], at time: Double) throws(GatewayError) -> String {
        let wanted = Set(locations)
        let notices = self.notices
        let changes = try store.refresh(source: source.rawValue, notams: notams, at: time, inScope: { n in n.location.map(wanted.contains) ?? false },
                                        alsoInTransaction: { db, changes in try notices?.addToOutbox(changes, in: db, now: time) })
        return Self.summary(changes, source: source.rawValue, count: notams.count)
    }

    /// The line a refresh logs: "notams: 12 from faa-api: 2 new, 1 cancelled" (or ", no changes").
    package static func summary(_ changes: [NotamChange], source: String, count: Int) -> String {
        let counts = Dictionary(grouping: changes, by: \.kind).mapValues(\.count)
        let summary = ["new", "modified", "cancelled", "expired"].compactMap { k in counts[k].map { "\($0) \(k)" } }
        return "notams: \(count) from \(source)\(summary.isEmpty ? ", no changes" : ": " + summary.joined(separator: ", "))"
    }

    /// The line a failed refresh logs: the stored set is kept.
    package func failure(_ error: any Error) -> String {
        "notams: refresh from \(source.rawValue) failed: \(error) — flying on the \((try? store.count()) ?? 0) stored NOTAMs"
    }
}
