import GatewaySupport
import Hummingbird
import HTTPTypes
import NIOCore

/// The one Server-Sent Events writer of both servers (the gateway's `/alerts`, the station's):
/// the stream's opening comment and `retry:`, events with their `id:`, an id alone (which sets a
/// client's last id without an event), keep-alive comments, and a resuming client's
/// `Last-Event-ID` (the header, or `?lastEventId=` for clients that cannot set it).
package struct ServerSentEvents {
    private var writer: any ResponseBodyWriter

    /// How long a client waits before reconnecting, ms (the stream's `retry:`).
    package static let retryMilliseconds = 2_000
    /// The reconnection header.
    package static let lastEventIDHeader = HTTPField.Name("Last-Event-ID")!

    init(_ writer: any ResponseBodyWriter) { self.writer = writer }

    /// The id a reconnecting client last saw, nil for a first connection.
    package static func lastEventID(_ request: Request) -> String? {
        (request.headers[lastEventIDHeader] ?? request.uri.queryParameters["lastEventId"].map(String.init))
            .map { $0.trimmingWhitespaceAndNewlines() }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A `text/event-stream` response whose stream opens with `comment` and `retry:`, then `body`.
    package static func response(opening comment: String, _ body: @escaping @Sendable (inout ServerSentEvents) async throws -> Void) -> Response {
        let stream = ResponseBody { writer in
            var events = ServerSentEvents(writer)
            // A comment first, so clients see the stream open even with nothing to send.
            try await events.write(": \(comment)\nretry: \(retryMilliseconds)\n\n")
            try await body(&events)
            try await events.writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: stream)
    }

    /// One event: `data` (one line) with its `id`, or without one.
    package mutating func event(_ data: String, id: String?) async throws {
        try await write((id.map { "id: \($0)\n" } ?? "") + "data: \(data)\n\n")
    }

    /// An id alone: per the SSE rules it sets the client's last id without an event.
    package mutating func mark(_ id: String) async throws { try await write("id: \(id)\n\n") }

    /// A comment that keeps proxies and clients from timing the stream out.
    package mutating func keepAlive() async throws { try await write(": keep-alive\n\n") }

    private mutating func write(_ text: String) async throws { try await writer.write(ByteBuffer(string: text)) }
}
