import GatewaySupport
import GatewayDomain
import GDL90

/// The documents the HTTP feeds serve, built from a `FeedSnapshot`. Pure functions: the same
/// snapshot always gives the same bytes.
package enum FeedEncoders {
    /// `/data/aircraft.json` in the shape dump1090-fa and readsb write (field names as readsb's
    /// README-json documents them): `now`, `messages`, `aircraft[]` with `hex` (a `~` prefix for
    /// non-ICAO addresses, as readsb does), `type`, `flight` (8 characters, space padded),
    /// `lat`, `lon`, `alt_baro`, `gs`, `track`, `baro_rate`, `category`, `seen`, `seen_pos`,
    /// `messages`. Unknown values are left out, as readsb does; our own extras start with
    /// `gateway_`.
    /// `/data/receiver.json` in readsb's shape, which tar1090 reads before `aircraft.json`
    /// (without it tar1090 reports "the decoder … isn't working"): version, refresh interval
    /// (ms), history files kept (none), and the receiver's position (ownship's, when known).
    package static func receiverJSON(_ s: FeedSnapshot, version: String) -> String {
        var w = JSONWriter()
        w.add("version", version)
        w.add("refresh", 1000)
        w.add("history", 0)
        if let p = s.ownship?.position {
            w.add("lat", p.latitude, decimals: 4)
            w.add("lon", p.longitude, decimals: 4)
        }
        return w.result
    }

    package static func aircraftJSON(_ s: FeedSnapshot) -> String {
        var items: [String] = []
        items.reserveCapacity(s.targets.count)
        for t in s.targets {
            var w = JSONWriter()
            w.add("hex", t.key.description)
            // OGN alone: readsb's and tar1090's `other` (a source that is not ADS-B, TIS-B or MLAT).
            w.add("type", t.heardVia == .ogn ? "other" : readsbType(t.addressType))
            if let c = t.callsign, !c.isEmpty { w.add("flight", c.padding(8)) }
            if let p = t.position {
                w.add("lat", p.latitude, decimals: 6)
                w.add("lon", p.longitude, decimals: 6)
            }
            if !t.airborne {
                w.add("alt_baro", "ground")
            } else if let a = t.pressureAltitudeFt {
                w.add("alt_baro", a)
            }
            if let g = t.geometricAltitudeFt { w.add("alt_geom", g) }
            if let gs = t.groundSpeedKt { w.add("gs", Double(gs), decimals: 1) }
            if let tr = t.trackDeg { w.add("track", tr, decimals: 1) }
            if let vs = t.verticalSpeedFpm { w.add("baro_rate", vs) }
            w.add("category", category(t.emitterCategory))
            w.add("messages", t.reports)
            w.add("seen", max(0, s.time - t.lastSeen), decimals: 1)
            if t.position != nil { w.add("seen_pos", max(0, s.time - t.lastReal), decimals: 1) }
            if t.addressType.isTISB { w.addRaw("tisb", "[\"lat\",\"lon\",\"alt_baro\",\"gs\",\"track\"]") }
            if let level = s.alertLevels[t.key] { w.add("gateway_alert", level.description) }
            if t.extrapolated { w.add("gateway_extrapolated", true) }
            if t.heardVia.contains(.ogn) { w.addRaw("gateway_sources", JSONWriter.array(t.heardVia.names.map { "\"\($0)\"" })) }
            if let o = t.ogn {
                w.add("gateway_ogn_aircraft", o.aircraftType.description)
                // A stealth sender's address type is part of its identity: not said.
                if !o.stealth { w.add("gateway_ogn_address_type", o.addressType.description) }
            }
            items.append(w.result)
        }
        var w = JSONWriter()
        w.add("now", s.time, decimals: 1)
        w.add("messages", s.counters.messages)
        w.addRaw("aircraft", JSONWriter.array(items))
        return w.result
    }

    /// readsb's `type` for a GDL 90 address type.
    static func readsbType(_ t: AddressType) -> String {
        switch t.rawValue {
        case 0: "adsb_icao"
        case 1: "adsb_other"
        case 2: "tisb_icao"
        case 3: "tisb_trackfile"
        default: "other"
        }
    }

    /// The emitter category as ADS-B writes it: sets A–D of eight (GDL 90 numbers them 0–39 the
    /// same way: 1 light = A1, 9 glider = B1, 17 surface emergency vehicle = C1).
    package static func category(_ c: UInt8) -> String {
        let sets = ["A", "B", "C", "D"]
        guard c < 32 else { return "D0" }
        return sets[Int(c) / 8] + String(Int(c) % 8)
    }

    /// `/traffic.geojson`: a FeatureCollection of Points ([lon, lat], RFC 7946 order), one per
    /// target with a position, plus ownship, with properties for styling and labels.
    package static func trafficGeoJSON(_ s: FeedSnapshot) -> String {
        var features: [String] = []
        if let own = s.ownship {
            var p = JSONWriter()
            p.add("kind", "ownship")
            p.add("source", own.source.rawValue)
            p.add("altitudeFt", own.altitudeFt.map { Int(saturating: $0) })
            p.add("groundSpeedKt", own.groundSpeedKt, decimals: 1)
            p.add("trackDeg", own.trackDeg, decimals: 1)
            features.append(feature(point: own.position, properties: p.result))
        }
        for t in s.targets {
            guard let pos = t.position else { continue }
            var p = JSONWriter()
            p.add("kind", "traffic")
            p.add("address", t.key.description)
            p.add("callsign", t.callsign)
            p.add("addressType", t.addressType.description)
            p.add("altitudeFt", t.pressureAltitudeFt)
            p.add("airborne", t.airborne)
            p.add("groundSpeedKt", t.groundSpeedKt)
            p.add("trackDeg", t.trackDeg, decimals: 1)
            p.add("verticalSpeedFpm", t.verticalSpeedFpm)
            p.add("category", category(t.emitterCategory))
            p.add("ageSec", max(0, s.time - t.lastSeen), decimals: 1)
            p.add("stale", s.time - t.lastSeen > s.staleAfter)
            p.add("extrapolated", t.extrapolated)
            p.add("alert", s.alertLevels[t.key]?.description)
            features.append(feature(point: pos, properties: p.result))
        }
        return collection(features)
    }

    /// `/airspace.geojson`: a FeatureCollection of Polygons (circles as 64-gons, rings closed and
    /// counter-clockwise as RFC 7946 asks) with name, limits, times and severity.
    package static func airspaceGeoJSON(_ s: FeedSnapshot) -> String {
        var features: [String] = []
        for a in s.airspace {
            var ring = a.outline()
            guard ring.count >= 3 else { continue }
            if signedArea(ring) < 0 { ring.reverse() }
            ring.append(ring[0])
            let coordinates = "[[" + ring.map(lonLat).joined(separator: ",") + "]]"
            var p = JSONWriter()
            p.add("id", a.id)
            p.add("name", a.name)
            p.add("severity", a.severity.description)
            p.add("floorFt", a.floorFt)
            p.add("floorRef", a.floorFt == nil ? "SFC" : (a.floorIsAGL ? "AGL" : "MSL"))
            p.add("ceilingFt", a.ceilingFt)
            p.add("ceilingRef", a.ceilingFt == nil ? "UNL" : (a.ceilingIsAGL ? "AGL" : "MSL"))
            p.add("start", a.start.map(Timestamp.iso8601))
            p.add("end", a.end.map(Timestamp.iso8601))
            if case .circle(let c, let r) = a.shape {
                p.add("radiusNM", r, decimals: 3)
                p.addRaw("center", lonLat(c))
            }
            features.append("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":\(coordinates)},\"properties\":\(p.result)}")
        }
        return collection(features)
    }

    /// `/healthz` body: status and the reason when unhealthy.
    package static func health(_ s: FeedSnapshot, storage: String? = nil, fleet: String? = nil) -> String {
        var w = JSONWriter()
        w.add("status", s.problem != nil ? "unhealthy" : storage != nil ? "degraded" : "ok")
        w.add("problem", s.problem)
        if let storage { w.add("storage", storage) }
        // Informative: a fleet out of reach is no outage of the gateway (it queues).
        if let fleet { w.add("fleet", fleet) }
        w.add("gpsValid", s.gpsValid)
        w.add("positionSource", s.ownship?.source.rawValue ?? "none")
        w.add("targets", s.targets.count)
        w.add("datagrams", s.counters.datagrams)
        w.add("messages", s.counters.messages)
        w.add("time", Timestamp.iso8601(s.time))
        return w.result
    }

    /// `/metrics` in the Prometheus text exposition format (version 0.0.4).
    package static func metrics(_ s: FeedSnapshot, feeds: FeedCounters) -> String {
        var out = ""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: Int)]) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for sample in samples {
                out += name + (sample.labels.isEmpty ? "" : "{\(sample.labels)}") + " \(sample.value)\n"
            }
        }
        metric("gatewayd_datagrams_total", "counter", "UDP datagrams received.", [("", s.counters.datagrams)])
        metric("gatewayd_bytes_total", "counter", "Bytes received.", [("", s.counters.bytes)])
        metric("gatewayd_frames_total", "counter", "GDL90 messages decoded, by type.",
               s.counters.messagesByType.sorted { $0.key < $1.key }.map { ("type=\"\($0.key)\"", $0.value) })
        metric("gatewayd_frame_errors_total", "counter", "Frames or messages rejected, by reason.",
               s.counters.errorsByReason.sorted { $0.key < $1.key }.map { ("reason=\"\($0.key)\"", $0.value) })
        metric("gatewayd_targets", "gauge", "Traffic targets held.", [("", s.targets.count)])
        metric("gatewayd_alerts_active", "gauge", "Traffic alerts active now.", [("", s.alertLevels.count)])
        metric("gatewayd_alerts_raised_total", "counter", "Alerts raised.", [("", s.counters.alertsRaised)])
        metric("gatewayd_gps_values_rejected_total", "counter", "gpsd values dropped as physically impossible.", [("", s.counters.gpsValuesRejected)])
        metric("gatewayd_targets_evicted_total", "counter", "Traffic targets evicted from a full picture.", [("", s.counters.targetsEvicted)])
        metric("gatewayd_sse_clients", "gauge", "Connected /alerts clients.", [("", feeds.sseClients)])
        metric("gatewayd_slow_clients_dropped_total", "counter", "Feed clients dropped for not keeping up, by feed.",
               [("feed=\"sse\"", feeds.sseDropped), ("feed=\"nmea\"", feeds.nmeaDropped)])
        metric("gatewayd_forward_datagrams_total", "counter", "GDL90 datagrams forwarded to EFBs.", [("", feeds.forwarded)])
        metric("gatewayd_forward_failures_total", "counter", "GDL90 datagrams the kernel refused to send.", [("", feeds.forwardFailures)])
        metric("gatewayd_receiver_healthy", "gauge", "1 while GDL90 arrives, else 0.", [("", s.problem == nil ? 1 : 0)])
        return out
    }

    static func feature(point: Position, properties: String) -> String {
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":\(lonLat(point))},\"properties\":\(properties)}"
    }

    static func collection(_ features: [String]) -> String {
        "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}"
    }

    static func lonLat(_ p: Position) -> String {
        "[" + JSONWriter.format(p.longitude, decimals: 6) + "," + JSONWriter.format(p.latitude, decimals: 6) + "]"
    }

    /// Shoelace area in degrees² (sign gives orientation: positive = counter-clockwise).
    static func signedArea(_ ring: [Position]) -> Double {
        var a = 0.0
        for i in ring.indices {
            let p = ring[i], q = ring[(i + 1) % ring.count]
            a += p.longitude * q.latitude - q.longitude * p.latitude
        }
        return a / 2
    }
}

/// Counts kept by the feeds themselves (not by the core).
package struct FeedCounters: Sendable, Equatable {
    /// /alerts clients connected now.
    package var sseClients = 0
    /// /alerts clients dropped for a full buffer.
    package var sseDropped = 0
    /// `/alerts` clients refused (over the subscriber cap).
    package var sseRefused = 0
    /// NMEA clients dropped for not reading.
    package var nmeaDropped = 0
    /// Datagrams forwarded.
    package var forwarded = 0
    /// Datagrams the kernel refused.
    package var forwardFailures = 0
    /// Creates zeroed counters.
    package init() {}
}

extension String {
    /// Right-padded with spaces to `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
