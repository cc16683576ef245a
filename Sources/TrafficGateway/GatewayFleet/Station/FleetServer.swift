import GatewaySupport
import GatewayRecords
import Hummingbird
import HummingbirdCore
import HTTPTypes
import Logging
import NIOCore
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

/// The ground station's HTTP server (`gatewayd fleet`, default port 8091, beside a gateway's
/// 8090): the fleet page, `/api/fleet`, `/api/fleet/flights`, `/api/fleet/flights/GATEWAY/UID`,
/// the fleet's alert events as Server-Sent Events (`/alerts`, `id:` the station's row, resumed
/// after `Last-Event-ID`), and `/healthz`.
package final class FleetServer: Service, Sendable {
    private let station: FleetStation
    private let application = Locked<(any Service)?>(nil)
    private let boundPort = Locked(0)

    package init(station: FleetStation) { self.station = station }

    /// The port bound (after `bind`).
    package var port: Int { boundPort.value }

    /// Binds `host:port` (0: any free port) and makes the server; nothing is served until `run`.
    package func bind(host: String, port: Int) throws(GatewayError) {
        guard (0...65_535).contains(port) else { throw GatewayError.setting(name: "--http-port", message: "--http-port \(port): give 0–65535") }
        let (fd, bound) = try IPv4Socket.bound(type: Int32(SOCK_STREAM.rawValue), address: host, port: UInt16(port), what: "HTTP",
                                               inUse: "choose another with --http-port", reuseAddress: true)
        close(fd)
        var logger = Logger(label: "gatewayd.fleet-http")
        logger.logLevel = .critical
        let app = Application(router: router(), server: .http1(configuration: .init(idleTimeout: .seconds(30))),
                              configuration: .init(address: .hostname(host, port: Int(bound)), serverName: "gatewayd-fleet"), logger: logger)
        boundPort.set(Int(bound))
        application.set(app)
    }

    package func run() async throws {
        guard let app = application.value else { return }
        let station = self.station
        try await withGracefulShutdownHandler {
            try await app.run()
        } onGracefulShutdown: {
            station.stop()
        }
    }

    func router() -> Router<BasicRequestContext> {
        let station = self.station
        let router = Router(context: BasicRequestContext.self)
        router.get("/") { _, _ in Self.text(FleetPage.html, type: "text/html; charset=utf-8") }
        router.get("/fleet.css") { _, _ in Self.text(FleetPage.css, type: "text/css; charset=utf-8") }
        router.get("/fleet.js") { _, _ in Self.text(FleetPage.javascript, type: "text/javascript; charset=utf-8") }
        router.get("/api/fleet") { _, _ in Self.text(station.fleetJSON()) }
        router.get("/api/fleet/flights") { _, _ in
            do {
                // Newest first, each with its gateway.
                let flights = try LogbookStore(database: station.store.database).list().reversed()
                return Self.text(LogbookJSON.list(Array(flights)))
            } catch {
                return Response(status: .serviceUnavailable, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "\(error)\n")))
            }
        }
        router.get("/api/fleet/flights/:gateway/:uid") { _, context in
            // Ids are UTF-8 ("Ésa-1"): a client sends them percent-encoded.
            let gateway = PercentEncoding.decode(context.parameters.get("gateway") ?? ""), uid = PercentEncoding.decode(context.parameters.get("uid") ?? "")
            let store = LogbookStore(database: station.store.database)
            guard let summary = try? store.summary(uid: uid, gateway: gateway), let flight = try? store.flight(summary.id, display: true) else {
                return Response(status: .notFound, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "no flight \(uid) of \(gateway)\n")))
            }
            return Self.text(LogbookJSON.flight(flight))
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
            let last = request.headers[HTTPField.Name("Last-Event-ID")!] ?? request.uri.queryParameters["lastEventId"].map(String.init)
            let after = last.flatMap { Int64($0.trimmingWhitespaceAndNewlines()) }
            // Subscribed first, so nothing kept between the pages and the live stream is missed.
            let (_, stream) = station.subscribe(after: nil)
            let body = ResponseBody { writer in
                try await writer.write(ByteBuffer(string: ": gatewayd fleet alerts\nretry: 2000\n\n"))
                // Every stored event after `Last-Event-ID`, a page at a time (30,000 after an
                // outage are 15 pages, never one list), then the live ones. A live event past a
                // gap (the stream's buffer overran while paging) sends the gap from the database.
                var sent = after
                func catchUp(to end: Int64?) async throws {
                    guard var cursor = sent else { return }
                    while true {
                        let page = try await station.events(after: cursor, before: end)
                        guard let lastRow = page.last?.rowid else { break }
                        for (rowid, json) in page { try await writer.write(ByteBuffer(string: "id: \(rowid)\ndata: \(json)\n\n")) }
                        cursor = lastRow
                        sent = lastRow
                    }
                }
                try await catchUp(to: nil)
                for await (rowid, json) in stream {
                    if let s = sent, rowid <= s { continue }
                    if let s = sent, rowid > s + 1 { try await catchUp(to: rowid) }
                    sent = rowid
                    try await writer.write(ByteBuffer(string: "id: \(rowid)\ndata: \(json)\n\n"))
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
        }
        return router
    }

    static func text(_ text: String, type: String = "application/json") -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
