import GatewayRecords
/// The NOTAM sources `notams fetch` and `run --notam-source` know, by the name the user types.
package enum NotamSourceKind: String, CaseIterable, Sendable, Equatable, CustomStringConvertible {
    /// The FAA NOTAM API (api.faa.gov key: client_id and client_secret).
    case faaAPI = "faa-api"
    /// The FAA's NOTAM Management Service (OAuth2 client credentials).
    case faaNMS = "faa-nms"
    /// FAA NOTAM Search (no key; may refuse scripts).
    case faaSearch = "faa-search"

    /// The name as typed: `faa-api`.
    package var description: String { rawValue }

    /// The names in words, for help and errors: "faa-api, faa-nms or faa-search".
    package static var choices: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The client for this source: at `baseURL` when given (a mirror, a proxy, a staging API, a
    /// test server), else at the source's public address. `credentials` is asked only by the
    /// sources that need a key, so a missing key is an error for them alone.
    package func client(baseURL: String?, http: HTTPClient,
                       credentials: () throws(FetchError) -> Credentials) throws(FetchError) -> any NotamSource {
        switch self {
        case .faaAPI:
            let key = try credentials()
            return baseURL.map { FAANotamAPI(baseURL: $0, credentials: key, http: http) } ?? FAANotamAPI(credentials: key, http: http)
        case .faaNMS:
            let key = try credentials()
            return baseURL.map { FAANotamNMS(baseURL: $0, credentials: key, http: http) } ?? FAANotamNMS(credentials: key, http: http)
        case .faaSearch:
            return baseURL.map { FAANotamSearch(baseURL: $0, http: http) } ?? FAANotamSearch(http: http)
        }
    }
}
