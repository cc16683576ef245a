import GatewaySupport
import GatewayDomain
import GatewayRecords
import GatewayNotams
import GatewayWeather
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GDL90
#if canImport(Glibc)
import Glibc
#endif

/// The JSON documents the cockpit page reads under `/api/…`, built from what the hub and the
/// NOTAM store hold. Pure functions of their inputs (the time comes in with them, from the
/// gateway's snapshot, never from this machine's clock): the same inputs give the same bytes.
/// README.md ("The cockpit page") documents each with an example.
package enum CockpitAPI {
    // MARK: /api/traffic

    /// `/api/traffic`'s `ownship` object (a fleet's `skygate/NAME/ownship` message), nil while
    /// there is no ownship.
    package static func ownship(_ s: FeedSnapshot) -> String? {
        guard let own = s.ownship else { return nil }
        var o = JSONWriter()
        o.add("lat", own.position.latitude, decimals: 6)
        o.add("lon", own.position.longitude, decimals: 6)
        o.add("altitudeFt", own.altitudeFt.map { Int(saturating: $0) })
        o.add("groundSpeedKt", own.groundSpeedKt, decimals: 0)
        o.add("trackDeg", own.trackDeg, decimals: 0)
        o.add("verticalSpeedFpm", Int(saturating: own.verticalSpeedFpm))
        o.add("airborne", own.airborne)
        o.add("source", own.source.rawValue)
        o.add("gpsValid", s.gpsValid)
        o.add("ageSec", own.ageSec, decimals: 1)
        o.add("deadReckoned", own.isHeld)
        return o.result
    }

    /// `/api/traffic`: ownship, every target (nearest first, with range, bearing and altitude
    /// relative to ownship when ownship has a fix) and the airspace areas active now with their
    /// outlines (as [lat, lon]) and limits.
    package static func traffic(_ s: FeedSnapshot, storage: String? = nil) -> String {
        var w = header(s.time)
        // A storage fault at start (the page's banner says it: alerts go on, nothing is logged to the card).
        if let storage { w.add("storage", storage) }
        w.add("staleAfterSec", s.staleAfter, decimals: 0)
        let own = s.ownship
        w.addRaw("ownship", ownship(s) ?? "null")
        struct Row {
            var range: Double?
            var json: String
        }
        var rows: [Row] = []
        rows.reserveCapacity(s.targets.count)
        for t in s.targets {
            var o = JSONWriter()
            o.add("address", t.key.description)
            o.add("callsign", t.callsign.flatMap { $0.isEmpty ? nil : $0 })
            var range: Double?
            if let p = t.position {
                o.add("lat", p.latitude, decimals: 5)
                o.add("lon", p.longitude, decimals: 5)
                if let own {
                    range = Geodesy.distanceNM(own.position, p)
                    o.add("rangeNM", range, decimals: 2)
                    o.add("bearingDeg", Geodesy.bearingDeg(own.position, p), decimals: 0)
                }
            }
            o.add("altitudeFt", t.pressureAltitudeFt)
            // The altitude the alerts compare (an OGN target's geometric one in ownship's frame).
            if let own, let a = t.alertAltitudeFt(own), let oa = own.altitudeFt { o.add("relativeAltitudeFt", a - Int(saturating: oa)) }
            o.add("verticalSpeedFpm", t.verticalSpeedFpm)
            o.add("groundSpeedKt", t.groundSpeedKt)
            o.add("trackDeg", t.trackDeg, decimals: 0)
            o.add("airborne", t.airborne)
            o.add("category", FeedEncoders.category(t.emitterCategory))
            o.add("ageSec", max(0, s.time - t.lastSeen), decimals: 1)
            o.add("stale", s.time - t.lastSeen > s.staleAfter)
            o.add("extrapolated", t.extrapolated)
            o.add("alert", s.alertLevels[t.key]?.description)
            rows.append(Row(range: range, json: o.result))
        }
        rows.sort { ($0.range ?? .infinity) < ($1.range ?? .infinity) }
        w.addRaw("targets", JSONWriter.array(rows.map(\.json)))
        w.addRaw("airspace", JSONWriter.array(s.airspace.map { area($0) }))
        return w.result
    }

    /// One airspace area: id, name, kind, severity, limits (numbers and words), times, outline.
    static func area(_ a: AirspaceArea) -> String {
        var o = JSONWriter()
        o.add("id", a.id)
        o.add("name", a.name)
        o.add("kind", a.kind?.rawValue)
        o.add("severity", a.severity.description)
        o.add("floorFt", a.floorFt)
        o.add("floorRef", a.floorFt == nil ? "SFC" : (a.floorIsAGL ? "AGL" : "MSL"))
        o.add("ceilingFt", a.ceilingFt)
        o.add("ceilingRef", a.ceilingFt == nil ? "UNL" : (a.ceilingIsAGL ? "AGL" : "MSL"))
        o.add("limits", limits(floor: a.floorFt, floorAGL: a.floorIsAGL, ceiling: a.ceilingFt, ceilingAGL: a.ceilingIsAGL))
        o.add("start", a.start.map(Timestamp.iso8601))
        o.add("end", a.end.map(Timestamp.iso8601))
        let ring = a.outline(segments: 48)
        o.addRaw("outline", JSONWriter.array(ring.map { "[" + JSONWriter.format($0.latitude, decimals: 5) + "," + JSONWriter.format($0.longitude, decimals: 5) + "]" }))
        return o.result
    }

    /// Vertical limits in words: `SFC–4000 MSL`, `1500 MSL–FL180`, `500 AGL–UNL`.
    package static func limits(floor: Int?, floorAGL: Bool, ceiling: Int?, ceilingAGL: Bool) -> String {
        func level(_ ft: Int?, agl: Bool, none: String) -> String {
            guard let ft else { return none }
            if ft == 0 { return "SFC" }
            if !agl && ft >= 18_000 { return "FL" + String(ft / 100) }
            return "\(ft) \(agl ? "AGL" : "MSL")"
        }
        return level(floor, agl: floorAGL, none: "SFC") + "–" + level(ceiling, agl: ceilingAGL, none: "UNL")
    }

    // MARK: /api/alerts

    /// `/api/alerts`: the active alerts (each as the alert output contract's JSON, in the order
    /// they were raised), the last hour of changes (newest first) and whether the page may
    /// acknowledge (a token is configured).
    package static func alerts(active: [AlertEvent], history: [AlertEvent], time: Double, acknowledge: Bool) -> String {
        alerts(active: active.map { EncodedAlert($0) }, history: history.map { EncodedAlert($0) }, time: time, acknowledge: acknowledge)
    }

    /// `/api/alerts` from alerts already encoded (the hub's: no alert is formatted again).
    package static func alerts(active: [EncodedAlert], history: [EncodedAlert], time: Double, acknowledge: Bool) -> String {
        var w = header(time)
        w.add("acknowledge", acknowledge)
        let sorted = active.sorted { ($0.event.level.rawValue, $1.event.time) > ($1.event.level.rawValue, $0.event.time) }
        w.addRaw("active", JSONWriter.array(sorted.map(\.json)))
        let recent = history.filter { $0.event.time >= time - FeedHub.historySeconds }.reversed()
        w.addRaw("history", JSONWriter.array(recent.map(\.json)))
        return w.result
    }

    // MARK: /api/notams

    /// Where the NOTAM list is centred: a position and the name it goes by.
    package struct Center: Sendable, Equatable {
        /// Latitude, degrees.
        package var latitude: Double
        /// Longitude, degrees.
        package var longitude: Double
        /// "ownship", or the airport asked for.
        package var name: String
        /// Creates a centre.
        package init(latitude: Double, longitude: Double, name: String) {
            self.latitude = latitude
            self.longitude = longitude
            self.name = name
        }
    }

    /// The state of a NOTAM at `time`: `active`, `future`, `expired` or `cancelled`.
    package static func state(_ n: Notam, at time: Double) -> String {
        if n.type == "C" { return "cancelled" }
        if let end = n.end, end < time, !n.permanent { return "expired" }
        if let start = n.start, start > time { return "future" }
        return "active"
    }

    /// A NOTAM's position for "near": its reference (source coordinates or Q-line centre), else
    /// its area's centre or first vertex.
    static func position(_ n: Notam) -> Position? {
        if let p = n.referencePosition { return p }
        if let c = n.geometry?.center, c.count == 2 { return Position(latitude: c[0], longitude: c[1]) }
        if let v = n.geometry?.polygon?.first, v.count == 2 { return Position(latitude: v[0], longitude: v[1]) }
        return nil
    }

    /// `/api/notams`: the NOTAMs within `radiusNM` of `center` (all when there is no centre; those
    /// without a position always), nearest first, each with raw text and translation, state,
    /// validity, source and its latest change (new, modified, cancelled, expired); the recent
    /// changes; whether the set is stale (no refresh for 24 h) and when each source refreshed.
    /// `airport` keeps NOTAMs of that location too, wherever they are; `number` (a
    /// notification's link) keeps only the NOTAM of that number or store key, wherever it is.
    package static func notams(_ all: [Notam], changes: [NotamChange], refreshes: [String: Double], stale: Bool,
                              center: Center?, airport: String?, radiusNM: Double, severity: String?, kind: String?,
                              time: Double, number: String? = nil) -> String {
        var latest: [String: NotamChange] = [:]
        for c in changes where latest[c.key] == nil { latest[c.key] = c }
        struct Row {
            var distance: Double?
            var number: String
            var json: String
        }
        var rows: [Row] = []
        let airportNames: Set<String> = airport.map { a in [a, a.count == 4 && a.hasPrefix("K") ? String(a.dropFirst()) : a] } ?? []
        for n in all {
            if let number, n.number != number, NotamStore.key(n) != number { continue }
            if let severity, !severity.isEmpty, n.severity != severity { continue }
            if let kind, !kind.isEmpty {
                if kind == "airspace" ? n.kind == nil : (n.kind?.rawValue ?? "other") != kind { continue }
            }
            let p = position(n)
            let d = center.flatMap { c in p.map { Geodesy.distanceNM(Position(latitude: c.latitude, longitude: c.longitude), $0) } }
            let named = !airportNames.isDisjoint(with: n.referenceNames)
            if let d, d > radiusNM, !named, number == nil { continue }
            var o = JSONWriter()
            let key = NotamStore.key(n)
            o.add("key", key)
            o.add("number", n.number)
            o.add("location", n.location ?? n.designator)
            o.add("issuer", n.issuer)
            o.add("source", n.source)
            o.add("heardOn", n.source == "fisb" ? "FIS-B" : "fetched")
            o.add("severity", n.severity)
            o.add("kind", n.kind?.rawValue)
            o.add("type", n.type)
            o.add("classification", n.classification)
            o.add("state", state(n, at: time))
            o.add("start", n.start.map(Timestamp.iso8601))
            o.add("end", n.end.map(Timestamp.iso8601))
            o.add("endEstimated", n.endEstimated)
            o.add("permanent", n.permanent)
            o.add("schedule", n.schedule)
            if let l = n.limits {
                o.add("limits", limits(floor: l.floorFt, floorAGL: l.floorAGL, ceiling: l.ceilingFt, ceilingAGL: l.ceilingAGL))
            } else if let g = n.geometry, g.floorFt != nil || g.ceilingFt != nil {
                o.add("limits", limits(floor: g.floorFt, floorAGL: g.floorAGL, ceiling: g.ceilingFt, ceilingAGL: g.ceilingAGL))
            }
            o.add("distanceNM", d, decimals: 1)
            o.add("text", n.text)
            o.add("translation", NotamTranslator.translate(n.text))
            o.add("raw", n.raw)
            if let c = latest[key] {
                var cw = JSONWriter()
                cw.add("kind", c.kind)
                cw.add("time", Timestamp.iso8601(c.time))
                cw.add("read", c.read)
                o.addRaw("change", cw.result)
            } else {
                o.addRaw("change", "null")
            }
            rows.append(Row(distance: d, number: n.number ?? key, json: o.result))
        }
        rows.sort { ($0.distance ?? .infinity, $0.number) < ($1.distance ?? .infinity, $1.number) }
        var w = header(time)
        if let center {
            var c = JSONWriter()
            c.add("lat", center.latitude, decimals: 5)
            c.add("lon", center.longitude, decimals: 5)
            c.add("name", center.name)
            w.addRaw("center", c.result)
        } else {
            w.addRaw("center", "null")
        }
        w.add("airport", airport)
        w.add("radiusNM", radiusNM, decimals: 0)
        w.add("stale", stale)
        var r = JSONWriter()
        for (source, t) in refreshes.sorted(by: { $0.key < $1.key }) { r.add(key: source, Timestamp.iso8601(t)) }
        w.addRaw("refreshed", r.result)
        w.addRaw("notams", JSONWriter.array(rows.map(\.json)))
        w.addRaw("changes", JSONWriter.array(changes.prefix(100).map { c in
            var cw = JSONWriter()
            cw.add("kind", c.kind)
            cw.add("key", c.key)
            cw.add("number", c.number)
            cw.add("location", c.location)
            cw.add("summary", c.summary)
            cw.add("time", Timestamp.iso8601(c.time))
            cw.add("read", c.read)
            return cw.result
        }))
        return w.result
    }

    // MARK: /api/weather

    /// Minutes after which a product is marked old.
    static func oldAfterMinutes(_ kind: FISBReport.Kind) -> Double {
        switch kind {
        case .metar, .speci: 75
        case .pirep: 60
        case .taf: 6 * 60
        case .winds: 12 * 60
        default: 2 * 60
        }
    }

    /// Kinds shown by station.
    static let stationKinds: [FISBReport.Kind] = [.metar, .speci, .taf, .pirep, .winds]
    /// Kinds shown as area advisories.
    static let advisoryKinds: Set<FISBReport.Kind> = [.airmet, .sigmet, .gAirmet, .cwa, .sua]

    /// `/api/weather`: the FIS-B products held and not expired at `time`, by station (nearest to
    /// `near` first; a station's distance is that of the ground station its products were heard
    /// from, for lack of an airport database), each with its age and an `old` marker, the
    /// station's flight category from its latest METAR or SPECI; then the area advisories
    /// (AIRMET, SIGMET, G-AIRMET, CWA, SUA).
    /// Stations (and advisories) `/api/weather` answers at most, nearest first.
    package static let weatherLimit = 300

    /// Of reports of one station and kind (or one text, for PIREPs and advisories) the newest
    /// by its own time, FIS-B's before a fetched one of the same time; in their first order.
    static func newest(_ reports: [FISBReport], fetchedKeys: Set<String>) -> [FISBReport] {
        var chosen: [String: Int] = [:]
        for (i, r) in reports.enumerated() {
            let station = r.kind == .metar || r.kind == .speci || r.kind == .taf || r.kind == .winds
            let key = station ? "\(r.kind == .speci ? FISBReport.Kind.metar : r.kind)/\(r.location ?? "?")/\(r.subtype ?? "")" : "\(r.kind)/\(r.text)"
            guard let j = chosen[key] else { chosen[key] = i; continue }
            let a = reports[j], ta = a.time ?? a.received, tb = r.time ?? r.received
            if tb > ta || (tb == ta && fetchedKeys.contains(a.key) && !fetchedKeys.contains(r.key)) { chosen[key] = i }
        }
        return chosen.values.sorted().map { reports[$0] }
    }

    /// `/api/airports`: the airports of the airport table within `radiusNM` of `near`, nearest
    /// first (at most 60): ident, name, position, elevation, distance; an empty list without a
    /// table or a position.
    package static func airports(_ table: AirportTable?, near: Position?, radiusNM: Double) -> String {
        guard let table, let near else { return "{\"airports\":[]}" }
        let found = table.nearby(near, withinNM: radiusNM, limit: 60)
        return "{\"airports\":" + JSONWriter.array(found.map { a in
            var w = JSONWriter()
            w.add("ident", a.airport.ident)
            w.add("name", a.airport.name)
            w.add("lat", a.airport.position.latitude, decimals: 5)
            w.add("lon", a.airport.position.longitude, decimals: 5)
            w.add("elevationFt", a.airport.elevationFt)
            w.add("distanceNM", a.distanceNM, decimals: 1)
            return w.result
        }) + "}"
    }

    /// `airports`: where a station whose report carries no position is (the airport table, issue
    /// 23), so it still sorts by distance.
    ///
    /// `fetched`: reports fetched before the flight (aviationweather.gov, issue 42), shown beside
    /// FIS-B's: of one station's METAR (or TAF, or one winds record) the newer by its own time is
    /// shown (FIS-B's when both are of one time), PIREPs and advisories once each by text; each
    /// product says its `source`.
    ///
    /// `trackDeg` (ownship's, in flight): the stations ahead along it (within 35° of the track
    /// and 25 NM of its line, 200 NM out) come first with the nearest (within 25 NM), nearest
    /// first, each marked `alongTrack`; then the others by distance.
    ///
    /// Away from ownship (`nearFrom` is not "ownship"), the stations with an observation (METAR,
    /// SPECI) come first, then those with a forecast, then winds aloft alone; each group nearest
    /// first: a pilot on the ground looks for the field's weather, not a winds-aloft point.
    /// `nearFrom` says where `near` came from (`"near"` in the answer).
    package static func weather(_ reports: [FISBReport], fetched: [FISBReport] = [], near: Position?, nearFrom: String? = nil, trackDeg: Double? = nil, time: Double,
                               airports: AirportTable? = nil) -> String {
        var byStation: [String: [FISBReport]] = [:]
        var advisories: [FISBReport] = []
        let fetchedKeys = Set(fetched.map(\.key))
        for r in Self.newest(reports + fetched, fetchedKeys: fetchedKeys) where r.expires >= time {
            if stationKinds.contains(r.kind) {
                byStation[r.location ?? "?", default: []].append(r)
            } else if advisoryKinds.contains(r.kind) {
                advisories.append(r)
            }
        }
        // A station's report is where its station is (the airport table); without the table, or for a
        // station it does not know, where its shapes are, else the ground station it came from.
        func distance(_ r: FISBReport) -> Double? {
            guard let near else { return nil }
            if stationKinds.contains(r.kind), let id = r.location, let a = airports?.airport(id) { return Geodesy.distanceNM(near, a.position) }
            return r.distanceNM(latitude: near.latitude, longitude: near.longitude)
        }
        func product(_ r: FISBReport) -> String {
            var o = JSONWriter()
            o.add("kind", r.kind.rawValue)
            o.add("subtype", r.subtype)
            o.add("location", r.location)
            o.add("text", r.text)
            let t = r.time ?? r.received
            o.add("time", Timestamp.iso8601(t))
            o.add("ageMin", max(0, (time - t) / 60), decimals: 0)
            o.add("old", (time - t) / 60 > oldAfterMinutes(r.kind))
            o.add("received", Timestamp.iso8601(r.received))
            o.add("expires", Timestamp.iso8601(r.expires))
            if r.kind == .metar || r.kind == .speci { o.add("category", FlightCategory(metar: r.text)?.rawValue) }
            o.add("source", fetchedKeys.contains(r.key) ? WeatherJSON.fetchedSource : "FIS-B")
            if let decoded = WeatherJSON.decoded(r) { o.addRaw("decoded", decoded) }
            if advisoryKinds.contains(r.kind) {
                o.add("start", r.start.map(Timestamp.iso8601))
                o.add("end", r.end.map(Timestamp.iso8601))
                o.add("distanceNM", distance(r), decimals: 0)
            }
            return o.result
        }
        // The nearest `weatherLimit` stations and advisories only: the page lists the nearest
        // first, and a flood of invented stations must not make one answer hundreds of MB.
        // Ahead along the track: the station's position from the airport table.
        func ahead(_ id: String, _ d: Double?) -> Bool {
            guard let near, let trackDeg, let d, d <= 200, let p = airports?.airport(id)?.position else { return false }
            let off = (Geodesy.bearingDeg(near, p) - trackDeg + 540).truncatingRemainder(dividingBy: 360) - 180
            return abs(off) <= 35 && d * abs(sin(off * .pi / 180)) <= 25
        }
        var nearest: [(id: String, distance: Double?, products: [FISBReport], ahead: Bool)] = byStation.map { entry in
            let d = entry.value.compactMap(distance).min()
            return (entry.key, d, entry.value, ahead(entry.key, d))
        }
        // In flight: first the near ones and those ahead, then the rest. Elsewhere: observations,
        // then forecasts, then winds alone. Each group nearest first.
        let inFlight = trackDeg != nil
        func first(_ e: (id: String, distance: Double?, products: [FISBReport], ahead: Bool)) -> Int {
            if inFlight { return e.ahead || (e.distance ?? .infinity) <= 25 ? 0 : 1 }
            if e.products.contains(where: { $0.kind == .metar || $0.kind == .speci }) { return 0 }
            return e.products.contains(where: { $0.kind == .taf }) ? 1 : 2
        }
        nearest.sort { (first($0), $0.distance ?? .infinity, $0.id) < (first($1), $1.distance ?? .infinity, $1.id) }
        var stations: [String] = []
        for (id, d, products, isAhead) in nearest.prefix(Self.weatherLimit) {
            let ordered = products.sorted {
                (stationKinds.firstIndex(of: $0.kind) ?? 9, -($0.time ?? $0.received)) < (stationKinds.firstIndex(of: $1.kind) ?? 9, -($1.time ?? $1.received))
            }
            let observation = products.filter { $0.kind == .metar || $0.kind == .speci }.max { ($0.time ?? 0) < ($1.time ?? 0) }
            var o = JSONWriter()
            o.add("id", id)
            o.add("distanceNM", d, decimals: 0)
            if isAhead { o.add("alongTrack", true) }
            o.add("category", observation.flatMap { FlightCategory(metar: $0.text)?.rawValue })
            o.addRaw("products", JSONWriter.array(ordered.map(product)))
            stations.append(o.result)
        }
        advisories.sort { (distance($0) ?? .infinity, $0.key) < (distance($1) ?? .infinity, $1.key) }
        var w = header(time)
        if let near {
            var n = JSONWriter()
            n.add("lat", near.latitude, decimals: 4)
            n.add("lon", near.longitude, decimals: 4)
            n.add("from", nearFrom)
            w.addRaw("near", n.result)
        }
        w.addRaw("stations", JSONWriter.array(stations))
        w.addRaw("advisories", JSONWriter.array(advisories.prefix(Self.weatherLimit).map(product)))
        return w.result
    }

    // MARK: /api/status

    /// What the status panel shows about the database and the NOTAMs in it.
    package struct DatabaseStatus: Sendable {
        /// The database file.
        package var path: String
        /// NOTAMs stored (nil when it could not be read).
        package var notams: Int?
        /// Each source's last refresh.
        package var refreshes: [String: Double]
        /// No refresh for 24 h.
        package var stale: Bool
        /// What went wrong reading it.
        package var error: String?
        /// Creates the status.
        package init(path: String, notams: Int?, refreshes: [String: Double], stale: Bool, error: String? = nil) {
            self.path = path
            self.notams = notams
            self.refreshes = refreshes
            self.stale = stale
            self.error = error
        }
    }

    /// `/api/status`: receiver health (messages by type, rates, last heartbeat, GPS source),
    /// the feeds' clients and drops, the database and NOTAM refreshes, the version.
    package static func status(_ s: FeedSnapshot, feeds: FeedCounters, messagesPerSec: Double, uplinksPerSec: Double,
                              database: DatabaseStatus?, fileNotams: Int, version: String) -> String {
        var w = header(s.time)
        w.add("version", version)
        var r = JSONWriter()
        r.add("healthy", s.problem == nil)
        r.add("problem", s.problem)
        r.add("lastHeartbeat", s.lastHeartbeat.map(Timestamp.iso8601))
        r.add("heartbeatAgeSec", s.lastHeartbeat.map { max(0, s.time - $0) }, decimals: 1)
        r.add("gpsValid", s.gpsValid)
        r.add("positionSource", s.ownship?.source.rawValue ?? "none")
        r.add("device", s.deviceName ?? (s.isStratux ? "Stratux" : nil))
        r.add("datagrams", s.counters.datagrams)
        r.add("messages", s.counters.messages)
        r.add("rejected", s.counters.errors)
        r.add("messagesPerSec", messagesPerSec, decimals: 1)
        r.add("uplinksPerSec", uplinksPerSec, decimals: 1)
        r.add("targets", s.targets.count)
        r.add("alertsRaised", s.counters.alertsRaised)
        var m = JSONWriter()
        for (k, v) in s.counters.messagesByType.sorted(by: { $0.key < $1.key }) { m.add(key: k, v) }
        r.addRaw("messagesByType", m.result)
        var e = JSONWriter()
        for (k, v) in s.counters.errorsByReason.sorted(by: { $0.key < $1.key }) { e.add(key: k, v) }
        r.addRaw("rejectedByReason", e.result)
        w.addRaw("receiver", r.result)
        var f = JSONWriter()
        f.add("sseClients", feeds.sseClients)
        f.add("sseDropped", feeds.sseDropped)
        f.add("sseRefused", feeds.sseRefused)
        f.add("nmeaDropped", feeds.nmeaDropped)
        f.add("forwarded", feeds.forwarded)
        f.add("forwardFailures", feeds.forwardFailures)
        w.addRaw("feeds", f.result)
        if let database {
            var d = JSONWriter()
            d.add("path", database.path)
            d.add("notams", database.notams)
            d.add("notamsStale", database.stale)
            var rr = JSONWriter()
            for (source, t) in database.refreshes.sorted(by: { $0.key < $1.key }) { rr.add(key: source, Timestamp.iso8601(t)) }
            d.addRaw("notamRefreshes", rr.result)
            d.add("error", database.error)
            w.addRaw("database", d.result)
        } else {
            w.addRaw("database", "null")
        }
        w.add("fileNotams", fileNotams)
        return w.result
    }

    /// `time` (ISO 8601) and `epoch` (seconds) first in every document: the page ages everything
    /// by the gateway's clock, not the tablet's.
    static func header(_ time: Double) -> JSONWriter {
        var w = JSONWriter()
        w.add("time", Timestamp.iso8601(time))
        w.add("epoch", time, decimals: 1)
        return w
    }
}
