import GatewaySupport
import GatewayRecords
import GDL90

/// One fetch of every product for an area, each stored as it comes (`WeatherStore`): what
/// `gatewayd weather fetch` and `run`'s refresh do. A product that fails (HTTP error, timeout
/// after the client's retries, an answer that is not the API's) is said and leaves what is
/// stored untouched; the others go on.
package struct WeatherFetch: Sendable {
    /// What one product's fetch did.
    package struct Outcome: Sendable {
        /// The product.
        package var product: AviationWeatherClient.Product
        /// Reports in the answer (in the area).
        package var fetched: Int
        /// What the store did with them (nil when nothing was stored).
        package var refresh: WeatherStore.Refresh?
        /// Why nothing was stored, when it failed.
        package var error: String?

        /// One line for the terminal or the log.
        package var line: String {
            if let error { return "\(product.rawValue): \(error)" }
            guard let r = refresh else { return "\(product.rawValue): no reports in the area now (what was stored is kept)" }
            return "\(product.rawValue): \(fetched) report\(fetched == 1 ? "" : "s") (\(r.added) new, \(r.updated) changed\(r.expired > 0 ? ", \(r.expired) expired removed" : ""))"
        }
    }

    /// The client.
    package var client: AviationWeatherClient
    /// Where reports are kept.
    package var store: WeatherStore
    /// The area.
    package var area: WeatherArea
    /// The products fetched.
    package var products = AviationWeatherClient.Product.allCases

    /// A fetch of `area` through `client` into `store`.
    package init(client: AviationWeatherClient, store: WeatherStore, area: WeatherArea) {
        self.client = client
        self.store = store
        self.area = area
    }

    /// A station's position: the airport table's (`K` + a three-letter FD identifier first).
    package static func stationPosition(_ id: String) -> Position? {
        guard let table = AirportTable.shared else { return nil }
        return (id.count == 3 ? table.airport("K" + id) : nil)?.position ?? table.airport(id)?.position
    }

    /// Fetches and stores every product at `now`; `progress` hears each product's line.
    ///
    /// When the server cannot be reached at all (no network: a name that does not resolve, a
    /// connection refused, after the retries), the products after it are not tried: each says so
    /// at once instead of waiting through its own retries. After a product timed out through
    /// every retry (a server sending a byte a second held `weather fetch` 329 s over seven
    /// products), the others get one attempt each.
    package func run(at now: Double, progress: @Sendable (Outcome) -> Void = { _ in }) async -> [Outcome] {
        var out: [Outcome] = []
        var unreachable: String?
        var client = self.client
        for product in products {
            var outcome = Outcome(product: product, fetched: 0)
            if let unreachable {
                outcome.error = "not tried: \(unreachable) — kept the \((try? store.count()) ?? 0) stored reports"
                progress(outcome)
                out.append(outcome)
                continue
            }
            do throws(FetchError) {
                let records = try await client.fetch(product, area: area, at: now, stationPosition: Self.stationPosition)
                outcome.fetched = records.count
                if !records.isEmpty {
                    do throws(GatewayError) {
                        outcome.refresh = try store.refresh(product: product.rawValue, records: records, at: now)
                    } catch {
                        outcome.error = "\(error)"
                    }
                }
            } catch {
                let kept = (try? store.count()) ?? 0
                outcome.error = "\(error) — kept the \(kept) stored reports"
                // Refused or unresolved: the others are not tried. Timed out through every retry
                // (one slow endpoint may do it alone, or a stalled server): the others get one
                // attempt each, no retries.
                if error.kind == .network, error.reason.contains("timed out"), !client.http.retryDelays.isEmpty {
                    client.http.retryDelays = []
                    outcome.error! += "; the products after it get one attempt each"
                } else if error.kind == .network, !error.reason.contains("timed out") {
                    unreachable = "the Data API could not be reached (\(error.reason))"
                }
            }
            progress(outcome)
            out.append(outcome)
        }
        return out
    }
}
