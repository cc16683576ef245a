import GatewaySupport
import GatewayHTTP
import Hummingbird

/// Decides whether an acknowledgement request may pass: the page's one write. Off unless a
/// token is configured; the request must carry it (`Authorization: Bearer …`), come from this
/// server's own page when a browser sends it (its `Origin` must name the `Host` it was sent
/// to), and fit the rate limit (attempts, good or bad, a sliding minute, per client address:
/// guessing a token is as slow as acknowledging, and a neighbour's guesses never lock the
/// pilot's tablet out).
package final class AcknowledgementGate: Sendable {
    /// Why a request was refused, or that it passed.
    package enum Verdict: Equatable, Sendable {
        /// Passed.
        case allowed
        /// No token configured: acknowledgement over HTTP is off (403).
        case off
        /// Token missing or wrong (401).
        case unauthorized
        /// A browser sent it from another site (403).
        case foreignOrigin
        /// Too many attempts this minute (429).
        case tooMany
    }

    private let token: String?
    private let perMinute: Int
    /// Attempts in the last minute, by client address (a neighbour's guesses use up its own
    /// allowance, not the pilot's); at most `trackedClients` addresses are kept.
    private let attempts = Locked<[String: [Double]]>([:])
    /// Client addresses whose attempts are remembered at once (the oldest is forgotten).
    static let trackedClients = 1_024

    /// A gate for `token` (nil: everything refused) with at most `perMinute` attempts a minute.
    package init(token: String?, perMinute: Int = 10) {
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.perMinute = max(1, perMinute)
    }

    /// Checks one request at `now` (seconds, any monotonic origin).
    package func check(authorization: String?, origin: String?, host: String?, client: String, now: Double) -> Verdict {
        guard let token else { return .off }
        let admitted = attempts.withLock { all -> Bool in
            var a = all.removeValue(forKey: client) ?? []
            a.removeAll { now - $0 >= 60 || $0 > now }
            if all.count >= Self.trackedClients {
                all = all.filter { !$0.value.isEmpty && now - ($0.value.last ?? 0) < 60 }
                if all.count >= Self.trackedClients, let oldest = all.min(by: { ($0.value.last ?? 0) < ($1.value.last ?? 0) })?.key {
                    all[oldest] = nil
                }
            }
            defer { all[client] = a }
            guard a.count < perMinute else { return false }
            a.append(now)
            return true
        }
        guard admitted else { return .tooMany }
        if let origin {
            guard let host, origin == "http://" + host || origin == "https://" + host else { return .foreignOrigin }
        }
        let given = authorization.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        guard let given, TokenMiddleware<FeedRequestContext>.same(given, token) else { return .unauthorized }
        return .allowed
    }
}
