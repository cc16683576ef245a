import GatewaySupport
import GDL90

/// Identity of a traffic target. ADS-B and TIS-B/ADS-R reports of one ICAO address are one
/// target (so a target heard both ways is merged); anonymous and track-file addresses live in
/// their own namespaces because their numbers mean nothing across sources.
package struct TargetKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Address namespaces.
    package enum Namespace: UInt8, Sendable {
        /// ICAO 24-bit address (ADS-B ICAO, TIS-B ICAO).
        case icao = 0
        /// ADS-B self-assigned (anonymous) address.
        case anonymous = 1
        /// TIS-B track file number.
        case trackFile = 2
        /// Surface vehicles, beacons and reserved types.
        case other = 3
        /// FLARM ids (OGN): never merged with an ICAO address of the same value.
        case flarm = 4
        /// OGN trackers' ids.
        case ognTracker = 5
        /// OGN random (and unknown) address types.
        case ognRandom = 6
        /// Naviter devices' ids (OGNAVI).
        case naviter = 7
        /// FANET devices' ids.
        case fanet = 8
        /// A pseudonym given to a stealth or no-tracking OGN sender: its real address is never
        /// shown, recorded or published (`TrafficPicture`).
        case hidden = 9
    }

    /// The namespace.
    package var namespace: Namespace
    /// The 24-bit address.
    package var address: UInt32

    /// Creates a key.
    package init(namespace: Namespace, address: UInt32) {
        self.namespace = namespace
        self.address = address
    }

    /// The key of a report of this address type.
    package init(address: UInt32, type: AddressType) {
        switch type.rawValue {
        case 0, 2: namespace = .icao
        case 1: namespace = .anonymous
        case 3: namespace = .trackFile
        default: namespace = .other
        }
        self.address = address
    }

    /// Six lowercase hex digits, prefixed with `~` for non-ICAO namespaces (as readsb does);
    /// a pseudonym `anon-` and its six digits.
    package var description: String {
        let h = String(address, radix: 16)
        let six = String(repeating: "0", count: max(0, 6 - h.count)) + h
        switch namespace {
        case .icao: return six
        case .hidden: return Self.hiddenPrefix + six
        default: return "~" + six
        }
    }

    /// How a pseudonym's description begins (`anon-000001`): what the fleet's publisher and the
    /// feeds recognise an anonymous sender's alerts by.
    package static let hiddenPrefix = "anon-"

    /// True for an OGN namespace (FLARM, OGN tracker, random, Naviter, FANET, pseudonym).
    package var isOGN: Bool { namespace.rawValue >= Namespace.flarm.rawValue }

    /// Hashes the key as one 64-bit word.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(word)
    }

    /// The hash the standard library's tables use: the key's 26 bits mixed with the table's
    /// per-process seed by a 64-bit finaliser (MurmurHash3's fmix64), in place of SipHash. The
    /// core looks a key up several times a traffic report, and SipHash was a sixth of replay.
    /// The seed still differs per process and table, so a flood of invented addresses cannot aim
    /// at one bucket without knowing it.
    package func _rawHashValue(seed: Int) -> Int {
        var h = word ^ UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h &*= 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return Int(truncatingIfNeeded: h)
    }

    private var word: UInt64 { UInt64(namespace.rawValue) << 32 | UInt64(address) }

    /// Orders by namespace then address (for deterministic iteration).
    package static func < (a: TargetKey, b: TargetKey) -> Bool {
        (a.namespace.rawValue, a.address) < (b.namespace.rawValue, b.address)
    }
}

