import GatewaySupport
import GDL90

/// Airspace alert thresholds (reference defaults, configurable).
package struct AirspaceAlertThresholds: Sendable, Equatable {
    /// Look-ahead along track and ground speed for "about to enter", seconds.
    package var lookAheadSec: Double = 120
    /// Lateral buffer for "near", NM.
    package var lateralBufferNM: Double = 3
    /// Vertical buffer above the ceiling and below the floor, feet.
    package var verticalBufferFt: Double = 500
    /// A lower level is taken only after this many seconds of calling for it (no flapping).
    package var stepDownDelay: Double = 5
    /// How long an acknowledged area stays quiet, seconds.
    package var acknowledgeFor: Double = 900
    /// Creates the reference defaults.
    package init() {}
}

/// Airspace alerts: for every active area near ownship, *inside*, *predicted to enter* within
/// the look-ahead, or *within* the lateral and vertical buffers, each at the level the area's
/// kind calls for (`AirspaceArea.levels`: a restricted area warns inside and cautions on entry,
/// a MOA cautions, a parachute area advises; `[alerts] level_<kind>` changes them). Every part
/// of a multi-part area counts; cut-outs count in their altitude band. Raised, updated and cleared with a step-down delay, one
/// stable id per area. A pure state machine: time comes in with each call.
package struct AirspaceAlertEngine: Sendable {
    struct Track: Sendable {
        var id: String
        var level: AlertLevel
        var lowerSince: Double?
        var numbers: AirspaceAlertNumbers
    }

    /// Thresholds in force.
    package var thresholds: AirspaceAlertThresholds
    private var index = AirspaceIndex([])
    private var tracks: [String: Track] = [:]
    private var acknowledged: [String: Double] = [:]

    /// Creates an engine with no areas.
    package init(thresholds: AirspaceAlertThresholds = AirspaceAlertThresholds()) {
        self.thresholds = thresholds
    }

    /// The areas watched.
    package var areas: [AirspaceArea] { index.areas }

    /// The active areas a map of the flight draws: those within `radiusNM` of `position`,
    /// nearest (by their bounds' centre) first, at most `limit`; without a position, the first
    /// `limit` active ones. Its cost follows the areas near ownship, not the store (20,000
    /// NOTAMs made every feed snapshot copy them all).
    package func displayAreas(near position: Position?, at time: Double, radiusNM: Double = 250, limit: Int = 500) -> [AirspaceArea] {
        guard let position else {
            var out: [AirspaceArea] = []
            for area in index.areas where area.isActive(at: time) {
                out.append(area)
                if out.count == limit { break }
            }
            return out
        }
        var near: [(distance: Double, index: Int)] = []
        for i in index.candidates(near: position, radiusNM: radiusNM) where index.areas[i].isActive(at: time) {
            let b = AirspaceIndex.bounds(index.areas[i])
            near.append((Geodesy.distanceNM(position, Position(latitude: (b.minLat + b.maxLat) / 2, longitude: (b.minLon + b.maxLon) / 2)), i))
        }
        if near.count > limit { near.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.index < $1.index } }
        return near.prefix(limit).map(\.index).sorted().map { index.areas[$0] }
    }

    /// Alerts active now.
    package var activeCount: Int { tracks.count }

    /// Replaces the watched areas (NOTAM refresh, FIS-B update). Alerts on areas that vanished
    /// are cleared at the next evaluation.
    package mutating func setAreas(_ areas: [AirspaceArea]) {
        index = AirspaceIndex(areas)
    }

    /// Acknowledges the alert on `areaID` (or the alert with that id): no warning for that area
    /// until `time + acknowledgeFor`.
    package mutating func acknowledge(_ idOrArea: String, at time: Double) {
        let area = tracks.first { $0.value.id == idOrArea }?.key ?? idOrArea
        acknowledged[area] = time + thresholds.acknowledgeFor
    }

    /// Evaluates every area near ownship at `time`; nil `fix` clears everything.
    package mutating func evaluate(fix: OwnshipFix?, at time: Double) -> [AlertEvent] {
        var out: [AlertEvent] = []
        var wanted: [String: (AlertLevel, AirspaceAlertNumbers, AirspaceArea)] = [:]
        if let fix {
            let plane = LocalPlane(origin: fix.position)
            let reach = fix.groundSpeedKt * thresholds.lookAheadSec / 3600 + thresholds.lateralBufferNM + 1
            for i in index.candidates(near: fix.position, radiusNM: reach) {
                let area = index.areas[i]
                guard area.isActive(at: time) else { continue }
                let g = AirspaceGeometry(shape: area.shape(atAltitudeFt: fix.altitudeFt), plane: plane, velocity: fix.velocity, lookAheadSec: thresholds.lookAheadSec)
                guard let level = level(area, geometry: g, altitudeFt: fix.altitudeFt, at: time) else { continue }
                let numbers = AirspaceAlertNumbers(
                    distanceNM: max(0, g.signedDistanceNM), timeToEntrySec: g.timeToEntrySec, floorFt: area.floorFt,
                    ceilingFt: area.ceilingFt, name: area.name, kind: area.kind)
                wanted[area.id] = (level, numbers, area)
            }
        }
        for id in wanted.keys.sorted() {
            let (level, numbers, area) = wanted[id]!
            if var track = tracks[id] {
                if level > track.level {
                    track.level = level
                    track.lowerSince = nil
                    track.numbers = numbers
                    tracks[id] = track
                    out.append(event(.updated, track: track, subject: id, at: time))
                } else if level < track.level {
                    let since = track.lowerSince ?? time
                    track.lowerSince = since
                    if time - since >= thresholds.stepDownDelay {
                        track.level = level
                        track.lowerSince = nil
                        track.numbers = numbers
                        out.append(event(.updated, track: track, subject: id, at: time))
                    }
                    tracks[id] = track
                } else {
                    track.lowerSince = nil
                    track.numbers = numbers
                    tracks[id] = track
                }
            } else {
                let track = Track(id: "airspace-\(area.id)-\(Int64(time.rounded(.down)))", level: level, lowerSince: nil, numbers: numbers)
                tracks[id] = track
                out.append(event(.raised, track: track, subject: id, at: time))
            }
        }
        for id in tracks.keys.sorted() where wanted[id] == nil {
            var track = tracks[id]!
            let since = track.lowerSince ?? time
            track.lowerSince = since
            if fix == nil || time - since >= thresholds.stepDownDelay || !index.areas.contains(where: { $0.id == id }) {
                tracks[id] = nil
                out.append(event(.cleared, track: track, subject: id, at: time))
            } else {
                tracks[id] = track
            }
        }
        return out
    }

    /// The level called for by `area` now, or nil.
    func level(_ area: AirspaceArea, geometry g: AirspaceGeometry, altitudeFt: Double?, at time: Double) -> AlertLevel? {
        // Vertical: inside the limits, or within the buffer of them. No altitude: assume inside.
        // AGL limits are raised by the area's ground elevation when known (no terrain model).
        var verticallyInside = true
        var verticallyNear = true
        if let alt = altitudeFt {
            // AGL limits: above the ground elevation when it is known (the airport table), else
            // an AGL floor is the surface and an AGL ceiling is taken as MSL (conservative).
            let ground = area.groundElevationFt.map(Double.init)
            let floor = area.floorIsAGL ? ground.flatMap { g in area.floorFt.map { Double($0) + g } } : area.floorFt.map(Double.init)
            let ceiling = area.ceilingFt.map { Double($0) + (area.ceilingIsAGL ? ground ?? 0 : 0) }
            verticallyInside = (floor.map { alt >= $0 } ?? true) && (ceiling.map { alt <= $0 } ?? true)
            verticallyNear = (floor.map { alt >= $0 - thresholds.verticalBufferFt } ?? true)
                && (ceiling.map { alt <= $0 + thresholds.verticalBufferFt } ?? true)
        }
        var found: AlertLevel? = nil
        if g.signedDistanceNM <= 0 && verticallyInside {
            found = area.levels.inside
        } else if verticallyInside, g.timeToEntrySec != nil {
            found = area.levels.entry
        }
        if found == nil, verticallyNear && g.signedDistanceNM <= thresholds.lateralBufferNM {
            found = area.levels.near
        }
        guard var level = found else { return nil }
        if let until = acknowledged[area.id], time < until, level == .warning { level = .caution }
        return level
    }

    private func event(_ change: AlertEvent.Change, track: Track, subject: String, at time: Double) -> AlertEvent {
        let n = track.numbers
        let name = n.name ?? subject
        let limits = "\(n.floorFt.map { "\($0) ft" } ?? "SFC")–\(n.ceilingFt.map { "\($0) ft" } ?? "UNL")"
        let sentence: String
        switch (change, track.level) {
        case (.cleared, _): sentence = "Clear of \(name)"
        case (_, .warning) where n.distanceNM == 0: sentence = "Inside \(name) (\(limits))"
        case (_, _) where n.timeToEntrySec.map({ $0 > 0 }) ?? false:
            sentence = "Entering \(name) (\(limits)) in \(Int(n.timeToEntrySec!.rounded())) s, \(JSONWriter.format(n.distanceNM, decimals: 1)) NM"
        default: sentence = "\(name) (\(limits)) \(JSONWriter.format(n.distanceNM, decimals: 1)) NM away"
        }
        return AlertEvent(change: change, kind: .airspace, id: track.id, subject: subject, level: track.level, time: time,
                          message: sentence, airspace: n)
    }
}
