import GatewaySupport
import GDL90

/// The lines of the messages other than traffic and ownship: heartbeats, Stratux and ForeFlight
/// messages, uplinks and the rest, each written through one cursor after one reservation, as the
/// reports are (a Stratux sends a dozen of them a second beside its traffic).
extension MessageFormatter {
    /// Appends the JSON object of a message other than a traffic or ownship report; `clock` is
    /// prepared for `time`.
    static func appendOtherJSON(_ message: Message, time: Double?, offset: Int?, to out: inout OutputBuffer, clock: ISO8601Writer) {
        out.write(upTo: maximumJSONLength(message)) { c in
            c.put("{\"type\":\"" as StaticString)
            c.put(typeName(message))
            c.put(0x22)
            putTimeAndOffset(time: time, offset: offset, clock: clock, to: &c)
            putFields(message, to: &c)
            c.put(0x7D)
        }
    }

    /// The most bytes `appendOtherJSON` writes for `message`: the fixed fields' 600, and the
    /// strings and lists that vary at their largest (6 bytes a byte escaped).
    static func maximumJSONLength(_ message: Message) -> Int {
        switch message {
        case .foreFlightID(let f): 600 + (f.deviceName.utf8.count + f.deviceLongName.utf8.count) * 6
        case .stratuxStatus(let s): 600 + s.towers.count * 64
        case .basicReport(let r), .longReport(let r): 600 + r.payload.count * 6
        default: 600
        }
    }

    /// The type name as a literal (`Message.typeName`'s text).
    static func typeName(_ message: Message) -> StaticString {
        switch message {
        case .heartbeat: "heartbeat"
        case .initialization: "initialization"
        case .uplink: "uplink"
        case .heightAboveTerrain: "heightAboveTerrain"
        case .ownship: "ownship"
        case .ownshipGeoAltitude: "ownshipGeoAltitude"
        case .traffic: "traffic"
        case .basicReport: "basicReport"
        case .longReport: "longReport"
        case .foreFlightID: "foreFlightID"
        case .foreFlightAHRS: "foreFlightAHRS"
        case .stratuxHeartbeat: "stratuxHeartbeat"
        case .stratuxStatus: "stratuxStatus"
        case .levilAHRS: "levilAHRS"
        case .unknown: "unknown"
        }
    }

