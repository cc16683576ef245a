import GatewaySupport
import GatewayDomain
import GDL90

/// The logbook as JSON (`flights list --json`, the page's `/api/flights`), written with `JSONWriter`.
package enum LogbookJSON {
    /// The flight list: an array of objects (`summary`).
    package static func list(_ flights: [LogbookStore.Summary]) -> String {
        "[" + flights.map(summary).joined(separator: ",") + "]"
    }

    /// One flight of the list: its numbers, its stable `uid` and, in a ground station's logbook,
    /// the `gateway` that flew it (a fleet's `skygate/NAME/flights/UID` message, byte for byte).
    package static func summary(_ s: LogbookStore.Summary) -> String {
        var w = JSONWriter()
        w.add("id", Int(s.id))
        w.add("uid", s.uid)
        if let gateway = s.gateway { w.add("gateway", gateway) }
        w.add("off_block", Timestamp.iso8601(s.offBlock))
        w.add("takeoff", s.takeoff.map { Timestamp.iso8601($0) })
        w.add("landing", s.landing.map { Timestamp.iso8601($0) })
        w.add("on_block", Timestamp.iso8601(s.onBlock))
        w.add("departure", s.departure)
        w.add("arrival", s.arrival)
        w.add("started_in_air", s.takeoff == nil)
        w.add("ended_in_air", s.landing == nil)
        w.add("airborne_s", Int(((s.landing ?? s.onBlock) - (s.takeoff ?? s.offBlock)).rounded()))
        w.add("distance_nm", s.distanceNM, decimals: 2)
        w.add("max_altitude_ft", s.maxAltitudeFt.map { Int($0.rounded()) })
        w.add("max_ground_speed_kt", s.maxGroundSpeedKt, decimals: 1)
        w.add("alerts", s.alerts)
        w.add("encounters", s.encounters)
        w.add("closest_nm", s.closestNM, decimals: 3)
        w.add("airspace", s.airspace)
        w.add("source", s.source)
        return w.result
    }
}

extension LogbookJSON {
    /// One flight for the page (`/api/flights/N`): its numbers, the debrief text, the display
    /// track as [epoch s, lat, lon, altitude ft, ground speed kt], alerts, closest approaches (with the target's
    /// minute of track), airspace visits, the outlines of `areas` near the track, and the export
    /// formats. `area` writes one outline as the page's API does (`CockpitAPI.area`, given by the
    /// feeds; the fleet gives no areas).
    package static func flight(_ f: LoggedFlight, areas: [AirspaceArea] = [], area: (AirspaceArea) -> String = { _ in "null" }) -> String {
        var w = JSONWriter()
        w.add("id", f.id.map { Int($0) })
        w.add("uid", LogbookStore.uid(start: LogbookStore.start(of: f)))
        w.add("title", "\(LogbookText.route(f)) \(LogbookText.times(f))")
        w.add("departure", f.departure)
        w.add("arrival", f.arrival)
        w.add("takeoff", f.takeoff.map { Timestamp.iso8601($0) })
        w.add("landing", f.landing.map { Timestamp.iso8601($0) })
        w.add("distance_nm", f.distanceNM, decimals: 2)
        w.add("max_altitude_ft", f.maxAltitudeFt.map { Int($0.rounded()) })
        w.addRaw("debrief", JSONWriter.array(LogbookText.debrief(f).map(quoted)))
        func point(_ t: Double, _ p: Position, _ alt: Double?, _ speed: Double? = nil) -> String {
            "[" + JSONWriter.format(t, decimals: 1) + "," + JSONWriter.format(p.latitude, decimals: 6) + "," + JSONWriter.format(p.longitude, decimals: 6)
                + "," + (alt.map { JSONWriter.format($0, decimals: 0) } ?? "null") + (speed.map { "," + JSONWriter.format($0, decimals: 0) } ?? "") + "]"
        }
        // [time, lat, lon, altitude, ground speed kt].
        w.addRaw("track", JSONWriter.array(f.track.map { point($0.time, $0.position, $0.altitudeFt, $0.groundSpeedKt) }))
        w.addRaw("alerts", JSONWriter.array(f.alerts.map { a in
            var o = JSONWriter()
            o.add("time", a.time, decimals: 1)
            o.add("lat", a.position?.latitude, decimals: 6)
            o.add("lon", a.position?.longitude, decimals: 6)
            o.add("altitudeFt", a.altitudeFt, decimals: 0)
            o.add("level", a.level.description)
            o.add("kind", a.kind.rawValue)
            o.add("message", a.message)
            o.add("id", a.alertID)
            o.add("subject", a.subject)
            return o.result
        }))
        w.addRaw("encounters", JSONWriter.array(f.encounters.map { e in
            var o = JSONWriter()
            o.add("subject", e.subject)
            o.add("callsign", e.callsign)
            o.add("time", e.time, decimals: 1)
            o.add("rangeNM", e.rangeNM, decimals: 3)
            o.add("verticalFt", e.verticalFt)
            o.add("lat", e.position.latitude, decimals: 6)
            o.add("lon", e.position.longitude, decimals: 6)
            o.add("altitudeFt", e.altitudeFt)
            o.add("ownLat", e.ownshipPosition.latitude, decimals: 6)
            o.add("ownLon", e.ownshipPosition.longitude, decimals: 6)
            o.addRaw("track", JSONWriter.array(e.track.map { point($0.time, $0.position, $0.altitudeFt.map(Double.init)) }))
            return o.result
        }))
        w.addRaw("airspace", JSONWriter.array(f.airspace.map { v in
            var o = JSONWriter()
            o.add("subject", v.subject)
            o.add("name", v.name)
            o.add("kind", v.kind)
            o.add("entered", v.entered)
            o.add("closestNM", v.closestNM, decimals: 2)
            o.add("level", v.level.description)
            o.add("time", v.time, decimals: 1)
            o.add("lat", v.position?.latitude, decimals: 6)
            o.add("lon", v.position?.longitude, decimals: 6)
            return o.result
        }))
        // Outlines of the areas within 20 NM of the track's box.
        var box: (Double, Double, Double, Double)?
        for p in f.track {
            let b = box ?? (p.position.latitude, p.position.latitude, p.position.longitude, p.position.longitude)
            box = (min(b.0, p.position.latitude), max(b.1, p.position.latitude), min(b.2, p.position.longitude), max(b.3, p.position.longitude))
        }
        var near: [String] = []
        if let (s, n, west, east) = box {
            let pad = 20.0 / 60
            for a in areas {
                let ring = a.outline(segments: 48)
                guard ring.contains(where: { $0.latitude >= s - pad && $0.latitude <= n + pad && $0.longitude >= west - pad * 1.5 && $0.longitude <= east + pad * 1.5 })
                else { continue }
                near.append(area(a))
            }
        }
        w.addRaw("areas", JSONWriter.array(near))
        w.addRaw("exports", JSONWriter.array(FlightExport.allCases.map { quoted($0.rawValue) }))
        return w.result
    }

    static func quoted(_ s: String) -> String {
        var o = OutputBuffer(capacity: s.utf8.count + 8)
        o.appendJSONQuoted(s)
        return o.text
    }
}
