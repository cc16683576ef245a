import GatewaySupport
import GDL90

/// The traffic picture: targets by identity, merged across ADS-B and TIS-B/ADS-R, with ownship's
/// ghost and Stratux's Mode S ring absorbed. A pure value: every change comes with its time.
package struct TrafficPicture: Sendable {
    /// Tunable limits.
    package struct Limits: Sendable, Equatable {
        /// A target not heard for this long is shown stale (seconds).
        package var staleAfter: Double = 20
        /// A target not heard for this long is dropped (seconds).
        package var dropAfter: Double = 60
        /// Extrapolated positions are not trusted after this long without a real report (seconds).
        package var extrapolationTrust: Double = 10
        /// While a direct ADS-B report is this recent, TIS-B/ADS-R copies only refresh "last seen" (seconds).
        package var directPreference: Double = 5
        /// Ghost match for anonymous ownship: horizontal distance, NM.
        package var ghostDistanceNM: Double = 0.3
        /// Ghost match: altitude difference, feet.
        package var ghostAltitudeFt: Int = 250
        /// Ghost match: ground speed difference, knots.
        package var ghostSpeedKt: Int = 20
        /// Ghost match: track difference, degrees.
        package var ghostTrackDeg: Double = 20
        /// Twin match (one aircraft under two addresses): horizontal distance, NM…
        package var twinDistanceNM: Double = 0.1
        /// …altitude difference, feet…
        package var twinAltitudeFt: Int = 300
        /// …ground speed difference, knots…
        package var twinSpeedKt: Int = 25
        /// …track difference, degrees.
        package var twinTrackDeg: Double = 20
        /// A twin that stops matching is unlinked after this long, seconds.
        package var twinUnlinkAfter: Double = 10
        /// A TIS-B track file lags the aircraft it copies by up to this long, seconds: while the
        /// aircraft turns, the copy's track may trail its own by its turn rate times this lag
        /// (a chase in a 45° bank showed 40°), and the twin test allows that much more.
        package var twinLagSec: Double = 6
        /// Echo of ownship (anonymous ownship, or ownship from gpsd): horizontal distance, NM.
        package var echoDistanceNM: Double = 0.05
        /// Echo: speed difference, knots.
        package var echoSpeedKt: Double = 10
        /// Echo: track difference, degrees.
        package var echoTrackDeg: Double = 15
        /// Echo: altitude difference when both are pressure altitudes, feet (else `echoGeometricAltitudeFt`).
        package var echoAltitudeFt: Double = 300
        /// Echo: altitude difference when ownship's is geometric (gpsd) and the target's pressure, feet.
        package var echoGeometricAltitudeFt: Double = 1000
        /// Echo: a target riding with ownship this long (and for `echoReports` reports) is ownship's echo, seconds.
        package var echoLearnAfter: Double = 5
        /// Echo: reports needed to learn.
        package var echoReports: Int = 3
        /// A learned echo that stays this far from ownship (NM) for `twinUnlinkAfter` is forgotten.
        package var echoForgetNM: Double = 0.5
        /// Most targets kept: a receiver hears a few hundred; a flood of invented addresses must not
        /// grow memory without bound. When full, the tenth heard longest ago is evicted (counted).
        package var maximumTargets: Int = 2_000
        /// Creates the defaults.
        package init() {}
    }

    /// What one report did to the picture.
    package enum Update: Equatable, Sendable {
        /// A target was created or updated.
        case target(TargetKey)
        /// The report was ownship's own ghost (relayed back by TIS-B/ADS-R) and was dropped.
        case ownshipGhost
        /// The report was part of Stratux's Mode S ring.
        case modeSRing
        /// A no-tracking or stealth OGN beacon of an ICAO address heard on 1090 or UAT: that
        /// target is the aircraft; the beacon is dropped (nothing of it kept or shown).
        case anonymousTwin
    }

    /// Limits in force.
    package var limits: Limits
    /// Targets by key.
    package private(set) var targets: [TargetKey: Target] = [:]
    /// The collapsed Mode S ring, if one is showing.
    package private(set) var modeSRing: ModeSRing?
    /// Ownship ghost reports dropped.
    package private(set) var ghostsDropped = 0
    /// Targets evicted because the picture was full.
    package private(set) var evicted = 0
    /// The address learned as ownship's echo (a receiver sending ownship as traffic, with ownship
    /// from gpsd or anonymous), if any.
    package private(set) var learnedEcho: TargetKey?
    private var echoCandidates: [TargetKey: (since: Double, reports: Int)] = [:]
    private var echoDivergedSince: Double?
    /// Keys of targets heard only through TIS-B/ADS-R or under non-ICAO addresses: the ones twins are looked for among.
    private var relayed: Set<TargetKey> = []
    /// Things worth one log line each (an echo learned or forgotten), drained by `drainNotices()`.
    package private(set) var notices: [String] = []
    /// The pseudonym of each stealth or no-tracking OGN sender heard (its real key → the number
    /// it is shown under, `TargetKey.Namespace.hidden`): held only here, never output, and
    /// forgotten with the target. Numbered in order of first hearing (a replay gives the same).
    private var pseudonyms: [TargetKey: UInt32] = [:]
    private var nextPseudonym: UInt32 = 1
    /// Anonymous (no-tracking, stealth) OGN beacons of an ICAO address heard on 1090 or UAT, dropped.
    package private(set) var anonymousTwinsDropped = 0
    /// Pseudonyms' targets just replaced by the ICAO target heard on 1090 or UAT: their alerts
    /// clear at once (`drainReplacedPseudonyms`), so the aircraft never has two alerts.
    package private(set) var replacedPseudonyms: [TargetKey] = []

    /// Returns the pseudonyms' targets replaced since the last call and forgets them.
    package mutating func drainReplacedPseudonyms() -> [TargetKey] {
        defer { replacedPseudonyms.removeAll() }
        return replacedPseudonyms
    }

    /// Returns the pending notices and forgets them.
    package mutating func drainNotices() -> [String] {
        defer { notices.removeAll() }
        return notices
    }

    /// Creates an empty picture.
    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Applies one traffic report received at `time`.
    package mutating func apply(_ report: TrafficReport, at time: Double, ownship: OwnshipState, ownshipFix: OwnshipFix?) -> Update {
        applyLocating(report, at: time, ownship: ownship, ownshipFix: ownshipFix).update
    }

    /// `apply`, also giving where an updated target lies in `targets` (nil for a new one): valid
    /// until the next insertion or removal, so the core reads it back without hashing its key again.
    mutating func applyLocating(_ report: TrafficReport, at time: Double, ownship: OwnshipState,
                                ownshipFix: OwnshipFix?) -> (update: Update, index: Dictionary<TargetKey, Target>.Index?) {
        if report.address <= 7 && report.callsign == "MODE S" {
            var range: Double? = nil
            if let fix = ownshipFix, let p = report.position { range = Geodesy.distanceNM(fix.position, p) }
            modeSRing = ModeSRing(rangeNM: range, pressureAltitudeFt: report.pressureAltitudeFt, lastSeen: time)
            return (.modeSRing, nil)
        }
        if isOwnshipGhost(report, ownship: ownship, fix: ownshipFix) {
            ghostsDropped += 1
            return (.ownshipGhost, nil)
        }
        let key = TargetKey(address: report.address, type: report.addressType)
        if ownship.addressIsAnonymous || ownshipFix?.source == .gpsd, learnsEcho(key, report, fix: ownshipFix, at: time) {
            ghostsDropped += 1
            return (.ownshipGhost, nil)
        }
        let direct = !report.addressType.isTISB
        if !pseudonyms.isEmpty, key.namespace == .icao, let number = pseudonyms.removeValue(forKey: key) {
            // Heard through OGN anonymously first: that pseudonym's target is this aircraft. It
            // goes (its alert clears at the next sweep); the ICAO target, heard on the radio as
            // anyone hears it, is the one target from now on, with nothing of the OGN beacons.
            let hidden = TargetKey(namespace: .hidden, address: number)
            targets[hidden] = nil
            relayed.remove(hidden)
            replacedPseudonyms.append(hidden)
            anonymousTwinsDropped += 1
        }
        let located = targets.index(forKey: key)
        if let index = located {
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
            if targets.count >= limits.maximumTargets { evictOldest() }
            var target = Target(
                key: key, addressType: report.addressType, callsign: nil, position: nil, pressureAltitudeFt: nil,
                groundSpeedKt: nil, trackDeg: nil, verticalSpeedFpm: nil, airborne: report.airborne,
                emitterCategory: report.emitterCategory, extrapolated: false, lastSeen: time, lastReal: time,
                lastDirect: nil, reports: 1, mergedSources: false)
            target.absorb(report, at: time, direct: direct)
            targets[key] = target
            if key.namespace != .icao || report.addressType.isTISB { relayed.insert(key) }
        }
        if !relayed.isEmpty { linkTwins(around: key, at: time) }
        return (.target(key), located)
    }

    /// Applies one OGN beacon taken at `time` (see `OGNBeacon`). An address in `ownshipIDs`
    /// (ownship's own FLARM or tracker ids), or ownship's ICAO address under the ICAO type, is
    /// ownship's ghost. An ICAO address is the target of that address however it was heard (one
    /// aircraft heard on 1090 and through OGN is one target, its sources both); its position is
    /// the freshest report's (a direct report newer than the beacon's own time keeps its data).
    /// Any other type is a target of its own namespace. A stealth or no-tracking sender is
    /// keyed by a pseudonym (`hidden`) and never merged.
    package mutating func apply(ogn b: OGNBeacon, at time: Double, ownship: OwnshipState, ownshipFix: OwnshipFix?,
                                ownshipIDs: Set<UInt32> = []) -> Update {
        if ownshipIDs.contains(b.address) || (b.addressType == .icao && !ownship.addressIsAnonymous && ownship.address == b.address) {
            ghostsDropped += 1
            return .ownshipGhost
        }
        var key = b.key
        if b.isAnonymous, b.addressType == .icao, let heard = targets[key], heard.heardVia.contains(.direct) || heard.heardVia.contains(.relayed) {
            // A sender that asked OGN not to track or identify it, heard on 1090 or UAT as any
            // receiver hears it: one target, the radio's, and nothing of the beacon is kept.
            anonymousTwinsDropped += 1
            return .anonymousTwin
        }
        if b.isAnonymous {
            let real = key
            let number: UInt32
            if let known = pseudonyms[real] {
                number = known
            } else {
                number = nextPseudonym
                nextPseudonym = nextPseudonym >= 0xFF_FFFF ? 1 : nextPseudonym + 1
                pseudonyms[real] = number
            }
            key = TargetKey(namespace: .hidden, address: number)
        }
        var report = b.trafficReport(address: key.address, anonymous: b.isAnonymous)
        // The picture's altitude for traffic is pressure altitude: OGN's is geometric, kept apart.
        report.pressureAltitudeFt = b.pressureAltitudeFt
        if b.isAnonymous { report.callsign = "" }
        let beaconTime = b.time(near: time)
        let identity = OGNIdentity(b, at: time)
        if let index = targets.index(forKey: key) {
            let preference = limits.directPreference
            targets.values.withUnsafeMutableElement(at: index) { existing in
                existing.reports += 1
                existing.lastSeen = time
                existing.heardVia.insert(.ogn)
                existing.ogn = identity
                existing.geometricAltitudeFt = b.altitudeFt
                existing.geometricAltitudeTime = time
                if let lastDirect = existing.lastDirect, time - lastDirect < preference, lastDirect >= beaconTime {
                    // Heard directly since the beacon was made: the direct data is the fresher.
                    existing.mergedSources = true
                    return
                }
                if existing.lastDirect != nil { existing.mergedSources = true }
                existing.absorbOGN(report, at: time)
            }
        } else {
            if targets.count >= limits.maximumTargets { evictOldest() }
            var target = Target(
                key: key, addressType: report.addressType, callsign: nil, position: nil, pressureAltitudeFt: nil,
                groundSpeedKt: nil, trackDeg: nil, verticalSpeedFpm: nil, airborne: report.airborne,
                emitterCategory: report.emitterCategory, extrapolated: false, lastSeen: time, lastReal: time,
                lastDirect: nil, reports: 1, mergedSources: false)
            target.heardVia = .ogn
            target.ogn = identity
            target.geometricAltitudeFt = b.altitudeFt
            target.geometricAltitudeTime = time
            target.absorbOGN(report, at: time)
            targets[key] = target
            if key.namespace != .icao { relayed.insert(key) }
        }
        if !relayed.isEmpty { linkTwins(around: key, at: time) }
        return .target(key)
    }

    /// Evicts the tenth of the targets heard longest ago (one sort per many insertions).
    private mutating func evictOldest() {
        let count = max(1, targets.count / 10)
        let oldest = targets.sorted { ($0.value.lastSeen, $0.key) < ($1.value.lastSeen, $1.key) }.prefix(count).map(\.key)
        for key in oldest {
            targets[key] = nil
            relayed.remove(key)
            echoCandidates[key] = nil
        }
        if oldest.contains(where: { $0.namespace == .hidden }) { forgetPseudonyms() }
        evicted += oldest.count
    }

    /// Calls `body` with the target under `key` where it lies in the table (no copy of it is
    /// made); nil when there is none. `body` only reads it.
    mutating func withTarget<R>(_ key: TargetKey, at known: Dictionary<TargetKey, Target>.Index? = nil, _ body: (inout Target) -> R) -> R? {
        guard let index = known ?? targets.index(forKey: key) else { return nil }
        var result: R? = nil
        // In place, by address: a target passed as a value is copied whole (257 bytes).
        targets.values.withUnsafeMutableElement(at: index) { result = body(&$0) }
        return result
    }

    /// True while `key` is riding with ownship (a candidate echo, or the learned one): it must not alert.
    package func isEchoCandidate(_ key: TargetKey) -> Bool { key == learnedEcho || (!echoCandidates.isEmpty && echoCandidates[key] != nil) }

    /// Ownship's echo without an ownship address: a target at ownship's position, altitude, track
    /// and speed. A candidate is never alerted; after `echoLearnAfter` seconds and `echoReports`
    /// reports its address is learned as ownship's and its reports are dropped like a ghost's,
    /// until it stays away from ownship (then it is forgotten, with a notice either way).
    private mutating func learnsEcho(_ key: TargetKey, _ r: TrafficReport, fix: OwnshipFix?, at time: Double) -> Bool {
        guard let fix, !fix.isHeld, let p = r.position else { return key == learnedEcho }
        let distance = Geodesy.distanceNM(fix.position, p)
        if key == learnedEcho {
            if distance <= limits.echoForgetNM {
                echoDivergedSince = nil
                return true
            }
            let since = echoDivergedSince ?? time
            echoDivergedSince = since
            guard time - since >= limits.twinUnlinkAfter else { return true }
            notices.append("traffic \(key) no longer rides with ownship: it is traffic again, not ownship's echo")
            learnedEcho = nil
            echoDivergedSince = nil
            return false
        }
        // Allow for a second of lag between the echo and the fix.
        var rides = distance <= limits.echoDistanceNM + fix.groundSpeedKt / 3600
        if rides, let speed = r.groundSpeedKt { rides = abs(Double(speed) - fix.groundSpeedKt) <= limits.echoSpeedKt }
        if rides, let track = fix.trackDeg, r.trackType != .invalid { rides = Self.angle(r.trackDeg, track) <= limits.echoTrackDeg }
        if rides, let alt = r.pressureAltitudeFt, let own = fix.altitudeFt {
            rides = abs(Double(alt) - own) <= (fix.altitudeIsPressure ? limits.echoAltitudeFt : limits.echoGeometricAltitudeFt)
        }
        guard rides else {
            echoCandidates[key] = nil
            return false
        }
        var candidate = echoCandidates[key] ?? (time, 0)
        candidate.reports += 1
        echoCandidates[key] = candidate
        if learnedEcho == nil, candidate.reports >= limits.echoReports, time - candidate.since >= limits.echoLearnAfter {
            learnedEcho = key
            echoCandidates[key] = nil
            targets[key] = nil
            relayed.remove(key)
            notices.append("traffic \(key) rides with ownship (within \(Int((distance * 6076).rounded())) ft, same track and speed for \(Int(time - candidate.since)) s): learned as ownship's echo, never alerted")
            return true
        }
        return false
    }

    /// Links one aircraft heard under two addresses (ADS-B and a TIS-B/ADS-R track file): the
    /// relayed copy becomes the direct one's twin (`twinOf`) when position, altitude, speed and
    /// track agree; a twin that stops matching for `twinUnlinkAfter` seconds is unlinked.
    private mutating func linkTwins(around key: TargetKey, at time: Double) {
        guard let target = targets[key], target.twinOf == nil || relayed.contains(key) else { return }
        if relayed.contains(key) {
            // A relayed copy: find the aircraft it copies among every target (direct ones first).
            if let twin = target.twinOf, let other = targets[twin], matches(target, other) {
                targets[key]?.twinMismatchSince = nil
                return
            }
            if target.twinOf != nil {
                let since = target.twinMismatchSince ?? time
                targets[key]?.twinMismatchSince = since
                if time - since >= limits.twinUnlinkAfter { targets[key]?.twinOf = nil }
                return
            }
            var best: (key: TargetKey, direct: Bool, reports: Int)?
            for (k, other) in targets where k != key && other.twinOf == nil && matches(target, other) {
                let direct = !relayed.contains(k)
                if !direct && other.reports <= target.reports { continue }
                if best == nil || (direct && !best!.direct) { best = (k, direct, other.reports) }
            }
            if let best {
                targets[key]?.twinOf = best.key
                targets[key]?.twinMismatchSince = nil
                targets[best.key]?.mergedSources = true
            }
        } else {
            // A direct report: any relayed copy sitting on it, not yet linked, is its twin.
            for k in relayed where targets[k]?.twinOf == nil {
                guard let copy = targets[k], matches(copy, target) else { continue }
                targets[k]?.twinOf = key
                targets[key]?.mergedSources = true
            }
        }
    }

    private func matches(_ a: Target, _ b: Target) -> Bool {
        guard let pa = a.position, let pb = b.position else { return false }
        // A cheap box first: 0.1 NM is 0.0017° of latitude.
        guard abs(pa.latitude - pb.latitude) < 0.01, Geodesy.distanceNM(pa, pb) <= limits.twinDistanceNM else { return false }
        if let x = a.pressureAltitudeFt, let y = b.pressureAltitudeFt, abs(x - y) > limits.twinAltitudeFt { return false }
        if let x = a.groundSpeedKt, let y = b.groundSpeedKt, abs(x - y) > limits.twinSpeedKt { return false }
        if let x = a.trackDeg, let y = b.trackDeg,
           !Self.trackTrails(copy: x, of: y, sweep: b.trackHistory.sweep(since: b.trackTime - limits.twinLagSec, current: y),
                             tolerance: limits.twinTrackDeg) { return false }
        return true
    }

    /// True when a relayed copy's `copy` track is within `tolerance` of a track the aircraft (now
    /// on `track`) flew lately: `sweep` is the arc its tracks swept over the last `twinLagSec`
    /// seconds, as offsets from `track` (`TrackHistory.sweep`). What a track file that lags the
    /// aircraft by up to that long reports; ahead of the turn is not where a lagging copy can be.
    static func trackTrails(copy: Double, of track: Double, sweep: (low: Double, high: Double), tolerance: Double) -> Bool {
        let offset = signedAngle(copy - track)
        return offset >= sweep.low - tolerance && offset <= sweep.high + tolerance
    }

    /// `degrees` in (-180, 180].
    static func signedAngle(_ degrees: Double) -> Double {
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
        return d
    }

    static func angle(_ a: Double, _ b: Double) -> Double { abs(signedAngle(a - b)) }

    /// Drops targets not heard for `dropAfter` seconds (and an old Mode S ring); returns the keys dropped.
    package mutating func expire(at time: Double) -> [TargetKey] {
        var dropped: [TargetKey] = []
        for (key, target) in targets where time - target.lastSeen > limits.dropAfter {
            dropped.append(key)
        }
        for key in dropped {
            targets[key] = nil
            relayed.remove(key)
            echoCandidates[key] = nil
        }
        if !pseudonyms.isEmpty, dropped.contains(where: { $0.namespace == .hidden }) { forgetPseudonyms() }
        if dropped.count > 16, targets.count < targets.capacity / 4 { targets = Dictionary(uniqueKeysWithValues: targets.map { ($0, $1) }) }
        if let ring = modeSRing, time - ring.lastSeen > limits.staleAfter { modeSRing = nil }
        return dropped.sorted()
    }

    /// The key a beacon's sender is held under: its own, or its pseudonym when it is anonymous
    /// (nil: an anonymous sender not in the picture).
    package func key(ofOGN b: OGNBeacon) -> TargetKey? {
        guard b.isAnonymous else { return b.key }
        return pseudonyms[b.key].map { TargetKey(namespace: .hidden, address: $0) }
    }

    /// Forgets the pseudonyms of senders no longer in the picture.
    private mutating func forgetPseudonyms() {
        pseudonyms = pseudonyms.filter { targets[TargetKey(namespace: .hidden, address: $0.value)] != nil }
    }

    /// True when `target` has not been heard for `staleAfter` seconds at `time`.
    package func isStale(_ target: Target, at time: Double) -> Bool {
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
        if let track = fix.trackDeg, report.trackType != .invalid, Self.angle(report.trackDeg, track) > limits.ghostTrackDeg { return false }
        return true
    }
}

