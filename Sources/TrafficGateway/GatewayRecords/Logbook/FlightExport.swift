import GatewaySupport
import GDL90

/// A flight written in the formats the ecosystem's tools open: KML (Google Earth, CloudAhoy),
/// GPX 1.1, IGC (the FAI flight recorder format; unsigned), GeoJSON and CSV. Written by hand
/// (XML escaped), from the one-second track; every point's time, position and altitude are
/// written so that a reader gets them back (`scripts/check_exports.py` checks with gpxpy,
/// lxml/fastkml and aerofiles).
///
/// Altitudes: KML, GPX and GeoJSON carry one altitude a point, in metres: geometric (GNSS, what
/// a map's height is) when known, else pressure altitude. IGC carries both, in metres; CSV both,
/// in feet.
package enum FlightExport: String, Sendable, CaseIterable {
    /// KML 2.2 with a `gx:Track`: times and an absolute-altitude 3D line.
    case kml
    /// GPX 1.1: the track with time and elevation, alerts and closest approaches as waypoints.
    case gpx
    /// IGC: H records, 1 Hz B records with pressure and GNSS altitude. Unsigned (no G record).
    case igc
    /// GeoJSON: the track as a LineString (times in `properties.times`), alerts and encounters as points.
    case geojson
    /// CSV: one line a second.
    case csv

    /// File name extension.
    package var fileExtension: String { rawValue }

    /// The MIME type served for downloads.
    package var contentType: String {
        switch self {
        case .kml: "application/vnd.google-earth.kml+xml"
        case .gpx: "application/gpx+xml"
        case .igc: "application/octet-stream"
        case .geojson: "application/geo+json"
        case .csv: "text/csv; charset=utf-8"
        }
    }

    /// A file name for flight `f`: `flight-3-2026-05-16.kml`.
    package func fileName(_ f: LoggedFlight) -> String {
        "flight-\(f.id.map(String.init) ?? "0")-\(Timestamp.iso8601(f.offBlock).prefix(10)).\(fileExtension)"
    }

    /// `f` in this format.
    package func render(_ f: LoggedFlight) -> [UInt8] {
        var out = OutputBuffer(capacity: max(1 << 12, f.track.count * 120))
        switch self {
        case .kml: Self.kml(f, &out)
        case .gpx: Self.gpx(f, &out)
        case .igc: Self.igc(f, &out)
        case .geojson: Self.geojson(f, &out)
        case .csv: Self.csv(f, &out)
        }
        return out.bytes
    }

    static let metresPerFoot = 0.3048

    // MARK: XML

    /// `s` with XML's five special characters escaped, and control characters (not allowed in XML 1.0) dropped.
    package static func xmlEscaped(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if ch.value < 0x20 && ch != "\t" && ch != "\n" && ch != "\r" { continue }
                out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    static func title(_ f: LoggedFlight) -> String { "\(LogbookText.route(f)) \(LogbookText.times(f))" }

    static func kml(_ f: LoggedFlight, _ o: inout OutputBuffer) {
        o.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\" xmlns:gx=\"http://www.google.com/kml/ext/2.2\">\n<Document>\n")
        o.append("<name>\(xmlEscaped(title(f)))</name>\n")
        o.append("<Style id=\"track\"><LineStyle><color>ff0000ff</color><width>3</width></LineStyle><PolyStyle><color>400000ff</color></PolyStyle></Style>\n")
        o.append("<Style id=\"target\"><LineStyle><color>ff00a5ff</color><width>2</width></LineStyle></Style>\n")
        o.append("<Style id=\"alert\"><IconStyle><color>ff0000ff</color></IconStyle></Style>\n")
        o.append("<Style id=\"encounter\"><IconStyle><color>ff00a5ff</color></IconStyle></Style>\n")
        // The flight: a gx:Track (a time each point: CloudAhoy, Google Earth's time slider).
        o.append("<Placemark>\n<name>Flight track</name>\n<styleUrl>#track</styleUrl>\n<gx:Track>\n<altitudeMode>absolute</altitudeMode>\n")
        let points = f.track.filter { $0.altitudeFt != nil }
        for p in points { o.append("<when>\(Timestamp.iso8601(p.time))</when>\n") }
        for p in points {
            o.append("<gx:coord>")
            coordinate(p.position, (p.altitudeFt ?? 0) * metresPerFoot, &o, separator: " ")
            o.append("</gx:coord>\n")
        }
        o.append("</gx:Track>\n</Placemark>\n")
        // The same path as a plain absolute-altitude 3D line (readers without gx).
        o.append("<Placemark>\n<name>Flight path</name>\n<styleUrl>#track</styleUrl>\n<LineString>\n<extrude>1</extrude>\n<altitudeMode>absolute</altitudeMode>\n<coordinates>\n")
        for p in LogbookStore.simplified(points) {
            coordinate(p.position, (p.altitudeFt ?? 0) * metresPerFoot, &o, separator: ",")
            o.append("\n")
        }
        o.append("</coordinates>\n</LineString>\n</Placemark>\n")
        o.append("<Folder>\n<name>Alerts</name>\n")
        for a in f.alerts {
            guard let p = a.position else { continue }
            o.append("<Placemark>\n<name>\(xmlEscaped("\(a.level) \(a.kind.rawValue) \(Timestamp.timeOfDay(a.time))Z"))</name>\n")
            o.append("<description>\(xmlEscaped(a.message))</description>\n<TimeStamp><when>\(Timestamp.iso8601(a.time))</when></TimeStamp>\n")
            o.append("<styleUrl>#alert</styleUrl>\n<Point><altitudeMode>absolute</altitudeMode><coordinates>")
            coordinate(p, (a.altitudeFt ?? 0) * metresPerFoot, &o, separator: ",")
            o.append("</coordinates></Point>\n</Placemark>\n")
        }
        o.append("</Folder>\n<Folder>\n<name>Closest approaches</name>\n")
        for e in f.encounters {
            let who = e.callsign ?? e.subject
            o.append("<Placemark>\n<name>\(xmlEscaped("\(who) \(JSONWriter.format(e.rangeNM, decimals: 2)) NM"))</name>\n")
            o.append("<description>\(xmlEscaped(encounterText(e)))</description>\n<TimeStamp><when>\(Timestamp.iso8601(e.time))</when></TimeStamp>\n")
            o.append("<styleUrl>#encounter</styleUrl>\n<Point><altitudeMode>absolute</altitudeMode><coordinates>")
            coordinate(e.position, Double(e.altitudeFt ?? 0) * metresPerFoot, &o, separator: ",")
            o.append("</coordinates></Point>\n</Placemark>\n")
            let track = e.track.filter { $0.altitudeFt != nil }
            guard track.count >= 2 else { continue }
            o.append("<Placemark>\n<name>\(xmlEscaped("\(who) track"))</name>\n<styleUrl>#target</styleUrl>\n<gx:Track>\n<altitudeMode>absolute</altitudeMode>\n")
            for p in track { o.append("<when>\(Timestamp.iso8601(p.time))</when>\n") }
            for p in track {
                o.append("<gx:coord>")
                coordinate(p.position, Double(p.altitudeFt ?? 0) * metresPerFoot, &o, separator: " ")
                o.append("</gx:coord>\n")
            }
            o.append("</gx:Track>\n</Placemark>\n")
        }
        o.append("</Folder>\n</Document>\n</kml>\n")
    }

    static func encounterText(_ e: LoggedFlight.Encounter) -> String {
        let vertical = e.verticalFt.map { $0 == 0 ? "same altitude" : "\(abs($0)) ft \($0 > 0 ? "above" : "below")" } ?? "altitude unknown"
        return "\(e.callsign.map { "\($0) (\(e.subject))" } ?? e.subject) closest at \(Timestamp.timeOfDay(e.time))Z: "
            + "\(JSONWriter.format(e.rangeNM, decimals: 2)) NM, \(vertical)"
    }

    /// `lon,lat,alt` (KML order), 7 decimals of a degree, 1 of a metre.
    static func coordinate(_ p: Position, _ altitudeM: Double, _ o: inout OutputBuffer, separator: StaticString) {
        o.append(p.longitude, decimals: 7)
        o.append(separator)
        o.append(p.latitude, decimals: 7)
        o.append(separator)
        o.append(altitudeM, decimals: 1)
    }

    // MARK: GPX

    static func gpx(_ f: LoggedFlight, _ o: inout OutputBuffer) {
        o.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"skygate gatewayd\" xmlns=\"http://www.topografix.com/GPX/1/1\" ")
        o.append("xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd\">\n")
        o.append("<metadata><name>\(xmlEscaped(title(f)))</name><time>\(Timestamp.iso8601(f.offBlock))</time></metadata>\n")
        func wpt(_ p: Position, _ altFt: Double?, _ time: Double, _ name: String, _ desc: String, _ type: String) {
            o.append("<wpt lat=\"")
            o.append(p.latitude, decimals: 7)
            o.append("\" lon=\"")
            o.append(p.longitude, decimals: 7)
            o.append("\">")
            if let altFt {
                o.append("<ele>")
                o.append(altFt * metresPerFoot, decimals: 1)
                o.append("</ele>")
            }
            o.append("<time>\(Timestamp.iso8601(time))</time><name>\(xmlEscaped(name))</name><desc>\(xmlEscaped(desc))</desc><type>\(type)</type></wpt>\n")
        }
        for a in f.alerts {
            guard let p = a.position else { continue }
            wpt(p, a.altitudeFt, a.time, "\(a.level) \(a.kind.rawValue)", a.message, "alert")
        }
        for e in f.encounters {
            wpt(e.position, e.altitudeFt.map(Double.init), e.time, "\(e.callsign ?? e.subject) \(JSONWriter.format(e.rangeNM, decimals: 2)) NM",
                encounterText(e), "closest approach")
        }
        o.append("<trk><name>\(xmlEscaped(title(f)))</name><trkseg>\n")
        for p in f.track {
            o.append("<trkpt lat=\"")
            o.append(p.position.latitude, decimals: 7)
            o.append("\" lon=\"")
            o.append(p.position.longitude, decimals: 7)
            o.append("\">")
            if let a = p.altitudeFt {
                o.append("<ele>")
                o.append(a * metresPerFoot, decimals: 1)
                o.append("</ele>")
            }
            o.append("<time>\(Timestamp.iso8601(p.time))</time></trkpt>\n")
        }
        o.append("</trkseg></trk>\n</gpx>\n")
    }

    // MARK: IGC

    /// IGC (FAI Technical Specification for IGC-approved GNSS flight recorders, appendix A):
    /// manufacturer `XSG` (X: not an approved recorder), H records, one B record a second with
    /// pressure altitude (ISA) and GNSS altitude in metres, no G record: unsigned, said in an L record.
    static func igc(_ f: LoggedFlight, _ o: inout OutputBuffer) {
        let first = f.track.first?.time ?? f.offBlock
        let day = Timestamp.iso8601(first)
        let ddmmyy = String(day.dropFirst(8).prefix(2)) + String(day.dropFirst(5).prefix(2)) + String(day.dropFirst(2).prefix(2))
        o.append("AXSGSKYGATE gatewayd\r\n")
        o.append("HFDTEDATE:\(ddmmyy),01\r\n")
        o.append("HFPLTPILOTINCHARGE:\r\nHFCM2CREW2:\r\nHFGTYGLIDERTYPE:\r\nHFGIDGLIDERID:\r\n")
        o.append("HFDTMGPSDATUM:WGS84\r\nHFRFWFIRMWAREVERSION:skygate\r\nHFRHWHARDWAREVERSION:gatewayd\r\n")
        o.append("HFFTYFRTYPE:skygate,gatewayd\r\nHFGPSRECEIVER:GDL90 ownship report\r\nHFPRSPRESSALTSENSOR:GDL90 ownship report,ISA\r\n")
        o.append("HFALGALTGPS:GEO\r\nHFALPALTPRESSURE:ISA\r\n")
        o.append("LXSGUNSIGNED: this file has no G record (security): not valid for FAI badges or records\r\n")
        o.append("LXSGROUTE:\(igcText(LogbookText.route(f)))\r\n")
        var lastSecond = -Int64.max
        for p in f.track {
            let second = Int64(p.time.rounded(.down))
            guard second > lastSecond else { continue }  // one B record a second
            lastSecond = second
            var sod = second % 86_400
            if sod < 0 { sod += 86_400 }
            o.append("B")
            o.appendDigits(UInt64(sod / 3600), width: 2)
            o.appendDigits(UInt64(sod / 60 % 60), width: 2)
            o.appendDigits(UInt64(sod % 60), width: 2)
            igcAngle(p.position.latitude, degreeWidth: 2, positive: "N", negative: "S", &o)
            igcAngle(p.position.longitude, degreeWidth: 3, positive: "E", negative: "W", &o)
            o.append("A")
            igcAltitude(p.pressureAltitudeFt, &o)
            igcAltitude(p.geometricAltitudeFt, &o)
            o.append("\r\n")
        }
    }

    /// IGC text: printable ASCII only.
    static func igcText(_ s: String) -> String {
        String(String.UnicodeScalarView(s.replacingOccurrences("→", "-").unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }))
    }

    /// DDMMmmm (or DDDMMmmm) and the hemisphere: degrees, minutes and thousandths of a minute.
    static func igcAngle(_ value: Double, degreeWidth: Int, positive: StaticString, negative: StaticString, _ o: inout OutputBuffer) {
        let thousandths = Int64((abs(value) * 60_000).rounded())
        o.appendDigits(UInt64(thousandths / 60_000), width: degreeWidth)
        o.appendDigits(UInt64(thousandths % 60_000), width: 5)
        o.append(value < 0 ? negative : positive)
    }

    /// Five characters of metres (`-0012`, `01234`; `00000` when unknown).
    static func igcAltitude(_ feet: Double?, _ o: inout OutputBuffer) {
        let m = Int64(((feet ?? 0) * metresPerFoot).rounded())
        let clamped = min(99_999, max(-9_999, m))
        if clamped < 0 {
            o.append("-")
            o.appendDigits(UInt64(-clamped), width: 4)
        } else {
            o.appendDigits(UInt64(clamped), width: 5)
        }
    }

    // MARK: GeoJSON and CSV

    static func geojson(_ f: LoggedFlight, _ o: inout OutputBuffer) {
        o.append("{\"type\":\"FeatureCollection\",\"features\":[\n{\"type\":\"Feature\",\"properties\":{\"kind\":\"track\",\"name\":")
        o.appendJSONQuoted(title(f))
        o.append(",\"altitude\":\"metres, geometric when known else pressure\",\"times\":[")
        let points = f.track.filter { $0.altitudeFt != nil }
        for (i, p) in points.enumerated() {
            if i > 0 { o.append(",") }
            o.appendJSONQuoted(Timestamp.iso8601(p.time))
        }
        o.append("]},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[")
        for (i, p) in points.enumerated() {
            o.append(i > 0 ? ",[" : "[")
            coordinate(p.position, (p.altitudeFt ?? 0) * metresPerFoot, &o, separator: ",")
            o.append("]")
        }
        o.append("]}}")
        for a in f.alerts {
            guard let p = a.position else { continue }
            o.append(",\n{\"type\":\"Feature\",\"properties\":{\"kind\":\"alert\",\"time\":")
            o.appendJSONQuoted(Timestamp.iso8601(a.time))
            o.append(",\"level\":\"\(a.level)\",\"alert\":\"\(a.kind.rawValue)\",\"subject\":")
            o.appendJSONQuoted(a.subject)
            o.append(",\"message\":")
            o.appendJSONQuoted(a.message)
            o.append("},\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
            coordinate(p, (a.altitudeFt ?? 0) * metresPerFoot, &o, separator: ",")
            o.append("]}}")
        }
        for e in f.encounters {
            o.append(",\n{\"type\":\"Feature\",\"properties\":{\"kind\":\"closest approach\",\"time\":")
            o.appendJSONQuoted(Timestamp.iso8601(e.time))
            o.append(",\"subject\":")
            o.appendJSONQuoted(e.subject)
            o.append(",\"callsign\":")
            if let c = e.callsign { o.appendJSONQuoted(c) } else { o.append("null") }
            o.append(",\"range_nm\":")
            o.append(e.rangeNM, decimals: 3)
            o.append(",\"vertical_ft\":")
            if let v = e.verticalFt { o.append(v) } else { o.append("null") }
            o.append("},\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
            coordinate(e.position, Double(e.altitudeFt ?? 0) * metresPerFoot, &o, separator: ",")
            o.append("]}}")
        }
        o.append("\n]}\n")
    }

    static func csv(_ f: LoggedFlight, _ o: inout OutputBuffer) {
        o.append("time_utc,epoch_s,latitude,longitude,pressure_altitude_ft,geometric_altitude_ft,ground_speed_kt,track_deg\r\n")
        for p in f.track {
            o.append(Timestamp.iso8601(p.time))
            o.append(",")
            o.append(p.time, decimals: 3)
            o.append(",")
            o.append(p.position.latitude, decimals: 7)
            o.append(",")
            o.append(p.position.longitude, decimals: 7)
            for v in [p.pressureAltitudeFt, p.geometricAltitudeFt, p.groundSpeedKt, p.trackDeg] {
                o.append(",")
                if let v { o.append(v, decimals: 1) }
            }
            o.append("\r\n")
        }
    }
}
