import GatewaySupport
/// One spoken alert: the sentence a pilot hears, the vocabulary phrases it is made of, and what
/// it is about. Made by `CalloutWording`, scheduled by `CalloutScheduler`.
package struct Callout: Sendable, Equatable {
    /// What a callout is about.
    package enum Kind: String, Sendable, Codable {
        /// Another aircraft.
        case traffic
        /// An airspace area.
        case airspace
        /// The traffic source itself ("Traffic not available.").
        case system
    }

    /// The sentence, as printed: "Traffic! Two o'clock, high, one mile."
    package var text: String
    /// The vocabulary phrases spoken, in order (keys of `CalloutVocabulary`).
    package var phrases: [String]
    /// The alert's id (for a system callout, `system-traffic`).
    package var alert: String
    /// Traffic, airspace or system.
    package var kind: Kind
    /// The alert's level when spoken (a system callout: caution when lost, advisory when back).
    package var level: AlertLevel

    /// A callout.
    package init(text: String, phrases: [String], alert: String, kind: Kind, level: AlertLevel) {
        self.text = text
        self.phrases = phrases
        self.alert = alert
        self.kind = kind
        self.level = level
    }
}

/// A callout and the event time it starts being spoken.
package struct TimedCallout: Sendable, Equatable {
    /// Start, epoch seconds.
    package var time: Double
    /// What is spoken.
    package var callout: Callout

    /// A timed callout.
    package init(time: Double, callout: Callout) {
        self.time = time
        self.callout = callout
    }

    /// `HH:MM:SS  Traffic! Two o'clock, high, one mile.` (UTC).
    package var line: String {
        "\(Timestamp.timeOfDay(time))  \(callout.text)"
    }

    /// `{"time":…,"text":…,"alert":…,"kind":"traffic|airspace|system","level":…}`, time as ISO-8601 UTC.
    package var json: String {
        var w = JSONWriter()
        w.add("time", Timestamp.iso8601(time))
        w.add("text", callout.text)
        w.add("alert", callout.alert)
        w.add("kind", callout.kind.rawValue)
        w.add("level", callout.level.description)
        return w.result
    }
}
