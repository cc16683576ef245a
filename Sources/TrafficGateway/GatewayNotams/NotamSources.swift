import GatewaySupport
import GatewayRecords
import GatewayDomain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GDL90

/// What to ask a source for.
package struct NotamQuery: Sendable, Equatable {
    /// ICAO locations.
    package var locations: [String] = []
    /// A centre and radius (NM, at most 100 for the FAA API).
    package var near: (latitude: Double, longitude: Double, radiusNM: Double)?
    /// Creates a query.
    package init(locations: [String] = [], near: (latitude: Double, longitude: Double, radiusNM: Double)? = nil) {
        self.locations = locations
        self.near = near
    }
    /// Whether `n` lies in what this query asked for, so a refresh may take its absence from
    /// the reply as a cancellation: its location is one asked for, or, for `near`, its area's
    /// centre (a circle's centre, a polygon's box centre) or, without an area, its location's
    /// position lies within the radius.
    package func covers(_ n: Notam) -> Bool {
        if let l = n.location, locations.contains(l) { return true }
        guard let near else { return false }
        let centre = Position(latitude: near.latitude, longitude: near.longitude)
        let point: Position?
        if let g = n.geometry {
            if let c = g.center, c.count == 2 {
                point = Position(latitude: c[0], longitude: c[1])
            } else {
                let b = g.bounds
                point = Position(latitude: (b.0 + b.1) / 2, longitude: (b.2 + b.3) / 2)
            }
        } else {
            point = n.referencePosition
        }
        return point.map { Geodesy.distanceNM($0, centre) <= near.radiusNM } ?? false
    }

    /// Equality.
    package static func == (a: NotamQuery, b: NotamQuery) -> Bool {
        a.locations == b.locations && a.near?.latitude == b.near?.latitude && a.near?.longitude == b.near?.longitude
            && a.near?.radiusNM == b.near?.radiusNM
    }
}

/// A place NOTAMs come from. Two real implementations: the FAA NOTAM API and FAA NOTAM Search.
package protocol NotamSource: Sendable {
    /// Short name for messages and the database (`faa-api`).
    var name: String { get }
    /// Fetches every NOTAM for `query`; throws rather than return a partial or empty answer it
    /// cannot vouch for.
    func fetch(_ query: NotamQuery) async throws(FetchError) -> [Notam]
}

