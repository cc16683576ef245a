import GDL90

/// Renders decoded messages for `gatewayd decode`: JSON Lines (the documented contract) or one
/// readable line each.
public enum MessageFormatter {
    /// Six lowercase hex digits.
    public static func hex6(_ v: UInt32) -> String {
        let h = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 6 - h.count)) + h
    }

    /// The JSON object for `message` at `time` (nil: unknown time).
    public static func json(_ message: Message, time: Double?, offset: Int? = nil) -> String {
        var out = OutputBuffer(capacity: 512)
        var clock = ISO8601Writer()
        appendJSON(message, time: time, offset: offset, to: &out, clock: &clock)
        return out.text
    }

    /// Appends the JSON object for `message` (the text of `json`) to `out`, with no `String`
    /// built on the way for the frequent messages; `clock` caches the date part of `time`.
    public static func appendJSON(_ message: Message, time: Double?, offset: Int? = nil,
                                  to out: inout OutputBuffer, clock: inout ISO8601Writer) {
        switch message {
        case .traffic(let r), .ownship(let r):
            // Nearly every line of a capture: one reservation, one pass, the same bytes as below.
            appendReportJSON(message.typeName, r, time: time, offset: offset, to: &out, clock: &clock)
            return
        default:
            break
        }
        var w = JSONWriter(continuing: &out)
        defer { w.finish(into: &out) }
        w.add("type", message.typeName)
        w.add("time", time: time, clock: &clock)
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
    }

    /// `{"type":…,"time":…,"offset":…` and the fields of `addReport`, written through one cursor
    /// (the text `JSONWriter` gives, byte for byte: a test holds the two paths together).
    static func appendReportJSON(_ type: String, _ r: TrafficReport, time: Double?, offset: Int?,
                                 to out: inout OutputBuffer, clock: inout ISO8601Writer) {
        var type = type, addressType = r.addressType.description, trackType = r.trackType.description
        if let time { clock.prepare(time) }
        let clock = clock
        type.withUTF8 { type in
            addressType.withUTF8 { addressType in
                trackType.withUTF8 { trackType in
                    withCallsignUTF8(r) { callsign in
                        let maximum = 560 + (type.count + addressType.count + trackType.count + callsign.count) * 6
                        out.write(upTo: maximum) { c in
                            c.put("{\"type\":" as StaticString)
                            c.putJSONQuoted(UnsafeRawBufferPointer(type))
                            c.put(",\"time\":" as StaticString)
                            if time != nil {
                                c.put(0x22)
                                clock.put(into: &c)
                                c.put(0x22)
                            } else {
                                c.put("null" as StaticString)
                            }
                            if let offset {
                                c.put(",\"offset\":" as StaticString)
                                c.put(decimal: Int64(offset))
                            }
                            c.put(",\"address\":\"" as StaticString)
                            c.putHex(r.address, width: 6)
                            c.put("\",\"addressType\":" as StaticString)
                            c.putJSONQuoted(UnsafeRawBufferPointer(addressType))
                            c.put(",\"trafficAlert\":" as StaticString)
                            c.putJSON(r.trafficAlert)
                            c.put(",\"latitude\":" as StaticString)
                            c.putJSON(r.position?.latitude, decimals: 6)
                            c.put(",\"longitude\":" as StaticString)
                            c.putJSON(r.position?.longitude, decimals: 6)
                            c.put(",\"pressureAltitudeFt\":" as StaticString)
                            c.putJSON(r.pressureAltitudeFt)
                            c.put(",\"airborne\":" as StaticString)
                            c.putJSON(r.airborne)
                            c.put(",\"extrapolated\":" as StaticString)
                            c.putJSON(r.extrapolated)
                            c.put(",\"trackType\":" as StaticString)
                            c.putJSONQuoted(UnsafeRawBufferPointer(trackType))
                            c.put(",\"nic\":" as StaticString)
                            c.put(decimal: Int64(r.nic))
                            c.put(",\"nacp\":" as StaticString)
                            c.put(decimal: Int64(r.nacp))
                            c.put(",\"groundSpeedKt\":" as StaticString)
                            c.putJSON(r.groundSpeedKt)
                            c.put(",\"verticalSpeedFpm\":" as StaticString)
                            c.putJSON(r.verticalSpeedFpm)
                            c.put(",\"trackDeg\":" as StaticString)
                            c.putJSON(r.trackDeg, decimals: 2)
                            c.put(",\"emitterCategory\":" as StaticString)
                            c.put(decimal: Int64(r.emitterCategory))
                            c.put(",\"callsign\":" as StaticString)
                            c.putJSONQuoted(UnsafeRawBufferPointer(callsign))
                            c.put(",\"emergency\":" as StaticString)
                            c.put(decimal: Int64(r.emergency))
                            c.put(0x7D)
                        }
                    }
                }
            }
        }
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

    /// The JSON error line for a rejected frame.
    public static func json(_ error: FrameError, time: Double?) -> String {
        var w = JSONWriter()
        w.add("type", "error")
        w.add("time", time.map(Timestamp.iso8601))
        w.add("reason", error.reason.rawValue)
        w.add("offset", error.offset)
        w.add("length", error.length)
        w.add("message", error.description)
        return w.result
    }

    /// The JSON error line for a frame whose message could not be decoded.
    public static func json(_ error: MessageError, offset: Int, time: Double?) -> String {
        var w = JSONWriter()
        w.add("type", "error")
        w.add("time", time.map(Timestamp.iso8601))
        w.add("reason", error.reason.rawValue)
        w.add("offset", offset)
        w.add("messageID", Int(error.messageID))
        w.add("message", error.description)
        return w.result
    }

    /// A readable line for `message`.
    public static func text(_ message: Message, time: Double?) -> String {
        var out = OutputBuffer(capacity: 160)
        var clock = ISO8601Writer()
        appendText(message, time: time, to: &out, clock: &clock)
        return out.text
    }

    /// Appends the readable line for `message` (the text of `text`, no newline) to `out`: traffic,
    /// ownship and uplinks, nearly every line of a capture, with no `String` built on the way.
    public static func appendText(_ message: Message, time: Double?, to out: inout OutputBuffer, clock: inout ISO8601Writer) {
        if let time { clock.append(time, to: &out) } else { out.append(byte: 0x2D) }
        out.append("  " as StaticString)
        switch message {
        case .ownship(let r):
            out.append("ownship    " as StaticString)
            appendReportText(r, to: &out)
        case .traffic(let r):
            out.append("traffic    " as StaticString)
            appendReportText(r, to: &out)
        case .uplink(let u):
            out.append("uplink     " as StaticString)
            out.append(u.payload.count)
            out.append(" bytes FIS-B" as StaticString)
        default:
            out.append(textBody(message))
        }
    }

    static func textBody(_ message: Message) -> String {
        let body: String
        switch message {
        case .heartbeat(let h):
            body = "heartbeat  gps \(h.gpsPositionValid ? "valid" : "invalid"), utc \(h.utcOK ? "ok" : "not ok"), \(h.secondsSinceMidnight) s since 0000Z, uplinks \(h.uplinkCount), reports \(h.basicLongCount)"
        case .ownship(let r): body = "ownship    " + reportText(r)
        case .traffic(let r): body = "traffic    " + reportText(r)
        case .ownshipGeoAltitude(let g):
            body = "geo alt    \(g.altitudeFt) ft, vfom \(g.vfomMeters.map { "\($0) m" } ?? "n/a")\(g.verticalWarning ? ", VERTICAL WARNING" : "")"
        case .uplink(let u): body = "uplink     \(u.payload.count) bytes FIS-B"
        case .heightAboveTerrain(let h): body = "HAT        \(h.feet.map { "\($0) ft" } ?? "invalid")"
        case .basicReport(let r), .longReport(let r):
            let a = r.adsb
            body = "\(message.typeName == "basicReport" ? "basic     " : "long      ") \(hex6(a.address)) \(a.callsign ?? "") "
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

    /// Calls `body` with the UTF-8 of the report's callsign, the very bytes of `r.callsign`
    /// (trailing spaces and NULs trimmed, bytes from 0x80 as the Latin-1 characters they are),
    /// made on the stack from the eight wire bytes: no `String` per report.
    @inline(__always)
    static func withCallsignUTF8<R>(_ r: TrafficReport, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let wire = r.callsignWire
        var count = 8
        while count > 0 {
            let b = UInt8(truncatingIfNeeded: wire >> (8 * UInt64(count - 1)))
            guard b == 0x20 || b == 0 else { break }
            count -= 1
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer in
            var n = 0
            for i in 0..<count {
                let b = UInt8(truncatingIfNeeded: wire >> (8 * UInt64(i)))
                if b < 0x80 {
                    buffer[n] = b
                    n += 1
                } else {
                    buffer[n] = 0xC0 | b >> 6
                    buffer[n + 1] = 0x80 | b & 0x3F
                    n += 2
                }
            }
            return body(UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[0..<n]))
        }
    }

    static func appendReportText(_ r: TrafficReport, to out: inout OutputBuffer) {
        withCallsignUTF8(r) { callsign in
            // One reservation for the line: the fixed words, five numbers and the callsign.
            out.write(upTo: 240 + callsign.count) { c in
                c.putHex(r.address, width: 6)
                c.put(0x20)
                if callsign.isEmpty { c.put(0x2D) } else { c.put(UnsafeRawBufferPointer(callsign)) }
                c.put(0x20)
                if let p = r.position {
                    c.putNumber(p.latitude, decimals: 5)
                    c.put(0x2C)
                    c.putNumber(p.longitude, decimals: 5)
                } else {
                    c.put("no position" as StaticString)
                }
                c.put(0x20)
                if let v = r.pressureAltitudeFt { c.put(decimal: Int64(v)); c.put(" ft" as StaticString) } else { c.put("alt n/a" as StaticString) }
                c.put(0x20)
                if let v = r.groundSpeedKt { c.put(decimal: Int64(v)); c.put(" kt" as StaticString) } else { c.put("gs n/a" as StaticString) }
                c.put(0x20)
                c.putNumber(r.trackDeg, decimals: 0)
                c.put("° " as StaticString)
                if let v = r.verticalSpeedFpm { c.put(decimal: Int64(v)); c.put(" fpm" as StaticString) } else { c.put("vs n/a" as StaticString) }
                if !r.airborne { c.put(" ground" as StaticString) }
                if r.extrapolated { c.put(" extrapolated" as StaticString) }
                if r.addressType.isTISB { c.put(" tis-b" as StaticString) }
            }
        }
    }

    static func reportText(_ r: TrafficReport) -> String {
        var out = OutputBuffer(capacity: 96)
        appendReportText(r, to: &out)
        return out.text
    }

}
