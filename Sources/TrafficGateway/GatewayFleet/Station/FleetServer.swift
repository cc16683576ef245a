import GatewaySupport
import GatewayRecords
import GatewayHTTP
import Dispatch
import Hummingbird
import HummingbirdCore
import HTTPTypes
import NIOCore
import ServiceLifecycle

/// The ground station's HTTP server (`gatewayd fleet`, default port 8091, beside a gateway's
/// 8090): the fleet page, `/api/fleet`, `/api/fleet/flights`, `/api/fleet/flights/GATEWAY/UID`,
/// the fleet's alert events as Server-Sent Events (`/alerts`, `id:` the station's row, resumed
/// after `Last-Event-ID`), and `/healthz`.
///
/// Made with the gateway's HTTP kit (`HTTPService`), bounded like the cockpit's server: 256
/// connections, 32 from one address (the last 32 kept for addresses holding none), and, with a
/// token (`[fleet] station_token`, `--http-token`), every request but the page's own files must
/// carry it. Database reads run on a queue of their own, never on the server's executor.
package final class FleetServer: Service, Sendable {
    private let station: FleetStation
    private let server = Locked<HTTPService?>(nil)
    /// When set, every request (but the page and its files) must carry it.
    package let token: String?

    package init(station: FleetStation, token: String? = nil) {
        self.station = station
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Most connections served at once.
    package static let maximumConnections = 256
    /// Connections by client address.
    package let perAddress = ConnectionsPerAddress(limit: 32, capacity: maximumConnections, reserved: 32)
    /// The paths served without the token (the page asks for it).
    static let publicPaths: Set<String> = ["/", "/fleet.css", "/fleet.js"]
    /// Where the logbook's reads run.
    static let reads = DispatchQueue(label: "gatewayd.fleet-http-reads")

    /// The port bound (after `start`).
    package var port: Int { server.value?.port ?? 0 }

    /// Serves `host:port` (0: any free port), returning once it accepts connections; a port in
    /// use is an error here, before the station's "page and API on" line.
    package func start(host: String, port: Int) throws(GatewayError) {
        guard (0...65_535).contains(port) else { throw GatewayError.setting(name: "--http-port", message: "--http-port \(port): give 0–65535") }
        let station = self.station
        let http = try HTTPService("fleet HTTP", router: router(), host: host, port: port, inUse: "choose another with --http-port",
                                   serverName: "gatewayd-fleet", maximumConnections: Self.maximumConnections, perAddress: perAddress) { station.stop() }
        try http.start()
        server.set(http)
    }

    /// Waits for the group's graceful shutdown, then ends the alert streams and stops serving.
    package func run() async throws { try await server.value?.run() }

    /// Stops serving outside a group (tests).
    package func stop() { server.value?.stop() }

    func router() -> Router<BasicRequestContext> {
        let station = self.station
        let router = Router(context: BasicRequestContext.self)
        if let token { router.add(middleware: TokenMiddleware(token: token, publicPaths: Self.publicPaths)) }
        router.get("/") { _, _ in Self.text(FleetPage.html, type: "text/html; charset=utf-8") }
        router.get("/fleet.css") { _, _ in Self.text(FleetPage.css, type: "text/css; charset=utf-8") }
        router.get("/fleet.js") { _, _ in Self.text(FleetPage.javascript, type: "text/javascript; charset=utf-8") }
        router.get("/api/fleet") { _, _ in Self.text(station.fleetJSON()) }
        router.get("/api/fleet/flights") { _, _ in
            // Newest first, each with its gateway.
            let listed = await Offload.run(on: Self.reads) { () -> Result<String, GatewayError> in
                Result { () throws(GatewayError) in LogbookJSON.list(Array(try LogbookStore(database: station.store.database).list().reversed())) }
            }
            switch listed {
            case .success(let json)?: return Self.text(json)
            case .failure(let error)?: return Response(status: .serviceUnavailable, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "\(error)\n")))
            case nil: return Response(status: .serviceUnavailable)
            }
        }
        router.get("/api/fleet/flights/:gateway/:uid") { _, context in
            // Ids are UTF-8 ("Ésa-1"): a client sends them percent-encoded.
            let gateway = PercentEncoding.decode(context.parameters.get("gateway") ?? ""), uid = PercentEncoding.decode(context.parameters.get("uid") ?? "")
            let json = await Offload.run(on: Self.reads) { () -> String? in
                let store = LogbookStore(database: station.store.database)
                guard let summary = try? store.summary(uid: uid, gateway: gateway), let flight = try? store.flight(summary.id, display: true) else { return nil }
                return LogbookJSON.flight(flight)
            } ?? nil
            guard let json else {
                return Response(status: .notFound, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "no flight \(uid) of \(gateway)\n")))
            }
            return Self.text(json)
        }
        router.get("/healthz") { _, _ in
            let (connected, problem) = station.connection
            var w = JSONWriter()
            w.add("status", connected ? "ok" : "degraded")
            w.add("broker", station.settings.broker.description)
            w.add("connected", connected)
            w.add("problem", problem)
            w.add("refusedMessages", station.refusedMessages)
            w.add("flightHalvesDropped", station.store.droppedHalves)
            return Self.text(w.result)
        }
        router.get("/alerts") { request, _ in
            let after = ServerSentEvents.lastEventID(request).flatMap { Int64($0) }
            // Subscribed first, so nothing kept between the pages and the live stream is missed.
            let (_, stream) = station.subscribe(after: nil)
            return ServerSentEvents.response(opening: "gatewayd fleet alerts") { events in
                // Every stored event after `Last-Event-ID`, a page at a time (30,000 after an
                // outage are 15 pages, never one list), then the live ones. A live event past a
                // gap (the stream's buffer overran while paging) sends the gap from the database.
                var sent = after
                func catchUp(to end: Int64?) async throws {
                    guard var cursor = sent else { return }
                    while true {
                        let page = try await station.events(after: cursor, before: end)
                        guard let lastRow = page.last?.rowid else { break }
                        for (rowid, json) in page { try await events.event(json, id: "\(rowid)") }
                        cursor = lastRow
                        sent = lastRow
                    }
                }
                try await catchUp(to: nil)
                for await item in stream {
                    guard let (rowid, json) = item.event else {
                        try await events.keepAlive()
                        continue
                    }
                    if let s = sent, rowid <= s { continue }
                    if let s = sent, rowid > s + 1 { try await catchUp(to: rowid) }
                    sent = rowid
                    try await events.event(json, id: "\(rowid)")
                }
            }
        }
        return router
    }

    static func text(_ text: String, type: String = "application/json") -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
