import GatewaySupport
import GatewayDomain
import GatewayRecords
import HTTPTypes
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The HTTP feeds (Hummingbird): the cockpit page at `/` with its JSON under `/api/…`
/// (`FeedServer+Cockpit.swift`), `/data/aircraft.json`, `/traffic.geojson`, `/airspace.geojson`,
/// `/alerts` (Server-Sent Events), `/alerts/active`, `/healthz`, `/metrics`. Read-only but for
/// acknowledging an airspace alert, which needs its own token.
/// Handlers read the `FeedHub`'s latest snapshot; they never touch the core.
package final class FeedServer: Service, CustomStringConvertible {
    /// The hub the handlers read.
    package let hub: FeedHub
    private let application = Locked<(any Service)?>(nil)
    private let boundPort = Locked<Int>(0)
    let running = Locked(false)
    /// The task serving outside a group (`start`, for tests and tools).
    let standalone = Locked<Task<Void, Never>?>(nil)

    /// The TCP port bound (useful with port 0).
    package var port: Int { boundPort.withLock { $0 } }

    /// When set, every request must carry it (`Authorization: Bearer TOKEN`, or `?token=TOKEN` for
    /// clients that cannot set headers): a shared Wi-Fi then cannot read ownship's position.
    package let token: String?

    /// What the cockpit page reads besides the hub (NOTAMs, acknowledgement, version).
    package let cockpit: CockpitSources
    /// Guards the page's one write (token, Origin, rate limit).
    let acknowledgementGate: AcknowledgementGate

    /// Creates a server over `hub` (and `cockpit` for the page); nothing listens until `start`.
    package init(hub: FeedHub, token: String? = nil, cockpit: CockpitSources = CockpitSources()) {
        self.hub = hub
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.cockpit = cockpit
        self.acknowledgementGate = AcknowledgementGate(token: cockpit.ackToken, perMinute: cockpit.ackAttemptsPerMinute)
    }

    /// Most HTTP connections served at once.
    package static let maximumConnections = 512
    /// Connections by client address: at most 32 from one address, and the last 64 of the 512
    /// only for addresses that hold none.
    package let perAddress = ConnectionsPerAddress(limit: 32, capacity: maximumConnections, reserved: 64)

    /// The router with every route.
    func router() -> Router<FeedRequestContext> {
        let hub = self.hub
        let router = Router(context: FeedRequestContext.self)
        if let token { router.add(middleware: TokenMiddleware(token: token)) }
        addCockpitRoutes(to: router)
        addWeatherRoutes(to: router)
        router.get("/data/aircraft.json") { _, _ in Self.json(FeedEncoders.aircraftJSON(hub.snapshot)) }
        let version = cockpit.version
        router.get("/data/receiver.json") { _, _ in Self.json(FeedEncoders.receiverJSON(hub.snapshot, version: version)) }
        router.get("/traffic.geojson") { _, _ in Self.json(FeedEncoders.trafficGeoJSON(hub.snapshot), type: "application/geo+json") }
        router.get("/airspace.geojson") { _, _ in Self.json(FeedEncoders.airspaceGeoJSON(hub.snapshot), type: "application/geo+json") }
        router.get("/alerts/active") { _, _ in Self.json(JSONWriter.array(hub.activeEncoded.map(\.json))) }
        let cockpit = self.cockpit
        router.get("/healthz") { _, _ in
            let s = hub.snapshot
            // A storage fault is reported (degraded) but is no outage: the alerts go on.
            var r = Self.json(FeedEncoders.health(s, storage: cockpit.storageProblem, fleet: cockpit.fleet?()))
            if s.problem != nil { r.status = .serviceUnavailable }
            return r
        }
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: FeedEncoders.metrics(hub.snapshot, feeds: hub.counters))))
        }
        router.get("/alerts") { request, _ in
            // `?format=text`: the readable lines (what `gatewayd tail` prints), else the JSON contract.
            let text = request.uri.queryParameters["format"] == "text"
            // A client resuming after a reconnect (the SSE `Last-Event-ID` header, or
            // `?lastEventId=` for clients that cannot set it) gets what it missed: from the hub's
            // hour of history, else from the alert log (a restart, a long outage).
            let last = (request.headers[Self.lastEventID] ?? request.uri.queryParameters["lastEventId"].map(String.init)).flatMap { $0.isEmpty ? nil : $0 }
            var earlier: [EncodedAlert]?
            if let last, !hub.remembers(eventID: last), let database = cockpit.logbook?.database {
                earlier = await Offload.run(on: Self.resumeQueue) { () -> [EncodedAlert]? in
                    (try? AlertLog(database: database).events(afterEventID: last))??.compactMap(\.encoded)
                } ?? nil
            }
            guard let start = hub.subscribe(after: last, earlier: earlier) else {
                return Response(status: .serviceUnavailable, headers: [.contentType: "text/plain", .retryAfter: "10"],
                                body: .init(byteBuffer: ByteBuffer(string: "too many /alerts clients; retry later\n")))
            }
            @Sendable func frame(_ alert: EncodedAlert, id: Bool = true) -> ByteBuffer {
                let idLine = id ? alert.eventId.map { "id: \($0)\n" } ?? "" : ""
                return ByteBuffer(string: "\(idLine)data: \(text ? alert.text : alert.json)\n\n")
            }
            let body = ResponseBody { writer in
                // A comment first so clients see the stream open even with no alert active.
                try await writer.write(ByteBuffer(string: ": gatewayd alerts\(start.resumed ? " (resumed)" : "")\nretry: 2000\n\n"))
                // The active alerts are not in stream order: sent without ids, then the newest
                // id alone, which per the SSE rules sets the client's last id without an event.
                for alert in start.backlog { try await writer.write(frame(alert, id: start.resumed)) }
                if let mark = start.mark { try await writer.write(ByteBuffer(string: "id: \(mark)\n\n")) }
                for await line in start.stream {
                    switch line {
                    case .keepAlive: try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    case .alert(let alert): try await writer.write(frame(alert))
                    }
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
        }
        return router
    }

    /// Where a resuming client's events are read from the alert log: a queue of its own, so a
    /// slow page query on the heavy queue never holds up an alert stream.
    static let resumeQueue = DispatchQueue(label: "gatewayd.alerts-resume")

    /// The SSE reconnection header.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!

    static func json(_ text: String, type: String = "application/json") -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// Checks that `host:port` can be served (binding it once, which also picks the port when
    /// 0) and makes the server; nothing listens until `run`. A port in use or a bad address is
    /// an error here, before any "listening" line.
    package func bind(host: String, port: Int) throws(GatewayError) {
        guard (0...65_535).contains(port) else { throw GatewayError.setting(name: "--http-port", message: "--http-port \(port): give 1–65535, or 0 to disable") }
        let (fd, bound) = try IPv4Socket.bound(type: Int32(SOCK_STREAM.rawValue), address: host, port: UInt16(port), what: "HTTP",
                                               inUse: "choose another with --http-port, or --http-port 0 to disable", reuseAddress: true)
        close(fd)
        var logger = Logger(label: "gatewayd.http")
        logger.logLevel = .critical  // cancellation on stop logs at error level: noise
        let perAddress = self.perAddress, running = self.running
        // Bounded: at most `maximumConnections` at once (more wait in the backlog), and a connection
        // idle for 30 s between requests (a slowloris, an unread body) is closed.
        let app = Application(
            router: router(),
            server: .http1(configuration: .init(additionalChannelHandlers: [perAddress.handler()], idleTimeout: .seconds(30))),
            configuration: .init(address: .hostname(host, port: Int(bound)), serverName: "gatewayd",
                                 availableConnectionsDelegate: MaximumAvailableConnections(Self.maximumConnections)),
            onServerRunning: { _ in running.setWaking(true) }, logger: logger)
        boundPort.set(Int(bound))
        application.set(app)
    }

    /// Serves (a service of the gateway's `ServiceGroup`) until graceful shutdown, which ends
    /// every `/alerts` stream so that the server's own graceful shutdown does not wait for them.
    package func run() async throws {
        guard let app = application.value else { return }
        let hub = self.hub
        try await withGracefulShutdownHandler {
            try await app.run()
        } onGracefulShutdown: {
            hub.finishAll()
        }
    }

    /// Whether the server is accepting connections.
    package var isRunning: Bool { running.value }

    /// `HTTP feeds`.
    package var description: String { "HTTP feeds" }
}

