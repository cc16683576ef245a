import GatewaySupport
import GatewayDomain
import GDL90

/// Cuts ownship's samples into flights, from what ownship does: the phase comes from
/// `FlightState` (the alerts' rules: takeoff after ≥ 40 kt for 3 s or a sustained climb,
/// landing after < 30 kt for 20 s), so a touch-and-go or a go-around stays in its flight.
///
/// A flight opens at takeoff (its off-blocks time is when ownship began to move before it) or at
/// the first sample when the recording starts in the air, and closes when ownship has stood
/// still 120 s after landing (on blocks: when it stopped), at the next takeoff after a full-stop
/// landing, after a silence of 30 min on the ground, or at `finish` (ended in the air when no
/// landing came). Samples are taken in time order: one older than the last is dropped (a clock
/// stepping back, a recording given twice), never split or merged into a flight.
///
/// The invariant: at most one flight is open; every sample, alert and encounter goes to it.
package struct FlightDetector: Sendable {
    /// Stood still this long after landing (seconds): on blocks.
    package static let parkedSec = 120.0
    /// Below this ground speed ownship stands still, knots.
    package static let stillKt = 5.0
    /// A silence this long on the ground ends a flight, seconds.
    package static let silenceSec = 1_800.0
    /// Taxi points kept before a takeoff at most (an hour at 1 Hz).
    static let taxiLimit = 3_600

    /// Where the flights go, named in each (`live`, a recording's path).
    package var source: String
    private var open: Draft?
    private var lastTime = -Double.infinity
    private var lastPosition: Position?
    private var lastAltitude: Double?
    /// Ground speed ≥ `stillKt` since (nil: standing still).
    private var movingSince: Double?
    /// Standing still since (nil: moving).
    private var stillSince: Double?
    /// Ownship's ground track since it last began to move, before a flight opens.
    private var taxi: [LoggedFlight.TrackPoint] = []
    private var taxiAlerts: [String: LoggedFlight.Alert] = [:]
    /// Samples dropped for being older than the last one.
    package private(set) var outOfOrder = 0

    /// A detector whose flights name `source`.
    package init(source: String) { self.source = source }

    /// True while a flight is open.
    package var inFlight: Bool { open != nil }

    /// Takes the samples and alert changes of one output (in any order; handled in time order)
    /// and returns the flights they closed.
    package mutating func receive(samples: [FlightSample], alerts: [AlertEvent]) -> [LoggedFlight] {
        var closed: [LoggedFlight] = []
        var i = 0, j = 0
        while i < samples.count || j < alerts.count {
            if j >= alerts.count || (i < samples.count && samples[i].time <= alerts[j].time) {
                if let f = take(samples[i]) { closed.append(f) }
                i += 1
            } else {
                take(alerts[j])
                j += 1
            }
        }
        return closed
    }

    /// Ends the input: the open flight closes (ended in the air when it never landed).
    package mutating func finish() -> LoggedFlight? {
        // A new input may start at any time (a capture whose clock stepped back): nothing of this one is kept.
        defer {
            lastTime = -Double.infinity
            movingSince = nil
            stillSince = nil
        }
        guard let draft = open else { return nil }
        open = nil
        taxi.removeAll()
        // Ended in the air: the flight ends at its last position (not at the silence ticked after it).
        return draft.close(onBlock: draft.landing != nil ? (stillSince ?? lastTime) : (draft.track.last?.time ?? lastTime), source: source)
    }

    // MARK: Samples

    private mutating func take(_ s: FlightSample) -> LoggedFlight? {
        guard s.time > lastTime else {
            outOfOrder += 1
            return nil
        }
        var closed: LoggedFlight?
        if s.time - lastTime > Self.silenceSec, let draft = open, draft.landing != nil {
            closed = draft.close(onBlock: stillSince ?? lastTime, source: source)
            open = nil
        }
        lastTime = s.time
        let moving = s.groundSpeedKt >= Self.stillKt
        if moving {
            if movingSince == nil { movingSince = s.time }
            stillSince = nil
        } else {
            if stillSince == nil { stillSince = s.time }
            movingSince = nil
        }
        let point = s.position.map {
            LoggedFlight.TrackPoint(time: s.time, position: $0, pressureAltitudeFt: s.pressureAltitudeFt, geometricAltitudeFt: s.geometricAltitudeFt,
                                    groundSpeedKt: s.groundSpeedKt, trackDeg: s.trackDeg)
        }
        if let point {
            lastPosition = point.position
            lastAltitude = point.altitudeFt
        }
        switch s.phase {
        case .unknown:
            break
        case .ground:
            // The open draft is changed in place (`open!`), never copied out and back: a copy
            // would share the track's storage and copy it whole at the next append (a 16-hour
            // flight took 14 times as long to log as to replay).
            if open != nil {
                if open!.landing == nil { open!.landing = s.phaseChangeBegan ?? s.time }
                if let point { open!.append(point) }
                if let still = stillSince, s.time - still >= Self.parkedSec {
                    closed = open!.close(onBlock: still, source: source)
                    open = nil
                }
            } else {
                if moving, let point {
                    if taxi.isEmpty || stillSince == nil && taxi.last.map({ point.time - $0.time > 60 }) == true { taxi.removeAll() }
                    taxi.append(point)
                    if taxi.count > Self.taxiLimit { taxi.removeFirst(taxi.count - Self.taxiLimit) }
                } else if let still = stillSince, s.time - still >= Self.parkedSec {
                    taxi.removeAll()
                    taxiAlerts.removeAll()
                } else if let point, !taxi.isEmpty {
                    taxi.append(point)
                }
            }
        case .airborne:
            if let draft = open, draft.landing != nil {
                // A full-stop landing, then a new takeoff without parking: the first flight ends
                // where ownship last stood still (else at the new takeoff roll).
                let split = draft.lastStop ?? (s.phaseChangeBegan ?? s.time)
                closed = draft.close(onBlock: split, source: source)
                taxi = draft.track.filter { $0.time > split }
                open = nil
            }
            if open == nil {
                let takeoff = s.phaseFromFirstFix ? nil : (s.phaseChangeBegan ?? s.time)
                let taxiStart = taxi.first?.time
                let offBlock = takeoff.map { t in taxiStart.map { min($0, t) } ?? t } ?? s.time
                var draft = Draft(offBlock: offBlock, takeoff: takeoff)
                for p in taxi where p.time >= offBlock { draft.append(p) }
                for a in taxiAlerts.values.sorted(by: { $0.time < $1.time }) where a.time >= offBlock { draft.alerts[a.alertID] = a }
                taxi.removeAll()
                taxiAlerts.removeAll()
                open = draft
            }
            if open != nil {
                if let point { open!.append(point) }
                open!.observe(s.nearby, at: s.time, ownship: point)
            }
        }
        if open?.landing != nil {
            if !moving, open!.lastStopMoving { open!.lastStop = s.time }
            open!.lastStopMoving = moving
        }
        return closed
    }

    // MARK: Alerts

    private mutating func take(_ e: AlertEvent) {
        guard e.change != .cleared else { return }
        let alert = LoggedFlight.Alert(time: e.time, alertID: e.id, kind: e.kind, level: e.level, subject: e.subject, message: e.message,
                                       position: lastPosition, altitudeFt: lastAltitude)
        if open != nil {
            open!.take(alert, airspace: e.airspace)
        } else if taxiAlerts[e.id].map({ e.level > $0.level }) ?? true {
            taxiAlerts[e.id] = alert
        }
    }
}

