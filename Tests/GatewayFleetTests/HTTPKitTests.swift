import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayRecords
@testable import GatewayFeeds
@testable import GatewayFleet
import GatewayHTTP

/// The one HTTP kit (issue 53) as both servers use it: the port taken from the server's running
/// signal (0: a free one, said), a port in use refused in the gateway's words before anything is
/// served, the station's token and per-address cap (the cockpit server's were there before), and
/// the one SSE writer's keep-alive on the station's stream.
@Suite(.timeLimit(.minutes(2))) struct HTTPKitTests {
    static func station(_ dir: URL) throws -> FleetStation {
        let db = try GatewayDatabase(path: dir.appendingPathComponent("station.sqlite").path)
        return FleetStation(settings: FleetSettings(broker: FleetBroker(url: "mqtt://127.0.0.1:1")!), password: nil, database: db,
                            clientID: "kit", clock: { 1_778_940_000 }) { _ in }
    }

    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("httpkit-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Port 0 gives the port the server really listens on (from its running signal), and a
    /// second server on that port fails at `start`, naming the port and what to do.
    @Test func thePortComesFromTheRunningServerAndAPortInUseIsNamed() throws {
        let first = FeedServer(hub: FeedHub())
        try first.start(host: "127.0.0.1", port: 0)
        defer { first.stop() }
        #expect(first.port > 0 && first.isRunning)
        #expect(try HTTPConnection.get("http://127.0.0.1:\(first.port)/data/aircraft.json").status == 200)
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let second = FleetServer(station: try Self.station(dir))
        #expect(throws: GatewayError.socket(what: "cannot listen on HTTP 127.0.0.1:\(first.port)",
                                            reason: "port \(first.port) is already in use (choose another with --http-port)")) {
            try second.start(host: "127.0.0.1", port: first.port)
        }
        // The first goes on serving.
        #expect(try HTTPConnection.get("http://127.0.0.1:\(first.port)/data/aircraft.json").status == 200)
        first.stop()
        #expect(!first.isRunning)
        #expect((try? HTTPConnection.get("http://127.0.0.1:\(first.port)/healthz", timeout: 2)) == nil, "still answering after stop")
    }

    /// The station with a token: the API and the stream refuse a request without it (401, the
    /// cockpit's words), take it as a Bearer header or `?token=`; the page's files load without it.
    @Test func theStationsTokenGuardsItsDataButNotItsPage() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = FleetServer(station: try Self.station(dir), token: "s3cret")
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        for path in ["/api/fleet", "/api/fleet/flights", "/healthz", "/alerts"] {
            let refused = try HTTPConnection.get(base + path)
            #expect(refused.status == 401, "\(path)")
            #expect(refused.body.contains("a token is required"))
            #expect(try HTTPConnection.get(base + path + "?token=wrong").status == 401, "\(path)")
        }
        #expect(try HTTPConnection.get(base + "/api/fleet?token=s3cret").status == 200)
        var bearer = try HTTPConnection(try #require(HTTPConnection.Target(base + "/api/fleet/flights")), sending: [("Authorization", "Bearer s3cret")])
        defer { bearer.close() }
        _ = try bearer.readAll()
        #expect(bearer.status == 200)
        for path in ["/", "/fleet.css", "/fleet.js"] { #expect(try HTTPConnection.get(base + path).status == 200, "\(path)") }
        let page = try HTTPConnection.get(base + "/fleet.js").body
        #expect(page.contains("withToken('/alerts')"), "the page's stream carries the token")
    }

    /// The station's connections are capped by address like the cockpit's: 32 streams from one
    /// address are served, the 33rd is closed at once, and a freed slot is taken again.
    @Test func theStationCapsConnectionsByAddress() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let station = try Self.station(dir)
        let server = FleetServer(station: station)
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        let target = try #require(HTTPConnection.Target("http://127.0.0.1:\(server.port)/alerts"))
        var open: [HTTPConnection] = []
        defer { for c in open { c.close() } }
        for _ in 0..<server.perAddress.limit {
            let c = try HTTPConnection(target, timeout: 5)
            #expect(c.status == 200)
            open.append(c)
        }
        #expect(server.perAddress.open("127.0.0.1").address == 32)
        #expect(throws: HTTPConnection.Failure.self) { _ = try HTTPConnection(target, timeout: 5) }
        #expect(server.perAddress.refused >= 1)
        open.removeFirst().close()
        // The server learns a stream's client has gone when it writes to it: the keep-alive.
        let freed = eventually(5) { station.keepAlive(); return (try? HTTPConnection(target, timeout: 2)).map { c in defer { c.close() }; return c.status == 200 } ?? false }
        #expect(freed, "a freed slot is served again")
    }

    /// The station's stream, written by the one SSE writer: opening comment and `retry:`, a
    /// keep-alive on the station's timer, then events with their rows as ids.
    @Test func theStationsStreamKeepsAliveAndCarriesIds() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let station = try Self.station(dir)
        let server = FleetServer(station: station)
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        var stream = try HTTPConnection(try #require(HTTPConnection.Target("http://127.0.0.1:\(server.port)/alerts")), timeout: 5)
        defer { stream.close() }
        #expect(stream.status == 200 && stream.headers["content-type"] == "text/event-stream")
        var text = ""
        func read(until needle: String) throws -> Bool {
            while !text.contains(needle) {
                guard let piece = try stream.readBody() else { return false }
                text += String(decoding: piece, as: UTF8.self)
            }
            return true
        }
        #expect(try read(until: "retry: 2000\n\n"))
        #expect(text.hasPrefix(": gatewayd fleet alerts\n"))
        #expect(eventually(5) { station.subscriberCount == 1 })
        station.keepAlive()
        #expect(try read(until: ": keep-alive\n\n"))
        station.receive(topic: "skygate/N1/alerts", payload: Array(#"{"eventId":"1-1","id":"a1","state":"raised","level":"warning","message":"x","time":"2026-05-16T14:00:00Z"}"#.utf8))
        #expect(try read(until: "id: 1\ndata: "))
    }
}
