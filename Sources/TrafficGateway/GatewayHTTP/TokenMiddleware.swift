import Hummingbird
import HTTPTypes
import NIOCore

/// Refuses (401) any request without the configured token, compared in constant time; the paths
/// in `publicPaths` (a page and its assets, no data in them) load without it and ask for it.
/// Either place may carry it: `Authorization: Bearer TOKEN`, or `?token=TOKEN` for clients that
/// cannot set headers (a browser's EventSource).
package struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    package let token: String
    package let publicPaths: Set<String>

    package init(token: String, publicPaths: Set<String>) {
        self.token = token
        self.publicPaths = publicPaths
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .get, publicPaths.contains(request.uri.path) { return try await next(request, context) }
        let bearer = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        let query = request.uri.queryParameters["token"].map(String.init)
        guard bearer.map({ Self.same($0, token) }) == true || query.map({ Self.same($0, token) }) == true else {
            return Response(status: .unauthorized, headers: [.contentType: "text/plain", .wwwAuthenticate: "Bearer"],
                            body: .init(byteBuffer: ByteBuffer(string: "a token is required (Authorization: Bearer …, or ?token=…)\n")))
        }
        return try await next(request, context)
    }

    /// Whether `a` equals `b`, in a time that does not depend on where they differ.
    package static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var diff = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) { diff |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0) }
        return diff == 0
    }
}