/// A flight being recorded.
private struct Draft: Sendable {
    var offBlock: Double
    var takeoff: Double?
    var landing: Double?
    /// After landing: when ownship last came to a stop.
    var lastStop: Double?
    var lastStopMoving = true
    var track: [LoggedFlight.TrackPoint] = []
    var distanceNM = 0.0
    var maxAltitudeFt: Double?
    var maxGroundSpeedKt = 0.0
    var alerts: [String: LoggedFlight.Alert] = [:]
    var airspace: [String: LoggedFlight.AirspaceVisit] = [:]
    var closest: [String: LoggedFlight.Encounter] = [:]
    /// Each target's positions within range, for the encounter's minute.
    var targetPoints: [String: [LoggedFlight.TargetPoint]] = [:]

    init(offBlock: Double, takeoff: Double?) {
        self.offBlock = offBlock
        self.takeoff = takeoff
    }

    mutating func append(_ p: LoggedFlight.TrackPoint) {
        if let last = track.last {
            guard p.time > last.time else { return }
            distanceNM += Geodesy.distanceNM(last.position, p.position)
        }
        track.append(p)
        if let a = p.altitudeFt { maxAltitudeFt = max(maxAltitudeFt ?? a, a) }
        maxGroundSpeedKt = max(maxGroundSpeedKt, p.groundSpeedKt)
    }