/// Refuses (401) any request without the configured token, compared in constant time; the page
/// and its assets (`FeedServer.publicPaths`, no data in them) load without it and ask for it.
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .get, FeedServer.publicPaths.contains(request.uri.path) { return try await next(request, context) }
        // Either place may carry it: the page sends the feeds token as ?token= and, when it
        // acknowledges, the acknowledgement token as the Bearer header.
        let bearer = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        let query = request.uri.queryParameters["token"].map(String.init)
        guard bearer.map({ Self.same($0, token) }) == true || query.map({ Self.same($0, token) }) == true else {
            return Response(status: .unauthorized, headers: [.contentType: "text/plain", .wwwAuthenticate: "Bearer"],
                            body: .init(byteBuffer: ByteBuffer(string: "a token is required (Authorization: Bearer …, or ?token=…)\n")))
        }
        return try await next(request, context)
    }

    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var diff = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) { diff |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0) }
        return diff == 0
    }
}

/// The request context of the feeds: Hummingbird's basic one plus the client's address (the
/// acknowledgement limit is kept per address).
package struct FeedRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's storage.
    package var coreContext: CoreRequestContextStorage
    /// The client's address.
    package let remoteAddress: SocketAddress?

    /// A context for a request arriving on `source`'s channel.
    package init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }
}
