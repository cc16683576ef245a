import GatewaySupport
import GDL90

/// Renders decoded messages for `gatewayd decode`: JSON Lines (the documented contract) or one
/// readable line each.
package enum MessageFormatter {
    /// Six lowercase hex digits.
    package static func hex6(_ v: UInt32) -> String {
        let h = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 6 - h.count)) + h
    }

    /// The JSON object for `message` at `time` (nil: unknown time).
    package static func json(_ message: Message, time: Double?, offset: Int? = nil) -> String {
        var out = OutputBuffer(capacity: 512)
        var clock = ISO8601Writer()
        appendJSON(message, time: time, offset: offset, to: &out, clock: &clock)
        return out.text
    }

    /// Appends the JSON object for `message` (the text of `json`) to `out`: every message type
    /// written through one cursor after one reservation, with no `String` built on the way;
    /// `clock` caches the date part of `time`. (The tests hold each type's line to the
    /// field-by-field `JSONWriter` text it replaced.)
    /// `from` names where a traffic or ownship report came from when it was not GDL 90 (`"sbs"`:
    /// an SBS BaseStation feed; `"nmea"`: a GPS log), written as its `"from"` field. A UAT
    /// downlink (Basic or Long report) is written as the traffic report it stands for
    /// (`TrafficReport(uat:)`), with `"from":"uat"` and its payload type, address qualifier and
    /// secondary altitude besides; one whose qualifier is not an aircraft's stays a `basicReport`
    /// or `longReport`.
    @inline(__always)
    package static func appendJSON(_ message: consuming Message, time: Double?, offset: Int? = nil,
                                  to out: inout OutputBuffer, clock: inout ISO8601Writer, from: StaticString? = nil) {
        if let time { clock.prepare(time) }
        // Consumed: a borrowed message would be copied whole to be taken apart.
        switch consume message {
        case .traffic(let r):
            appendReportJSON("{\"type\":\"traffic\"", r, time: time, offset: offset, to: &out, clock: clock, from: from)
        case .ownship(let r):
            appendReportJSON("{\"type\":\"ownship\"", r, time: time, offset: offset, to: &out, clock: clock, from: from)
        case .basicReport(let u):
            appendUATJSON(u, long: false, time: time, offset: offset, to: &out, clock: clock)
        case .longReport(let u):
            appendUATJSON(u, long: true, time: time, offset: offset, to: &out, clock: clock)
        case let other:
            appendOtherJSON(other, time: time, offset: offset, to: &out, clock: clock)
        }
    }

    /// A UAT downlink as the traffic report it stands for (see `appendJSON`).
    static func appendUATJSON(_ u: UATReport, long: Bool, time: Double?, offset: Int?, to out: inout OutputBuffer, clock: ISO8601Writer) {
        let a = u.adsb
        guard let report = TrafficReport(uat: a) else {
            appendOtherJSON(long ? .longReport(u) : .basicReport(u), time: time, offset: offset, to: &out, clock: clock)
            return
        }
        appendReportJSON("{\"type\":\"traffic\"", report, time: time, offset: offset, to: &out, clock: clock, from: "uat") { c in
            c.put(",\"payloadType\":" as StaticString)
            c.put(decimal: Int64(a.payloadType))
            c.put(",\"addressQualifier\":" as StaticString)
            c.put(decimal: Int64(a.addressQualifier))
            c.put(",\"geometricAltitudeFt\":" as StaticString)
            c.putJSON(a.altitudeIsGeometric ? a.altitudeFt : a.secondaryAltitudeFt)
        }
    }

    /// `,"time":"…"` (or `null`) and `,"offset":N` when given: what follows the type on every line
    /// (at most 64 bytes).
    @inline(__always)
    static func putTimeAndOffset(time: Double?, offset: Int?, clock: ISO8601Writer, to c: inout ByteCursor) {
        if time != nil {
            c.put(",\"time\":\"" as StaticString)
            clock.put(into: &c)
            c.put(0x22)
        } else {
            c.put(",\"time\":null" as StaticString)
        }
        if let offset {
            c.put(",\"offset\":" as StaticString)
            c.put(decimal: Int64(offset))
        }
    }

    /// `{"type":…,"time":…,"offset":…` and the report's fields, written through one cursor.
    /// `opening` is `{"type":"traffic"` or `{"type":"ownship"`; `clock` is prepared for `time`.
    static func appendReportJSON(_ opening: StaticString, _ r: TrafficReport, time: Double?, offset: Int?,
                                 to out: inout OutputBuffer, clock: ISO8601Writer, from: StaticString? = nil,
                                 extra: (inout ByteCursor) -> Void = { _ in }) {
        withCallsignUTF8(r) { callsign in
            // The fields at their longest take about 480 bytes, `from` and a UAT report's extras 90.
            out.write(upTo: 700 + callsign.count * 6) { c in
                c.put(opening)
                putTimeAndOffset(time: time, offset: offset, clock: clock, to: &c)
                c.put(",\"address\":\"" as StaticString)
                c.putHex(r.address, width: 6)
                c.put("\",\"addressType\":" as StaticString)
                putQuoted(r.addressType, to: &c)
                c.put(r.trafficAlert ? ",\"trafficAlert\":true,\"latitude\":" as StaticString : ",\"trafficAlert\":false,\"latitude\":")
                if let p = r.position {
                    c.putJSON(p.latitude, decimals: 6)
                    c.put(",\"longitude\":" as StaticString)
                    c.putJSON(p.longitude, decimals: 6)
                } else {
                    c.put("null,\"longitude\":null" as StaticString)
                }
                c.put(",\"pressureAltitudeFt\":" as StaticString)
                c.putJSON(r.pressureAltitudeFt)
                c.put(r.airborne ? ",\"airborne\":true" as StaticString : ",\"airborne\":false")
                c.put(r.extrapolated ? ",\"extrapolated\":true,\"trackType\":" as StaticString : ",\"extrapolated\":false,\"trackType\":")
                c.put(quotedName(r.trackType))
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
                c.putJSONQuotedShort(callsign)
                c.put(",\"emergency\":" as StaticString)
                c.put(decimal: Int64(r.emergency))
                if let from {
                    c.put(",\"from\":\"" as StaticString)
                    c.put(from)
                    c.put(0x22)
                }
                extra(&c)
                c.put(0x7D)
            }
        }
    }

    /// The address type as its quoted JSON name (a literal for the six defined types).
    @inline(__always)
    static func putQuoted(_ type: AddressType, to c: inout ByteCursor) {
        switch type.rawValue {
        case 0: c.put("\"adsbICAO\"" as StaticString)
        case 1: c.put("\"adsbSelfAssigned\"" as StaticString)
        case 2: c.put("\"tisbICAO\"" as StaticString)
        case 3: c.put("\"tisbTrackFile\"" as StaticString)
        case 4: c.put("\"surfaceVehicle\"" as StaticString)
        case 5: c.put("\"groundStationBeacon\"" as StaticString)
        default:
            c.put("\"reserved" as StaticString)
            c.put(decimal: Int64(type.rawValue))
            c.put(0x22)
        }
    }

    /// The track type's quoted JSON name.
    @inline(__always)
    static func quotedName(_ type: TrackType) -> StaticString {
        switch type {
        case .invalid: "\"invalid\""
        case .trueTrack: "\"trueTrack\""
        case .magneticHeading: "\"magneticHeading\""
        case .trueHeading: "\"trueHeading\""
        }
    }

    /// The JSON error line for a rejected frame.
    package static func json(_ error: FrameError, time: Double?) -> String {
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
    package static func json(_ error: MessageError, offset: Int, time: Double?) -> String {
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
    package static func text(_ message: Message, time: Double?) -> String {
        var out = OutputBuffer(capacity: 160)
        var clock = ISO8601Writer()
        appendText(message, time: time, to: &out, clock: &clock)
        return out.text
    }

    /// Appends the readable line for `message` (the text of `text`, no newline) to `out`, with no
    /// `String` built on the way.
    package static func appendText(_ message: consuming Message, time: Double?, to out: inout OutputBuffer, clock: inout ISO8601Writer) {
        if let time { clock.append(time, to: &out) } else { out.append(byte: 0x2D) }
        out.append("  " as StaticString)
        switch consume message {
        case .ownship(let r):
            out.append("ownship    " as StaticString)
            appendReportText(r, to: &out)
        case .traffic(let r):
            out.append("traffic    " as StaticString)
            appendReportText(r, to: &out)
        case let other:
            appendOtherText(other, to: &out)
        }
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
