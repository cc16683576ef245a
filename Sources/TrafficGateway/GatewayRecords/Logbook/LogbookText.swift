import GatewaySupport
/// The logbook in words: a line a flight for `flights list`, and the debrief `flights show`
/// prints and the page shows (route, times, encounters closest first, alerts, airspace).
package enum LogbookText {
    /// `KSLE → 7S5`, with `(in the air)` for an end not seen.
    package static func route(_ f: LoggedFlight) -> String {
        let from = f.startedInAir ? "(in the air)" : (f.departure ?? "?")
        let to = f.endedInAir ? "(in the air)" : (f.arrival ?? "?")
        return "\(from) → \(to)"
    }

    /// `2026-05-16 17:02:10–17:09:44Z`: takeoff (else first sample) to landing (else last).
    package static func times(_ f: LoggedFlight) -> String {
        let start = f.takeoff ?? f.track.first?.time ?? f.offBlock
        let end = f.landing ?? f.track.last?.time ?? f.onBlock
        return "\(Timestamp.iso8601(start.rounded(.down)).prefix(10)) \(Timestamp.timeOfDay(start))–\(Timestamp.timeOfDay(end))Z"
    }

    /// `1 h 05 min`, `7 min 34 s`.
    package static func duration(_ seconds: Double) -> String {
        let s = max(0, Int(seconds.rounded()))
        if s >= 3600 { return "\(s / 3600) h \(Timestamp.pad(s / 60 % 60, 2)) min" }
        if s >= 60 { return "\(s / 60) min \(Timestamp.pad(s % 60, 2)) s" }
        return "\(s) s"
    }

    /// `1:05:10`, `5:37`.
    package static func clock(_ seconds: Double) -> String {
        let s = max(0, Int(seconds.rounded()))
        return s >= 3600 ? "\(s / 3600):\(Timestamp.pad(s / 60 % 60, 2)):\(Timestamp.pad(s % 60, 2))" : "\(s / 60):\(Timestamp.pad(s % 60, 2))"
    }

    static func nm(_ v: Double, _ decimals: Int = 1) -> String { fixed(v, decimals) + " NM" }

    /// `v` with exactly `decimals` decimals (`1.00`, not `1`).
    package static func fixed(_ v: Double, _ decimals: Int) -> String {
        var text = JSONWriter.format(v, decimals: decimals)
        guard decimals > 0, v.isFinite else { return text }
        if !text.contains(".") { text += "." }
        let have = text.count - 1 - text.distance(from: text.startIndex, to: text.firstIndex(of: ".")!)
        return text + String(repeating: "0", count: max(0, decimals - have))
    }
    static func ft(_ v: Double?) -> String { v.map { "\(Int($0.rounded())) ft" } ?? "—" }

    /// The header of `flights list`.
    package static let listHeader = "   #  date        takeoff   landing   route                          time     dist  max alt  alerts  closest"

    /// One line of `flights list`.
    package static func listLine(_ s: LogbookStore.Summary) -> String {
        func pad(_ t: String, _ n: Int) -> String { t.count >= n ? t : t + String(repeating: " ", count: n - t.count) }
        func left(_ t: String, _ n: Int) -> String { t.count >= n ? t : String(repeating: " ", count: n - t.count) + t }
        let start = s.takeoff ?? s.offBlock
        let from = s.takeoff == nil ? "(in the air)" : (s.departure ?? "?")
        let to = s.landing == nil ? "(in the air)" : (s.arrival ?? "?")
        let airborne = (s.landing ?? s.onBlock) - start
        return left(String(s.id), 4) + "  " + String(Timestamp.iso8601(start).prefix(10)) + "  "
            + pad(s.takeoff.map { Timestamp.timeOfDay($0) } ?? "--:--:--", 8) + "  " + pad(s.landing.map { Timestamp.timeOfDay($0) } ?? "--:--:--", 8) + "  "
            + pad(from + " → " + to, 29) + "  " + left(clock(airborne), 7) + "  "
            + left(JSONWriter.format(s.distanceNM, decimals: 1), 5) + "  " + left(s.maxAltitudeFt.map { String(Int($0.rounded())) } ?? "—", 7) + "  "
            + left(String(s.alerts), 6) + "  " + (s.closestNM.map { nm($0, 2) } ?? "—")
    }

    /// The debrief of one flight, a line each.
    package static func debrief(_ f: LoggedFlight) -> [String] {
        var out: [String] = []
        out.append("Flight \(f.id.map(String.init) ?? "") \(route(f)), \(times(f))".replacingOccurrences("Flight  ", "Flight "))
        func time(_ t: Double?) -> String { t.map { Timestamp.timeOfDay($0) + "Z" } ?? "not seen" }
        out.append("  off blocks \(time(f.offBlock)), takeoff \(f.startedInAir ? "before the recording (started in the air)" : time(f.takeoff)), "
                   + "landing \(f.endedInAir ? "after the recording (ended in the air)" : time(f.landing)), on blocks \(time(f.onBlock))")
        out.append("  \(duration(f.airborneSec)) in the air, \(duration(f.blockSec)) block; \(nm(f.distanceNM)) flown; "
                   + "highest \(ft(f.maxAltitudeFt)), fastest \(Int(f.maxGroundSpeedKt.rounded())) kt")
        if let d = f.departure { out.append("  departure \(d)" + (f.arrival.map { ", arrival \($0)" } ?? "")) }
        else if let a = f.arrival { out.append("  arrival \(a)") }
        out.append("")
        if f.encounters.isEmpty {
            out.append("Encounters: no traffic within \(nm(LoggedFlight.encounterRangeNM, 0)).")
        } else {
            out.append("Encounters (closest first):")
            for e in f.encounters {
                let who = e.callsign.map { "\($0) (\(e.subject))" } ?? e.subject
                let vertical = e.verticalFt.map { $0 == 0 ? "same altitude" : "\(abs($0)) ft \($0 > 0 ? "above" : "below")" } ?? "altitude unknown"
                out.append("  \(Timestamp.timeOfDay(e.time))Z  \(who): \(nm(e.rangeNM, 2)), \(vertical)")
            }
        }
        out.append("")
        if f.alerts.isEmpty {
            out.append("Alerts: none.")
        } else {
            out.append("Alerts:")
            for a in f.alerts { out.append("  \(Timestamp.timeOfDay(a.time))Z  \(a.level) \(a.kind.rawValue): \(a.message)") }
        }
        out.append("")
        if f.airspace.isEmpty {
            out.append("Airspace: none entered or approached.")
        } else {
            out.append("Airspace:")
            for v in f.airspace {
                let what = v.entered ? "ENTERED" : "came within \(nm(v.closestNM))"
                out.append("  \(Timestamp.timeOfDay(v.time))Z  \(v.name)\(v.kind.map { " (\($0))" } ?? ""): \(what), \(v.level)")
            }
        }
        return out
    }
}

extension String {
    /// Every `target` replaced by `replacement` (no Foundation).
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = "", rest = Substring(self)
        while let r = rest.firstRange(of: target) {
            out += rest[..<r.lowerBound] + replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}
