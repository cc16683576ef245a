import GDL90
@testable import GatewaySupport
@testable import GatewayCaptures

/// The lines of `gatewayd decode` as the gateway wrote them before each message type had its
/// one-cursor writer: field by field through `JSONWriter`, and readable text by string
/// interpolation. The tests hold the fast writers to these, type by type, byte for byte.
enum MessageLineReference {
    /// A UAT downlink's line: the traffic report's fields, then where it came from and what only UAT says.
    static func uatJSON(_ u: UATReport, _ r: TrafficReport, time: Double?, offset: Int?) -> String {
        var w = JSONWriter()
        w.add("type", "traffic")
        w.add("time", time.map(Timestamp.iso8601))
        if let offset { w.add("offset", offset) }
        addReport(r, to: &w)
        let a = u.adsb
        w.add("from", "uat")
        w.add("payloadType", Int(a.payloadType))
        w.add("addressQualifier", Int(a.addressQualifier))
        w.add("geometricAltitudeFt", a.altitudeIsGeometric ? a.altitudeFt : a.secondaryAltitudeFt)
        return w.result
    }

    /// The JSON object of `message`, field by field.
    static func json(_ message: Message, time: Double?, offset: Int? = nil) -> String {
        var w = JSONWriter()
        // A UAT downlink is the traffic report it stands for (issue 45), when it is an aircraft's.
        if case .basicReport(let u) = message, let r = TrafficReport(uat: u.adsb) { return uatJSON(u, r, time: time, offset: offset) }
        if case .longReport(let u) = message, let r = TrafficReport(uat: u.adsb) { return uatJSON(u, r, time: time, offset: offset) }
        w.add("type", message.typeName)
        w.add("time", time.map(Timestamp.iso8601))
        if let offset { w.add("offset", offset) }
        switch message {
        case .heartbeat(let h):
            w.add("gpsValid", h.gpsPositionValid)
            w.add("utcOK", h.utcOK)
            w.add("secondsSinceMidnight", Int(h.secondsSinceMidnight))
            w.add("uplinkCount", Int(h.uplinkCount))
            w.add("basicLongCount", Int(h.basicLongCount))
            w.add("maintenanceRequired", h.maintenanceRequired)
            w.add("ident", h.ident)
            w.add("addressTypeTalkback", h.addressTypeTalkback)
            w.add("gpsBatteryLow", h.gpsBatteryLow)
            w.add("ratcs", h.ratcs)
            w.add("uatInitialized", h.uatInitialized)
            w.add("csaRequested", h.csaRequested)
            w.add("csaNotAvailable", h.csaNotAvailable)
        case .initialization(let i):
            w.add("audioTest", i.audioTest)
            w.add("audioInhibit", i.audioInhibit)
            w.add("cdtiOK", i.cdtiOK)
            w.add("csaAudioDisable", i.csaAudioDisable)
            w.add("csaDisable", i.csaDisable)
        case .uplink(let u):
            w.add("timeOfReception", u.timeOfReception.map(Int.init))
            w.add("payloadLength", u.payload.count)
        case .heightAboveTerrain(let h):
            w.add("heightAboveTerrainFt", h.feet)
        case .ownship(let r), .traffic(let r):
            addReport(r, to: &w)
        case .ownshipGeoAltitude(let g):
            w.add("geoAltitudeFt", g.altitudeFt)
            w.add("verticalWarning", g.verticalWarning)
            w.add("vfomM", g.vfomMeters)
        case .basicReport(let r), .longReport(let r):
            w.add("timeOfReception", r.timeOfReception.map(Int.init))
            let a = r.adsb
            w.add("payloadType", Int(a.payloadType))
            w.add("addressQualifier", Int(a.addressQualifier))
            w.add("address", hex6: a.address)
            w.add("latitude", a.position?.latitude, decimals: 6)
            w.add("longitude", a.position?.longitude, decimals: 6)
            w.add("altitudeFt", a.altitudeFt)
            w.add("altitudeType", a.altitudeFt == nil ? nil : (a.altitudeIsGeometric ? "geometric" : "pressure"))
            w.add("nic", Int(a.nic))
            if case .ground = a.velocity { w.add("airborne", false) } else { w.add("airborne", true) }
            w.add("groundSpeedKt", a.groundSpeedKt)
            w.add("trackDeg", a.trackDeg, decimals: 1)
            w.add("verticalSpeedFpm", a.verticalRateFpm)
            w.add("emitterCategory", a.emitterCategory.map(Int.init))
            w.add("callsign", a.callsign)
            w.add("emergency", a.emergency.map(Int.init))
            w.add("secondaryAltitudeFt", a.secondaryAltitudeFt)
        case .foreFlightID(let f):
            w.add("version", Int(f.version))
            w.add("serialNumber", f.serialNumber.map { String($0, radix: 16) })
            w.add("deviceName", f.deviceName)
            w.add("deviceLongName", f.deviceLongName)
            w.add("capabilities", Int(f.capabilities))
            w.add("geoAltitudeIsMSL", f.geometricAltitudeIsMSL)
        case .foreFlightAHRS(let a):
            w.add("rollDeg", a.rollDeg, decimals: 1)
            w.add("pitchDeg", a.pitchDeg, decimals: 1)
            w.add("headingDeg", a.headingDeg, decimals: 1)
            w.add("headingIsMagnetic", a.headingIsMagnetic)
            w.add("indicatedAirspeedKt", a.indicatedAirspeedKt)
            w.add("trueAirspeedKt", a.trueAirspeedKt)
        case .stratuxHeartbeat(let s):
            w.add("protocolVersion", Int(s.protocolVersion))
            w.add("gpsValid", s.gpsValid)
            w.add("ahrsValid", s.ahrsValid)
        case .stratuxStatus(let s):
            w.add("version", "\(s.versionMajor).\(s.versionMinor)")
            w.add("flags", Int(s.flags))
            w.add("satellitesLocked", Int(s.satellitesLocked))
            w.add("satellitesTracked", Int(s.satellitesTracked))
            w.add("uatTargets", Int(s.uatTargets))
            w.add("esTargets", Int(s.esTargets))
            w.add("uatMessagesPerMinute", Int(s.uatMessagesPerMinute))
            w.add("esMessagesPerMinute", Int(s.esMessagesPerMinute))
            w.add("cpuTemperatureC", s.cpuTemperatureC, decimals: 1)
            w.addRaw("towers", JSONWriter.array(s.towers.map {
                "[\(JSONWriter.format($0.longitude, decimals: 5)),\(JSONWriter.format($0.latitude, decimals: 5))]"
            }))
        case .levilAHRS(let l):
            w.add("rollDeg", l.rollDeg, decimals: 1)
            w.add("pitchDeg", l.pitchDeg, decimals: 1)
            w.add("headingDeg", l.headingDeg, decimals: 1)
            w.add("slipSkidDeg", l.slipSkidDeg, decimals: 1)
            w.add("yawRateDegPerSec", l.yawRateDegPerSec, decimals: 1)
            w.add("gLoad", l.gLoad, decimals: 1)
            w.add("indicatedAirspeedKt", l.indicatedAirspeedKt)
            w.add("pressureAltitudeFt", l.pressureAltitudeFt)
            w.add("verticalSpeedFpm", l.verticalSpeedFpm)
        case .unknown(let id, let payload):
            w.add("id", Int(id))
            w.add("length", payload.count + 1)
            w.add("payload", payload.prefix(64).map { b in (b < 16 ? "0" : "") + String(b, radix: 16) }.joined())
        }
        return w.result
    }

