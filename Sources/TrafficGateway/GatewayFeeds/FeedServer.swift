import GatewaySupport
import GatewayDomain
import GatewayRecords
import GatewayHTTP
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
    let server = Locked<HTTPService?>(nil)

    /// The TCP port bound (useful with port 0).
    package var port: Int { server.value?.port ?? 0 }

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
        if let token { router.add(middleware: TokenMiddleware(token: token, publicPaths: Self.publicPaths)) }
        addCockpitRoutes(to: router)
        addWeatherRoutes(to: router)
        addForecastRoutes(to: router)
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
            let last = ServerSentEvents.lastEventID(request)
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
            return ServerSentEvents.response(opening: "gatewayd alerts" + (start.resumed ? " (resumed)" : "")) { events in
                // The active alerts are not in stream order: sent without ids, then the newest
                // id alone, which per the SSE rules sets the client's last id without an event.
                for alert in start.backlog { try await events.event(text ? alert.text : alert.json, id: start.resumed ? alert.eventId : nil) }
                if let mark = start.mark { try await events.mark(mark) }
                for await line in start.stream {
                    switch line {
                    case .keepAlive: try await events.keepAlive()
                    case .alert(let alert): try await events.event(text ? alert.text : alert.json, id: alert.eventId)
                    }
                }
            }
        }
        return router
    }

    /// Where a resuming client's events are read from the alert log: a queue of its own, so a
    /// slow page query on the heavy queue never holds up an alert stream.
    static let resumeQueue = DispatchQueue(label: "gatewayd.alerts-resume")

    static func json(_ text: String, type: String = "application/json") -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// Serves `host:port` (0: any free port) once `run` (in the gateway's group) or `start` (alone)
    /// is called; a bad port or address is an error here.
    package func bind(host: String, port: Int) throws(GatewayError) {
        guard (1...65_535).contains(port) || port == 0 else { throw GatewayError.setting(name: "--http-port", message: "--http-port \(port): give 1–65535, or 0 to disable") }
        let hub = self.hub
        server.set(try HTTPService("HTTP feeds", router: router(), host: host, port: port,
                                   inUse: "choose another with --http-port, or --http-port 0 to disable", serverName: "gatewayd",
                                   maximumConnections: Self.maximumConnections, perAddress: perAddress) { hub.finishAll() })
    }

    /// Listens, returning once the server accepts connections; a port in use is an error here,
    /// before any "listening" line (`bind` first).
    package func listen() throws(GatewayError) { try server.value?.start() }

    /// Serves (a service of the gateway's `ServiceGroup`) until graceful shutdown, which ends
    /// every `/alerts` stream so that the server's own graceful shutdown does not wait for them.
    package func run() async throws { try await server.value?.run() }

    /// Whether the server is accepting connections.
    package var isRunning: Bool { server.value?.isRunning ?? false }

    /// `HTTP feeds`.
    package var description: String { "HTTP feeds" }
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
