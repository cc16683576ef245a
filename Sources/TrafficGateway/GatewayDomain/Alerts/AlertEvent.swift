/// How serious an alert is.
package enum AlertLevel: Int, Comparable, Sendable, CaseIterable, CustomStringConvertible, Codable {
    /// Traffic or airspace nearby: be aware.
    case advisory = 1
    /// A conflict is developing: look now.
    case caution = 2
    /// Act now.
    case warning = 3

    /// The name used in output (`advisory`, `caution`, `warning`).
    package var description: String {
        switch self {
        case .advisory: "advisory"
        case .caution: "caution"
        case .warning: "warning"
        }
    }

    /// Parses a level name.
    package init?(name: String) {
        guard let level = AlertLevel.allCases.first(where: { $0.description == name }) else { return nil }
        self = level
    }

    /// Orders by severity.
    package static func < (a: AlertLevel, b: AlertLevel) -> Bool { a.rawValue < b.rawValue }
}

/// The numbers behind a traffic alert.
package struct TrafficAlertNumbers: Sendable, Equatable {
    /// Present range, NM.
    package var rangeNM: Double
    /// Bearing from ownship, degrees true.
    package var bearingDeg: Double
    /// Target altitude minus ownship altitude now, feet (nil when either is unknown).
    package var relativeAltitudeFt: Int?
    /// Seconds to the closest point of approach (nil when not closing).
    package var timeToCPASec: Double?
    /// Predicted horizontal miss distance at CPA, NM.
    package var cpaMissNM: Double?
    /// Predicted vertical separation at CPA, feet.
    package var cpaVerticalFt: Int?
    /// Target callsign.
    package var callsign: String?
    /// Clock position relative to ownship's track (1–12), nil when ownship is not moving.
    package var clock: Int?
    /// Set when ownship's fix was this many seconds old and dead-reckoned (a gap in its reports).
    package var ownshipDeadReckonedSec: Double? = nil

    /// The numbers of a traffic alert (the engines' memberwise initializer, open to the package:
    /// the voice's sample callouts make some).
    package init(rangeNM: Double, bearingDeg: Double, relativeAltitudeFt: Int? = nil, timeToCPASec: Double? = nil, cpaMissNM: Double? = nil,
                 cpaVerticalFt: Int? = nil, callsign: String? = nil, clock: Int? = nil, ownshipDeadReckonedSec: Double? = nil) {
        self.rangeNM = rangeNM
        self.bearingDeg = bearingDeg
        self.relativeAltitudeFt = relativeAltitudeFt
        self.timeToCPASec = timeToCPASec
        self.cpaMissNM = cpaMissNM
        self.cpaVerticalFt = cpaVerticalFt
        self.callsign = callsign
        self.clock = clock
        self.ownshipDeadReckonedSec = ownshipDeadReckonedSec
    }
}

/// The numbers behind an airspace alert.
package struct AirspaceAlertNumbers: Sendable, Equatable {
    /// Horizontal distance to the area's edge (0 inside), NM.
    package var distanceNM: Double
    /// Seconds until predicted entry, nil when not predicted to enter.
    package var timeToEntrySec: Double?
    /// Floor, feet (nil: surface).
    package var floorFt: Int?
    /// Ceiling, feet (nil: unlimited).
    package var ceilingFt: Int?
    /// Name or designator of the area.
    package var name: String?
    /// What kind of airspace it is (nil: not known, e.g. an area from a GeoJSON file without one).
    package var kind: AirspaceKind? = nil
}

/// One change of one alert: raised, updated or cleared. The unit of every alert output.
package struct AlertEvent: Sendable, Equatable {
    /// What happened to the alert.
    package enum Change: String, Sendable {
        /// A new alert.
        case raised
        /// Level or numbers changed.
        case updated
        /// The alert ended.
        case cleared
    }

    /// What the alert is about.
    package enum Kind: String, Sendable {
        /// Another aircraft.
        case traffic
        /// A TFR, restricted or prohibited area, or other airspace.
        case airspace
    }

    /// What happened.
    package var change: Change
    /// Traffic or airspace.
    package var kind: Kind
    /// Stable id: the same for raise, updates and clear of one alert.
    package var id: String
    /// ICAO address (6 hex digits) or NOTAM number.
    package var subject: String
    /// Level (for `cleared`, the level it had).
    package var level: AlertLevel
    /// Event time, seconds since the epoch.
    package var time: Double
    /// One readable sentence.
    package var message: String
    /// Traffic numbers.
    package var traffic: TrafficAlertNumbers?
    /// Airspace numbers.
    package var airspace: AirspaceAlertNumbers?

    /// Creates an event.
    package init(change: Change, kind: Kind, id: String, subject: String, level: AlertLevel, time: Double, message: String,
                traffic: TrafficAlertNumbers? = nil, airspace: AirspaceAlertNumbers? = nil) {
        self.change = change
        self.kind = kind
        self.id = id
        self.subject = subject
        self.level = level
        self.time = time
        self.message = message
        self.traffic = traffic
        self.airspace = airspace
    }
}