/// The FAA NOTAM API (`GET /notamapi/v1/notams`, GeoJSON, `client_id`/`client_secret` headers).
package struct FAANotamAPI: NotamSource {
    /// Base URL (`--url` replaces it: mirrors, proxies, tests).
    package var baseURL: String
    /// Credentials.
    package var credentials: Credentials
    /// The HTTP client.
    package var http: HTTPClient
    /// Items a page (the API allows up to 1000).
    package var pageSize = 1000
    /// Stop after this many pages (a runaway server cannot keep us fetching).
    package var maximumPages = 50
    /// `faa-api`.
    package var name: String { "faa-api" }

    /// A client for `baseURL`.
    package init(baseURL: String = "https://external-api.faa.gov/notamapi/v1", credentials: Credentials, http: HTTPClient = HTTPClient()) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.credentials = credentials
        self.http = http
    }

    /// Fetches all pages for each location (or the circle).
    package func fetch(_ query: NotamQuery) async throws(FetchError) -> [Notam] {
        var queries: [[(String, String)]] = query.locations.map { [("icaoLocation", $0)] }
        if let near = query.near {
            queries.append([("locationLatitude", String(near.latitude)), ("locationLongitude", String(near.longitude)),
                            ("locationRadius", String(min(near.radiusNM, 100)))])
        }
        var out: [String: Notam] = [:]
        for q in queries {
            var page = 1
            while page <= maximumPages {
                let url = baseURL + "/notams?" + (q + [("pageSize", String(pageSize)), ("pageNum", String(page))])
                    .map { "\($0.0)=\(HTTPClient.escape($0.1))" }.joined(separator: "&")
                let r = try await http.get(url, headers: [("client_id", credentials.id), ("client_secret", credentials.secret), ("Accept", "application/json")])
                let (items, totalPages) = try Self.parse(r.body, url: url)
                for n in items { out[n.id] = n }
                if page >= totalPages { break }
                page += 1
            }
        }
        return out.values.sorted { $0.id < $1.id }
    }

    /// One reply: its NOTAMs and the page count. Throws on HTML, bad JSON or a missing `items`.
    /// The reply is split item by item (`JSONItemSplitter`): only one feature at a time is a
    /// JSON tree, so a 1000-item page costs little more than its bytes.
    package static func parse(_ body: [UInt8], url: String) throws(FetchError) -> ([Notam], Int) {
        var splitter = JSONItemSplitter(arrayKey: "items")
        var out: [Notam] = []
        var bad = false
        splitter.feed(Data(body)) { bytes, _ in
            guard let feature = JSONReader.object(bytes) else { bad = true; return }
            if let n = notam(feature) { out.append(n) }
        }
        if !splitter.sawArray || bad || !splitter.finished {
            guard let object = JSONReader.object(body) else {
                let start = String(decoding: body.prefix(100), as: UTF8.self).lowercased()
                throw FetchError(.content, url: url, reason: start.contains("<html") || start.contains("<!doctype")
                    ? "an HTML page instead of JSON (a login or bot-protection page?)" : "the reply is not valid JSON (\(body.count) bytes)")
            }
            guard object["items"] is [Any] else {
                throw FetchError(.content, url: url, reason: "the JSON has no \"items\" array (an error reply or a changed API?)")
            }
        }
        return (out, topLevelInt(body, key: "totalPages") ?? 1)
    }

    /// The integer after `"key":` (an unescaped quote cannot sit inside a JSON string).
    static func topLevelInt(_ body: [UInt8], key: String) -> Int? {
        let needle = Array("\"\(key)\"".utf8)
        guard body.count > needle.count else { return nil }
        var i = 0
        while i + needle.count <= body.count {
            if body[i] == needle[0] && Array(body[i..<(i + needle.count)]) == needle {
                var j = i + needle.count
                while j < body.count, body[j] == UInt8(ascii: " ") || body[j] == UInt8(ascii: ":") || body[j] == 0x0A { j += 1 }
                var value = 0, digits = 0
                while j < body.count, body[j] >= 0x30, body[j] <= 0x39 { value = value * 10 + Int(body[j] - 0x30); j += 1; digits += 1 }
                return digits > 0 ? value : nil
            }
            i += 1
        }
        return nil
    }

    /// One GeoJSON feature of the API (`properties.coreNOTAMData.notam`, `notamTranslation`,
    /// `geometry`), every field optional.
    package static func notam(_ feature: [String: Any], source: String = "faa-api") -> Notam? {
        guard let (d, raw) = texts(feature) else { return nil }
        var n = NotamParser.parse(raw, source: source)
        if let id = d["id"] as? String, !id.isEmpty { n.id = id }
        if let number = d["number"] as? String { n.number = number }
        if let series = d["series"] as? String, !series.isEmpty { n.series = series }
        if let type = d["type"] as? String { n.type = type }
        if let c = d["classification"] as? String { n.classification = c }
        if n.issuer == nil, let acc = d["accountId"] as? String { n.issuer = acc }
        if n.classification == "FDC" { n.issuer = "FDC" }
        if let loc = d["icaoLocation"] as? String, NotamParser.isICAO(loc) { n.location = loc } else if let loc = d["location"] as? String { n.designator = loc }
        if let fir = d["affectedFIR"] as? String { n.fir = fir }
        if let issued = (d["issued"] as? String).flatMap(Timestamp.parse) { n.issued = issued }
        if let start = (d["effectiveStart"] as? String).flatMap(Timestamp.parse) { n.start = start }
        if let end = d["effectiveEnd"] as? String {
            if end.uppercased().hasPrefix("PERM") { n.permanent = true; n.end = nil } else if let t = Timestamp.parse(end) { n.end = t }
            // "…EST" in the field or in the text (the domestic form's validity) is an estimate.
            n.endEstimated = n.endEstimated || end.uppercased().contains("EST") || (d["estimatedEnd"] as? String)?.uppercased() == "Y"
        }
        if let t = d["text"] as? String { n.text = t }
        if n.id.isEmpty || n.id.hasPrefix("text:") { n.id = NotamParser.identity(n) }
        if let code = d["selectionCode"] as? String, !code.isEmpty { n.selectionCode = code.uppercased() }
        if let c = d["coordinates"] as? String, let p = NotamParser.coordinate(c) ?? decimalPosition(c) { n.reference = [p.latitude, p.longitude] }
        // Text geometry again with the location's position (it confirms repaired coordinates).
        if n.reference != nil, n.geometry.map({ $0.origin <= .text }) ?? true,
           let g = NotamTextGeometry.geometry(in: n.text, reference: n.referencePosition, referenceNames: n.referenceNames) {
            n.geometry = g
        }
        // The official geometry beats anything parsed from the text.
        if let g = officialGeometry(feature["geometry"] as? [String: Any]) { n.geometry = g }
        let lower = (d["lowerLimit"] as? String).flatMap(NotamParser.limit), upper = (d["upperLimit"] as? String).flatMap(NotamParser.limit)
        let api = lower == nil && upper == nil ? nil
            : NotamLimits(floorFt: lower?.0, floorAGL: lower?.1 ?? false, ceilingFt: upper?.0, ceilingAGL: upper?.1 ?? false, origin: "api")
        NotamParser.finish(&n, apiLimits: api)
        return n
    }

    /// A feature's `notam` object and the text to parse (the domestic form, else the ICAO
    /// form, else `text`); nil when it has no text (not a NOTAM `notam(_:)` reads).
    static func texts(_ feature: [String: Any]) -> (notam: [String: Any], raw: String)? {
        let core = (feature["properties"] as? [String: Any])?["coreNOTAMData"] as? [String: Any]
        let d = core?["notam"] as? [String: Any] ?? [:]
        let translations = core?["notamTranslation"] as? [[String: Any]] ?? []
        let icaoText = translations.first { $0["type"] as? String == "ICAO" }?["formattedText"] as? String
        let domestic = translations.first { $0["type"] as? String == "LOCAL_FORMAT" }?["simpleText"] as? String
        guard let text = (d["text"] as? String) ?? domestic ?? icaoText else { return nil }
        return (d, domestic ?? icaoText ?? text)
    }

    /// "34.5677,-98.4166" or "34.5677 -98.4166" (the form some API versions use for `coordinates`).
    static func decimalPosition(_ s: String) -> Position? {
        let v = s.split(whereSeparator: { $0 == "," || $0 == " " }).compactMap { Double($0) }
        guard v.count == 2, (-90...90).contains(v[0]), (-180...180).contains(v[1]) else { return nil }
        return Position(latitude: v[0], longitude: v[1])
    }

    /// Every part of a GeoJSON geometry: Polygon (with its holes), MultiPolygon, and
    /// GeometryCollection members of any of these, plus open boundary pieces (LineString,
    /// MultiLineString) joined end to end into closed rings. A member marked as subtracted
    /// (`"operation": "SUBTR"`, the AIXM term, or `"subtract": true`) becomes a cut-out, within
    /// its own `lowerLimit`/`upperLimit` band when it carries one.
    /// Parts with altitude bands of their own (the FAA's `heightInformation`, or
    /// `lowerLimit`/`upperLimit`) keep them: when the parts' bands differ, each part's band is
    /// stored beside it (`NotamGeometry.partBands`) and becomes an area of its own.
    package static func officialGeometry(_ g: [String: Any]?) -> NotamGeometry? {
        var parts: [AirspacePart] = []
        var bands: [NotamBand?] = []
        var pieces: [[Position]] = []
        var cutouts: [NotamCutout] = []
        collect(g, parts: &parts, bands: &bands, pieces: &pieces, cutouts: &cutouts)
        let joined = joinRings(pieces).map { AirspacePart(outer: $0) }
        parts += joined
        bands += Array(repeating: nil, count: joined.count)
        guard var out = NotamGeometry.region(parts, origin: .official) else { return nil }
        if !cutouts.isEmpty { out.cutouts = cutouts }
        if out.parts?.count == parts.count, Set(bands).count > 1 { out.partBands = bands.map { $0 ?? NotamBand() } }
        return out
    }

    /// A GeoJSON member's altitude band: the FAA's `heightInformation` (`lowerLevel` "GND",
    /// "01501", `uomLowerLevel` "FT" or "FL"; `upperLevel` "UNL") or `lowerLimit`/`upperLimit`
    /// text ("3000FT", "FL180"); nil when it carries none.
    static func band(_ g: [String: Any]) -> NotamBand? {
        if let h = g["heightInformation"] as? [String: Any] {
            func level(_ value: Any?, _ unit: Any?) -> Int? {
                guard let text = (value as? String) ?? (value as? Int).map(String.init) else { return nil }
                let t = text.uppercased().trimmingWhitespace()
                if t.isEmpty || t == "GND" || t == "SFC" || t == "UNL" || t == "UNLTD" { return nil }
                guard let v = Int(t.filter(\.isNumber)) else { return nil }
                let u = (unit as? String)?.uppercased() ?? "FT"
                return v == 0 ? nil : u == "FL" ? v * 100 : u == "M" ? Int((Double(v) / 0.3048).rounded()) : v
            }
            return NotamBand(floorFt: level(h["lowerLevel"], h["uomLowerLevel"]), ceilingFt: level(h["upperLevel"], h["uomUpperLevel"]))
        }
        let floor = (g["lowerLimit"] as? String).flatMap(NotamParser.limit)?.0
        let ceiling = (g["upperLimit"] as? String).flatMap(NotamParser.limit)?.0
        return g["lowerLimit"] == nil && g["upperLimit"] == nil ? nil : NotamBand(floorFt: floor, ceilingFt: ceiling)
    }

    /// A GeoJSON ring's positions; empty when any vertex is not a coordinate on the Earth
    /// (one vertex at longitude 1e300 refuses the ring, not the NOTAM).
    static func ring(_ coordinates: Any?) -> [Position] {
        var ring = lineString(coordinates)
        if ring.count > 1 && ring.first == ring.last { ring.removeLast() }
        return ring
    }

    static func collect(_ g: [String: Any]?, parts: inout [AirspacePart], bands: inout [NotamBand?], pieces: inout [[Position]], cutouts: inout [NotamCutout]) {
        guard let g, let type = g["type"] as? String else { return }
        let operation = ((g["operation"] as? String) ?? "").uppercased()
        let subtract = operation.hasPrefix("SUBTR") || (g["subtract"] as? Bool) == true
        var polygons: [[Any]] = []
        switch type {
        case "Polygon": polygons = [(g["coordinates"] as? [Any]) ?? []]
        case "MultiPolygon": polygons = ((g["coordinates"] as? [Any]) ?? []).compactMap { $0 as? [Any] }
        case "LineString": pieces.append(ring(g["coordinates"]).isEmpty ? [] : lineString(g["coordinates"]))
        case "MultiLineString": for l in (g["coordinates"] as? [Any]) ?? [] { pieces.append(lineString(l)) }
        case "GeometryCollection":
            for sub in g["geometries"] as? [[String: Any]] ?? [] { collect(sub, parts: &parts, bands: &bands, pieces: &pieces, cutouts: &cutouts) }
        default: break
        }
        for rings in polygons {
            let outer = ring(rings.first)
            guard outer.count >= 3 else { continue }
            if subtract {
                let b = band(g)
                cutouts.append(NotamCutout(ring: outer.map { [$0.latitude, $0.longitude] }, floorFt: b?.floorFt, ceilingFt: b?.ceilingFt))
            } else {
                parts.append(AirspacePart(outer: outer, holes: rings.dropFirst().map(ring).filter { $0.count >= 3 }))
                bands.append(band(g))
            }
        }
        pieces.removeAll { $0.count < 2 }
    }

    /// A GeoJSON line's positions; empty when any vertex is not a coordinate on the Earth.
    static func lineString(_ coordinates: Any?) -> [Position] {
        guard let list = coordinates as? [Any] else { return [] }
        var out: [Position] = []
        out.reserveCapacity(list.count)
        for c in list {
            guard let a = c as? [Any], let p = AirspaceFile.position(a) else { return [] }
            out.append(p)
        }
        return out
    }

    /// Open boundary pieces chained end to end (either direction, ends within 0.01°) into
    /// closed rings. Chains still open after that are pieces of one boundary whose source left
    /// out a border or an arc between them: they join into one ring in the order given (each
    /// turned to start at the end nearer the ring so far) when that ring is simple and every
    /// gap is no longer than the pieces around it; otherwise (a ring that would cross itself,
    /// pieces far apart) each is closed by its own last leg. Every closed ring stays a part.
    static func joinRings(_ pieces: [[Position]]) -> [[Position]] {
        var left = pieces.filter { $0.count >= 2 }
        var rings: [[Position]] = []
        var open: [[Position]] = []
        func near(_ a: Position, _ b: Position) -> Bool { abs(a.latitude - b.latitude) < 0.01 && abs(a.longitude - b.longitude) < 0.01 }
        while !left.isEmpty {
            var chain = left.removeFirst()
            while !near(chain.first!, chain.last!) || chain.count < 3 {
                guard let i = left.firstIndex(where: { near($0.first!, chain.last!) || near($0.last!, chain.last!) }) else { break }
                let piece = left.remove(at: i)
                let next = near(piece.first!, chain.last!) ? piece : Array(piece.reversed())
                chain += next.dropFirst()
            }
            if chain.count > 1, near(chain.first!, chain.last!) {
                chain.removeLast()
                if chain.count >= 3 { rings.append(chain) }
            } else {
                open.append(chain)
            }
        }
        if open.count >= 2, let joined = joinInOrder(open) {
            rings.append(joined)
        } else {
            rings += open.filter { $0.count >= 3 }
        }
        return rings
    }

    /// Open chains joined in the order given into one simple ring, or nil.
    static func joinInOrder(_ chains: [[Position]]) -> [Position]? {
        func d(_ a: Position, _ b: Position) -> Double {
            let k = cos(a.latitude * .pi / 180)
            return ((a.latitude - b.latitude) * (a.latitude - b.latitude) + (a.longitude - b.longitude) * k * (a.longitude - b.longitude) * k).squareRoot()
        }
        func span(_ c: [Position]) -> Double {
            let lats = c.map(\.latitude), lons = c.map(\.longitude)
            return d(Position(latitude: lats.min()!, longitude: lons.min()!), Position(latitude: lats.max()!, longitude: lons.max()!))
        }
        var ring = chains[0]
        for (i, chain) in chains.enumerated().dropFirst() {
            let next = d(ring.last!, chain.first!) <= d(ring.last!, chain.last!) ? chain : Array(chain.reversed())
            // A gap longer than the pieces around it joins two areas, not one boundary.
            guard d(ring.last!, next.first!) <= 1.5 * max(span(chains[i - 1]), span(chain)) else { return nil }
            ring += next
        }
        guard d(ring.last!, ring.first!) <= 1.5 * max(span(chains.last!), span(chains[0])), ring.count >= 3, isSimple(ring) else { return nil }
        return ring
    }

    /// Whether a closed ring's edges cross only at shared vertices (longitude/latitude plane).
    static func isSimple(_ ring: [Position]) -> Bool {
        let n = ring.count
        func cross(_ o: Position, _ a: Position, _ b: Position) -> Double {
            (a.longitude - o.longitude) * (b.latitude - o.latitude) - (a.latitude - o.latitude) * (b.longitude - o.longitude)
        }
        for i in 0..<n {
            let a = ring[i], b = ring[(i + 1) % n]
            for j in stride(from: i + 2, to: n, by: 1) where !(i == 0 && j == n - 1) {
                let c = ring[j], e = ring[(j + 1) % n]
                if max(a.longitude, b.longitude) < min(c.longitude, e.longitude) || max(c.longitude, e.longitude) < min(a.longitude, b.longitude)
                    || max(a.latitude, b.latitude) < min(c.latitude, e.latitude) || max(c.latitude, e.latitude) < min(a.latitude, b.latitude) {
                    continue
                }
                let d1 = cross(c, e, a), d2 = cross(c, e, b), d3 = cross(a, b, c), d4 = cross(a, b, e)
                if (d1 > 0) != (d2 > 0) && (d3 > 0) != (d4 > 0) && d1 != 0 && d2 != 0 && d3 != 0 && d4 != 0 { return false }
            }
        }
        return true
    }
}