/// One aircraft or vehicle in the traffic picture.
package struct Target: Sendable, Equatable {
    /// Identity.
    package var key: TargetKey
    /// Address type of the latest report used.
    package var addressType: AddressType
    /// Callsign, if any report carried one.
    package var callsign: String?
    /// Last reported position.
    package var position: Position?
    /// Pressure altitude, feet.
    package var pressureAltitudeFt: Int?
    /// Ground speed, knots.
    package var groundSpeedKt: Int? { didSet { velocityCache.refresh(speedKt: groundSpeedKt, trackDeg: trackDeg) } }
    /// Track, degrees true (nil when the report's track is invalid).
    package var trackDeg: Double? { didSet { velocityCache.refresh(speedKt: groundSpeedKt, trackDeg: trackDeg) } }
    /// The velocity of `groundSpeedKt` along `trackDeg` (zero without both), computed when they
    /// change rather than at every alert evaluation (a sine and a cosine each).
    @inline(__always)
    package var velocity: PlaneVelocity {
        if let v = velocityCache.value(speedKt: groundSpeedKt, trackDeg: trackDeg) { return v }
        return VelocityCache.velocity(speedKt: groundSpeedKt, trackDeg: trackDeg)
    }
    var velocityCache = VelocityCache()
    /// Vertical speed, feet per minute.
    package var verticalSpeedFpm: Int?
    /// False when on the ground.
    package var airborne: Bool
    /// Emitter category.
    package var emitterCategory: UInt8
    /// True when the latest report was extrapolated by the receiver.
    package var extrapolated: Bool
    /// Time of the latest report of any kind.
    package var lastSeen: Double
    /// Time of the latest report that was not extrapolated (a real reception).
    package var lastReal: Double
    /// Time of the latest direct (ADS-B, not TIS-B) report, if any.
    package var lastDirect: Double?
    /// Reports received.
    package var reports: Int
    /// True when the target has been heard both directly and via TIS-B/ADS-R.
    package var mergedSources: Bool
    /// When the current position was first reported (a re-sent, unchanged position keeps it).
    package var positionTime: Double = 0
    /// Reports since `positionTime` that re-sent the same position.
    package var unchangedReports: Int = 0
    /// Set when this target is another target's twin (the same aircraft relayed by TIS-B/ADS-R
    /// under another address): the picture keeps both, only the other one alerts.
    package var twinOf: TargetKey? = nil
    /// Since when a twin has stopped matching the target it copies (it is unlinked after a while).
    var twinMismatchSince: Double? = nil
    /// The tracks it reported in the last seconds, at whatever spacing they came: a relayed
    /// copy lagging it is matched against them (`TrafficPicture.matches`).
    var trackHistory = TrackHistory()
    /// When `trackDeg` was last reported.
    var trackTime: Double = 0
    /// The wire bytes `callsign` was last made from.
    var callsignWire: UInt64 = 0
    /// What it was heard through (GDL 90 or SBS, TIS-B/ADS-R, OGN).
    package var heardVia: TrafficSources = []
    /// What OGN said of it (nil: never heard through OGN).
    package var ogn: OGNIdentity? = nil
    /// Altitude above mean sea level from GNSS (OGN's `A=`), feet, and when it was reported.
    package var geometricAltitudeFt: Int? = nil
    var geometricAltitudeTime: Double = 0

    /// The altitude the alert engine compares with ownship's: the pressure altitude when the
    /// target has one, else its geometric altitude (OGN) in ownship's altitude frame.
    @inline(__always)
    package func alertAltitudeFt(_ fix: OwnshipFix) -> Int? {
        if let p = pressureAltitudeFt { return p }
        guard let g = geometricAltitudeFt else { return nil }
        return fix.alertAltitude(geometricFt: g)
    }

    /// The position to trust at `time`: none once extrapolated for longer than `trustLimit` seconds.
    @inline(__always)
    package func trustedPosition(at time: Double, trustLimit: Double) -> Position? {
        if extrapolated && time - lastReal > trustLimit { return nil }
        return position
    }

    /// True when the reported position has stopped moving while the reported speed says it should
    /// move (≥ `minimumSpeedKt`) for more than `afterSec` seconds: receivers re-send a lost
    /// target's last position, and such a target is stale (faded in feeds, never alerted).
    @inline(__always)
    package func isFrozen(at time: Double, afterSec: Double = 5, minimumSpeedKt: Int = 40) -> Bool {
        Self.isFrozen(speedKt: groundSpeedKt, unchangedReports: unchangedReports, positionTime: positionTime, at: time,
                      afterSec: afterSec, minimumSpeedKt: minimumSpeedKt)
    }

    /// `isFrozen(at:)` from the three fields it reads (the core reads them in place).
    @inline(__always)
    static func isFrozen(speedKt: Int?, unchangedReports: Int, positionTime: Double, at time: Double,
                         afterSec: Double = 5, minimumSpeedKt: Int = 40) -> Bool {
        guard let speed = speedKt, speed >= minimumSpeedKt, unchangedReports > 0 else { return false }
        return time - positionTime > afterSec
    }

    /// The position at `time`: the reported one, moved along the reported track and speed when it
    /// is more than `afterSec` old (a report missed, or a position re-sent unchanged).
    @inline(__always)
    package func projectedPosition(at time: Double, afterSec: Double = 1.5) -> Position? {
        guard let position else { return nil }
        let age = time - positionTime
        guard age > afterSec, age < 60, let speed = groundSpeedKt, speed > 0, let track = trackDeg else { return position }
        return Geodesy.destination(from: position, bearingDeg: track, distanceNM: Double(speed) * age / 3600)
    }
}

/// Where a target was heard: a small set (one byte).
package struct TrafficSources: OptionSet, Sendable, Hashable {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// ADS-B or UAT directly (GDL 90, SBS from a 1090 receiver).
    package static let direct = TrafficSources(rawValue: 1)
    /// TIS-B or ADS-R.
    package static let relayed = TrafficSources(rawValue: 2)
    /// The Open Glider Network (FLARM, OGN trackers…).
    package static let ogn = TrafficSources(rawValue: 4)

    /// The names, in a fixed order (`adsb`, `tisb`, `ogn`).
    package var names: [String] {
        var out: [String] = []
        if contains(.direct) { out.append("adsb") }
        if contains(.relayed) { out.append("tisb") }
        if contains(.ogn) { out.append("ogn") }
        return out
    }
}

