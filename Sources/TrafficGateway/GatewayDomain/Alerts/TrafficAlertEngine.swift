import GatewaySupport
import GDL90

/// Reference thresholds for traffic alert levels (documented defaults, all configurable).
package struct TrafficAlertThresholds: Sendable, Equatable {
    /// Warning: time to CPA at most this many seconds…
    package var warningTimeSec: Double = 20
    /// …with predicted miss at most this many NM…
    package var warningMissNM: Double = 0.3
    /// …and vertical separation at CPA at most this many feet.
    package var warningVerticalFt: Double = 500
    /// Caution: time to CPA at most this many seconds…
    package var cautionTimeSec: Double = 40
    /// …miss at most this many NM…
    package var cautionMissNM: Double = 0.5
    /// …and vertical separation at CPA at most this many feet.
    package var cautionVerticalFt: Double = 800
    /// Advisory: traffic now within this many NM…
    package var advisoryRangeNM: Double = 2
    /// …and within this many feet vertically.
    package var advisoryVerticalFt: Double = 1000
    /// Hysteresis: an alert stays up at least this long (seconds).
    package var minimumDuration: Double = 8
    /// Hysteresis: a lower level must hold this long before the alert steps down (seconds).
    package var stepDownDelay: Double = 4
    /// Hysteresis: distances are stretched by this factor, times by `exitExtraTimeSec` and heights by
    /// `exitExtraVerticalFt` before an alert may step down, so it does not flap at a threshold.
    package var exitDistanceFactor: Double = 1.15
    /// See `exitDistanceFactor`.
    package var exitExtraTimeSec: Double = 5
    /// See `exitDistanceFactor`.
    package var exitExtraVerticalFt: Double = 150
    /// An unchanged-level alert is re-sent as `updated` when its numbers moved this much, at most
    /// every `updateInterval` seconds.
    package var updateInterval: Double = 10
    /// A target cleared less than this long ago that calls for an alert again is the same
    /// encounter: the alert keeps its id and is `updated`, not raised anew (seconds).
    package var rejoinWindow: Double = 30
    /// Creates the defaults.
    package init() {}

    func widened() -> TrafficAlertThresholds {
        var t = self
        t.warningTimeSec += exitExtraTimeSec
        t.cautionTimeSec += exitExtraTimeSec
        t.warningMissNM *= exitDistanceFactor
        t.cautionMissNM *= exitDistanceFactor
        t.advisoryRangeNM *= exitDistanceFactor
        t.warningVerticalFt += exitExtraVerticalFt
        t.cautionVerticalFt += exitExtraVerticalFt
        t.advisoryVerticalFt += exitExtraVerticalFt
        return t
    }
}

/// The geometry of one target against ownship at one instant.
package struct TrafficGeometry: Sendable, Equatable {
    /// Present range, NM.
    package var rangeNM: Double
    /// Target position relative to ownship on the local plane, NM.
    package var relative: PlanePoint
    /// Bearing from ownship, degrees true (computed when asked: most targets never need it).
    package var bearingDeg: Double { relative.bearingDeg }
    /// Target minus ownship altitude now, feet.
    package var relativeAltitudeFt: Double?
    /// Closest approach.
    package var cpa: ClosestApproach
    /// Vertical separation at CPA (rates projected), feet.
    package var cpaVerticalFt: Double?

    /// Computes the geometry of `target` seen from `ownship`.
    package init(plane: LocalPlane, ownship: OwnshipFix, targetPosition: Position, target: borrowing Target) {
        self.init(plane: plane, ownship: ownship, targetPosition: targetPosition, velocity: target.velocity,
                  pressureAltitudeFt: target.pressureAltitudeFt, verticalSpeedFpm: target.verticalSpeedFpm)
    }

    /// The geometry given the target's fields it reads: its velocity (zero without speed and
    /// track), pressure altitude and vertical speed.
    package init(plane: LocalPlane, ownship: OwnshipFix, targetPosition: Position, velocity tv: PlaneVelocity,
                pressureAltitudeFt: Int?, verticalSpeedFpm: Int?) {
        let p = plane.project(targetPosition)
        rangeNM = p.length
        relative = p
        cpa = ClosestApproach(relative: p, relativeVelocity: PlaneVelocity(east: tv.east - ownship.velocity.east, north: tv.north - ownship.velocity.north))
        if let alt = pressureAltitudeFt, let own = ownship.altitudeFt {
            let dz = Double(alt) - own
            relativeAltitudeFt = dz
            let rate = Double(verticalSpeedFpm ?? 0) - ownship.verticalSpeedFpm
            cpaVerticalFt = dz + rate * cpa.timeSec / 60
        } else {
            relativeAltitudeFt = nil
            cpaVerticalFt = nil
        }
    }

    /// The level these numbers call for under `t` (nil: no alert). Without altitude on either
    /// side, only an advisory is possible.
    package func level(_ t: TrafficAlertThresholds) -> AlertLevel? {
        guard let dz = relativeAltitudeFt, let dzCPA = cpaVerticalFt else {
            return rangeNM <= t.advisoryRangeNM ? .advisory : nil
        }
        // Vertical separation at CPA (rates projected); when not closing, CPA is now.
        let vertical = cpa.timeSec > 0 ? abs(dzCPA) : abs(dz)
        if cpa.timeSec <= t.warningTimeSec && cpa.missNM <= t.warningMissNM && vertical <= t.warningVerticalFt { return .warning }
        if cpa.timeSec <= t.cautionTimeSec && cpa.missNM <= t.cautionMissNM && vertical <= t.cautionVerticalFt { return .caution }
        if rangeNM <= t.advisoryRangeNM && abs(dz) <= t.advisoryVerticalFt { return .advisory }
        return nil
    }
}