extension Target {
    /// An OGN beacon's report (`TrafficPicture.apply(ogn:)`): as a direct report, but the
    /// address type of an ICAO target heard on 1090 stays the one 1090 gave, and a callsign only
    /// when the beacon has one (OGADSB's flight number).
    mutating func absorbOGN(_ r: TrafficReport, at time: Double) {
        let type = addressType
        let heard = heardVia
        absorb(r, at: time, direct: false)
        heardVia = heard
        if heard.contains(.direct) || heard.contains(.relayed) { addressType = type }
        lastReal = time
    }

    mutating func absorb(_ r: TrafficReport, at time: Double, direct: Bool) {
        heardVia.insert(direct ? .direct : (r.addressType.isTISB ? .relayed : .direct))
        addressType = r.addressType
        // The callsign as text only when its wire bytes change (not twice a report).
        let wire = r.callsignWire
        if wire != callsignWire {
            let text = r.callsign
            if !text.isEmpty { callsign = text }
            callsignWire = wire
        }
        if let p = r.position {
            if let old = position, old.latitude == p.latitude, old.longitude == p.longitude {
                unchangedReports += 1
            } else {
                position = p
                positionTime = time
                unchangedReports = 0
            }
        }
        if let a = r.pressureAltitudeFt { pressureAltitudeFt = a }
        groundSpeedKt = r.groundSpeedKt ?? groundSpeedKt
        let newTrack: Double? = r.trackType == .invalid ? nil : r.trackDeg
        if let new = newTrack, time > trackTime {
            trackHistory.add(new, at: time)
            trackTime = time
        }
        trackDeg = newTrack
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