/// What the latest OGN beacon of a target said of who it is (compact: copied with every target).
package struct OGNIdentity: Sendable, Equatable {
    /// The address type the beacon gave.
    package var addressType: OGNBeacon.AddressType
    /// The aircraft type.
    package var aircraftType: OGNBeacon.AircraftType
    /// Stealth: shown without identity.
    package var stealth: Bool
    /// No-tracking: used for collision alerts only (in no feed, recording or fleet message).
    package var noTracking: Bool
    /// Climb, feet per minute, and turn rate, rot, of the latest beacon.
    package var turnRateRot: Float?
    /// When the latest beacon was taken.
    package var lastHeard: Double

    /// The identity a beacon gives.
    package init(_ b: OGNBeacon, at time: Double) {
        addressType = b.addressType
        aircraftType = b.aircraftType
        stealth = b.stealth
        noTracking = b.noTracking
        turnRateRot = b.turnRateRot.map(Float.init)
        lastHeard = time
    }
}

/// A transponder heard without position, which Stratux draws as a ring of eight fake targets
/// around ownship (addresses 0–7, callsign "MODE S"), collapsed into one range-only target.
package struct ModeSRing: Sendable, Equatable {
    /// Estimated range from ownship, NM (the ring's radius).
    package var rangeNM: Double?
    /// Pressure altitude reported with the ring, feet.
    package var pressureAltitudeFt: Int?
    /// Time last seen.
    package var lastSeen: Double
}

/// The velocity last computed for a target's speed and track, kept with the inputs it was made
/// from (used only while they still match). Equal to every other cache: it is derived data and
/// takes no part in comparing targets.
struct VelocityCache: Sendable, Equatable {
    private var speedKt: Int?
    private var trackDeg: Double?
    private var velocity: PlaneVelocity?

    /// The cached velocity when it was made from these inputs.
    @inline(__always)
    func value(speedKt: Int?, trackDeg: Double?) -> PlaneVelocity? {
        guard let velocity, speedKt == self.speedKt, trackDeg == self.trackDeg else { return nil }
        return velocity
    }

    /// Recomputes for new inputs.
    mutating func refresh(speedKt: Int?, trackDeg: Double?) {
        guard velocity == nil || speedKt != self.speedKt || trackDeg != self.trackDeg else { return }
        self.speedKt = speedKt
        self.trackDeg = trackDeg
        velocity = Self.velocity(speedKt: speedKt, trackDeg: trackDeg)
    }

    /// Speed along track on the plane (zero without both).
    static func velocity(speedKt: Int?, trackDeg: Double?) -> PlaneVelocity {
        guard let speedKt, let trackDeg else { return PlaneVelocity(east: 0, north: 0) }
        return PlaneVelocity(speedKt: Double(speedKt), trackDeg: trackDeg)
    }

    static func == (_: VelocityCache, _: VelocityCache) -> Bool { true }
}

/// The last eight tracks a target reported, with their times (inline: no allocation a target).
/// A TIS-B copy lags the aircraft it relays by a few seconds: in a turn its track is one the
/// aircraft flew a few seconds ago. Issue 44: a turn rate learned from consecutive reports up to
/// 3 s apart is never learned from reports 3–5 s apart (a sparse recording, a weak signal), and
/// the copy, 39° behind, alerted as a second warning; the tracks themselves, at any spacing, say
/// where the aircraft's track has been.
struct TrackHistory: Sendable, Equatable {
    private var times = SIMD8<Double>(repeating: -.infinity)
    private var tracks = SIMD8<Float>(repeating: 0)
    private var next = 0

    /// Keeps `track` (degrees true) reported at `time`.
    mutating func add(_ track: Double, at time: Double) {
        times[next] = time
        tracks[next] = Float(track)
        next = (next + 1) & 7
    }

    /// The arc of tracks flown since `since`, as offsets from `current` in degrees (negative: to
    /// the left of it), walking back from the newest kept track to the oldest along the shorter
    /// way between each two (a turn of more than 180° between two reports is not one). The track
    /// kept last before `since` counts too: the aircraft's track at `since` lies between it and the
    /// next. (0, 0) when nothing is kept.
    func sweep(since: Double, current: Double) -> (low: Double, high: Double) {
        var order = (0..<8).filter { times[$0] > -.infinity }.sorted { times[$0] > times[$1] }
        if let cut = order.firstIndex(where: { times[$0] < since }) { order = Array(order[...cut]) }
        var low = 0.0, high = 0.0, offset = 0.0
        var previous = current
        for i in order {
            let track = Double(tracks[i])
            offset += TrafficPicture.signedAngle(track - previous)
            low = min(low, offset)
            high = max(high, offset)
            previous = track
        }
        return (max(low, -180), min(high, 180))
    }
}