/// FAA NOTAM Search (`POST …/notamSearch/search`, form `searchType=0`, `designatorsForLocation`,
/// `offset` paging by 30, JSON `notamList`). Its site may answer scripts with an HTML 403 page.
package struct FAANotamSearch: NotamSource {
    /// Base URL.
    package var baseURL: String
    /// HTTP client.
    package var http: HTTPClient
    /// Pages at most.
    package var maximumPages = 100
    /// `faa-search`.
    package var name: String { "faa-search" }

    /// A client for `baseURL`.
    package init(baseURL: String = "https://notams.aim.faa.gov/notamSearch", http: HTTPClient = HTTPClient()) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.http = http
    }

    /// Fetches every page for the locations.
    package func fetch(_ query: NotamQuery) async throws(FetchError) -> [Notam] {
        guard !query.locations.isEmpty else {
            throw FetchError(.content, url: baseURL, reason: "NOTAM Search needs --location (it has no radius search here)")
        }
        var out: [String: Notam] = [:]
        let url = baseURL + "/search"
        var offset = 0
        for _ in 0..<maximumPages {
            let r = try await http.post(url, form: [("searchType", "0"), ("designatorsForLocation", query.locations.joined(separator: ",")),
                                               ("offset", String(offset)), ("notamsOnly", "false")])
            let (items, total) = try Self.parse(r.body, url: url)
            for n in items { out[n.id] = n }
            offset += 30
            if items.isEmpty || offset >= total { break }
        }
        return out.values.sorted { $0.id < $1.id }
    }

    /// One reply page: NOTAMs and `totalNotamCount`.
    package static func parse(_ body: [UInt8], url: String) throws(FetchError) -> ([Notam], Int) {
        guard let object = JSONReader.object(body) else {
            let start = String(decoding: body.prefix(200), as: UTF8.self).lowercased()
            throw FetchError(.content, url: url, reason: start.contains("<html") || start.contains("<!doctype")
                ? "an HTML page instead of JSON (the site's bot protection): use --source faa-api with a key"
                : "the reply is not valid JSON (\(body.count) bytes)")
        }
        guard let list = object["notamList"] as? [[String: Any]] else {
            throw FetchError(.content, url: url, reason: "the JSON has no \"notamList\" (an error reply or a changed site?)")
        }
        var out: [Notam] = []
        for item in list {
            guard let text = (item["traditionalMessage"] as? String) ?? (item["icaoMessage"] as? String) else { continue }
            var n = NotamParser.parse(text, source: "faa-search")
            if let number = item["notamNumber"] as? String { n.number = number }
            if let icao = item["icaoId"] as? String, NotamParser.isICAO(icao) { n.location = icao }
            if let s = item["startDate"] as? String, let t = searchTime(s) { n.start = t }
            if let e = item["endDate"] as? String {
                if e.uppercased().contains("PERM") { n.permanent = true; n.end = nil } else if let t = searchTime(e) { n.end = t }
                n.endEstimated = n.endEstimated || e.uppercased().contains("EST")
            }
            if n.geometry == nil, let p = item["mapPointer"] as? String, let c = pointer(p), n.restrictsAirspace {
                n.geometry = .circle(c, radiusNM: 1, origin: .qLine)
            }
            n.id = NotamParser.identity(n)
            NotamParser.finish(&n)
            out.append(n)
        }
        return (out, JSONReader.int(object["totalNotamCount"]) ?? out.count)
    }

    /// "MM/DD/YYYY HHMM" with an optional "EST" → epoch seconds.
    static func searchTime(_ s: String) -> Double? {
        let parts = s.split(separator: " ")
        guard parts.count >= 2 else { return nil }
        let d = parts[0].split(separator: "/").compactMap { Int($0) }
        guard d.count == 3, let hhmm = Int(parts[1]), parts[1].count == 4 else { return nil }
        return Timestamp.midnight(year: d[2], month: d[0], day: d[1]) + Double(hhmm / 100 * 3600 + hhmm % 100 * 60)
    }

    /// "POINT(lon lat)".
    static func pointer(_ s: String) -> Position? {
        guard let open = s.firstIndex(of: "("), let close = s.firstIndex(of: ")") else { return nil }
        let v = s[s.index(after: open)..<close].split(separator: " ").compactMap { Double($0) }
        return v.count == 2 ? Position(latitude: v[1], longitude: v[0]) : nil
    }
}

