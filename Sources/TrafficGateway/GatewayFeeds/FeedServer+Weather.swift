import GatewaySupport
import GatewayDomain
import GatewayWeather
import Hummingbird
import HTTPTypes
import HummingbirdCore
import Dispatch

/// The weather routes for map tools and the page (issue 42):
/// - `/weather/` the pictures held (kind, time, age, their paths);
/// - `/weather/<kind>.png`, `.pgw`, `.json` the latest complete composite of a kind, with
///   `ETag` and `Last-Modified`, so a polling map tool fetches a picture only when it changed
///   (`If-None-Match`, `If-Modified-Since` → 304);
/// - `/weather/<kind>/loop` the complete composites of the last 30 minutes, each at
///   `/weather/<kind>.png?time=EPOCH` (and `.json`, `.pgw`);
/// - `/weather/advisories.geojson` the AIRMET, SIGMET, G-AIRMET, CWA and SUA outlines held, with
///   their validity.
extension FeedServer {
    /// Adds the weather routes to `router`.
    func addWeatherRoutes(to router: Router<FeedRequestContext>) {
        let radar = cockpit.radar, hub = hub, sources = cockpit
        router.get("/weather") { _, _ in Self.json(radar?.index(at: hub.snapshot.time) ?? "{\"pictures\":[]}") }
        router.get("/weather/advisories.geojson") { _, _ in
            let s = hub.snapshot
            return await Self.heavy {
                let fetched = sources.fetchedWeather(at: s.time), keys = Set(fetched.map(\.key))
                return Self.json(Self.advisoriesGeoJSON(CockpitAPI.newest(hub.weather + fetched, fetchedKeys: keys), time: s.time, fetchedKeys: keys),
                                 type: "application/geo+json")
            }
        }
        router.get("/weather/:name/loop") { _, context in
            guard let name = context.parameters.get("name").map({ String($0) }), let kind = RadarKind(name: name) else {
                return Self.text(.notFound, "no such picture kind (see /weather/)\n")
            }
            return Self.json(radar?.loopJSON(kind) ?? "{\"kind\":\"\(kind.name)\",\"frames\":[]}")
        }
        router.get("/weather/:name") { request, context in
            let file = context.parameters.get("name").map { String($0) } ?? ""
            guard let dot = file.lastIndex(of: "."), let kind = RadarKind(name: String(file[..<dot])),
                  let format = PictureFile(rawValue: String(file[file.index(after: dot)...]))
            else {
                return Self.text(.notFound, "no such weather file: \(file) (see /weather/ for the pictures held: <kind>.png, .pgw or .json)\n")
            }
            guard let radar else { return Self.text(.notFound, "this server keeps no radar pictures\n") }
            // `?time=EPOCH`: a frame of the loop (`/weather/<kind>/loop` lists them).
            let time = request.uri.queryParameters.get("time").flatMap { Double(String($0)) }
            guard let picture = await Offload.run(on: Self.radarQueue, { radar.picture(kind, time: time) }) ?? nil else {
                if let time { return Self.text(.notFound, "no \(kind.name) frame of \(Timestamp.iso8601(time)) in the loop (see /weather/\(kind.name)/loop)\n") }
                let why = radar.notDrawn(kind).map { "its latest composite could not be drawn: \($0)" } ?? "none received yet"
                return Self.text(.notFound, "no \(kind.name) picture: \(why)\n")
            }
            var headers: HTTPFields = [.eTag: picture.etag, .lastModified: HTTPDate.format(picture.modified), .cacheControl: "no-cache"]
            if Self.notModified(request, etag: picture.etag, modified: picture.modified) {
                return Response(status: .notModified, headers: headers)
            }
            headers[.contentType] = format.contentType
            let body: ByteBuffer
            switch format {
            case .png: body = ByteBuffer(bytes: picture.png)
            case .pgw: body = ByteBuffer(string: picture.worldFile)
            case .json: body = ByteBuffer(string: picture.json)
            }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
        }
    }

    /// The three files of a picture.
    enum PictureFile: String {
        case png, pgw, json

        var contentType: String {
            switch self {
            case .png: "image/png"
            case .pgw: "text/plain; charset=utf-8"
            case .json: "application/json"
            }
        }
    }

