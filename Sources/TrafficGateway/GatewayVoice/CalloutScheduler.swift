import GatewayDomain
/// When each callout is spoken: a pure state machine fed the core's alert changes and flight
/// status with their event times, returning the callouts that start, each at its exact time.
/// It never reads a clock, so a replay's timeline is the same every run (the voice sink drives it
/// live, `replay --callouts` from a capture, the tests from a list).
///
/// Invariants:
/// - one callout at a time: the next starts no earlier than the previous one's end (its spoken
///   length, `CalloutDurations`) plus `gapSec`;
/// - an alert is queued when it is raised at a spoken level, when it escalates (a higher level, or
///   an airspace alert going from near to ahead to inside), and while a traffic alert stays a
///   warning every `repeatWarningSec`; an airspace alert is said at prediction and at entry (and
///   again on re-entry: a new alert), never again while it stays as it is unless
///   `airspaceReminderSec` is set (issue 44: a box that keeps talking about the airspace a pilot
///   is knowingly in gets switched off, and its traffic callouts with it); never for an advisory
///   unless `advisories`;
/// - a queued alert is phrased when it starts, from its latest numbers, or dropped when it cleared
///   or fell below the spoken levels; the highest level starts first (a warning never waits
///   behind a queued caution);
/// - nothing while ownship is not airborne (the queue is emptied on landing);
/// - "Traffic not available." once when GDL 90 stops for `trafficLostAfterSec` in flight,
///   "Traffic available." once when it is back.
package struct CalloutScheduler: Sendable {
    /// Tunables (`[voice]` configuration).
    package struct Settings: Sendable, Equatable {
        /// Speak advisories too.
        package var advisories = false
        /// While a traffic alert stays a warning, speak it again this often (seconds; 0: never).
        package var repeatWarningSec = 15.0
        /// While an airspace alert stays a warning, remind of it this often (seconds; 0: never, the
        /// default: said at prediction, at entry and when it escalates, as Garmin's are).
        package var airspaceReminderSec = 0.0
        /// GDL 90 missing this long in flight is "Traffic not available" (seconds).
        package var trafficLostAfterSec = 10.0
        /// Silence between two callouts (seconds).
        package var gapSec = 0.5
        /// The defaults.
        package init() {}
    }

    struct Known: Sendable {
        var event: AlertEvent
        var lastSpoken: Double?
    }

    struct Queued: Sendable {
        var alert: String
        var since: Double
    }

    /// Settings in force.
    package let settings: Settings
    /// How long callouts take to say.
    package let durations: CalloutDurations
    private var known: [String: Known] = [:]
    private var queue: [Queued] = []
    private var busyUntil = -Double.infinity
    private var airborne = false
    private var lastMessage: Double?
    private var trafficLost = false
    private var now = -Double.infinity

    /// A scheduler with nothing known yet.
    package init(settings: Settings = Settings(), durations: CalloutDurations = .estimated) {
        self.settings = settings
        self.durations = durations
    }

    /// Takes one input's outputs: the alert changes (each at its own time) and the flight status
    /// after it, at `time`. Returns the callouts that start by `time`, in order.
    package mutating func receive(_ alerts: [AlertEvent], flight: FlightStatus?, at time: Double) -> [TimedCallout] {
        var out = advance(to: min(alerts.first?.time ?? time, time))
        if let flight { setAirborne(flight.airborne) }
        for event in alerts {
            out += advance(to: event.time)
            apply(event)
        }
        out += advance(to: time)
        if let flight, let last = flight.lastMessage, last > (lastMessage ?? -.infinity) {
            lastMessage = last
            if trafficLost {
                trafficLost = false
                let lostQueued = queue.contains { $0.alert == CalloutWording.systemAlert }
                queue.removeAll { $0.alert == CalloutWording.systemAlert }
                // Lost and back before it was said: neither is said.
                if !lostQueued && airborne { queue.append(Queued(alert: CalloutWording.systemAlert + "-back", since: max(last, now))) }
                out += advance(to: time)
            }
        }
        return out
    }

    /// Passes time: starts the callouts due by `time` (a queued one when the previous ends, a
    /// warning's repeat, "Traffic not available"), each at its own time.
    package mutating func advance(to time: Double) -> [TimedCallout] {
        var out: [TimedCallout] = []
        while true {
            let lost = airborne && !trafficLost ? lastMessage.map { $0 + settings.trafficLostAfterSec } : nil
            let repeatDue = nextRepeat()
            let start = queue.isEmpty ? nil : max(busyUntil, queue.map(\.since).min()!)
            let next = [lost, repeatDue?.time, start].compactMap { $0 }.min()
            guard let next, next <= time else { break }
            now = max(now, next)
            if let lost, lost == next {
                trafficLost = true
                queue.removeAll { $0.alert == CalloutWording.systemAlert + "-back" }
                queue.append(Queued(alert: CalloutWording.systemAlert, since: lost))
            } else if let repeatDue, repeatDue.time == next {
                queue.append(Queued(alert: repeatDue.alert, since: next))
                known[repeatDue.alert]?.lastSpoken = nil  // queued: no second repeat until it is said
            } else if let start, start == next {
                if let callout = startNext(at: start) { out.append(callout) }
            }
        }
        now = max(now, time)
        return out
    }

    /// Starts every callout still queued, one after another, without passing time for anything
    /// else (no repeats, no "Traffic not available"): the end of a replayed capture.
    package mutating func flush() -> [TimedCallout] {
        var out: [TimedCallout] = []
        while let since = queue.map(\.since).min() {
            let start = max(busyUntil, since)
            now = max(now, start)
            guard let callout = startNext(at: start) else { break }
            out.append(callout)
        }
        return out
    }

    /// The event time by which `advance` next has something to do (nil: nothing pending).
    package var nextWake: Double? {
        let lost = airborne && !trafficLost ? lastMessage.map { $0 + settings.trafficLostAfterSec } : nil
        let start = queue.isEmpty ? nil : max(busyUntil, queue.map(\.since).min()!)
        return [lost, nextRepeat()?.time, start].compactMap { $0 }.min()
    }

    /// Alerts known (raised and not cleared), for tests.
    package var activeAlerts: Int { known.count }

    // MARK: Inputs

    private mutating func setAirborne(_ flying: Bool) {
        if airborne && !flying { queue.removeAll() }
        airborne = flying
    }

    private var minimumLevel: AlertLevel { settings.advisories ? .advisory : .caution }

    /// How urgent an alert is: its level, then (airspace) near < ahead < inside.
    private static func urgency(_ e: AlertEvent) -> Int {
        e.level.rawValue * 4 + (e.airspace.map(CalloutWording.stage) ?? 0)
    }

    private mutating func apply(_ event: AlertEvent) {
        if event.change == .cleared {
            known[event.id] = nil
            queue.removeAll { $0.alert == event.id }
            return
        }
        let previous = known[event.id]
        let escalated = previous.map { Self.urgency(event) > Self.urgency($0.event) } ?? true
        known[event.id] = Known(event: event, lastSpoken: previous?.lastSpoken)
        guard airborne, escalated, event.level >= minimumLevel, !queue.contains(where: { $0.alert == event.id }) else { return }
        queue.append(Queued(alert: event.id, since: event.time))
    }

    /// The warning due to be spoken again soonest.
    private func nextRepeat() -> (alert: String, time: Double)? {
        guard settings.repeatWarningSec > 0 || settings.airspaceReminderSec > 0, airborne else { return nil }
        var best: (String, Double)?
        for (id, k) in known where k.event.level == .warning && !queue.contains(where: { $0.alert == id }) {
            let every = k.event.kind == .airspace ? settings.airspaceReminderSec : settings.repeatWarningSec
            guard every > 0, let spoken = k.lastSpoken else { continue }
            let due = spoken + every
            if best.map({ due < $0.1 || (due == $0.1 && id < $0.0) }) ?? true { best = (id, due) }
        }
        return best
    }

    // MARK: Speaking

    private func priority(_ q: Queued) -> Int {
        if q.alert == CalloutWording.systemAlert { return AlertLevel.caution.rawValue * 4 + 3 }
        if q.alert == CalloutWording.systemAlert + "-back" { return 0 }
        return known[q.alert].map { Self.urgency($0.event) } ?? -1
    }

    /// Starts the most urgent callout ready at `time` (dropping those whose alert cleared or fell
    /// below the spoken levels).
    private mutating func startNext(at time: Double) -> TimedCallout? {
        while true {
            let ready = queue.indices.filter { queue[$0].since <= time }
            guard let pick = ready.max(by: { (priority(queue[$0]), -queue[$0].since) < (priority(queue[$1]), -queue[$1].since) }) else {
                return nil
            }
            let q = queue.remove(at: pick)
            let callout: Callout
            if q.alert == CalloutWording.systemAlert {
                callout = CalloutWording.system(trafficAvailable: false)
            } else if q.alert == CalloutWording.systemAlert + "-back" {
                callout = CalloutWording.system(trafficAvailable: true)
            } else {
                guard let k = known[q.alert], k.event.level >= minimumLevel, let made = CalloutWording.callout(for: k.event) else { continue }
                callout = made
                known[q.alert]?.lastSpoken = time
            }
            busyUntil = time + durations.seconds(callout.phrases) + settings.gapSec
            return TimedCallout(time: time, callout: callout)
        }
    }
}

/// How long callouts take to say: each phrase's length as rendered (`CalloutVocabulary`), or
/// an estimate from its letters when no vocabulary was rendered.
package struct CalloutDurations: Sendable, Equatable {
    /// Seconds per vocabulary phrase.
    package var phrases: [String: Double]

    /// Durations from measured phrase lengths.
    package init(phrases: [String: Double]) { self.phrases = phrases }

    /// An estimate (about 13 characters a second plus the pause a punctuation mark makes).
    package static let estimated = CalloutDurations(phrases: [:])

    /// The spoken length of `keys`, seconds.
    package func seconds(_ keys: [String]) -> Double {
        keys.reduce(0) { total, key in
            total + (phrases[key] ?? CalloutWording.pauses[key] ?? (Double(key.count) * 0.075 + 0.15))
        }
    }
}