/// API credentials from `FAA_CLIENT_ID`/`FAA_CLIENT_SECRET` or a file readable only by its
/// owner (`client_id=…` and `client_secret=…` lines). Never printed.
package struct Credentials: Sendable, CustomStringConvertible {
    /// Client id.
    package var id: String
    /// Client secret.
    package var secret: String
    /// Masked.
    package var description: String { "client_id=****, client_secret=****" }

    /// Creates credentials.
    package init(id: String, secret: String) {
        self.id = id
        self.secret = secret
    }

    /// From the environment, else from `file`.
    package static func load(environment: [String: String] = ProcessInfo.processInfo.environment, file: String? = nil) throws(FetchError) -> Credentials {
        if let id = environment["FAA_CLIENT_ID"], let secret = environment["FAA_CLIENT_SECRET"], !id.isEmpty, !secret.isEmpty {
            return Credentials(id: id, secret: secret)
        }
        guard let file else {
            throw FetchError(.credentials, url: "faa-api", reason: "no credentials: set FAA_CLIENT_ID and FAA_CLIENT_SECRET (from api.faa.gov) or give --credentials FILE")
        }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file), let text = FileManager.default.contents(atPath: file) else {
            throw FetchError(.credentials, url: file, reason: "cannot read the credentials file")
        }
        if let mode = attributes[.posixPermissions] as? Int, mode & 0o077 != 0 {
            throw FetchError(.credentials, url: file, reason: "the credentials file is readable by others: chmod 600 \(file)")
        }
        var values: [String: String] = [:]
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
            if kv.count == 2 { values[kv[0]] = kv[1] }
        }
        guard let id = values["client_id"], let secret = values["client_secret"] else {
            throw FetchError(.credentials, url: file, reason: "needs client_id=… and client_secret=… lines")
        }
        return Credentials(id: id, secret: secret)
    }
}