    mutating func observe(_ nearby: [FlightSample.Nearby], at time: Double, ownship: LoggedFlight.TrackPoint?) {
        guard let own = ownship else { return }
        for n in nearby {
            targetPoints[n.subject, default: []].append(.init(time: time, position: n.position, altitudeFt: n.altitudeFt))
            let vertical = n.altitudeFt.flatMap { t in own.pressureAltitudeFt.map { t - Int($0.rounded()) } }
            // Within 2 NM in three dimensions (a jet 30,000 ft overhead never came close).
            let slant = LoggedFlight.slantNM(n.rangeNM, vertical)
            guard slant <= LoggedFlight.encounterRangeNM else { continue }
            if let best = closest[n.subject], LoggedFlight.slantNM(best.rangeNM, best.verticalFt) <= slant { continue }
            closest[n.subject] = .init(subject: n.subject, callsign: n.callsign ?? closest[n.subject]?.callsign, time: time, rangeNM: n.rangeNM,
                                       verticalFt: vertical, position: n.position, altitudeFt: n.altitudeFt, ownshipPosition: own.position, track: [])
        }
    }

    mutating func take(_ alert: LoggedFlight.Alert, airspace n: AirspaceAlertNumbers?) {
        if let old = alerts[alert.alertID] {
            if alert.level > old.level { alerts[alert.alertID] = alert }
        } else {
            alerts[alert.alertID] = alert
        }
        guard alert.kind == .airspace, let n else { return }
        let entered = n.distanceNM == 0 && (alert.message.hasPrefix("Inside") || alert.level == .warning)
        if var v = airspace[alert.subject] {
            v.entered = v.entered || entered
            v.closestNM = min(v.closestNM, n.distanceNM)
            v.level = max(v.level, alert.level)
            airspace[alert.subject] = v
        } else {
            airspace[alert.subject] = .init(subject: alert.subject, name: n.name ?? alert.subject, kind: n.kind?.rawValue, entered: entered,
                                            closestNM: n.distanceNM, level: alert.level, time: alert.time, position: alert.position)
        }
    }

    func close(onBlock: Double, source: String) -> LoggedFlight {
        let end = max(onBlock, offBlock)
        let kept = track.filter { $0.time <= end + 0.5 }
        var encounters = Array(closest.values)
        for k in encounters.indices {
            let t = encounters[k].time
            encounters[k].track = (targetPoints[encounters[k].subject] ?? []).filter { abs($0.time - t) <= 30 }
        }
        encounters.sort { ($0.rangeNM, $0.time) < ($1.rangeNM, $1.time) }
        var distance = 0.0
        for i in kept.indices.dropFirst() { distance += Geodesy.distanceNM(kept[i - 1].position, kept[i].position) }
        return LoggedFlight(
            id: nil, offBlock: offBlock, takeoff: takeoff, landing: landing.map { min($0, end) }, onBlock: end, departure: nil, arrival: nil,
            distanceNM: kept.count == track.count ? distanceNM : distance, maxAltitudeFt: kept.compactMap(\.altitudeFt).max() ?? maxAltitudeFt,
            maxGroundSpeedKt: kept.map(\.groundSpeedKt).max() ?? maxGroundSpeedKt, track: kept,
            alerts: alerts.values.sorted { ($0.time, $0.alertID) < ($1.time, $1.alertID) },
            encounters: encounters, airspace: airspace.values.sorted { ($0.time, $0.subject) < ($1.time, $1.subject) }, source: source)
    }
}
