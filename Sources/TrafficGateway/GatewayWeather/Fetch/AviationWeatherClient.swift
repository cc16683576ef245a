import GatewaySupport
import GatewayDomain
import GatewayRecords
import GDL90
#if canImport(Glibc)
import Glibc
#endif

/// Where the weather is wanted: stations by identifier and a box around a point or a route.
package struct WeatherArea: Sendable, Equatable {
    /// South, west, north and east edges, degrees.
    package var south: Double, west: Double, north: Double, east: Double
    /// The station at the area's centre (PIREPs are asked for around one), ICAO.
    package var centreStation: String
    /// The radius PIREPs are asked for within, NM.
    package var radiusNM: Double

    /// A box of `radiusNM` around a point, its nearest station `station`.
    package init(latitude: Double, longitude: Double, radiusNM: Double, station: String) {
        let dLat = radiusNM / 60, dLon = radiusNM / 60 / max(0.1, cos(latitude * .pi / 180))
        south = max(-90, latitude - dLat); north = min(90, latitude + dLat)
        west = max(-180, longitude - dLon); east = min(180, longitude + dLon)
        centreStation = station
        self.radiusNM = radiusNM
    }

    /// A box around a route's points with `marginNM` on every side; PIREPs around its middle point.
    package init(route: [Position], marginNM: Double, station: String) {
        let lats = route.map(\.latitude), lons = route.map(\.longitude)
        let mid = (lats.reduce(0, +) / Double(max(1, lats.count)))
        let dLat = marginNM / 60, dLon = marginNM / 60 / max(0.1, cos(mid * .pi / 180))
        south = max(-90, (lats.min() ?? 0) - dLat); north = min(90, (lats.max() ?? 0) + dLat)
        west = max(-180, (lons.min() ?? 0) - dLon); east = min(180, (lons.max() ?? 0) + dLon)
        centreStation = station
        let spanNM = max((north - south) * 60, (east - west) * 60 * cos(mid * .pi / 180))
        radiusNM = min(200, max(marginNM, spanNM / 2))
    }

    /// The area of `near` (with `radiusNM`) or of `route` (with `radiusNM` of margin); nil when
    /// neither names places the airport table knows.
    package static func of(near: String?, radiusNM: Double, route: [String]) -> WeatherArea? {
        if let near, let p = AirportTable.place(near) {
            return WeatherArea(latitude: p.latitude, longitude: p.longitude, radiusNM: radiusNM, station: station(near: p, given: near))
        }
        let points = route.compactMap { AirportTable.shared?.airport($0)?.position }
        guard points.count >= 2 else { return nil }
        return WeatherArea(route: points, marginNM: radiusNM, station: station(near: points[points.count / 2], given: route[route.count / 2]))
    }

    /// An ICAO station for PIREPs: the one given, else the nearest airport with an ICAO identifier.
    static func station(near p: Position, given: String) -> String {
        if given.count == 4, given.allSatisfy({ $0.isLetter || $0.isNumber }) { return given.uppercased() }
        let icao = AirportTable.shared?.nearby(p, withinNM: 150, limit: 400).first { $0.airport.ident.count == 4 && $0.airport.ident.first?.isLetter == true }
        return icao?.airport.ident ?? given
    }

    /// Whether a point lies in the box.
    package func contains(_ latitude: Double, _ longitude: Double) -> Bool {
        latitude >= south && latitude <= north && longitude >= west && longitude <= east
    }

    /// `bbox=` as the Data API takes it: south, west, north, east.
    var bbox: String { [south, west, north, east].map { JSONWriter.format($0, decimals: 3) }.joined(separator: ",") }
}