    /// Whether the client's copy is current: `If-None-Match` names the tag (or `*`), or, without
    /// it, `If-Modified-Since` is not before the picture's last change (whole seconds, as HTTP dates are).
    static func notModified(_ request: Request, etag: String, modified: Double) -> Bool {
        if let match = request.headers[.ifNoneMatch] {
            return match.split(separator: ",").contains { tag in
                let t = String(tag).trimmingWhitespace()
                return t == "*" || t == etag || t == "W/" + etag
            }
        }
        if let since = request.headers[.ifModifiedSince], let t = HTTPDate.parse(since) {
            return modified.rounded(.down) <= t
        }
        return false
    }

    /// A plain-text response.
    static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// Where pictures are drawn when asked for: a queue of their own, so that neither the event
    /// loop nor the page's other heavy requests wait for a drawing (nor it for them).
    static let radarQueue = DispatchQueue(label: "gatewayd.radar-draw")

    /// The advisories' outlines as GeoJSON: a feature a shape, its kind, location, text and validity.
    static func advisoriesGeoJSON(_ reports: [FISBReport], time: Double, fetchedKeys: Set<String> = []) -> String {
        var features: [String] = []
        for r in reports where CockpitAPI.advisoryKinds.contains(r.kind) && r.expires >= time {
            for shape in r.geometry where !shape.coordinates.isEmpty {
                let points = shape.coordinates.filter { $0.count >= 2 }.map { "[\(JSONWriter.format($0[0], decimals: 5)),\(JSONWriter.format($0[1], decimals: 5))]" }
                guard !points.isEmpty else { continue }
                let geometry: String
                switch shape.shape {
                case "polygon" where points.count >= 3:
                    let ring = points.first == points.last ? points : points + [points[0]]
                    geometry = "{\"type\":\"Polygon\",\"coordinates\":[[\(ring.joined(separator: ","))]]}"
                case "polyline" where points.count >= 2:
                    geometry = "{\"type\":\"LineString\",\"coordinates\":[\(points.joined(separator: ","))]}"
                default:
                    geometry = "{\"type\":\"Point\",\"coordinates\":\(points[0])}"
                }
                var p = JSONWriter()
                p.add("kind", r.kind.rawValue)
                p.add("subtype", r.subtype)
                p.add("location", r.location)
                p.add("number", r.reportNumber)
                p.add("text", r.text)
                p.add("shape", shape.shape)
                p.add("radiusNM", shape.radiusNM, decimals: 2)
                p.add("floorFt", shape.floorFt)
                p.add("floorRef", shape.floorRef)
                p.add("ceilingFt", shape.ceilingFt)
                p.add("ceilingRef", shape.ceilingRef)
                p.add("start", (shape.start ?? r.start).map(Timestamp.iso8601))
                p.add("end", (shape.stop ?? r.end).map(Timestamp.iso8601))
                p.add("received", Timestamp.iso8601(r.received))
                p.add("source", fetchedKeys.contains(r.key) ? WeatherJSON.fetchedSource : "FIS-B")
                features.append("{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":\(p.result)}")
            }
        }
        return "{\"type\":\"FeatureCollection\",\"features\":" + JSONWriter.array(features) + "}"
    }
}

/// HTTP dates (RFC 9110's IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`).
enum HTTPDate {
    private static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `t` (seconds since 1970) as an IMF-fixdate.
    static func format(_ t: Double) -> String {
        let seconds = Int64(t.rounded(.down))
        var day = seconds / 86_400, second = seconds % 86_400
        if second < 0 { second += 86_400; day -= 1 }
        let (y, m, d) = Timestamp.civil(fromDays: day)
        let weekday = days[Int(((day % 7) + 7) % 7)]
        return "\(weekday), \(Timestamp.pad(Int(d), 2)) \(months[Int(m) - 1]) \(Timestamp.pad(Int(y), 4)) "
            + "\(Timestamp.pad(Int(second / 3600), 2)):\(Timestamp.pad(Int(second / 60 % 60), 2)):\(Timestamp.pad(Int(second % 60), 2)) GMT"
    }

    /// The time of an IMF-fixdate, nil for anything else.
    static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let d = Int64(parts[1]), let m = months.firstIndex(of: String(parts[2])),
              let y = Int64(parts[3]) else { return nil }
        let hms = parts[4].split(separator: ":").compactMap { Int64($0) }
        guard hms.count == 3, (1...31).contains(d), (0..<24).contains(hms[0]), (0..<60).contains(hms[1]), (0...60).contains(hms[2]) else { return nil }
        return Timestamp.midnight(year: Int(y), month: m + 1, day: Int(d)) + Double(hms[0] * 3600 + hms[1] * 60 + hms[2])
    }
}