    // swiftlint:disable:next function_body_length
    private static func putFields(_ message: Message, to c: inout ByteCursor) {
        switch message {
        case .heartbeat(let h):
            c.put(",\"gpsValid\":" as StaticString)
            c.putJSON(h.gpsPositionValid)
            c.put(",\"utcOK\":" as StaticString)
            c.putJSON(h.utcOK)
            c.put(",\"secondsSinceMidnight\":" as StaticString)
            c.put(decimal: Int64(h.secondsSinceMidnight))
            c.put(",\"uplinkCount\":" as StaticString)
            c.put(decimal: Int64(h.uplinkCount))
            c.put(",\"basicLongCount\":" as StaticString)
            c.put(decimal: Int64(h.basicLongCount))
            c.put(",\"maintenanceRequired\":" as StaticString)
            c.putJSON(h.maintenanceRequired)
            c.put(",\"ident\":" as StaticString)
            c.putJSON(h.ident)
            c.put(",\"addressTypeTalkback\":" as StaticString)
            c.putJSON(h.addressTypeTalkback)
            c.put(",\"gpsBatteryLow\":" as StaticString)
            c.putJSON(h.gpsBatteryLow)
            c.put(",\"ratcs\":" as StaticString)
            c.putJSON(h.ratcs)
            c.put(",\"uatInitialized\":" as StaticString)
            c.putJSON(h.uatInitialized)
            c.put(",\"csaRequested\":" as StaticString)
            c.putJSON(h.csaRequested)
            c.put(",\"csaNotAvailable\":" as StaticString)
            c.putJSON(h.csaNotAvailable)
        case .initialization(let i):
            c.put(",\"audioTest\":" as StaticString)
            c.putJSON(i.audioTest)
            c.put(",\"audioInhibit\":" as StaticString)
            c.putJSON(i.audioInhibit)
            c.put(",\"cdtiOK\":" as StaticString)
            c.putJSON(i.cdtiOK)
            c.put(",\"csaAudioDisable\":" as StaticString)
            c.putJSON(i.csaAudioDisable)
            c.put(",\"csaDisable\":" as StaticString)
            c.putJSON(i.csaDisable)
        case .uplink(let u):
            c.put(",\"timeOfReception\":" as StaticString)
            c.putJSON(u.timeOfReception.map(Int.init))
            c.put(",\"payloadLength\":" as StaticString)
            c.put(decimal: Int64(u.payload.count))
        case .heightAboveTerrain(let h):
            c.put(",\"heightAboveTerrainFt\":" as StaticString)
            c.putJSON(h.feet)
        case .ownshipGeoAltitude(let g):
            c.put(",\"geoAltitudeFt\":" as StaticString)
            c.put(decimal: Int64(g.altitudeFt))
            c.put(",\"verticalWarning\":" as StaticString)
            c.putJSON(g.verticalWarning)
            c.put(",\"vfomM\":" as StaticString)
            c.putJSON(g.vfomMeters)
        case .basicReport(let r), .longReport(let r):
            putUATFields(r, to: &c)
        case .foreFlightID(let f):
            c.put(",\"version\":" as StaticString)
            c.put(decimal: Int64(f.version))
            c.put(",\"serialNumber\":" as StaticString)
            if let serial = f.serialNumber {
                c.put(0x22)
                c.putHex(serial)
                c.put(0x22)
            } else {
                c.put("null" as StaticString)
            }
            c.put(",\"deviceName\":" as StaticString)
            c.putJSONQuoted(f.deviceName)
            c.put(",\"deviceLongName\":" as StaticString)
            c.putJSONQuoted(f.deviceLongName)
            c.put(",\"capabilities\":" as StaticString)
            c.put(decimal: Int64(f.capabilities))
            c.put(",\"geoAltitudeIsMSL\":" as StaticString)
            c.putJSON(f.geometricAltitudeIsMSL)
        case .foreFlightAHRS(let a):
            putAttitude(roll: a.rollDeg, pitch: a.pitchDeg, heading: a.headingDeg, to: &c)
            c.put(",\"headingIsMagnetic\":" as StaticString)
            c.putJSON(a.headingIsMagnetic)
            c.put(",\"indicatedAirspeedKt\":" as StaticString)
            c.putJSON(a.indicatedAirspeedKt)
            c.put(",\"trueAirspeedKt\":" as StaticString)
            c.putJSON(a.trueAirspeedKt)
        case .stratuxHeartbeat(let s):
            c.put(",\"protocolVersion\":" as StaticString)
            c.put(decimal: Int64(s.protocolVersion))
            c.put(",\"gpsValid\":" as StaticString)
            c.putJSON(s.gpsValid)
            c.put(",\"ahrsValid\":" as StaticString)
            c.putJSON(s.ahrsValid)
        case .stratuxStatus(let s):
            c.put(",\"version\":\"" as StaticString)
            c.put(decimal: Int64(s.versionMajor))
            c.put(0x2E)
            c.put(decimal: Int64(s.versionMinor))
            c.put("\",\"flags\":" as StaticString)
            c.put(decimal: Int64(s.flags))
            c.put(",\"satellitesLocked\":" as StaticString)
            c.put(decimal: Int64(s.satellitesLocked))
            c.put(",\"satellitesTracked\":" as StaticString)
            c.put(decimal: Int64(s.satellitesTracked))
            c.put(",\"uatTargets\":" as StaticString)
            c.put(decimal: Int64(s.uatTargets))
            c.put(",\"esTargets\":" as StaticString)
            c.put(decimal: Int64(s.esTargets))
            c.put(",\"uatMessagesPerMinute\":" as StaticString)
            c.put(decimal: Int64(s.uatMessagesPerMinute))
            c.put(",\"esMessagesPerMinute\":" as StaticString)
            c.put(decimal: Int64(s.esMessagesPerMinute))
            c.put(",\"cpuTemperatureC\":" as StaticString)
            c.putJSON(s.cpuTemperatureC, decimals: 1)
            c.put(",\"towers\":[" as StaticString)
            for (i, tower) in s.towers.enumerated() {
                if i > 0 { c.put(0x2C) }
                c.put(0x5B)
                c.putNumber(tower.longitude, decimals: 5)
                c.put(0x2C)
                c.putNumber(tower.latitude, decimals: 5)
                c.put(0x5D)
            }
            c.put(0x5D)
        case .levilAHRS(let l):
            putAttitude(roll: l.rollDeg, pitch: l.pitchDeg, heading: l.headingDeg, to: &c)
            c.put(",\"slipSkidDeg\":" as StaticString)
            c.putJSON(l.slipSkidDeg, decimals: 1)
            c.put(",\"yawRateDegPerSec\":" as StaticString)
            c.putJSON(l.yawRateDegPerSec, decimals: 1)
            c.put(",\"gLoad\":" as StaticString)
            c.putJSON(l.gLoad, decimals: 1)
            c.put(",\"indicatedAirspeedKt\":" as StaticString)
            c.putJSON(l.indicatedAirspeedKt)
            c.put(",\"pressureAltitudeFt\":" as StaticString)
            c.putJSON(l.pressureAltitudeFt)
            c.put(",\"verticalSpeedFpm\":" as StaticString)
            c.putJSON(l.verticalSpeedFpm)
        case .unknown(let id, let payload):
            c.put(",\"id\":" as StaticString)
            c.put(decimal: Int64(id))
            c.put(",\"length\":" as StaticString)
            c.put(decimal: Int64(payload.count + 1))
            c.put(",\"payload\":\"" as StaticString)
            for b in payload.prefix(64) { c.putHex(byte: b) }
            c.put(0x22)
        case .traffic, .ownship:
            preconditionFailure("reports are written by appendReportJSON")
        }
    }

