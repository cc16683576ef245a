import GDL90

/// The traffic picture: targets by identity, merged across ADS-B and TIS-B/ADS-R, with ownship's
/// ghost and Stratux's Mode S ring absorbed. A pure value: every change comes with its time.
public struct TrafficPicture: Sendable {
    /// Tunable limits.
    public struct Limits: Sendable, Equatable {
        /// A target not heard for this long is shown stale (seconds).
        public var staleAfter: Double = 20
        /// A target not heard for this long is dropped (seconds).
        public var dropAfter: Double = 60
        /// Extrapolated positions are not trusted after this long without a real report (seconds).
        public var extrapolationTrust: Double = 10
        /// While a direct ADS-B report is this recent, TIS-B/ADS-R copies only refresh "last seen" (seconds).
        public var directPreference: Double = 5
        /// Ghost match for anonymous ownship: horizontal distance, NM.
        public var ghostDistanceNM: Double = 0.3
        /// Ghost match: altitude difference, feet.
        public var ghostAltitudeFt: Int = 250
        /// Ghost match: ground speed difference, knots.
        public var ghostSpeedKt: Int = 20
        /// Ghost match: track difference, degrees.
        public var ghostTrackDeg: Double = 20
        /// Creates the defaults.
        public init() {}
    }

    /// What one report did to the picture.
    public enum Update: Equatable, Sendable {
        /// A target was created or updated.
        case target(TargetKey)
        /// The report was ownship's own ghost (relayed back by TIS-B/ADS-R) and was dropped.
        case ownshipGhost
        /// The report was part of Stratux's Mode S ring.
        case modeSRing
    }

    /// Limits in force.
    public var limits: Limits
    /// Targets by key.
    public private(set) var targets: [TargetKey: Target] = [:]
    /// The collapsed Mode S ring, if one is showing.
    public private(set) var modeSRing: ModeSRing?
    /// Ownship ghost reports dropped.
    public private(set) var ghostsDropped = 0

    /// Creates an empty picture.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Applies one traffic report received at `time`.
    public mutating func apply(_ report: TrafficReport, at time: Double, ownship: OwnshipState, ownshipFix: OwnshipFix?) -> Update {
        if report.address <= 7 && report.callsign == "MODE S" {
            var range: Double? = nil
            if let fix = ownshipFix, let p = report.position { range = Geodesy.distanceNM(fix.position, p) }
            modeSRing = ModeSRing(rangeNM: range, pressureAltitudeFt: report.pressureAltitudeFt, lastSeen: time)
            return .modeSRing
        }
        if isOwnshipGhost(report, ownship: ownship, fix: ownshipFix) {
            ghostsDropped += 1
            return .ownshipGhost
        }
        let key = TargetKey(address: report.address, type: report.addressType)
        let direct = !report.addressType.isTISB
        if let index = targets.index(forKey: key) {
            // Updated in place: one hash lookup, no copy of the target out and back in.
            let preference = limits.directPreference
            targets.values.withUnsafeMutableElement(at: index) { existing in
                existing.reports += 1
                existing.lastSeen = time
                if !direct, let lastDirect = existing.lastDirect, time - lastDirect < preference {
                    // A TIS-B/ADS-R copy of a target heard directly just now: keep the direct data.
                    existing.mergedSources = true
                    return
                }
                if direct && existing.addressType.isTISB { existing.mergedSources = true }
                existing.absorb(report, at: time, direct: direct)
            }
        } else {
            var target = Target(
                key: key, addressType: report.addressType, callsign: nil, position: nil, pressureAltitudeFt: nil,
                groundSpeedKt: nil, trackDeg: nil, verticalSpeedFpm: nil, airborne: report.airborne,
                emitterCategory: report.emitterCategory, extrapolated: false, lastSeen: time, lastReal: time,
                lastDirect: nil, reports: 1, mergedSources: false)
            target.absorb(report, at: time, direct: direct)
            targets[key] = target
        }
        return .target(key)
    }

    /// Drops targets not heard for `dropAfter` seconds (and an old Mode S ring); returns the keys dropped.
    public mutating func expire(at time: Double) -> [TargetKey] {
        var dropped: [TargetKey] = []
        for (key, target) in targets where time - target.lastSeen > limits.dropAfter {
            dropped.append(key)
        }
        for key in dropped { targets[key] = nil }
        if let ring = modeSRing, time - ring.lastSeen > limits.staleAfter { modeSRing = nil }
        return dropped.sorted()
    }

    /// True when `target` has not been heard for `staleAfter` seconds at `time`.
    public func isStale(_ target: Target, at time: Double) -> Bool {
        time - target.lastSeen > limits.staleAfter
    }

    func isOwnshipGhost(_ report: TrafficReport, ownship: OwnshipState, fix: OwnshipFix?) -> Bool {
        if !ownship.addressIsAnonymous, let address = ownship.address {
            return report.address == address
        }
        // Anonymous ownship: a relayed copy of ourselves matches position, altitude and velocity.
        guard report.addressType.isTISB || report.addressType == .adsbSelfAssigned,
              let fix, let p = report.position else { return false }
        guard Geodesy.distanceNM(fix.position, p) <= limits.ghostDistanceNM else { return false }
        if let alt = report.pressureAltitudeFt, let own = fix.altitudeFt, abs(Double(alt) - own) > Double(limits.ghostAltitudeFt) {
            return false
        }
        if let speed = report.groundSpeedKt, abs(Double(speed) - fix.groundSpeedKt) > Double(limits.ghostSpeedKt) { return false }
        if let track = fix.trackDeg, report.trackType != .invalid {
            var d = abs(report.trackDeg - track).truncatingRemainder(dividingBy: 360)
            if d > 180 { d = 360 - d }
            if d > limits.ghostTrackDeg { return false }
        }
        return true
    }
}

extension Target {
    mutating func absorb(_ r: TrafficReport, at time: Double, direct: Bool) {
        addressType = r.addressType
        if !r.callsign.isEmpty { callsign = r.callsign }
        if let p = r.position { position = p }
        if let a = r.pressureAltitudeFt { pressureAltitudeFt = a }
        groundSpeedKt = r.groundSpeedKt ?? groundSpeedKt
        trackDeg = r.trackType == .invalid ? nil : r.trackDeg
        verticalSpeedFpm = r.verticalSpeedFpm ?? verticalSpeedFpm
        airborne = r.airborne
        emitterCategory = r.emitterCategory
        extrapolated = r.extrapolated
        if !r.extrapolated { lastReal = time }
        if direct { lastDirect = time }
    }
}

extension Dictionary.Values {
    /// Mutates the value at `index` in place (the dictionary's storage is not copied when unique).
    @inline(__always)
    mutating func withUnsafeMutableElement(at index: Dictionary.Index, _ body: (inout Value) -> Void) {
        body(&self[index])
    }
}
