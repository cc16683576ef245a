import GatewaySupport
import GatewayRecords
import GatewayNotams
import GatewayWeather

extension NotamNotices {
    /// The refresh's transaction hook: the notifications for `changes` added to the outbox for
    /// every target, with the changes themselves (nothing notified that was not stored, nothing
    /// stored that is not notified). Returns how many were added.
    @discardableResult
    package func addToOutbox(_ changes: [NotamChange], in db: SQLiteConnection, now: Double) throws -> Int {
        guard settings.enabled else { return 0 }
        var added = 0
        for n in try notifications(for: changes, in: db, now: now) where try Outbox.add(n, targets: settings.targets, in: db, now: now) { added += 1 }
        return added
    }
}

/// A SIGMET, convective SIGMET or CWA that reaches the weather's area or route (issue 54):
/// each once, ever; the first refresh sets the baseline (what was already in force is not news).
package struct WeatherNotices: Sendable {
    /// The settings.
    package var settings: NotifySettings
    /// The area's name ("KSLE and 50 NM around", "route KSLE–KPDX").
    package var area: String

    /// Notices for `area`.
    package init(settings: NotifySettings, area: String) {
        self.settings = settings
        self.area = area
    }

    /// The notifications for the hazards among `records` (what the store holds now), deciding
    /// first times inside `db`, and added to the outbox there.
    @discardableResult
    package func addToOutbox(_ records: [WeatherRecord], in db: SQLiteConnection, now: Double) throws -> [Notification] {
        let hazards = records.filter { ($0.kind == .sigmet || $0.kind == .cwa) && $0.expires > now }
        let baseline = try Outbox.hasBaseline("weather:" + area, in: db, now: now)
        var out: [Notification] = []
        for r in hazards.sorted(by: { $0.time < $1.time }) {
            guard try Outbox.firstTime("weather:" + r.key, in: db, now: now), baseline else { continue }
            let convective = r.text.uppercased().contains("CONVECTIVE")
            let name = r.kind == .cwa ? "Center weather advisory" : convective ? "Convective SIGMET" : "SIGMET"
            let severity = r.kind == .cwa ? "caution" : "warning"
            guard Notification.rank(severity) >= Notification.rank(settings.minSeverity) else { continue }
            let until = Timestamp.iso8601(r.expires).dropFirst(11).prefix(5)
            let n = Notification(id: Notification.id(kind: .weather, identity: r.key), kind: .weather,
                                 title: "\(name) on \(area), until \(until)Z", message: NotamNotices.short(r.text.trimmingWhitespaceAndNewlines(), 1_500),
                                 severity: severity, url: settings.link(panel: "weather"), time: now, place: area)
            if try Outbox.add(n, targets: settings.targets, in: db, now: now) { out.append(n) }
        }
        return out
    }
}

/// The gateway's own episodes (a receiver silent, storage degraded, the broker refusing):
/// one notification when one begins, one when it ends, kept across restarts (an episode open
/// when the gateway stopped is not said again when it starts).
package struct GatewayEpisodes: Sendable {
    /// The settings.
    package var settings: NotifySettings
    /// The outbox.
    package var outbox: Outbox
    /// The gateway's name in the words ("the gateway", "gateway N123AB").
    package var name: String

    /// Episodes for `settings` in `outbox`.
    package init(settings: NotifySettings, outbox: Outbox, name: String) {
        self.settings = settings
        self.outbox = outbox
        self.name = name
    }

    /// Updates episode `key` at `now`: `problem` non-nil while it lasts. True when a
    /// notification was added (it began or ended).
    @discardableResult
    package func update(_ key: String, problem: String?, began: String, ended: String, severity: String = "warning", now: Double) throws(GatewayError) -> Bool {
        let open = try outbox.episode(key)
        switch (open, problem) {
        case (nil, let problem?):
            let n = Notification(id: Notification.id(kind: .gateway, identity: "\(key)|began|\(now)"), kind: .gateway,
                                 title: "\(name): \(began)", message: problem, severity: severity, url: settings.link(panel: "status"), time: now, place: nil)
            try outbox.episode(key, since: now, detail: problem, notification: n, targets: settings.targets, now: now)
            return true
        case (let open?, nil):
            let minutes = Int(((now - open.since) / 60).rounded())
            let n = Notification(id: Notification.id(kind: .gateway, identity: "\(key)|ended|\(now)"), kind: .gateway,
                                 title: "\(name): \(ended) after \(minutes) min", message: "It began \(Timestamp.iso8601(open.since)): \(open.detail)",
                                 severity: "info", url: settings.link(panel: "status"), time: now, place: nil)
            try outbox.episode(key, since: nil, detail: "", notification: n, targets: settings.targets, now: now)
            return true
        default:
            return false
        }
    }
}

/// Takeoff and landing (`flight_events = true`), what a phone automation needs.
package enum FlightNotices {
    /// "Took off from KSLE at 14:02Z" / "Landed at KPDX at 15:10Z (1 h 08 min from KSLE)".
    package static func notification(_ event: String, airport: String?, at time: Double, from: String? = nil, since: Double? = nil,
                                      name: String, settings: NotifySettings) -> Notification {
        let clock = String(Timestamp.iso8601(time).dropFirst(11).prefix(5)) + "Z"
        let title: String
        var message: String
        if event == "takeoff" {
            title = "\(name) took off" + (airport.map { " from \($0)" } ?? "") + " at \(clock)"
            message = "Airborne at \(Timestamp.iso8601(time))."
        } else {
            title = "\(name) landed" + (airport.map { " at \($0)" } ?? "") + " at \(clock)"
            message = "On the ground at \(Timestamp.iso8601(time))."
            if let since {
                let minutes = Int(((time - since) / 60).rounded())
                message += " Flight time \(minutes / 60) h \(Timestamp.pad(minutes % 60, 2)) min" + (from.map { " from \($0)" } ?? "") + "."
            }
        }
        return Notification(id: Notification.id(kind: .flight, identity: "\(event)|\(Int(time))"), kind: .flight, title: title, message: message,
                            severity: "info", url: settings.link(panel: "flights"), time: time, place: airport)
    }
}