    /// The three angles every AHRS message begins with (ForeFlight and Levil alike).
    private static func putAttitude(roll: Double?, pitch: Double?, heading: Double?, to c: inout ByteCursor) {
        c.put(",\"rollDeg\":" as StaticString)
        c.putJSON(roll, decimals: 1)
        c.put(",\"pitchDeg\":" as StaticString)
        c.putJSON(pitch, decimals: 1)
        c.put(",\"headingDeg\":" as StaticString)
        c.putJSON(heading, decimals: 1)
    }

    private static func putUATFields(_ r: UATReport, to c: inout ByteCursor) {
        c.put(",\"timeOfReception\":" as StaticString)
        c.putJSON(r.timeOfReception.map(Int.init))
        let a = r.adsb
        c.put(",\"payloadType\":" as StaticString)
        c.put(decimal: Int64(a.payloadType))
        c.put(",\"addressQualifier\":" as StaticString)
        c.put(decimal: Int64(a.addressQualifier))
        c.put(",\"address\":\"" as StaticString)
        c.putHex(a.address, width: 6)
        c.put("\",\"latitude\":" as StaticString)
        c.putJSON(a.position?.latitude, decimals: 6)
        c.put(",\"longitude\":" as StaticString)
        c.putJSON(a.position?.longitude, decimals: 6)
        c.put(",\"altitudeFt\":" as StaticString)
        c.putJSON(a.altitudeFt)
        c.put(",\"altitudeType\":" as StaticString)
        c.put(a.altitudeFt == nil ? "null" as StaticString : a.altitudeIsGeometric ? "\"geometric\"" : "\"pressure\"")
        c.put(",\"nic\":" as StaticString)
        c.put(decimal: Int64(a.nic))
        if case .ground = a.velocity { c.put(",\"airborne\":false" as StaticString) } else { c.put(",\"airborne\":true" as StaticString) }
        c.put(",\"groundSpeedKt\":" as StaticString)
        c.putJSON(a.groundSpeedKt)
        c.put(",\"trackDeg\":" as StaticString)
        c.putJSON(a.trackDeg, decimals: 1)
        c.put(",\"verticalSpeedFpm\":" as StaticString)
        c.putJSON(a.verticalRateFpm)
        c.put(",\"emitterCategory\":" as StaticString)
        c.putJSON(a.emitterCategory.map(Int.init))
        c.put(",\"callsign\":" as StaticString)
        if let callsign = a.callsign { c.putJSONQuoted(callsign) } else { c.put("null" as StaticString) }
        c.put(",\"emergency\":" as StaticString)
        c.putJSON(a.emergency.map(Int.init))
        c.put(",\"secondaryAltitudeFt\":" as StaticString)
        c.putJSON(a.secondaryAltitudeFt)
    }
}

