import GatewaySupport
import GatewayRecords
import GatewayNotams
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GDL90
import Hummingbird
import HTTPTypes
import HummingbirdCore

/// The cockpit page's routes: the page and its two assets (`/`, `/cockpit.css`, `/cockpit.js`,
/// under a strict Content-Security-Policy: nothing may load from anywhere but this server), the
/// JSON it reads (`/api/traffic`, `/api/alerts`, `/api/notams`, `/api/weather`, `/api/status`),
/// the plain endpoint list (`/api`), and its one write, `POST /api/alerts/ack?id=…` (token,
/// Origin and rate limit: `AcknowledgementGate`).
extension FeedServer {
    /// Paths that hold no data (the page and its assets): served without the feeds token, so a
    /// browser can load the page and then ask for the token (`TokenMiddleware`).
    static let publicPaths: Set<String> = ["/", "/cockpit.css", "/cockpit.js", "/favicon.ico"]

    /// Adds the cockpit routes to `router`.
    func addCockpitRoutes(to router: Router<FeedRequestContext>) {
        let hub = self.hub
        let sources = self.cockpit
        let gate = self.acknowledgementGate
        router.get("/") { _, _ in Self.asset(CockpitPage.html, type: "text/html; charset=utf-8") }
        router.get("/cockpit.css") { _, _ in Self.asset(CockpitPage.css, type: "text/css; charset=utf-8") }
        router.get("/cockpit.js") { _, _ in Self.asset(CockpitPage.javascript, type: "text/javascript; charset=utf-8") }
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        router.get("/api") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: Self.endpointList)))
        }
        router.get("/api/traffic") { _, _ in Self.json(CockpitAPI.traffic(hub.snapshot, storage: sources.storageProblem)) }
        router.get("/api/alerts") { _, _ in
            Self.json(CockpitAPI.alerts(active: hub.activeEncoded, history: hub.historyEncoded, time: hub.snapshot.time,
                                        acknowledge: sources.ackToken != nil && sources.acknowledge != nil))
        }
        router.get("/api/weather") { request, _ in
            let s = hub.snapshot
            let asked = Self.position(request), own = s.ownship?.position
            // `?centre=LAT,LON`: the page's last resort (its radar picture's centre).
            let centre = request.uri.queryParameters["centre"].flatMap { AirportTable.place(String($0)) }
            return await Self.heavy {
                // Without a position asked for or ownship's: where the gateway last landed (the
                // logbook), else its home ([weather] near), else the page's picture.
                var place: (position: Position, from: String)?
                if let asked { place = (asked, "asked") } else if let own { place = (own, "ownship") }
                if place == nil, let landed = sources.lastLanding() { place = (landed.position, "last landing at " + landed.airport) }
                if place == nil, let home = sources.home { place = (home.position, "home " + home.name) }
                if place == nil, let centre { place = (centre, "the radar picture's centre") }
                // Along the track only around ownship in flight (not around a position asked for).
                let track = asked == nil && s.ownship?.airborne == true ? s.ownship?.trackDeg : nil
                return Self.json(CockpitAPI.weather(hub.weather, fetched: sources.fetchedWeather(at: s.time), near: place?.position, nearFrom: place?.from,
                                                    trackDeg: track, time: s.time, airports: AirportTable.shared))
            }
        }
        router.get("/api/airports") { request, _ in
            let s = hub.snapshot
            let near = Self.position(request) ?? s.ownship?.position
            let radius = request.uri.queryParameters.get("radius").flatMap { Double(String($0)) }.map { min(max($0, 1), 300) } ?? 50
            return await Self.heavy { Self.json(CockpitAPI.airports(AirportTable.shared, near: near, radiusNM: radius)) }
        }
        router.get("/api/notams") { request, _ in await Self.heavy { Self.notams(request, hub: hub, sources: sources) } }
        router.get("/api/status") { _, _ in await Self.heavy { Self.status(hub: hub, sources: sources) } }
        // The logbook (issue 23): the flights, one flight, and its exports as downloads.
        router.get("/api/flights") { _, _ in await Self.heavy { Self.flights(sources.logbook) { .json(LogbookJSON.list(try $0.list())) } } }
        router.get("/api/flights/:id") { _, context in
            let id = context.parameters.get("id", as: Int64.self)
            return await Self.heavy {
                Self.flights(sources.logbook) { store in
                    guard let id, let f = try store.flight(id, display: true) else { return .missing("no such flight") }
                    return .json(LogbookJSON.flight(f, areas: hub.snapshot.airspace, area: CockpitAPI.area))
                }
            }
        }
        router.get("/api/flights/:id/export/:format") { _, context in
            let id = context.parameters.get("id", as: Int64.self)
            let format = context.parameters.get("format").flatMap { FlightExport(rawValue: String($0)) }
            return await Self.heavy {
                Self.flights(sources.logbook) { store in
                    guard let format else { return .missing("formats: kml, gpx, igc, geojson, csv") }
                    guard let id, let f = try store.flight(id) else { return .missing("no such flight") }
                    return .file(format.render(f), type: format.contentType, name: format.fileName(f))
                }
            }
        }
        router.post("/api/alerts/ack") { request, context in
            let verdict = gate.check(authorization: request.headers[.authorization], origin: request.headers[.origin],
                                     host: request.head.authority, client: context.remoteAddress?.ipAddress ?? "unknown",
                                     now: Date().timeIntervalSince1970)
            let refusal: (HTTPTypes.HTTPResponse.Status, String)?
            switch verdict {
            case .allowed: refusal = nil
            case .off: refusal = (.forbidden, "acknowledging from the page is off: set [feeds] ack_token in the configuration")
            case .unauthorized: refusal = (.unauthorized, "the acknowledgement token is missing or wrong (Authorization: Bearer …)")
            case .foreignOrigin: refusal = (.forbidden, "acknowledgements are taken only from this gateway's own page (Origin)")
            case .tooMany: refusal = (.tooManyRequests, "too many acknowledgements this minute; wait and retry")
            }
            if let (status, message) = refusal {
                var headers: HTTPFields = [.contentType: "text/plain; charset=utf-8"]
                if status == .tooManyRequests { headers[.retryAfter] = "60" }
                if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
                return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
            }
            guard let id = request.uri.queryParameters["id"].map(String.init), !id.isEmpty, id.utf8.count <= 200 else {
                return Response(status: .badRequest, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: "give the alert id or area id: POST /api/alerts/ack?id=…\n")))
            }
            let active = hub.activeAlerts.first { $0.id == id || $0.subject == id }
            if let active, active.kind != .airspace {
                return Response(status: .conflict, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: "only airspace alerts can be acknowledged\n")))
            }
            sources.acknowledge?(id)
            var w = JSONWriter()
            w.add("acknowledged", id)
            return Self.json(w.result)
        }
    }

    /// A serial queue for the handlers that read the database or encode much (`/api/notams`,
    /// `/api/weather`, `/api/status`): they wait their turn there, never holding `/healthz`,
    /// `/alerts` or the page behind them (the HTTP executor's threads stay free).
    static let heavyQueue = DispatchQueue(label: "gatewayd.http-heavy")

    /// `body` run on `heavyQueue`; 503 when the request is cancelled first (a client gone).
    static func heavy(_ body: @escaping @Sendable () -> Response) async -> Response {
        await Offload.run(on: heavyQueue, body)
            ?? Response(status: .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(string: "cancelled\n")))
    }

    /// `/api/notams`: the stored NOTAMs near a centre (a position, an airport, ownship).
    static func notams(_ request: Request, hub: FeedHub, sources: CockpitSources) -> Response {
        let s = hub.snapshot
        let q = request.uri.queryParameters
        let airport = q["airport"].map { String($0).uppercased() }.flatMap { $0.isEmpty ? nil : $0 }
        // NaN passes min and max untouched: only a finite radius is clamped and used.
        let radius = q["radius"].flatMap { Double(String($0)) }.flatMap { $0.isFinite ? min(max($0, 1), 500) : nil } ?? 50
        var all = sources.allFileNotams
        var changes: [NotamChange] = []
        var refreshes: [String: Double] = [:]
        var stale = false
        if let store = sources.notams {
            do {
                let stored = try store.all()
                let keys = Set(stored.map(NotamStore.key))
                all = stored + all.filter { !keys.contains(NotamStore.key($0)) }
                changes = try store.changes(unreadOnly: false, markRead: false)
                refreshes = try store.refreshes()
                stale = try store.isStale(at: s.time)
            } catch {
                return Response(status: .internalServerError, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: "the NOTAM store cannot be read: \(error)\n")))
            }
        }
        var center: CockpitAPI.Center?
        if let p = Self.position(request) {
            center = .init(latitude: p.latitude, longitude: p.longitude, name: "chosen position")
        } else if let airport {
            let names: Set<String> = [airport, airport.count == 4 && airport.hasPrefix("K") ? String(airport.dropFirst()) : airport]
            if let p = all.first(where: { !$0.referenceNames.isDisjoint(with: names) && $0.referencePosition != nil })?.referencePosition {
                center = .init(latitude: p.latitude, longitude: p.longitude, name: airport)
            } else if let a = AirportTable.shared?.airport(airport) {
                // No NOTAM names it: the airport table knows where it is (issue 23).
                center = .init(latitude: a.position.latitude, longitude: a.position.longitude, name: airport)
            }
        } else if let own = s.ownship {
            center = .init(latitude: own.position.latitude, longitude: own.position.longitude, name: "ownship")
        }
        return Self.json(CockpitAPI.notams(all, changes: changes, refreshes: refreshes, stale: stale, center: center, airport: airport,
                                           radiusNM: radius, severity: q["severity"].map(String.init), kind: q["kind"].map(String.init),
                                           time: s.time, number: q["number"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }))
    }

    /// What a logbook route answers.
    enum FlightsAnswer {
        case json(String)
        case file([UInt8], type: String, name: String)
        case missing(String)
    }

    /// A logbook route: 404 without a logbook, 500 naming the database when it cannot be read.
    static func flights(_ store: LogbookStore?, _ body: (LogbookStore) throws -> FlightsAnswer) -> Response {
        let text: HTTPFields = [.contentType: "text/plain; charset=utf-8"]
        guard let store else {
            return Response(status: .notFound, headers: text, body: .init(byteBuffer: ByteBuffer(string: "no logbook: the gateway runs without a database\n")))
        }
        do {
            switch try body(store) {
            case .json(let s): return json(s)
            case .missing(let why): return Response(status: .notFound, headers: text, body: .init(byteBuffer: ByteBuffer(string: why + "\n")))
            case .file(let bytes, let type, let name):
                var headers: HTTPFields = [.contentType: type]
                if let disposition = HTTPField.Name("Content-Disposition") { headers[disposition] = "attachment; filename=\"\(name)\"" }
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
            }
        } catch {
            return Response(status: .internalServerError, headers: text, body: .init(byteBuffer: ByteBuffer(string: "the logbook cannot be read: \(error)\n")))
        }
    }

    /// `/api/status`: receiver, feeds, database and version.
    static func status(hub: FeedHub, sources: CockpitSources) -> Response {
        let s = hub.snapshot
        var database: CockpitAPI.DatabaseStatus?
        if let store = sources.notams {
            do {
                database = .init(path: store.database.path, notams: try store.count(), refreshes: try store.refreshes(), stale: try store.isStale(at: s.time))
            } catch {
                database = .init(path: store.database.path, notams: nil, refreshes: [:], stale: true, error: "\(error)")
            }
        }
        let rates = hub.rates
        return Self.json(CockpitAPI.status(s, feeds: hub.counters, messagesPerSec: rates.messagesPerSec, uplinksPerSec: rates.uplinksPerSec,
                                           database: database, fileNotams: sources.allFileNotams.count, version: sources.version))
    }

    /// `lat` and `lon` query parameters, when both are valid.
    static func position(_ request: Request) -> Position? {
        let q = request.uri.queryParameters
        guard let lat = q["lat"].flatMap({ Double(String($0)) }), let lon = q["lon"].flatMap({ Double(String($0)) }),
              (-90...90).contains(lat), (-180...180).contains(lon) else { return nil }
        return Position(latitude: lat, longitude: lon)
    }

    /// A page asset with the headers that keep it offline and self-contained: nothing may load
    /// from or connect to anywhere but this server, no inline script, no framing.
    static func asset(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [
            .contentType: type,
            .contentSecurityPolicy: CockpitPage.contentSecurityPolicy,
            .xContentTypeOptions: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
            .cacheControl: "no-cache",
        ], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The plain endpoint list (`/api`).
    static let endpointList = """
        gatewayd feeds (read-only but for one acknowledgement):
          /                     the cockpit page (traffic, alerts, NOTAMs, weather, flights, status)
          /api/traffic          ownship, targets nearest first, active airspace (JSON)
          /api/alerts           active alerts and the last hour of changes (JSON)
          /api/alerts/ack?id=   POST: acknowledge an airspace alert ([feeds] ack_token required)
          /api/notams           stored NOTAMs near ownship (?airport=KSLE, ?lat=&lon=, &radius=NM, &severity=, &kind=; ?number=6/2174: that one, wherever it is)
          /api/weather          FIS-B weather by station, nearest first (JSON)
          /api/status           receiver, feeds, database, NOTAM refresh, version (JSON)
          /api/flights          the logbook: every flight kept (JSON)
          /api/flights/N        one flight: debrief, track, alerts, encounters, airspace (JSON)
          /api/flights/N/export/FORMAT  download as kml, gpx, igc, geojson or csv
          /data/aircraft.json   traffic in the dump1090/readsb shape (tar1090 and friends)
          /traffic.geojson      traffic and ownship as GeoJSON points
          /airspace.geojson     active TFR/restricted areas as GeoJSON polygons
          /alerts               alert changes as Server-Sent Events (active alerts first)
          /alerts/active        active alerts as a JSON array
          /healthz              200 while GDL90 arrives, 503 with the reason otherwise
          /metrics              Prometheus text format

        """
}
