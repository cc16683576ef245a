/// The logbook as JSON (`flights list --json`, the page's `/api/flights`), written with `JSONWriter`.
public enum LogbookJSON {
    /// The flight list: an array of objects.
    public static func list(_ flights: [LogbookStore.Summary]) -> String {
        var out = "["
        for (i, s) in flights.enumerated() {
            if i > 0 { out += "," }
            var w = JSONWriter()
            w.add("id", Int(s.id))
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
            out += w.result
        }
        return out + "]"
    }
}
