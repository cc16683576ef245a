import GatewaySupport
import GatewayDomain
import GDL90

/// One flight of the logbook: from off blocks to on blocks, with what happened on the way. A
/// value; `FlightDetector` makes it from the pipeline's outputs, `LogbookStore` keeps it.
package struct LoggedFlight: Sendable, Equatable {
    /// One second of ownship's track.
    package struct TrackPoint: Sendable, Equatable {
        /// Epoch seconds.
        package var time: Double
        /// Position.
        package var position: Position
        /// Pressure altitude, feet.
        package var pressureAltitudeFt: Double?
        /// Geometric (GNSS) altitude, feet.
        package var geometricAltitudeFt: Double?
        /// Ground speed, knots.
        package var groundSpeedKt: Double
        /// Track, degrees true.
        package var trackDeg: Double?
        /// Creates a point.
        package init(time: Double, position: Position, pressureAltitudeFt: Double?, geometricAltitudeFt: Double?, groundSpeedKt: Double,
                    trackDeg: Double?) {
            self.time = time
            self.position = position
            self.pressureAltitudeFt = pressureAltitudeFt
            self.geometricAltitudeFt = geometricAltitudeFt
            self.groundSpeedKt = groundSpeedKt
            self.trackDeg = trackDeg
        }

        /// The altitude to draw and export: geometric (what a map's height is) when known, else pressure.
        package var altitudeFt: Double? { geometricAltitudeFt ?? pressureAltitudeFt }
    }

    /// An alert raised during the flight, at its highest level, with where ownship was.
    package struct Alert: Sendable, Equatable {
        /// When it was raised (or reached its highest level), epoch seconds.
        package var time: Double
        /// The alert's stable id.
        package var alertID: String
        /// Traffic or airspace.
        package var kind: AlertEvent.Kind
        /// Highest level reached.
        package var level: AlertLevel
        /// ICAO address or NOTAM/area id.
        package var subject: String
        /// The sentence at the highest level.
        package var message: String
        /// Ownship's position then.
        package var position: Position?
        /// Ownship's altitude then, feet.
        package var altitudeFt: Double?
        /// Creates one.
        package init(time: Double, alertID: String, kind: AlertEvent.Kind, level: AlertLevel, subject: String, message: String, position: Position?, altitudeFt: Double?) {
            self.time = time
            self.alertID = alertID
            self.kind = kind
            self.level = level
            self.subject = subject
            self.message = message
            self.position = position
            self.altitudeFt = altitudeFt
        }
    }

    /// One target's position in an encounter's minute.
    package struct TargetPoint: Sendable, Equatable {
        /// Epoch seconds.
        package var time: Double
        /// Position.
        package var position: Position
        /// Pressure altitude, feet.
        package var altitudeFt: Int?
        /// Creates one.
        package init(time: Double, position: Position, altitudeFt: Int?) {
            self.time = time
            self.position = position
            self.altitudeFt = altitudeFt
        }
    }

    /// The closest approach of one target that came within `LoggedFlight.encounterRangeNM`.
    package struct Encounter: Sendable, Equatable {
        /// The target (address as `TargetKey` describes it).
        package var subject: String
        /// Callsign, when reported.
        package var callsign: String?
        /// When it was closest, epoch seconds.
        package var time: Double
        /// Horizontal range then, NM.
        package var rangeNM: Double
        /// Target altitude minus ownship altitude then, feet (nil when either is unknown).
        package var verticalFt: Int?
        /// The target's position then.
        package var position: Position
        /// Its altitude then, feet.
        package var altitudeFt: Int?
        /// Ownship's position then.
        package var ownshipPosition: Position
        /// Its track for the minute around the closest approach (30 s either side).
        package var track: [TargetPoint]
        /// Creates one.
        package init(subject: String, callsign: String?, time: Double, rangeNM: Double, verticalFt: Int?, position: Position, altitudeFt: Int?, ownshipPosition: Position, track: [TargetPoint]) {
            self.subject = subject
            self.callsign = callsign
            self.time = time
            self.rangeNM = rangeNM
            self.verticalFt = verticalFt
            self.position = position
            self.altitudeFt = altitudeFt
            self.ownshipPosition = ownshipPosition
            self.track = track
        }
    }

    /// An area ownship entered or came near (from the airspace alerts).
    package struct AirspaceVisit: Sendable, Equatable {
        /// The area's id (NOTAM number or area id).
        package var subject: String
        /// Its name.
        package var name: String
        /// Its kind (TFR, restricted…), when known.
        package var kind: String?
        /// True when ownship was inside it.
        package var entered: Bool
        /// Closest lateral distance to its edge, NM (0 inside).
        package var closestNM: Double
        /// Highest alert level.
        package var level: AlertLevel
        /// When it was first alerted, epoch seconds.
        package var time: Double
        /// Ownship's position then.
        package var position: Position?
        /// Creates one.
        package init(subject: String, name: String, kind: String?, entered: Bool, closestNM: Double, level: AlertLevel, time: Double, position: Position?) {
            self.subject = subject
            self.name = name
            self.kind = kind
            self.entered = entered
            self.closestNM = closestNM
            self.level = level
            self.time = time
            self.position = position
        }
    }

    /// Targets that came this close (NM, in three dimensions: `slantNM`) have their closest approach kept.
    package static let encounterRangeNM = 2.0

    /// The distance in three dimensions of a target `rangeNM` away horizontally and `verticalFt`
    /// above or below (unknown: horizontal only), NM. The closest approach is the least of it.
    package static func slantNM(_ rangeNM: Double, _ verticalFt: Int?) -> Double {
        let v = Double(verticalFt ?? 0) / 6_076.12
        return (rangeNM * rangeNM + v * v).squareRoot()
    }

    /// Database id (nil until stored).
    package var id: Int64?
    /// Off blocks: ownship began to move for this flight (or the recording's first sample).
    package var offBlock: Double
    /// Takeoff (the takeoff roll reaching 40 kt), nil when the recording starts in the air.
    package var takeoff: Double?
    /// Landing (touchdown: the roll slowing below 30 kt), nil when the recording ends in the air.
    package var landing: Double?
    /// On blocks: ownship stopped after landing (or the recording's last sample).
    package var onBlock: Double
    /// Departure airport identifier (nil: none within reach, or started in the air).
    package var departure: String?
    /// Arrival airport identifier.
    package var arrival: String?
    /// Distance flown along the track, NM.
    package var distanceNM: Double
    /// Highest altitude, feet (geometric when known, else pressure).
    package var maxAltitudeFt: Double?
    /// Highest ground speed, knots.
    package var maxGroundSpeedKt: Double
    /// The track, one point a second.
    package var track: [TrackPoint]
    /// Alerts raised during the flight, in time order.
    package var alerts: [Alert]
    /// Closest approaches, closest first.
    package var encounters: [Encounter]
    /// Airspace entered or nearly entered, in time order.
    package var airspace: [AirspaceVisit]
    /// Where it came from (the recording or `live`).
    package var source: String

    /// Creates a flight.
    package init(id: Int64?, offBlock: Double, takeoff: Double?, landing: Double?, onBlock: Double, departure: String?, arrival: String?, distanceNM: Double, maxAltitudeFt: Double?, maxGroundSpeedKt: Double, track: [TrackPoint], alerts: [Alert], encounters: [Encounter], airspace: [AirspaceVisit], source: String) {
        self.id = id
        self.offBlock = offBlock
        self.takeoff = takeoff
        self.landing = landing
        self.onBlock = onBlock
        self.departure = departure
        self.arrival = arrival
        self.distanceNM = distanceNM
        self.maxAltitudeFt = maxAltitudeFt
        self.maxGroundSpeedKt = maxGroundSpeedKt
        self.track = track
        self.alerts = alerts
        self.encounters = encounters
        self.airspace = airspace
        self.source = source
    }

    /// The flight without its track and its encounters' tracks (a summary to hold many of).
    package var withoutTracks: LoggedFlight {
        var f = self
        f.track = []
        for i in f.encounters.indices { f.encounters[i].track = [] }
        return f
    }

    /// True when the recording began in the air (no takeoff seen).
    package var startedInAir: Bool { takeoff == nil }
    /// True when the recording ended in the air (no landing seen).
    package var endedInAir: Bool { landing == nil }
    /// Airborne time (takeoff, else first sample, to landing, else last sample), seconds.
    package var airborneSec: Double { (landing ?? track.last?.time ?? onBlock) - (takeoff ?? track.first?.time ?? offBlock) }
    /// Block time, seconds.
    package var blockSec: Double { onBlock - offBlock }
    /// A key that is the same however often the same recording is imported: the first second of
    /// the flight (its takeoff, else the first sample).
    package var key: String { Timestamp.iso8601((takeoff ?? track.first?.time ?? offBlock).rounded(.down)) }
}