/// The aviationweather.gov Data API (public, no key): METAR, TAF, PIREP, SIGMET/AIRMET, G-AIRMET,
/// CWA as JSON, winds aloft as the legacy FD text table. Each answer is read for the reports'
/// own text, times and positions (the page decodes the text as it decodes FIS-B's); an answer
/// that is not what the API promises is an error, never an empty list.
package struct AviationWeatherClient: Sendable {
    /// The products fetched, in order.
    package enum Product: String, Sendable, CaseIterable {
        case metar, taf, pirep, airsigmet, gairmet, cwa, windtemp
    }

    /// The Data API's base URL.
    package static let defaultURL = "https://aviationweather.gov/api/data"
    /// The base URL in use (a test server's, a proxy's).
    package var baseURL: String
    /// The HTTP client (timeouts, retries with backoff).
    package var http: HTTPClient
    /// The largest reply read, bytes (`HTTPClient.maximumBytes`).
    package static let maximumReply = 16 << 20
    /// The name stored as the reports' source.
    package static let sourceName = "aviationweather.gov"

    /// A client of `baseURL`.
    package init(baseURL: String = AviationWeatherClient.defaultURL, http: HTTPClient = HTTPClient()) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.http = http
        // The Data API's largest reply (every SIGMET and AIRMET of the US) is well under a
        // megabyte: 16 MB read at most (after decompression), so a gzip bomb stops there.
        self.http.maximumBytes = min(http.maximumBytes, Self.maximumReply)
    }

    /// The URL asked for `product` in `area`.
    package func url(_ product: Product, area: WeatherArea) -> String {
        switch product {
        case .metar: "\(baseURL)/metar?format=json&hours=3&bbox=\(area.bbox)"
        case .taf: "\(baseURL)/taf?format=json&bbox=\(area.bbox)"
        case .pirep: "\(baseURL)/pirep?format=json&age=3&id=\(area.centreStation)&distance=\(Int(area.radiusNM.rounded()))"
        case .airsigmet: "\(baseURL)/airsigmet?format=json"
        case .gairmet: "\(baseURL)/gairmet?format=json"
        case .cwa: "\(baseURL)/cwa?format=json"
        case .windtemp: "\(baseURL)/windtemp?region=all&level=low&fcst=06"
        }
    }

    /// The reports of `product` in `area`, received at `now`.
    package func fetch(_ product: Product, area: WeatherArea, at now: Double, stationPosition: (String) -> Position? = { _ in nil })
        async throws(FetchError) -> [WeatherRecord]
    {
        let url = self.url(product, area: area)
        let reply = try await http.get(url, headers: [("Accept", product == .windtemp ? "text/plain" : "application/json")])
        guard (200..<300).contains(reply.status) else {
            throw FetchError(.status, url: url, status: reply.status, reason: "the Data API refused the request")
        }
        if reply.status == 204 || reply.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return []
        }
        if product == .windtemp {
            return try Self.windsRecords(String(decoding: reply.body, as: UTF8.self), area: area, at: now, url: url, stationPosition: stationPosition)
        }
        let value: Any
        do {
            value = try JSONReader.value(reply.body)
        } catch {
            let head = String(decoding: reply.body.prefix(60), as: UTF8.self)
            throw FetchError(.content, url: url, reason: "not JSON (\(error)): \(head.escapingControlCharacters)")
        }
        guard let items = value as? [Any] else {
            throw FetchError(.content, url: url, reason: "expected a JSON array of reports, got \(Self.describe(value))")
        }
        var out: [WeatherRecord] = []
        for case let item as [String: Any] in items {
            if let r = Self.record(product, item, area: area, at: now) { out.append(r) }
        }
        if out.isEmpty, !items.isEmpty {
            throw FetchError(.content, url: url, reason: "\(items.count) items, none with a report's text and time (has the API changed?)")
        }
        return out
    }

    private static func describe(_ v: Any) -> String {
        switch v {
        case is [String: Any]: "an object"
        case is String: "a string"
        case is Double: "a number"
        default: "something else"
        }
    }

    /// A time given as seconds since 1970 or as ISO 8601 text (`2026-05-16T13:56:00Z`, with or
    /// without seconds and fraction, `T` or a space: `Timestamp.parse`).
    /// A report's time (epoch seconds or ISO 8601), only when it is one a report can have
    /// (`Timestamp.plausible`): `"obsTime": 1e308` is no time, and the report is skipped.
    static func time(_ v: Any?) -> Double? {
        let t = v as? Double ?? (v as? String).flatMap(Timestamp.parse)
        guard let t, t > 0, Timestamp.isPlausible(t) else { return nil }
        return t
    }

    static func record(_ product: Product, _ o: [String: Any], area: WeatherArea, at now: Double) -> WeatherRecord? {
        // A position only when it is one (|lat| ≤ 90, |lon| ≤ 180): a reply's numbers are finite
        // (`JSONReader`), not always on the Earth.
        let place = Position.valid(latitude: o["lat"] as? Double, longitude: o["lon"] as? Double)
        let lat = place?.latitude, lon = place?.longitude
        func outline() -> [[Double]] {
            guard let coords = o["coords"] as? [Any] else { return [] }
            return coords.compactMap { c -> [Double]? in
                guard let p = c as? [String: Any], let la = p["lat"] as? Double, let lo = p["lon"] as? Double else { return nil }
                return [la, lo]
            }
        }
        func advisory(_ kind: WeatherRecord.Kind, text: String?, from: Any?, to: Any?) -> WeatherRecord? {
            let shape = outline()
            // Advisories come for the whole country: only those reaching the area are kept.
            guard let text, !text.isEmpty, let start = time(from), !shape.isEmpty, shape.contains(where: { area.contains($0[0], $0[1]) })
                    || Self.boxesOverlap(shape, area) else { return nil }
            return WeatherRecord(kind: kind, station: nil, time: start, expires: time(to), received: now, source: sourceName, text: text, outline: shape)
        }
        switch product {
        case .metar:
            guard let raw = o["rawOb"] as? String, let t = time(o["obsTime"]) ?? time(o["reportTime"]) else { return nil }
            return WeatherRecord(kind: .metar, station: o["icaoId"] as? String, time: t, received: now, source: sourceName,
                                 text: raw, latitude: lat, longitude: lon)
        case .taf:
            guard let raw = o["rawTAF"] as? String, let t = time(o["issueTime"]) ?? time(o["bulletinTime"]) else { return nil }
            return WeatherRecord(kind: .taf, station: o["icaoId"] as? String, time: t, expires: time(o["validTimeTo"]), received: now,
                                 source: sourceName, text: raw, latitude: lat, longitude: lon)
        case .pirep:
            guard let raw = o["rawOb"] as? String, let t = time(o["obsTime"]) ?? time(o["receiptTime"]) else { return nil }
            return WeatherRecord(kind: .pirep, station: nil, time: t, received: now, source: sourceName, text: raw, latitude: lat, longitude: lon)
        case .airsigmet:
            let type = (o["airSigmetType"] as? String)?.uppercased() ?? "SIGMET"
            return advisory(type.contains("AIRMET") ? .airmet : .sigmet, text: o["rawAirSigmet"] as? String, from: o["validTimeFrom"], to: o["validTimeTo"])
        case .gairmet:
            let hazard = (o["hazard"] as? String) ?? "?"
            let text = "G-AIRMET \((o["product"] as? String) ?? "") \(hazard)" + ((o["dueTo"] as? String).map { " \($0)" } ?? "")
            return advisory(.gAirmet, text: text, from: o["validTime"] ?? o["issueTime"], to: o["expireTime"] ?? (time(o["validTime"]).map { $0 + 3 * 3600 }))
        case .cwa:
            return advisory(.cwa, text: (o["cwaText"] as? String) ?? (o["text"] as? String), from: o["validTimeFrom"], to: o["validTimeTo"])
        case .windtemp:
            return nil
        }
    }

    static func boxesOverlap(_ shape: [[Double]], _ area: WeatherArea) -> Bool {
        let lats = shape.map { $0[0] }, lons = shape.map { $0[1] }
        guard let s = lats.min(), let n = lats.max(), let w = lons.min(), let e = lons.max() else { return false }
        return s <= area.north && n >= area.south && w <= area.east && e >= area.west
    }

    /// The FD table cut into one record a station in the area (its header line with it, so
    /// that `DecodedWindsAloft` reads each alone): `WINDS STN DDHHMMZ`, the `FT` line, its line.
    static func windsRecords(_ text: String, area: WeatherArea, at now: Double, url: String, stationPosition: (String) -> Position?) throws(FetchError) -> [WeatherRecord] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0.filter { $0 != "\r" }) }
        guard let header = lines.firstIndex(where: { $0.hasPrefix("FT ") || $0.hasPrefix("FT\t") }) else {
            throw FetchError(.content, url: url, reason: "no FT header line: not the winds-aloft table")
        }
        // "VALID 161800Z FOR USE 1400-2100Z": the valid time, near now.
        var valid = now
        if let line = lines.first(where: { $0.contains("VALID ") }),
           let word = line.split(separator: " ").firstIndex(of: "VALID").map({ line.split(separator: " ")[$0 + 1 < line.split(separator: " ").count ? $0 + 1 : $0] }) {
            let group = word.prefix(7)
            if group.count == 7, let d = Int(group.prefix(2)), let h = Int(group.dropFirst(2).prefix(2)), let m = Int(group.dropFirst(4).prefix(2)),
               let t = FISBClock.resolve(day: d, hour: h, minute: m, near: now) { valid = t }
        }
        let stamp = Timestamp.pad(Timestamp.civil(fromDays: Int64(valid) / 86_400).2, 2) + Timestamp.pad(Int(valid) % 86_400 / 3600, 2) + "00Z"
        var out: [WeatherRecord] = []
        for line in lines[(header + 1)...] {
            guard let id = line.split(separator: " ").first.map(String.init), id.count == 3, id.allSatisfy({ $0.isLetter || $0.isNumber }) else { continue }
            guard let p = stationPosition(id), area.contains(p.latitude, p.longitude) else { continue }
            let record = "WINDS \(id) \(stamp)\n\(lines[header])\n\(line)"
            out.append(WeatherRecord(kind: .winds, station: id, time: valid, expires: valid + 6 * 3600, received: now, source: sourceName,
                                     text: record, latitude: p.latitude, longitude: p.longitude))
        }
        return out
    }
}
