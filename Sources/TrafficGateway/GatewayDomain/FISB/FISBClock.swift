import GatewaySupport
import GDL90

/// Turns the partial times inside FIS-B frames (month/day/hour/minute without a year, or only
/// day/hour/minute, or only hour/minute) into absolute times, choosing the candidate nearest a
/// reference time (the event time of the uplink). Stratux's time of reception is useless (0 or
/// invalid), so products are aged by these times.
package enum FISBClock {
    /// The civil date (year, month, day) of `t`.
    package static func date(_ t: Double) -> (year: Int, month: Int, day: Int) {
        guard t.isFinite, abs(t) < 1e12 else { return (1970, 1, 1) }
        let days = Int64((t / 86_400).rounded(.down))
        let (y, m, d) = Timestamp.civil(fromDays: days)
        return (Int(y), Int(m), Int(d))
    }

    /// The time nearest `reference` with the given fields; nil when the fields are out of range.
    /// Hour 24 (forecast ends) is accepted as midnight of the next day.
    package static func resolve(month: Int? = nil, day: Int? = nil, hour: Int, minute: Int, second: Int? = nil,
                               near reference: Double) -> Double? {
        guard (0...24).contains(hour), (0...59).contains(minute) else { return nil }
        if let month { guard (1...12).contains(month) else { return nil } }
        if let day { guard (1...31).contains(day) else { return nil } }
        let (year, refMonth, refDay) = date(reference)
        let clock = Double(hour * 3600 + minute * 60 + (second ?? 0))
        // The three candidates (a year, a month or a day either side), the first nearest kept:
        // computed in place, with no array (this runs for every APDU and every report time).
        var best = Double.nan
        func consider(_ candidate: Double) {
            if best.isNaN || abs(candidate - reference) < abs(best - reference) { best = candidate }
        }
        if let month, let day {
            for y in (year - 1)...(year + 1) { consider(Timestamp.midnight(year: y, month: month, day: day) + clock) }
        } else if let day {
            for dm in -1...1 {
                var m = refMonth + dm
                var y = year
                if m < 1 { m = 12; y -= 1 }
                if m > 12 { m = 1; y += 1 }
                consider(Timestamp.midnight(year: y, month: m, day: day) + clock)
            }
        } else {
            let midnight = Timestamp.midnight(year: year, month: refMonth, day: refDay)
            for dd in -1...1 { consider(midnight + Double(dd * 86_400) + clock) }
        }
        return best
    }

    /// The time of an APDU header.
    package static func resolve(_ t: APDU.Time, near reference: Double) -> Double? {
        resolve(month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second, near: reference)
    }

    /// The time of a graphic record's start or stop.
    package static func resolve(_ t: TWGOGraphicRecord.Time, near reference: Double) -> Double? {
        resolve(month: t.month, day: t.day, hour: t.hour, minute: t.minute, near: reference)
    }

    /// A NOTAM time `YYMMDDHHMM` (20YY).
    package static func notamTime<S: StringProtocol>(_ s: S) -> Double? { notamTime(ArraySlice(s.utf8)) }

    /// A NOTAM time `YYMMDDHHMM` (20YY) given as ASCII bytes.
    package static func notamTime(_ s: ArraySlice<UInt8>) -> Double? {
        guard s.count == 10 else { return nil }
        var d = [Int](repeating: 0, count: 10)
        for (i, c) in s.enumerated() {
            guard c >= 48 && c <= 57 else { return nil }
            d[i] = Int(c) - 48
        }
        let v = { (i: Int) in d[i] * 10 + d[i + 1] }
        let (month, day, hour, minute) = (v(2), v(4), v(6), v(8))
        guard (1...12).contains(month), (1...31).contains(day), hour <= 24, minute < 60 else { return nil }
        return Timestamp.midnight(year: 2000 + v(0), month: month, day: day) + Double(hour * 3600 + minute * 60)
    }
}
