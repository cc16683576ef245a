import GatewaySupport

/// One weather report kept for the flight: fetched before it (aviationweather.gov) and stored,
/// or heard over FIS-B. Its text is the report as written; the page decodes it.
package struct WeatherRecord: Sendable, Equatable {
    /// What it is.
    package enum Kind: String, Sendable, CaseIterable {
        case metar = "METAR", taf = "TAF", pirep = "PIREP", sigmet = "SIGMET", airmet = "AIRMET", gAirmet = "G-AIRMET", cwa = "CWA", winds = "WINDS"

        /// How long a report stays worth keeping after its time when it says nothing itself:
        /// METAR 2 h, PIREP 2 h, winds 12 h; TAFs and advisories carry their own end.
        var defaultLifetime: Double {
            switch self {
            case .metar, .pirep: 2 * 3600
            case .winds: 12 * 3600
            case .taf: 30 * 3600
            case .sigmet, .airmet, .gAirmet, .cwa: 6 * 3600
            }
        }
    }

    /// The kind.
    package var kind: Kind
    /// The station (ICAO) of a METAR, TAF or winds record; nil for PIREPs and advisories.
    package var station: String?
    /// Observation (METAR, PIREP), issue (TAF, winds) or validity start (advisories), seconds since 1970.
    package var time: Double
    /// When it stops being worth showing.
    package var expires: Double
    /// When it was stored.
    package var received: Double
    /// Where it came from (`aviationweather.gov`).
    package var source: String
    /// The report as written.
    package var text: String
    /// Its position (a station's, a PIREP's), when known.
    package var latitude: Double?, longitude: Double?
    /// An advisory's outline as (latitude, longitude) points.
    package var outline: [[Double]]

    /// A record.
    package init(kind: Kind, station: String?, time: Double, expires: Double? = nil, received: Double, source: String, text: String,
                latitude: Double? = nil, longitude: Double? = nil, outline: [[Double]] = []) {
        self.kind = kind
        self.station = station
        self.time = time
        self.expires = expires ?? time + kind.defaultLifetime
        self.received = received
        self.source = source
        self.text = text
        self.latitude = latitude
        self.longitude = longitude
        self.outline = outline
    }

    /// Its identity: kind, station (or position), time and, for reports without a station, the
    /// start of its text (two PIREPs of one minute differ there).
    package var key: String {
        let place = station ?? latitude.map { "\(JSONWriter.format($0, decimals: 2)),\(JSONWriter.format(longitude ?? 0, decimals: 2))" } ?? "-"
        let head = station == nil ? "/" + String(text.prefix(48)) : ""
        return "\(kind.rawValue)/\(place)/\(Int64(Timestamp.clamped(time)))\(head)"
    }
}
