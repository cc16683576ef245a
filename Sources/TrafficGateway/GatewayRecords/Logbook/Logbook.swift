import GatewaySupport
import GatewayDomain
import GDL90

/// The automatic logbook: ownship's samples and the alert changes in, flights kept out. It cuts
/// flights with a `FlightDetector`, names their airports from the `AirportTable` and saves them
/// in the `LogbookStore`. `LogbookSink` drives it live and in `replay`; `FlightImport` from
/// recordings. The same samples give the same flights whichever drives it.
package struct Logbook: Sendable {
    /// Where flights are kept (nil: only returned, as `replay` without a database does).
    package let store: LogbookStore?
    /// Airports for departure and arrival (nil: left blank).
    package let airports: AirportTable?
    private var detector: FlightDetector
    /// An airport this close (NM) to where a flight took off or landed is its airport.
    package static let airportRangeNM = 3.0

    /// A logbook naming its flights' `source`.
    package init(store: LogbookStore?, airports: AirportTable?, source: String) {
        self.store = store
        self.airports = airports
        detector = FlightDetector(source: source)
    }

    /// Samples older than the last one, dropped (a clock stepping back, a recording given twice).
    package var outOfOrder: Int { detector.outOfOrder }
    /// A flight is open (ownship took off and has not come to rest).
    package var inFlight: Bool { detector.inFlight }

    /// The source named in flights from now on (the next recording of an import).
    package mutating func setSource(_ source: String) { detector.source = source }

    /// Takes one output's samples and alert changes; returns the flights it closed (kept when
    /// there is a store).
    package mutating func receive(samples: [FlightSample], alerts: [AlertEvent]) throws(GatewayError) -> [(LoggedFlight, LogbookStore.Saved?)] {
        guard !samples.isEmpty || !alerts.isEmpty else { return [] }
        var out: [(LoggedFlight, LogbookStore.Saved?)] = []
        for f in detector.receive(samples: samples, alerts: alerts) { out.append(try keep(f)) }
        return out
    }

    /// Ends the input: the open flight is closed and kept.
    package mutating func finish() throws(GatewayError) -> [(LoggedFlight, LogbookStore.Saved?)] {
        guard let f = detector.finish() else { return [] }
        return [try keep(f)]
    }

    private func keep(_ flight: LoggedFlight) throws(GatewayError) -> (LoggedFlight, LogbookStore.Saved?) {
        var f = Self.named(flight, airports: airports)
        let saved = try store?.save(f)
        switch saved {
        case .added(let id)?, .replaced(let id)?, .alreadyKept(let id)?: f.id = id
        case nil: break
        }
        return (f, saved)
    }

    /// `flight` with its departure and arrival airports: the nearest within `airportRangeNM` of
    /// where it took off and landed (none when it started or ended in the air).
    package static func named(_ flight: LoggedFlight, airports: AirportTable?) -> LoggedFlight {
        guard let airports else { return flight }
        var f = flight
        func at(_ time: Double) -> Position? {
            f.track.min { abs($0.time - time) < abs($1.time - time) }?.position
        }
        if let t = f.takeoff, let p = at(t) { f.departure = airports.nearest(to: p, withinNM: airportRangeNM)?.airport.spoken }
        if let t = f.landing, let p = at(t) { f.arrival = airports.nearest(to: p, withinNM: airportRangeNM)?.airport.spoken }
        return f
    }
}
