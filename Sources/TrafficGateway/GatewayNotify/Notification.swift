import GatewaySupport

/// One thing to tell the pilot: what every target receives (ntfy's title and message, the mail's
/// subject and body, the webhook's JSON) and what the outbox keeps until each target has it.
package struct Notification: Sendable, Equatable {
    /// What it is about.
    package enum Kind: String, Sendable, Equatable, CaseIterable {
        /// NOTAM changes of one refresh at one place.
        case notamChanges = "notam-changes"
        /// A SIGMET, convective SIGMET or CWA on the area or route.
        case weather
        /// The gateway itself: silent receiver, storage, broker.
        case gateway
        /// The ground station: a gateway offline, an aircraft's warning.
        case fleet
        /// Takeoff and landing.
        case flight
        /// `gatewayd notify test`.
        case test
    }

    /// One NOTAM change in a notification (the webhook's `changes`).
    package struct Change: Sendable, Equatable {
        /// new, modified, cancelled.
        package var change: String
        /// The NOTAM's number (`FDC 6/2174`, `!SLE 05/012`).
        package var number: String
        /// Its location (KSLE).
        package var location: String?
        /// info, caution, warning, critical.
        package var severity: String
        /// What kind of NOTAM in words ("TFR", "restricted area", "runway closure").
        package var kind: String
        /// Effective from / until (seconds since 1970).
        package var start: Double?
        /// Until.
        package var end: Double?
        /// The text as written.
        package var text: String
        /// The text in plain English.
        package var plain: String
    }

    /// Stable id: the same notification is the same id however often it is delivered (the
    /// receiver's deduplication key: `Idempotency-Key`, the webhook's `id`, the mail's `Message-ID`).
    package var id: String
    /// What it is about.
    package var kind: Kind
    /// One line.
    package var title: String
    /// The body: a line a change, or a few sentences.
    package var message: String
    /// info, caution, warning, critical.
    package var severity: String
    /// Where a tap goes (the cockpit page at this NOTAM or alert), nil without `page_url`.
    package var url: String?
    /// When it was made, seconds since 1970.
    package var time: Double
    /// The place it is about (an airport, "route KSLE–KPDX"), nil for the gateway's own.
    package var place: String?
    /// The NOTAM changes (NOTAM notifications only).
    package var changes: [Change] = []

    /// The severities in order, and ntfy's priority for each (1–5: min, low, default, high, urgent).
    package static let severities = ["info", "caution", "warning", "critical"]

    /// The rank of `severity` (unknown words rank as info).
    package static func rank(_ severity: String) -> Int { severities.firstIndex(of: severity) ?? 0 }

    /// ntfy's priority: info 2, caution 3, warning 4, critical 5.
    package var priority: Int { Self.rank(severity) + 2 }

    /// ntfy's tags (emoji short codes the apps show before the title).
    package var tags: [String] {
        var tags: [String]
        switch kind {
        case .notamChanges: tags = ["airplane"]
        case .weather: tags = ["cloud_with_lightning"]
        case .gateway: tags = ["satellite"]
        case .fleet: tags = ["busts_in_silhouette"]
        case .flight: tags = ["airplane_departure"]
        case .test: tags = ["white_check_mark"]
        }
        if severity == "critical" || severity == "warning" { tags.insert("warning", at: 0) }
        return tags
    }

    /// The webhook's body (and `notify list --json`'s `notification`): `{"id", "kind", "title",
    /// "message", "severity", "url", "time", "place", "changes": […]}`.
    package var json: String {
        var o = JSONWriter()
        o.add("id", id)
        o.add("kind", kind.rawValue)
        o.add("title", title)
        o.add("message", message)
        o.add("severity", severity)
        o.add("url", url)
        o.add("time", Timestamp.iso8601(time))
        o.add("place", place)
        if kind == .notamChanges {
            o.addRaw("changes", JSONWriter.array(changes.map { c in
                var w = JSONWriter()
                w.add("change", c.change)
                w.add("number", c.number)
                w.add("location", c.location)
                w.add("severity", c.severity)
                w.add("kind", c.kind)
                w.add("start", c.start.map(Timestamp.iso8601))
                w.add("end", c.end.map(Timestamp.iso8601))
                w.add("text", c.text)
                w.add("plain", c.plain)
                return w.result
            }))
        }
        return o.result
    }

    /// A notification read back from `json` (the outbox keeps that text).
    package init?(json text: String) {
        guard let o = JSONReader.object(Array(text.utf8)), let id = o["id"] as? String,
              let kind = (o["kind"] as? String).flatMap(Kind.init(rawValue:)), let title = o["title"] as? String,
              let message = o["message"] as? String, let severity = o["severity"] as? String,
              let time = (o["time"] as? String).flatMap(Timestamp.parse) else { return nil }
        self.init(id: id, kind: kind, title: title, message: message, severity: severity, url: o["url"] as? String, time: time,
                  place: o["place"] as? String)
        changes = (o["changes"] as? [Any] ?? []).compactMap { item in
            guard let c = item as? [String: Any] else { return nil }
            return Change(change: c["change"] as? String ?? "", number: c["number"] as? String ?? "", location: c["location"] as? String,
                          severity: c["severity"] as? String ?? "info", kind: c["kind"] as? String ?? "NOTAM",
                          start: (c["start"] as? String).flatMap(Timestamp.parse), end: (c["end"] as? String).flatMap(Timestamp.parse),
                          text: c["text"] as? String ?? "", plain: c["plain"] as? String ?? "")
        }
    }

    /// A notification from its parts.
    package init(id: String, kind: Kind, title: String, message: String, severity: String, url: String?, time: Double,
                 place: String?, changes: [Change] = []) {
        self.id = id
        self.kind = kind
        self.title = title
        self.message = message
        self.severity = severity
        self.url = url
        self.time = time
        self.place = place
        self.changes = changes
    }

    /// A stable id from what identifies a notification: `skygate-<kind>-<16 hex digits>`.
    package static func id(kind: Kind, identity: String) -> String {
        var h: UInt64 = 1_469_598_103_934_665_603
        for b in identity.utf8 { h = (h ^ UInt64(b)) &* 1_099_511_628_211 }
        let hex = String(h, radix: 16)
        return "skygate-\(kind.rawValue)-" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