extension MessageFormatter {
    /// Appends the readable text of a message other than a traffic, ownship or uplink message
    /// (what follows the time): `textBody`'s words, written through one cursor.
    static func appendOtherText(_ message: Message, to out: inout OutputBuffer) {
        var upTo = 200
        if case .foreFlightID(let f) = message { upTo += f.deviceName.utf8.count + f.deviceLongName.utf8.count }
        if case .basicReport(let r) = message { upTo += r.payload.count * 2 }
        if case .longReport(let r) = message { upTo += r.payload.count * 2 }
        out.write(upTo: upTo) { c in putText(message, to: &c) }
    }

    // swiftlint:disable:next function_body_length cyclomatic_complexity
    private static func putText(_ message: Message, to c: inout ByteCursor) {
        switch message {
        case .heartbeat(let h):
            c.put(h.gpsPositionValid ? "heartbeat  gps valid, utc " as StaticString : "heartbeat  gps invalid, utc ")
            c.put(h.utcOK ? "ok, " as StaticString : "not ok, ")
            c.put(decimal: Int64(h.secondsSinceMidnight))
            c.put(" s since 0000Z, uplinks " as StaticString)
            c.put(decimal: Int64(h.uplinkCount))
            c.put(", reports " as StaticString)
            c.put(decimal: Int64(h.basicLongCount))
        case .ownshipGeoAltitude(let g):
            c.put("geo alt    " as StaticString)
            c.put(decimal: Int64(g.altitudeFt))
            c.put(" ft, vfom " as StaticString)
            if let v = g.vfomMeters {
                c.put(decimal: Int64(v))
                c.put(" m" as StaticString)
            } else {
                c.put("n/a" as StaticString)
            }
            if g.verticalWarning { c.put(", VERTICAL WARNING" as StaticString) }
        case .heightAboveTerrain(let h):
            c.put("HAT        " as StaticString)
            if let feet = h.feet {
                c.put(decimal: Int64(feet))
                c.put(" ft" as StaticString)
            } else {
                c.put("invalid" as StaticString)
            }
        case .basicReport(let r), .longReport(let r):
            let a = r.adsb
            if case .basicReport = message { c.put("basic      " as StaticString) } else { c.put("long       " as StaticString) }
            c.putHex(a.address, width: 6)
            c.put(0x20)
            if let callsign = a.callsign { c.put(callsign) }
            c.put(0x20)
            if let p = a.position {
                c.putNumber(p.latitude, decimals: 5)
                c.put(0x2C)
                c.putNumber(p.longitude, decimals: 5)
            } else {
                c.put("no position" as StaticString)
            }
            c.put(0x20)
            if let alt = a.altitudeFt {
                c.put(decimal: Int64(alt))
                c.put(" ft" as StaticString)
            } else {
                c.put("no alt" as StaticString)
            }
        case .foreFlightID(let f):
            c.put("ForeFlight ID " as StaticString)
            c.put(f.deviceName)
            c.put(0x20)
            c.put(f.deviceLongName)
        case .foreFlightAHRS(let a):
            c.put("ForeFlight AHRS roll " as StaticString)
            putRollAndPitch(a.rollDeg, a.pitchDeg, to: &c)
        case .stratuxHeartbeat(let s):
            c.put(s.gpsValid ? "Stratux    gps valid, ahrs " as StaticString : "Stratux    gps invalid, ahrs ")
            c.put(s.ahrsValid ? "valid" as StaticString : "invalid")
        case .stratuxStatus(let s):
            c.put("Stratux status v" as StaticString)
            c.put(decimal: Int64(s.versionMajor))
            c.put(0x2E)
            c.put(decimal: Int64(s.versionMinor))
            c.put(", " as StaticString)
            c.put(decimal: Int64(s.uatTargets) + Int64(s.esTargets))
            c.put(" targets" as StaticString)
        case .levilAHRS(let l):
            c.put("Levil AHRS roll " as StaticString)
            putRollAndPitch(l.rollDeg, l.pitchDeg, to: &c)
        case .initialization:
            c.put("initialization" as StaticString)
        case .unknown(let id, let payload):
            c.put("unknown    id 0x" as StaticString)
            c.putHex(UInt64(id))
            c.put(", " as StaticString)
            c.put(decimal: Int64(payload.count + 1))
            c.put(" bytes" as StaticString)
        case .uplink(let u):
            c.put("uplink     " as StaticString)
            c.put(decimal: Int64(u.payload.count))
            c.put(" bytes FIS-B" as StaticString)
        case .traffic(let r), .ownship(let r):
            preconditionFailure("reports are written by appendReportText (\(r.address))")
        }
    }