    static func addReport(_ r: TrafficReport, to w: inout JSONWriter) {
        w.add("address", hex6: r.address)
        w.add("addressType", r.addressType.description)
        w.add("trafficAlert", r.trafficAlert)
        w.add("latitude", r.position?.latitude, decimals: 6)
        w.add("longitude", r.position?.longitude, decimals: 6)
        w.add("pressureAltitudeFt", r.pressureAltitudeFt)
        w.add("airborne", r.airborne)
        w.add("extrapolated", r.extrapolated)
        w.add("trackType", r.trackType.description)
        w.add("nic", Int(r.nic))
        w.add("nacp", Int(r.nacp))
        w.add("groundSpeedKt", r.groundSpeedKt)
        w.add("verticalSpeedFpm", r.verticalSpeedFpm)
        w.add("trackDeg", r.trackDeg, decimals: 2)
        w.add("emitterCategory", Int(r.emitterCategory))
        w.add("callsign", r.callsign)
        w.add("emergency", Int(r.emergency))
    }

    /// The readable line of `message`: its time (or `-`), two spaces, and the words.
    static func text(_ message: Message, time: Double?) -> String {
        (time.map(Timestamp.iso8601) ?? "-") + "  " + textBody(message)
    }

    static func textBody(_ message: Message) -> String {
        let body: String
        switch message {
        case .heartbeat(let h):
            body = "heartbeat  gps \(h.gpsPositionValid ? "valid" : "invalid"), utc \(h.utcOK ? "ok" : "not ok"), \(h.secondsSinceMidnight) s since 0000Z, uplinks \(h.uplinkCount), reports \(h.basicLongCount)"
        case .ownship(let r): body = "ownship    " + MessageFormatter.reportText(r)
        case .traffic(let r): body = "traffic    " + MessageFormatter.reportText(r)
        case .ownshipGeoAltitude(let g):
            body = "geo alt    \(g.altitudeFt) ft, vfom \(g.vfomMeters.map { "\($0) m" } ?? "n/a")\(g.verticalWarning ? ", VERTICAL WARNING" : "")"
        case .uplink(let u): body = "uplink     \(u.payload.count) bytes FIS-B"
        case .heightAboveTerrain(let h): body = "HAT        \(h.feet.map { "\($0) ft" } ?? "invalid")"
        case .basicReport(let r), .longReport(let r):
            let a = r.adsb
            body = "\(message.typeName == "basicReport" ? "basic     " : "long      ") \(MessageFormatter.hex6(a.address)) \(a.callsign ?? "") "
                + "\(a.position.map { "\(JSONWriter.format($0.latitude, decimals: 5)),\(JSONWriter.format($0.longitude, decimals: 5))" } ?? "no position") "
                + "\(a.altitudeFt.map { "\($0) ft" } ?? "no alt")"
        case .foreFlightID(let f): body = "ForeFlight ID \(f.deviceName) \(f.deviceLongName)"
        case .foreFlightAHRS(let a): body = "ForeFlight AHRS roll \(a.rollDeg.map { "\($0)" } ?? "-") pitch \(a.pitchDeg.map { "\($0)" } ?? "-")"
        case .stratuxHeartbeat(let s): body = "Stratux    gps \(s.gpsValid ? "valid" : "invalid"), ahrs \(s.ahrsValid ? "valid" : "invalid")"
        case .stratuxStatus(let s): body = "Stratux status v\(s.versionMajor).\(s.versionMinor), \(s.uatTargets + s.esTargets) targets"
        case .levilAHRS(let l): body = "Levil AHRS roll \(l.rollDeg.map { "\($0)" } ?? "-") pitch \(l.pitchDeg.map { "\($0)" } ?? "-")"
        case .initialization: body = "initialization"
        case .unknown(let id, let payload): body = "unknown    id 0x\(String(id, radix: 16)), \(payload.count + 1) bytes"
        }
        return body
    }
}
