import GatewaySupport
import GDL90
import GatewayDomain
import GatewayRecords
import GatewayNotams

/// A place the pilot cares about: a configured NOTAM location, the weather's home or a route
/// airport, where NOTAM changes are grouped and measured from ("6 NM N of KSLE").
package struct NotifyPlace: Sendable, Equatable {
    /// The name said (KSLE).
    package var name: String
    /// Where it is (from the airport table), nil when unknown.
    package var position: Position?
    /// A place.
    package init(name: String, position: Position?) {
        self.name = name
        self.position = position
    }
}

/// What the NOTAM changes of one refresh tell the pilot: one notification per place listing its
/// changes at or above the threshold (new, modified, cancelled; an expiry is not news), a
/// critical change also on its own. A place's first refresh sets its baseline and says nothing;
/// a change already notified (its identity in `notify_seen`) is never said again.
package struct NotamNotices: Sendable {
    /// The settings (threshold, page URL).
    package var settings: NotifySettings
    /// The configured places; empty: each change's own location is its place.
    package var places: [NotifyPlace]

    /// Notices for `places` with `settings`.
    package init(settings: NotifySettings, places: [NotifyPlace]) {
        self.settings = settings
        self.places = places
    }

    /// The notifications for `changes`, deciding baselines and first times inside `db` (the
    /// refresh's transaction); the caller adds them to the outbox there too.
    package func notifications(for changes: [NotamChange], in db: SQLiteConnection, now: Double) throws -> [Notification] {
        var baseline: [String: Bool] = [:]
        func hasBaseline(_ place: String) throws -> Bool {
            if let known = baseline[place] { return known }
            let had = try Outbox.hasBaseline("notams:" + place, in: db, now: now)
            baseline[place] = had
            return had
        }
        for p in places { _ = try hasBaseline(p.name) }
        var grouped: [(place: NotifyPlace, changes: [(NotamChange, Notam, String)])] = []
        let threshold = Notification.rank(settings.minSeverity)
        for c in changes where c.kind == "new" || c.kind == "modified" || c.kind == "cancelled" {
            guard let n = c.notam else { continue }
            let identity = c.kind == "cancelled" ? "notam:cancelled:\(c.key)" : "notam:\(c.kind):\(c.key):\(NotamStore.contentHash(n))"
            // Kept even below the threshold or at a baseline: the same change is never news later.
            guard try Outbox.firstTime(identity, in: db, now: now) else { continue }
            let place = place(of: n)
            guard try hasBaseline(place.name), Notification.rank(n.severity) >= threshold else { continue }
            if let i = grouped.firstIndex(where: { $0.place.name == place.name }) {
                grouped[i].changes.append((c, n, identity))
            } else {
                grouped.append((place, [(c, n, identity)]))
            }
        }
        var out: [Notification] = []
        for (place, items) in grouped {
            let sorted = items.sorted { (Notification.rank($0.1.severity), $0.0.kind == "new" ? 1 : 0) > (Notification.rank($1.1.severity), $1.0.kind == "new" ? 1 : 0) }
            let lines = sorted.map { line($0.0.kind, $0.1, from: place) }
            let entries = sorted.map { change($0.0.kind, $0.1) }
            let severity = sorted.map(\.1.severity).max { Notification.rank($0) < Notification.rank($1) } ?? "info"
            let title = sorted.count == 1 ? lines[0]
                : "\(place.name): \(sorted.count) NOTAM changes: " + zip(sorted, entries).prefix(2).map { "\($0.0.0.kind) \($0.1.kind) \($0.1.number)" }.joined(separator: ", ") + (sorted.count > 2 ? ", …" : "")
            let message = zip(lines, entries).map { line, e in "• \(line)\n  \(Self.short(e.plain, 300))" }.joined(separator: "\n")
            out.append(Notification(id: Notification.id(kind: .notamChanges, identity: place.name + "|" + sorted.map(\.2).joined(separator: "|")),
                                    kind: .notamChanges, title: title, message: message, severity: severity,
                                    url: settings.link(notam: (sorted.first { $0.0.kind != "cancelled" } ?? sorted[0]).1), time: now, place: place.name, changes: entries))
            for (c, n, identity) in sorted where n.severity == "critical" && c.kind != "cancelled" {
                let e = change(c.kind, n)
                out.append(Notification(id: Notification.id(kind: .notamChanges, identity: "critical|" + identity), kind: .notamChanges,
                                        title: "CRITICAL: " + line(c.kind, n, from: place), message: Self.short(e.plain, 1_000),
                                        severity: "critical", url: settings.link(notam: n), time: now, place: place.name, changes: [e]))
            }
        }
        return out
    }

    /// The place a NOTAM is told at: its own location when that is a configured place, else the
    /// configured place nearest to it, else its location.
    func place(of n: Notam) -> NotifyPlace {
        if let loc = n.location ?? n.designator, let p = places.first(where: { $0.name == loc || $0.name == "K" + loc }) { return p }
        if let at = Self.position(of: n) {
            let located = places.compactMap { p in p.position.map { (p, Geodesy.distanceNM(at, $0)) } }
            if let nearest = located.min(by: { $0.1 < $1.1 }) { return nearest.0 }
        }
        if places.count == 1 { return places[0] }
        return NotifyPlace(name: n.location ?? n.designator ?? n.issuer ?? "NOTAMs", position: nil)
    }

    /// Where a NOTAM is: its area's middle, else its reference point.
    static func position(of n: Notam) -> Position? {
        if let g = n.geometry {
            let b = g.bounds
            if b.0.isFinite, b.1.isFinite, b.2.isFinite, b.3.isFinite, b.0 <= b.1 { return Position(latitude: (b.0 + b.1) / 2, longitude: (b.2 + b.3) / 2) }
        }
        return n.referencePosition
    }

    /// "New TFR 6 NM N of KSLE: FDC 6/2174 (SFC–4000 ft, 16 May 14:00–18:00Z)".
    func line(_ change: String, _ n: Notam, from place: NotifyPlace) -> String {
        let verb = ["new": "New", "modified": "Changed", "cancelled": "Cancelled"][change] ?? change.capitalizedFirst
        var whereWords = ""
        if let here = place.position, let there = Self.position(of: n) {
            let d = Geodesy.distanceNM(here, there)
            whereWords = d < 1.5 ? " at \(place.name)" : " \(Int(d.rounded())) NM \(Self.compass(Geodesy.bearingDeg(here, there))) of \(place.name)"
        } else if place.name != "NOTAMs" {
            whereWords = " at \(place.name)"
        }
        let details = [Self.limits(n), Self.times(n)].compactMap { $0 }
        return "\(verb) \(Self.kind(n))\(whereWords): \(Self.number(n))" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
    }

    /// The webhook's change.
    func change(_ change: String, _ n: Notam) -> Notification.Change {
        Notification.Change(change: change, number: Self.number(n), location: n.location ?? n.designator, severity: n.severity, kind: Self.kind(n),
                            start: n.start, end: n.end, text: n.text, plain: NotamTranslator.translate(n.text))
    }

    /// `FDC 6/2174`, `KSLE 05/012`.
    static func number(_ n: Notam) -> String {
        guard let number = n.number else { return n.id }
        // FDC NOTAMs go by their issuer (FDC 6/2174), the others by their location (KSLE 12/001).
        let fdc = n.issuer == "FDC" || n.classification == "FDC"
        if let prefix = fdc ? "FDC" : n.location ?? n.designator, !number.hasPrefix(prefix) { return "\(prefix) \(number)" }
        return number
    }

    /// What kind of NOTAM, in a word or two.
    static func kind(_ n: Notam) -> String {
        switch n.kind ?? AirspaceClassifier.kind(of: n) {
        case .tfr?: return "TFR"
        case .prohibited?: return "prohibited area"
        case .restricted?: return "restricted area"
        case .warning?: return "warning area"
        case .alert?: return "alert area"
        case .moa?: return "MOA"
        case .danger?: return "danger area"
        case .parachute?: return "parachute jumping"
        case .aerobatic?: return "aerobatic area"
        case .uas?: return "drone activity"
        case .gps?: return "GPS outage"
        case .other?: return "airspace NOTAM"
        case nil: break
        }
        let t = " " + n.text.uppercased() + " "
        if t.contains(" CLSD") || t.contains(" CLOSED") {
            if t.contains(" RWY ") { return "runway closure" }
            if t.contains(" TWY ") { return "taxiway closure" }
            if t.contains(" AD ") || t.contains(" AP ") || t.contains(" AIRPORT ") { return "aerodrome closure" }
            return "closure"
        }
        if t.contains(" OBST") || t.contains(" TOWER ") || t.contains(" CRANE ") { return "obstacle" }
        if t.contains(" U/S ") || t.contains(" OTS ") { return "outage" }
        if t.contains(" IAP ") || t.contains(" SID ") || t.contains(" ODP ") || t.contains(" STAR ") { return "procedure change" }
        return "NOTAM"
    }

    /// "SFC–4000 ft", "1500 ft AGL–FL180", nil when not known.
    static func limits(_ n: Notam) -> String? {
        let floor: Int?, floorAGL: Bool, ceiling: Int?, ceilingAGL: Bool
        if let l = n.limits {
            (floor, floorAGL, ceiling, ceilingAGL) = (l.floorFt, l.floorAGL, l.ceilingFt, l.ceilingAGL)
        } else if let g = n.geometry, g.floorFt != nil || g.ceilingFt != nil {
            (floor, floorAGL, ceiling, ceilingAGL) = (g.floorFt, g.floorAGL, g.ceilingFt, g.ceilingAGL)
        } else {
            return nil
        }
        func words(_ ft: Int?, agl: Bool, floor: Bool) -> String {
            guard let ft else { return floor ? "SFC" : "UNL" }
            if ft == 0 && floor { return "SFC" }
            if ft >= 18_000 && !agl { return "FL\(ft / 100)" }
            return "\(ft) ft\(agl ? " AGL" : "")"
        }
        return words(floor, agl: floorAGL, floor: true) + "–" + words(ceiling, agl: ceilingAGL, floor: false)
    }

    /// "16 May 14:00–18:00Z", "16 May 14:00Z–17 May 08:00Z", "from 16 May 14:00Z", "PERM".
    static func times(_ n: Notam) -> String? {
        func day(_ t: Double) -> String {
            let days = Int64((t / 86_400).rounded(.down))
            let (_, m, d) = Timestamp.civil(fromDays: days)
            return "\(d) " + ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][Int(m) - 1]
        }
        func clock(_ t: Double) -> String {
            let s = Int64(t.rounded(.down)) % 86_400
            return Timestamp.pad((s + 86_400) % 86_400 / 3600, 2) + ":" + Timestamp.pad((s + 86_400) % 3600 / 60, 2)
        }
        guard let start = n.start else { return n.end.map { "until \(day($0)) \(clock($0))Z" } }
        if n.permanent || n.end == nil { return "from \(day(start)) \(clock(start))Z" + (n.permanent ? ", permanent" : "") }
        let end = n.end!
        if day(start) == day(end) { return "\(day(start)) \(clock(start))–\(clock(end))Z" }
        return "\(day(start)) \(clock(start))Z–\(day(end)) \(clock(end))Z" + (n.endEstimated ? " (end estimated)" : "")
    }

    /// N, NE, E … for a bearing in degrees.
    static func compass(_ bearing: Double) -> String {
        let names = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        return names[Int(((bearing.truncatingRemainder(dividingBy: 360) + 360 + 22.5) / 45).rounded(.down)) % 8]
    }

    /// `s` cut at a word before `limit` characters, with an ellipsis.
    static func short(_ s: String, _ limit: Int) -> String {
        guard s.count > limit else { return s }
        let cut = s.prefix(limit)
        return String(cut[..<(cut.lastIndex(of: " ") ?? cut.endIndex)]) + "…"
    }
}

extension String {
    /// The first letter upper-cased.
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
