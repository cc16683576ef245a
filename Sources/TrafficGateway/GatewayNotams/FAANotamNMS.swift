import GatewaySupport
import GatewayRecords
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The FAA NOTAM Management Service API, the successor the FAA is moving to: an OAuth2
/// client-credentials token (`POST /v1/auth/token`), then `GET /nmsapi/v1/notams` with
/// `nmsResponseFormat: GEOJSON`, one `location` a query (or lat/lon/radius), and
/// `lastUpdatedDate` for incremental pulls. Production limits are per account (an incremental
/// pull every 3 minutes, a full pull a day): one background poller feeds the cache. The reply is
/// read tolerantly: GeoJSON Features are taken from `data.geojson`, `items` or `features`,
/// each as the NOTAM API's feature shape.
package struct FAANotamNMS: NotamSource {
    /// Base URL (`--url`).
    package var baseURL: String
    /// OAuth2 client credentials.
    package var credentials: Credentials
    /// HTTP client.
    package var http: HTTPClient
    /// Only NOTAMs updated since then (incremental pull), epoch seconds.
    package var updatedSince: Double?
    /// `faa-nms`.
    package var name: String { "faa-nms" }

    /// A client for `baseURL`.
    package init(baseURL: String = "https://api-nms.aim.faa.gov", credentials: Credentials, http: HTTPClient = HTTPClient(), updatedSince: Double? = nil) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.credentials = credentials
        self.http = http
        self.updatedSince = updatedSince
    }

    /// A bearer token for the credentials.
    func token() async throws(FetchError) -> String {
        let url = baseURL + "/v1/auth/token"
        let basic = Data("\(credentials.id):\(credentials.secret)".utf8).base64EncodedString()
        let r = try await http.post(url, form: [("grant_type", "client_credentials")], headers: [("Authorization", "Basic \(basic)")])
        guard let object = JSONReader.object(r.body),
              let token = object["access_token"] as? String, !token.isEmpty else {
            throw FetchError(.credentials, url: url, reason: "no access_token in the token reply: check FAA_CLIENT_ID and FAA_CLIENT_SECRET")
        }
        return token
    }

    /// One query per location (and one for the circle), all NOTAMs merged.
    package func fetch(_ query: NotamQuery) async throws(FetchError) -> [Notam] {
        let bearer = try await token()
        var queries: [[(String, String)]] = query.locations.map { [("location", $0)] }
        if let near = query.near {
            queries.append([("latitude", String(near.latitude)), ("longitude", String(near.longitude)), ("radius", String(min(near.radiusNM, 100)))])
        }
        if let since = updatedSince {
            queries = queries.map { $0 + [("lastUpdatedDate", Timestamp.iso8601(since))] }
        }
        var out: [String: Notam] = [:]
        for q in queries {
            let url = baseURL + "/nmsapi/v1/notams?" + q.map { "\($0.0)=\(HTTPClient.escape($0.1))" }.joined(separator: "&")
            let r = try await http.get(url, headers: [("Authorization", "Bearer \(bearer)"), ("nmsResponseFormat", "GEOJSON"), ("Accept", "application/json")])
            for n in try Self.parse(r.body, url: url) { out[n.id] = n }
        }
        return out.values.sorted { $0.id < $1.id }
    }

    /// The NOTAMs of one reply.
    package static func parse(_ body: [UInt8], url: String) throws(FetchError) -> [Notam] {
        guard let object = JSONReader.object(body) else {
            throw FetchError(.content, url: url, reason: "the reply is not valid JSON (\(body.count) bytes)")
        }
        let data = object["data"] as? [String: Any]
        guard let features = (data?["geojson"] as? [Any]) ?? (object["items"] as? [Any]) ?? (object["features"] as? [Any]) else {
            throw FetchError(.content, url: url, reason: "no GeoJSON features (data.geojson, items or features) in the reply")
        }
        return features.compactMap { ($0 as? [String: Any]).flatMap { FAANotamAPI.notam($0, source: "faa-nms") } }
    }
}
