import GatewaySupport
/// One spoken alert: the sentence a pilot hears, the vocabulary phrases it is made of, and what
/// it is about. Made by `CalloutWording`, scheduled by `CalloutScheduler`.
public struct Callout: Sendable, Equatable {
    /// What a callout is about.
    public enum Kind: String, Sendable, Codable {
        /// Another aircraft.
        case traffic
        /// An airspace area.
        case airspace
        /// The traffic source itself ("Traffic not available.").
        case system
    }

    /// The sentence, as printed: "Traffic! Two o'clock, high, one mile."
    public var text: String
    /// The vocabulary phrases spoken, in order (keys of `CalloutVocabulary`).
    public var phrases: [String]
    /// The alert's id (for a system callout, `system-traffic`).
    public var alert: String
    /// Traffic, airspace or system.
    public var kind: Kind
    /// The alert's level when spoken (a system callout: caution when lost, advisory when back).
    public var level: AlertLevel

    /// A callout.
    public init(text: String, phrases: [String], alert: String, kind: Kind, level: AlertLevel) {
        self.text = text
        self.phrases = phrases
        self.alert = alert
        self.kind = kind
        self.level = level
    }
}

/// A callout and the event time it starts being spoken.
public struct TimedCallout: Sendable, Equatable {
    /// Start, epoch seconds.
    public var time: Double
    /// What is spoken.
    public var callout: Callout

    /// A timed callout.
    public init(time: Double, callout: Callout) {
        self.time = time
        self.callout = callout
    }

    /// `HH:MM:SS  Traffic! Two o'clock, high, one mile.` (UTC).
    public var line: String {
        "\(Timestamp.timeOfDay(time))  \(callout.text)"
    }

    /// `{"time":…,"text":…,"alert":…,"kind":"traffic|airspace|system","level":…}`, time as ISO-8601 UTC.
    public var json: String {
        var w = JSONWriter()
        w.add("time", Timestamp.iso8601(time))
        w.add("text", callout.text)
        w.add("alert", callout.alert)
        w.add("kind", callout.kind.rawValue)
        w.add("level", callout.level.description)
        return w.result
    }
}