/// Traffic alerting: closest point of approach from both velocity vectors, levels by time to
/// CPA, miss distance and vertical separation, raised/updated/cleared with hysteresis.
/// A pure state machine: `evaluate` is given the time; it never reads a clock.
package struct TrafficAlertEngine: Sendable {
    struct Track: Sendable {
        var id: String
        var level: AlertLevel
        var raisedAt: Double
        var lastChange: Double
        var lowerSince: Double?
        var lastSent: TrafficAlertNumbers
        var lastSentAt: Double
    }

    /// An alert cleared recently, remembered so that the same encounter keeps its id.
    struct Cleared: Sendable {
        var id: String
        var at: Double
    }

    /// Thresholds in force.
    package var thresholds: TrafficAlertThresholds
    private let exit: TrafficAlertThresholds
    private var tracks: [TargetKey: Track] = [:]
    private var cleared: [TargetKey: Cleared] = [:]

    /// Creates an engine.
    package init(thresholds: TrafficAlertThresholds = TrafficAlertThresholds()) {
        self.thresholds = thresholds
        self.exit = thresholds.widened()
    }

    /// Alerts active now, by target.
    package var activeCount: Int { tracks.count }

    /// The level of the alert on `key`, if any (used to set the GDL 90 alert bit on re-broadcast).
    package func level(of key: TargetKey) -> AlertLevel? { tracks[key]?.level }

    /// Evaluates one target at `time`; `geometry` nil means it cannot alert (no ownship fix,
    /// untrusted, frozen or twin position, ground filtering), which clears an active alert once
    /// hysteresis allows. `cap` is the highest level the target may have (ground rules).
    /// `heldForSec` set means ownship's fix is that old and dead-reckoned: the alert may rise but
    /// neither steps down nor clears on it (a gap in ownship reports is not a clear).
    ///
    /// One encounter keeps one id from raise to final clear, a return within `rejoinWindow`
    /// included; an alert changes at most once per whole second of event time (the first
    /// evaluation in a second decides, later ones in that second wait for the next).
    package mutating func evaluate(_ key: TargetKey, target: Target?, geometry: TrafficGeometry?, cap: AlertLevel = .warning,
                                  heldForSec: Double? = nil, at time: Double, ownshipTrack: Double?, force: Bool = false) -> AlertEvent? {
        evaluate(key, callsign: target?.callsign, geometry: geometry, cap: cap, heldForSec: heldForSec, at: time, ownshipTrack: ownshipTrack, force: force)
    }

    /// `evaluate(_:target:…)` given only what it reads of the target, its callsign (the core reads
    /// the target in place in the picture and hands this on, with no copy of the target).
    package mutating func evaluate(_ key: TargetKey, callsign: String?, geometry: TrafficGeometry?, cap: AlertLevel = .warning,
                                  heldForSec: Double? = nil, at time: Double, ownshipTrack: Double?, force: Bool = false) -> AlertEvent? {
        var out: [AlertEvent] = []
        evaluate(key, callsign: callsign, geometry: geometry, cap: cap, heldForSec: heldForSec, at: time, ownshipTrack: ownshipTrack, force: force, into: &out)
        return out.first
    }

    /// `evaluate(_:callsign:…)` appending the event, if any, to `out`: the core's form (no
    /// optional event of 270 bytes handed back for every target that calls for none).
    @inline(__always)
    package mutating func evaluate(_ key: TargetKey, callsign: String?, geometry: TrafficGeometry?, cap: AlertLevel = .warning,
                                  heldForSec: Double? = nil, at time: Double, ownshipTrack: Double?, force: Bool = false,
                                  into out: inout [AlertEvent]) {
        // The common case, most targets most of the time: no alert and none called for.
        if geometry == nil || geometry!.level(thresholds) == nil, tracks.isEmpty || tracks[key] == nil { return }
        if let event = decide(key, callsign: callsign, geometry: geometry, cap: cap, heldForSec: heldForSec, at: time,
                              ownshipTrack: ownshipTrack, force: force) {
            out.append(event)
        }
    }

    private mutating func decide(_ key: TargetKey, callsign: String?, geometry: TrafficGeometry?, cap: AlertLevel,
                                 heldForSec: Double?, at time: Double, ownshipTrack: Double?, force: Bool) -> AlertEvent? {
        let entry = geometry?.level(thresholds).map { min($0, cap) }
        func numbers(_ g: TrafficGeometry) -> TrafficAlertNumbers {
            TrafficAlertNumbers(
                rangeNM: g.rangeNM, bearingDeg: g.bearingDeg, relativeAltitudeFt: g.relativeAltitudeFt.map { Int($0.rounded()) },
                timeToCPASec: g.cpa.closing ? g.cpa.timeSec : nil, cpaMissNM: g.cpa.closing ? g.cpa.missNM : nil,
                cpaVerticalFt: g.cpa.closing ? g.cpaVerticalFt.map { Int($0.rounded()) } : nil,
                callsign: callsign, clock: ownshipTrack.map { TrafficAlertEngine.clock(bearing: g.bearingDeg, track: $0) },
                ownshipDeadReckonedSec: heldForSec)
        }
        guard var track = tracks[key] else {
            // The common case, most targets most of the time: no alert, none called for. Return
            // before building the numbers (bearing, callsign) that nobody would read.
            guard let entry, let geometry else { return nil }
            if !force, let previous = cleared[key], previous.at.rounded(.down) == time.rounded(.down) {
                // Cleared earlier in this second: the alert has changed once this second already,
                // so the comeback waits for the next one (a clear and a return in one second flicker).
                return nil
            }
            let numbers = numbers(geometry)
            if let previous = cleared.removeValue(forKey: key), time - previous.at < thresholds.rejoinWindow {
                // The same encounter back within the window: same id, updated.
                var track = Track(id: previous.id, level: entry, raisedAt: time, lastChange: time, lowerSince: nil, lastSent: numbers, lastSentAt: time)
                return send(&track, key: key, time: time, numbers: numbers, change: .updated)
            }
            if cleared.count > 256 { cleared = cleared.filter { time - $0.value.at < thresholds.rejoinWindow } }
            let id = "traffic-\(key)-\(Int64(time.rounded(.down)))"
            tracks[key] = Track(id: id, level: entry, raisedAt: time, lastChange: time, lowerSince: nil, lastSent: numbers, lastSentAt: time)
            return event(.raised, key: key, id: id, level: entry, time: time, numbers: numbers)
        }
        // Decided once a second: a second evaluation in the same second changes nothing.
        if !force, track.lastSentAt.rounded(.down) == time.rounded(.down) { return nil }
        let hold = geometry?.level(exit).map { min($0, cap) }
        let numbers = geometry.map(numbers)
        if let entry, entry > track.level {
            track.level = entry
            track.lastChange = time
            track.lowerSince = nil
            return send(&track, key: key, time: time, numbers: numbers!, change: .updated)
        }
        if !force, heldForSec != nil {
            // Ownship's fix is dead-reckoned: hold the alert as it is.
            track.lowerSince = nil
            tracks[key] = track
            return nil
        }
        if !force, let hold, hold >= track.level {
            track.lowerSince = nil
            if let numbers, time - track.lastSentAt >= thresholds.updateInterval, TrafficAlertEngine.moved(track.lastSent, numbers) {
                return send(&track, key: key, time: time, numbers: numbers, change: .updated)
            }
            tracks[key] = track
            return nil
        }
        // A lower level (or none) is called for: step down only after the delay and minimum duration.
        let since = track.lowerSince ?? time
        track.lowerSince = since
        let lower = max(entry ?? .advisory, hold ?? .advisory)
        let canStep = force || (time - since >= thresholds.stepDownDelay && time - track.lastChange >= thresholds.minimumDuration)
        guard canStep else {
            tracks[key] = track
            return nil
        }
        if hold == nil || force {
            tracks[key] = nil
            cleared[key] = Cleared(id: track.id, at: time)
            let last = numbers ?? track.lastSent
            return event(.cleared, key: key, id: track.id, level: track.level, time: time, numbers: last)
        }
        track.level = lower
        track.lastChange = time
        track.lowerSince = nil
        return send(&track, key: key, time: time, numbers: numbers ?? track.lastSent, change: .updated)
    }

    /// Clears every alert now (ownship position lost), in key order.
    package mutating func clearAll(at time: Double) -> [AlertEvent] {
        let keys = tracks.keys.sorted()
        return keys.compactMap { evaluate($0, callsign: nil, geometry: nil, at: time, ownshipTrack: nil, force: true) }
    }

    /// Keys with an active alert, sorted.
    package var activeKeys: [TargetKey] { tracks.keys.sorted() }

    private mutating func send(_ track: inout Track, key: TargetKey, time: Double, numbers: TrafficAlertNumbers, change: AlertEvent.Change) -> AlertEvent {
        track.lastSent = numbers
        track.lastSentAt = time
        tracks[key] = track
        return event(change, key: key, id: track.id, level: track.level, time: time, numbers: numbers)
    }

    private func event(_ change: AlertEvent.Change, key: TargetKey, id: String, level: AlertLevel, time: Double, numbers: TrafficAlertNumbers) -> AlertEvent {
        AlertEvent(change: change, kind: .traffic, id: id, subject: key.description, level: level, time: time,
                   message: TrafficAlertEngine.sentence(change, numbers: numbers, subject: key.description), traffic: numbers)
    }

    static func moved(_ a: TrafficAlertNumbers, _ b: TrafficAlertNumbers) -> Bool {
        if abs(a.rangeNM - b.rangeNM) >= 0.2 { return true }
        if let x = a.relativeAltitudeFt, let y = b.relativeAltitudeFt, abs(x - y) >= 200 { return true }
        if (a.timeToCPASec == nil) != (b.timeToCPASec == nil) { return true }
        if let x = a.timeToCPASec, let y = b.timeToCPASec, abs(x - y) >= 10 { return true }
        return false
    }

    /// Clock position (1–12) of `bearing` relative to `track`.
    package static func clock(bearing: Double, track: Double) -> Int {
        var rel = (bearing - track).truncatingRemainder(dividingBy: 360)
        if rel < 0 { rel += 360 }
        let c = Int((rel / 30).rounded()) % 12
        return c == 0 ? 12 : c
    }

    /// "Traffic 2 o'clock, 1.2 NM, 300 ft above, closing: 0.10 NM in 18 s (N825V)".
    static func sentence(_ change: AlertEvent.Change, numbers n: TrafficAlertNumbers, subject: String) -> String {
        let who = n.callsign.map { "\($0) (\(subject))" } ?? subject
        var where_: String
        if let clock = n.clock {
            where_ = "\(clock) o'clock"
        } else {
            where_ = "bearing \(JSONWriter.format(n.bearingDeg.rounded(), decimals: 0))°"
        }
        where_ += ", \(JSONWriter.format(n.rangeNM, decimals: 1)) NM"
        if let dz = n.relativeAltitudeFt {
            let rounded = Int((Double(dz) / 100).rounded()) * 100
            where_ += rounded == 0 ? ", same altitude" : (rounded > 0 ? ", \(rounded) ft above" : ", \(-rounded) ft below")
        } else {
            where_ += ", altitude unknown"
        }
        if let held = n.ownshipDeadReckonedSec {
            where_ += " (ownship dead-reckoned \(Int(held.rounded())) s)"
        }
        switch change {
        case .cleared:
            return "Traffic \(who) clear, \(where_)"
        case .raised, .updated:
            var s = "Traffic \(who) \(where_)"
            if let t = n.timeToCPASec, let miss = n.cpaMissNM {
                s += ", closest \(JSONWriter.format(miss, decimals: 2)) NM in \(Int(t.rounded())) s"
            } else {
                s += ", not closing"
            }
            return s
        }
    }
}
