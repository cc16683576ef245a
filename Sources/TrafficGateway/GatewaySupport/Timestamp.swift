/// Event times: seconds since the Unix epoch (UTC), as carried by every event into the core.
/// The core never reads a clock; these helpers only format and split such times.
public enum Timestamp {
    /// ISO-8601 UTC with millisecond precision when the time has a fraction, e.g.
    /// `2026-05-16T14:00:03Z` or `2026-05-16T14:00:03.250Z`. Deterministic, no locale, no Foundation.
    ///
    /// Total: a time before year 0 or after 9999 (a stored or received number such as 1e308)
    /// reads as the nearest of those limits, NaN as the epoch; never a trap.
    public static func iso8601(_ t: Double) -> String {
        let millis = Int64((clamped(t) * 1000).rounded())
        var seconds = millis / 1000
        var ms = millis % 1000
        if ms < 0 {
            ms += 1000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secOfDay = seconds % 86_400
        if secOfDay < 0 {
            secOfDay += 86_400
            days -= 1
        }
        let (y, m, d) = civil(fromDays: days)
        var s = "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(secOfDay / 3600, 2)):\(pad(secOfDay / 60 % 60, 2)):\(pad(secOfDay % 60, 2))"
        if ms != 0 { s += ".\(pad(ms, 3))" }
        return s + "Z"
    }

    /// `t`'s whole second as `yyyyMMdd'T'HHmmss'Z'` (20260516T140030Z): a stamp for names (a
    /// file moved aside, a flight's stable id).
    public static func compact(_ t: Double) -> String {
        iso8601(t.rounded(.down)).replacingAll("-", with: "").replacingAll(":", with: "").replacingAll(".000", with: "")
    }

    /// `HH:MM:SS` of the UTC time of day.
    public static func timeOfDay(_ t: Double) -> String {
        var secOfDay = Int64(clamped(t).rounded(.down)) % 86_400
        if secOfDay < 0 { secOfDay += 86_400 }
        return "\(pad(secOfDay / 3600, 2)):\(pad(secOfDay / 60 % 60, 2)):\(pad(secOfDay % 60, 2))"
    }

    /// The earliest and latest times written (0000-01-01 and 9999-12-31T23:59:59.999Z).
    public static let earliest = -62_167_219_200.0, latest = 253_402_300_799.999

    /// The event times an input may carry (a capture's packet, a dump978 `t=`, a Stratux log's
    /// offset, a reply's observation time): the epoch to the end of 2099. The shared rule for
    /// every parsed time: a time outside it (NaN, 1e300, 2^53 s, a pcapng read with the wrong
    /// `if_tsresol`) is refused where it is read, counted and said, never handed to the core,
    /// whose one-second tick cannot step past 2^53 and whose dates end at 9999.
    public static let plausible: ClosedRange<Double> = 0...4_102_444_799

    /// Whether `t` is within `plausible` (and so finite).
    @inline(__always)
    public static func isPlausible(_ t: Double) -> Bool { plausible.contains(t) }

    /// `t` within `earliest...latest` (NaN: the epoch), so that every conversion of it is total.
    @inline(__always)
    public static func clamped(_ t: Double) -> Double {
        t.isNaN ? 0 : min(max(t, earliest), latest)
    }

    /// Seconds since the epoch of midnight UTC at the start of the given civil date.
    public static func midnight(year: Int, month: Int, day: Int) -> Double {
        Double(days(fromCivil: Int64(year), Int64(month), Int64(day)) * 86_400)
    }

    /// Parses `YYYY-MM-DD` or an ISO-8601 UTC time (`YYYY-MM-DDTHH:MM[:SS[.fff]]Z`); nil when malformed.
    public static func parse(_ text: String) -> Double? {
        let chars = Array(text.utf8)
        func num(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= chars.count else { return nil }
            var v = 0
            for c in chars[from..<(from + count)] {
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard chars.count >= 10, chars[4] == 45, chars[7] == 45,
              let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2), (1...12).contains(mo), (1...31).contains(d)
        else { return nil }
        var t = midnight(year: y, month: mo, day: d)
        if chars.count == 10 { return t }
        guard chars.count >= 16, chars[10] == 84 || chars[10] == 32, let h = num(11, 2), chars[13] == 58, let mi = num(14, 2),
              h < 24, mi < 60 else { return nil }
        t += Double(h * 3600 + mi * 60)
        var i = 16
        if i < chars.count, chars[i] == 58 {
            guard let s = num(17, 2), s < 61 else { return nil }
            t += Double(s)
            i = 19
            if i < chars.count, chars[i] == 46 {
                var frac = 0.0, scale = 0.1
                i += 1
                while i < chars.count, chars[i] >= 48, chars[i] <= 57 {
                    frac += Double(chars[i] - 48) * scale
                    scale /= 10
                    i += 1
                }
                t += frac
            }
        }
        if i < chars.count, chars[i] == 90 { i += 1 }
        return i == chars.count ? t : nil
    }

    public static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    public static func pad(_ v: Int, _ width: Int) -> String { pad(Int64(v), width) }

    // Howard Hinnant's days-from-civil algorithms (public domain).
    public static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    public static func days(fromCivil y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