    /// `<roll> pitch <pitch>` of an AHRS line, each as `"\(angle)"` writes it or `-` when not
    /// available (ForeFlight and Levil alike).
    private static func putRollAndPitch(_ roll: Double?, _ pitch: Double?, to c: inout ByteCursor) {
        if let roll { c.putDescription(roll) } else { c.put(0x2D) }
        c.put(" pitch " as StaticString)
        if let pitch { c.putDescription(pitch) } else { c.put(0x2D) }
    }

    /// Appends the JSON line of a rejected frame (the text of `json(_:time:)`).
    package static func appendJSON(_ error: FrameError, time: Double?, to out: inout OutputBuffer, clock: inout ISO8601Writer) {
        if let time { clock.prepare(time) }
        let clock = clock
        out.write(upTo: 320) { c in
            c.put("{\"type\":\"error\"" as StaticString)
            putTimeAndOffset(time: time, offset: nil, clock: clock, to: &c)
            c.put(",\"reason\":\"" as StaticString)
            c.put(error.reason.rawValue)
            c.put("\",\"offset\":" as StaticString)
            c.put(decimal: Int64(error.offset))
            c.put(",\"length\":" as StaticString)
            c.put(decimal: Int64(error.length))
            c.put(",\"message\":\"" as StaticString)
            putDescription(error, to: &c)
            c.put("\"}" as StaticString)
        }
    }

    /// Appends the readable line of a rejected frame: its time and `error  <description>`.
    package static func appendText(_ error: FrameError, time: Double, to out: inout OutputBuffer, clock: inout ISO8601Writer) {
        clock.prepare(time)
        let clock = clock
        out.write(upTo: 320) { c in
            clock.put(into: &c)
            c.put("  error      " as StaticString)
            putDescription(error, to: &c)
        }
    }

    /// `FrameError.description`'s text (at most 120 bytes, none that JSON escapes).
    private static func putDescription(_ error: FrameError, to c: inout ByteCursor) {
        switch error.reason {
        case .crc: c.put("CRC mismatch" as StaticString)
        case .tooShort: c.put("frame too short (needs message ID and CRC)" as StaticString)
        case .badEscape: c.put("invalid escape sequence (0x7D before a flag or at frame end)" as StaticString)
        case .oversized:
            c.put("frame longer than " as StaticString)
            c.put(decimal: Int64(Deframer.maximumFrameLength))
            c.put(" bytes" as StaticString)
        case .truncated: c.put("input ended inside a frame" as StaticString)
        case .unsynced: c.put("bytes before the first flag" as StaticString)
        }
        c.put(" at byte " as StaticString)
        c.put(decimal: Int64(error.offset))
        c.put(" (" as StaticString)
        c.put(decimal: Int64(error.length))
        c.put(" bytes)" as StaticString)
    }
}
