import GatewaySupport
import GDL90

/// The gateway's deterministic core: `handle(event, at: time) -> [AlertEvent]`.
///
/// It owns ownship state, the traffic picture, receiver health and the alert engines. It never
/// reads the wall clock — time comes in with each event — so replaying a capture gives the same
/// alerts in the same order every run, and live and replay share every line of it.
package struct GatewayCore: Sendable {
    /// Tunables.
    package struct Configuration: Sendable, Equatable {
        /// Traffic picture limits (staleness, merging, ghost matching).
        package var picture = TrafficPicture.Limits()
        /// Traffic alert thresholds.
        package var traffic = TrafficAlertThresholds()
        /// Airspace alert thresholds.
        package var airspace = AirspaceAlertThresholds()
        /// Seconds between full sweeps (staleness, hysteresis timers).
        package var sweepInterval: Double = 1
        /// A fix older than this is not used (seconds).
        package var maximumFixAge: Double = 3
        /// Only count what arrives (datagrams, messages by type, rejections): no picture, no
        /// alerts. For `gatewayd decode`, which prints every message and needs neither.
        package var countsOnly = false
        /// Keep the FIS-B products each uplink made new or changed for `drainFISBProducts()` (the
        /// pipeline turns it on when its driver wants them as outputs).
        package var collectsFISBProducts = false
        /// Keep a `FlightSample` of ownship on every tick for `drainFlightSamples()` (the logbook).
        package var collectsFlightSamples = false
        /// Keep FIS-B products that arrive past their validity (counted, not dropped): a person
        /// decoding a file wants what is in it, whatever day the file's clock says (`gatewayd fisb`).
        package var keepsStaleFISBProducts = false
        /// Ownship's own FLARM and OGN tracker ids (`[ogn] ownship_ids`): beacons of these
        /// addresses are ownship's ghost, never traffic.
        package var ognOwnshipIDs: Set<UInt32> = []
        /// Creates the defaults.
        package init() {}
    }

    /// Configuration in force (set at creation; the pipeline may ask for FIS-B products).
    package internal(set) var configuration: Configuration
    /// Ownship.
    package private(set) var ownship = OwnshipState() { didSet { fixCache = nil } }
    /// The fix of `ownship` at one time, kept until ownship changes or time moves: a stream gives
    /// every report of a datagram one time, and each report would otherwise build the fix again.
    private var fixCache: (time: Double, fix: OwnshipFix?)?
    /// Traffic.
    package private(set) var picture: TrafficPicture
    /// Receiver health.
    package private(set) var health = ReceiverHealth()
    /// Counts.
    package private(set) var counters = GatewayCounters()
    /// Traffic alerting state.
    package private(set) var trafficAlerts: TrafficAlertEngine
    /// The airspace alert engine and the areas it watches.
    package private(set) var airspaceAlerts: AirspaceAlertEngine
    /// FIS-B products heard in uplinks (weather, NOTAMs, TFR graphics).
    package private(set) var fisb = FISBProductStore()
    /// Counts the changes to `fisb`'s products (one new, changed, cancelled or expired).
    package private(set) var fisbRevision = 0
    /// Counts the changes to `fisb`'s NOTAMs (a NOTAM new, changed or cancelled; any expiry).
    package private(set) var fisbNOTAMRevision = 0
    private var fisbChanged: [FISBReport] = []
    private var flightSamples: [FlightSample] = []
    /// Areas given from outside (NOTAM store, airspace files).
    private var givenAreas: [AirspaceArea] = []
    /// Areas from FIS-B NOTAM-TFR graphics.
    private var fisbAreas: [AirspaceArea] = []
    /// Notices of the core's own (areas refused), given with the picture's by `drainNotices`.
    private var notices: [String] = []
    /// Time of the latest event.
    package private(set) var now: Double?
    private var lastSweep: Double?
    private var lastFullEvaluation: Double?
    private var plane: LocalPlane?

    /// Creates a core.
    package init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.picture = TrafficPicture(limits: configuration.picture)
        self.trafficAlerts = TrafficAlertEngine(thresholds: configuration.traffic)
        self.airspaceAlerts = AirspaceAlertEngine(thresholds: configuration.airspace)
        self.ownship.maximumFixAge = configuration.maximumFixAge
        self.fisb.keepsStaleOnArrival = configuration.keepsStaleFISBProducts
    }

    /// `ownship.fix(at:)`, through the cache.
    private mutating func currentFix(at time: Double) -> OwnshipFix? {
        if let cached = fixCache, cached.time == time { return cached.fix }
        let fix = ownship.fix(at: time)
        fixCache = (time, fix)
        return fix
    }

    /// The ownship fix in use now.
    package var ownshipFix: OwnshipFix? { now.flatMap { ownship.fix(at: $0) } }

    /// Handles one event at `time` and returns the alert changes it caused, in a stable order.
    mutating func handle(_ event: GatewayEvent, at time: Double) -> [AlertEvent] {
        now = time
        count(event)
        if configuration.countsOnly { return [] }
        var out: [AlertEvent] = []
        switch event {
        case .datagram, .frameRejected, .messageRejected:
            break
        case .message(let message):
            health.lastMessage = time
            handle(message, at: time, into: &out)
        case .ogn(let beacon):
            health.lastOGN = time
            let fix = currentFix(at: time)
            let update = picture.apply(ogn: beacon, at: time, ownship: ownship, ownshipFix: fix, ownshipIDs: configuration.ognOwnshipIDs)
            counters.targetsEvicted = picture.evicted
            if case .target(let key) = update { evaluate(key, fix: fix, at: time, into: &out) }
        case .gpsFix(let raw):
            let (checked, rejected) = raw.validated()
            counters.gpsValuesRejected += rejected.count
            guard let fix = checked else { break }
            ownship.gpsdFix = fix
            ownship.gpsdTime = time
            if currentFix(at: time)?.source == .gpsd {
                ownship.flight.update(groundSpeedKt: fix.groundSpeedKt ?? 0, verticalSpeedFpm: fix.verticalSpeedFpm ?? 0,
                                      heightAboveTerrainFt: ownship.hat(at: time), at: time)
                evaluateAll(at: time, into: &out)
                out += airspaceAlerts.evaluate(fix: currentFix(at: time), at: time)
            }
        case .tick:
            if configuration.collectsFlightSamples, let sample = flightSample(at: time) { flightSamples.append(sample) }
        case .airspace(let areas):
            // The last guard: whatever a source let through, no area outside the Earth's ranges
            // reaches the alert engine's index.
            let (kept, refused) = AirspaceArea.checked(areas)
            if !refused.isEmpty { notices.append("airspace: \(refused.count) area(s) refused: " + refused.prefix(3).joined(separator: "; ").escapingControlCharacters) }
            givenAreas = kept
            airspaceAlerts.setAreas(Self.merge(given: givenAreas, fisb: fisbAreas))
            if let fix = currentFix(at: time) { out += airspaceAlerts.evaluate(fix: fix, at: time) }
        case .acknowledge(let id):
            airspaceAlerts.acknowledge(id, at: time)
        }
        if lastSweep.map({ time - $0 >= configuration.sweepInterval || time < $0 }) ?? true {
            sweep(at: time, into: &out)
        }
        counters.alertsRaised += out.lazy.filter { $0.change == .raised }.count
        return out
    }

    /// `handle(.message(message), at: time)` without wrapping the message in an event (a copy of
    /// it, for every message of a stream): what the pipeline calls for each decoded frame.
    /// `read`: an uplink message's payload read ahead (`FrameDecoder`), for the FIS-B store.
    mutating func handle(message: Message, read uplink: FISBReadUplink? = nil, at time: Double) -> [AlertEvent] {
        now = time
        counters.messageCounts[message.typeIndex] += 1
        if configuration.countsOnly { return [] }
        var out: [AlertEvent] = []
        health.lastMessage = time
        handle(message, read: uplink, at: time, into: &out)
        if lastSweep.map({ time - $0 >= configuration.sweepInterval || time < $0 }) ?? true {
            sweep(at: time, into: &out)
        }
        if !out.isEmpty { counters.alertsRaised += out.lazy.filter { $0.change == .raised }.count }
        return out
    }

    /// Sets the counts (a pipeline that took on the state of one that read a later part of its stream).
    mutating func replaceCounters(_ counters: GatewayCounters) {
        self.counters = counters
    }

    /// Counts what arrived (datagrams, bytes, messages by type, rejections by reason).
    private mutating func count(_ event: GatewayEvent) {
        switch event {
        case .datagram(let bytes):
            counters.datagrams += 1
            counters.bytes += bytes
        case .message(let message):
            counters.messageCounts[message.typeIndex] += 1
        case .ogn:
            counters.ognBeacons += 1
        case .frameRejected(let error):
            counters.errorsByReason[error.reason.rawValue, default: 0] += 1
        case .messageRejected(let error):
            counters.errorsByReason[error.reason.rawValue, default: 0] += 1
        case .gpsFix, .tick, .airspace, .acknowledge:
            break
        }
    }

    private mutating func handle(_ message: Message, read: FISBReadUplink? = nil, at time: Double, into out: inout [AlertEvent]) {
        switch message {
        case .heartbeat(let hb):
            health.lastHeartbeat = time
            health.gpsValid = hb.gpsPositionValid
            health.utcOK = hb.utcOK
        case .stratuxHeartbeat, .stratuxStatus:
            health.isStratux = true
        case .foreFlightID(let id):
            health.deviceName = id.deviceName
        case .ownship(let report):
            ownship.report = report
            ownship.reportTime = time
            ownship.address = report.address
            ownship.addressType = report.addressType
            if report.position != nil {
                ownship.flight.update(groundSpeedKt: Double(report.groundSpeedKt ?? 0), verticalSpeedFpm: Double(report.verticalSpeedFpm ?? 0),
                                      heightAboveTerrainFt: ownship.hat(at: time), at: time)
            }
            evaluateAll(at: time, into: &out)
            if airspaceAlerts.activeCount > 0 || !airspaceAlerts.areas.isEmpty {
                out += airspaceAlerts.evaluate(fix: currentFix(at: time), at: time)
            }
        case .heightAboveTerrain(let hat):
            ownship.heightAboveTerrainFt = hat.feet
            ownship.heightAboveTerrainTime = time
        case .ownshipGeoAltitude(let geo):
            ownship.geoAltitudeFt = geo.altitudeFt
            ownship.geoAltitudeTime = time
        case .traffic(let report):
            apply(report, at: time, into: &out)
        case .uplink(let uplink):
            let cancelled = fisb.counters.cancelled
            let changed = if let read { fisb.ingest(read, at: time) } else { fisb.ingest(payload: uplink.payload, at: time) }
            let cancellation = fisb.counters.cancelled != cancelled
            if !changed.isEmpty || cancellation { fisbRevision += 1 }
            if cancellation || changed.contains(where: { $0.kind.isNOTAM }) { fisbNOTAMRevision += 1 }
            if configuration.collectsFISBProducts { fisbChanged += changed }
            if cancellation || changed.contains(where: { $0.kind == .notam && !$0.geometry.isEmpty }) {
                refreshFISBAreas(at: time, into: &out)
            }
        case .basicReport(let r), .longReport(let r):
            if let report = TrafficReport(uat: r.adsb) { apply(report, at: time, into: &out) }
        default:
            break
        }
    }

    private mutating func apply(_ report: TrafficReport, at time: Double, into out: inout [AlertEvent]) {
        let fix = currentFix(at: time)
        let (update, index) = picture.applyLocating(report, at: time, ownship: ownship, ownshipFix: fix)
        if !picture.replacedPseudonyms.isEmpty {
            // An anonymous OGN sender now heard on the radio: its pseudonym's alert ends now.
            for hidden in picture.drainReplacedPseudonyms() {
                trafficAlerts.evaluate(hidden, callsign: nil, geometry: nil, at: time, ownshipTrack: fix?.trackDeg, force: true, into: &out)
            }
        }
        counters.targetsEvicted = picture.evicted
        if case .target(let key) = update {
            evaluate(key, located: index, fix: fix, at: time, into: &out)
        }
    }

    private mutating func evaluate(_ key: TargetKey, located index: Dictionary<TargetKey, Target>.Index? = nil, fix: OwnshipFix?, at time: Double,
                                   into out: inout [AlertEvent]) {
        if let fix, plane?.origin != fix.position { plane = LocalPlane(origin: fix.position) }
        let echo = picture.isEchoCandidate(key)
        let staleAfter = picture.limits.staleAfter, trust = configuration.picture.extrapolationTrust, plane = self.plane
        // The target is read where it lies in the picture: copying it out (a few hundred bytes and
        // its callsign) for every report cost more than the geometry.
        // A struct, not a tuple: a tuple result was destroyed through the runtime's generic tuple
        // and Optional witnesses (about 260 instructions, a third of an evaluation).
        let reading = picture.withTarget(key, at: index) { t -> TargetReading in
            if let fix, let plane, time - t.lastSeen <= staleAfter, t.twinOf == nil, !echo,
               !t.isFrozen(at: time), t.trustedPosition(at: time, trustLimit: trust) != nil,
               let position = t.projectedPosition(at: time),
               case let altitude = t.alertAltitudeFt(fix),
               let allowed = Self.highestLevel(ownship: fix, targetAirborne: t.airborne, targetAltitudeFt: altitude) {
                let geometry = TrafficGeometry(plane: plane, ownship: fix, targetPosition: position, velocity: t.velocity,
                                               pressureAltitudeFt: altitude, verticalSpeedFpm: t.verticalSpeedFpm)
                return TargetReading(geometry: geometry, cap: allowed, callsign: t.callsign)
            }
            return TargetReading(geometry: nil, cap: .warning, callsign: t.callsign)
        } ?? TargetReading(geometry: nil, cap: .warning, callsign: nil)
        trafficAlerts.evaluate(key, callsign: reading.callsign, geometry: reading.geometry, cap: reading.cap,
                               heldForSec: fix?.isHeld == true ? fix?.ageSec : nil, at: time, ownshipTrack: fix?.trackDeg, into: &out)
    }

    /// What `evaluate` reads of a target where it lies: its geometry against ownship (nil when it
    /// may not alert), the highest level it may raise, and its callsign.
    private struct TargetReading {
        var geometry: TrafficGeometry?
        var cap: AlertLevel
        var callsign: String?
    }

    /// The highest traffic alert level a target may raise, by who is on the ground (nil: none).
    ///
    /// As TCAS II and ATAS (DO-317B) treat ground targets: an ownship on the ground raises no
    /// caution or warning (an advisory for an airborne target, e.g. one on short final, stays);
    /// a target reporting itself on the ground raises no caution or warning for an airborne
    /// ownship unless ownship is low over it (height above terrain ≤ 500 ft where the box sends
    /// 0x09, else within 500 ft of the target's altitude: both near the same runway); two on the
    /// ground raise nothing. Ownship's state comes from `FlightState`, never from the box's bit.
    static func highestLevel(ownship fix: OwnshipFix, target: borrowing Target) -> AlertLevel? {
        highestLevel(ownship: fix, targetAirborne: target.airborne, targetAltitudeFt: target.pressureAltitudeFt)
    }

    /// `highestLevel(ownship:target:)` given the two fields of the target it reads.
    static func highestLevel(ownship fix: OwnshipFix, targetAirborne: Bool, targetAltitudeFt: Int?) -> AlertLevel? {
        switch (fix.airborne, targetAirborne) {
        case (true, true): return .warning
        case (false, true): return .advisory
        case (false, false): return nil
        case (true, false):
            let low: Bool
            if let hat = fix.heightAboveTerrainFt {
                low = hat <= 500
            } else if let own = fix.altitudeFt, let alt = targetAltitudeFt {
                low = abs(own - Double(alt)) <= 500
            } else {
                low = false
            }
            return low ? .warning : .advisory
        }
    }

    private mutating func evaluateAll(at time: Double, into out: inout [AlertEvent]) {
        guard let fix = currentFix(at: time) else { return }
        lastFullEvaluation = time
        // Each target's alert state is independent of the others', so evaluate in the
        // dictionary's order and sort only the (few) resulting events by key: the same output as
        // evaluating in key order, without sorting hundreds of keys on every ownship report.
        var events: [(TargetKey, AlertEvent)] = []
        var single: [AlertEvent] = []
        // The keys taken out first: iterating the table itself would hold it shared while each
        // evaluation reads a target in place, and every evaluation would copy the whole table.
        for key in Array(picture.targets.keys) {
            evaluate(key, fix: fix, at: time, into: &single)
            if let e = single.popLast() { events.append((key, e)) }
        }
        for key in trafficAlerts.activeKeys where picture.targets[key] == nil {
            evaluate(key, fix: fix, at: time, into: &single)
            if let e = single.popLast() { events.append((key, e)) }
        }
        events.sort { $0.0 < $1.0 }
        out += events.map(\.1)
    }

    /// Starts over with `store` as the FIS-B product store (a decoder with its own refresh timeout).
    package mutating func replaceFISBStore(_ store: FISBProductStore) { fisb = store }

    /// FIS-B reports held back waiting for parts that never came (a TFR text without its areas),
    /// once each: for the end of a capture, so nothing received is silently lost.
    mutating func flushHeldFISB() -> [FISBReport] { fisb.flushHeld() }

    /// The FIS-B products uplinks made new or changed since the last call, in arrival order
    /// (kept only with `Configuration.collectsFISBProducts`).
    mutating func drainFISBProducts() -> [FISBReport] {
        defer { fisbChanged.removeAll() }
        return fisbChanged
    }

    /// Keeps every gridded FIS-B block heard for `drainGridBlocks()` (the pipeline's `grids` output).
    mutating func collectGridBlocks() { fisb.collectsGridBlocks = true }

    /// The gridded FIS-B blocks heard since the last call (see `collectGridBlocks`).
    mutating func drainGridBlocks() -> [GridBlockReceipt] { fisb.drainGridBlocks() }

    /// The flight samples taken since the last call (kept only with `Configuration.collectsFlightSamples`).
    mutating func drainFlightSamples() -> [FlightSample] {
        defer { flightSamples.removeAll(keepingCapacity: true) }
        return flightSamples
    }

    /// Returns the notices (one log line each: an echo of ownship learned or forgotten) and forgets them.
    mutating func drainNotices() -> [String] {
        if notices.isEmpty && picture.notices.isEmpty { return [] }
        defer { notices.removeAll() }
        return notices + picture.drainNotices()
    }

    /// Rebuilds the FIS-B areas from the store (a TFR arrived, changed, was cancelled or expired).
    private mutating func refreshFISBAreas(at time: Double, into out: inout [AlertEvent]) {
        let areas = AirspaceArea.checked(fisb.all.flatMap(AirspaceArea.fromFISB)).areas
        guard areas != fisbAreas else { return }
        fisbAreas = areas
        airspaceAlerts.setAreas(Self.merge(given: givenAreas, fisb: fisbAreas))
        if let fix = currentFix(at: time) { out += airspaceAlerts.evaluate(fix: fix, at: time) }
    }

    /// Given areas and FIS-B ones; where both describe one area (same id), the given one wins:
    /// an official polygon ranks above a FIS-B graphic.
    static func merge(given: [AirspaceArea], fisb: [AirspaceArea]) -> [AirspaceArea] {
        let ids = Set(given.map { $0.id.split(separator: "#").first.map(String.init) ?? $0.id })
        return given + fisb.filter { !ids.contains($0.id.split(separator: "#").first.map(String.init) ?? $0.id) }
    }

    private mutating func sweep(at time: Double, into out: inout [AlertEvent]) {
        lastSweep = time
        _ = picture.expire(at: time)
        if !fisb.expire(at: time).isEmpty {
            fisbRevision += 1
            fisbNOTAMRevision += 1
            refreshFISBAreas(at: time, into: &out)
        }
        guard currentFix(at: time) != nil else {
            out += trafficAlerts.clearAll(at: time)
            if airspaceAlerts.activeCount > 0 { out += airspaceAlerts.evaluate(fix: nil, at: time) }
            return
        }
        // Every live target and every alert whose target vanished (hysteresis timers, staleness),
        // unless an ownship report has just done that (they arrive once a second).
        if let last = lastFullEvaluation, time >= last, time - last < configuration.sweepInterval { return }
        evaluateAll(at: time, into: &out)
    }
}
