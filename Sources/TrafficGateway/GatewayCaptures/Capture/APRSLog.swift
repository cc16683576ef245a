import GatewaySupport
import GatewayDomain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A log of OGN APRS lines, one beacon a line as OGN clients keep them (`nc aprs.glidernet.org
/// 14580 > F` after a login, python-ogn-client's logs), each line optionally prefixed by an ISO
/// time and a space or `: ` (`2026-05-26T11:50:55Z FLRDD89C9>OGFLR,…`). A line's time is its
/// prefix; without one, the beacon's own `hhmmss` on the day of `date` (the file's day).
/// Receiver and status beacons, server comments and blank lines are skipped; what is not an
/// APRS line is a problem counted with its line number.
package struct APRSLog: Sendable {
    /// One beacon and the time it was taken.
    package struct Entry: Sendable {
        /// Epoch seconds.
        package var time: Double
        /// The beacon.
        package var beacon: OGNBeacon
    }

    /// The beacons, in file order.
    package var entries: [Entry] = []
    /// Receiver and status beacons, comments skipped.
    package var skipped = 0
    /// Lines that were not APRS.
    private(set) var problems = LineProblems()
    /// How many lines were not APRS, and a few of them with their line numbers.
    package var problemCount: Int { problems.count }
    package var problemExamples: [String] { problems.examples }

    /// True when `head` (a file's first bytes) reads as an APRS log: its first line that is not
    /// a comment is an APRS beacon (after an optional ISO time).
    package static func looksLike(_ head: [UInt8]) -> Bool {
        let text = String(decoding: head.prefix(8192), as: UTF8.self)
        for raw in text.split(separator: "\n").prefix(20) {
            let line = String(raw).trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let (_, body) = splitTime(String(line))
            guard let gt = body.firstIndex(of: ">"), let colon = body.firstIndex(of: ":"), gt < colon else { return false }
            let after = body[body.index(after: colon)...]
            return after.hasPrefix("/") || after.hasPrefix(">") || after.hasPrefix("@")
        }
        return false
    }

    /// True when the file at `path` is an APRS log (`looksLike` on its first 8 kB, read with
    /// POSIX calls); false when it is not, or cannot be read (opening it as a capture says why).
    package static func isLog(path: String) -> Bool {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 8192)
        let n = head.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        return n > 0 && looksLike(Array(head[..<n]))
    }

    /// An ISO time prefix and the rest of the line (nil: none).
    static func splitTime(_ line: String) -> (Double?, Substring) {
        guard line.count > 20, let first = line.utf8.first, first >= 0x30, first <= 0x39,
              let cut = line.firstIndex(where: { $0 == " " }) else { return (nil, Substring(line)) }
        var stamp = String(line[..<cut])
        if stamp.hasSuffix(":") { stamp.removeLast() }
        if !stamp.hasSuffix("Z") { stamp += "Z" }
        stamp = stamp.replacingAll(" ", with: "T")
        guard let t = Timestamp.parse(stamp) else { return (nil, Substring(line)) }
        return (t, line[line.index(after: cut)...])
    }

    /// Reads `text`; `day` is the epoch of 0000Z of the day lines without a time prefix are on.
    package init(text: String, day: Double) {
        let parser = OGNBeaconParser()
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
            if line.trimmingWhitespace().isEmpty { continue }
            let (time, body) = Self.splitTime(line)
            switch parser.parse(String(body)) {
            case .beacon(let b):
                let t = time ?? b.secondOfDay.map { day + Double($0) } ?? day
                entries.append(Entry(time: t, beacon: b))
            case .receiver, .status, .comment:
                skipped += 1
            case .problem(let why):
                problems.add(line: n + 1, why)
            }
        }
    }

    /// Reads the file at `path` (its lines without a time on the day it was last written, UTC,
    /// unless `date` names one).
    package static func read(path: String, date: Double? = nil) throws(GatewayError) -> APRSLog {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GatewayError.file(path: path, reason: "cannot read the APRS log (missing or unreadable)")
        }
        var day = date
        if day == nil, let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date {
            day = (modified.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        }
        return APRSLog(text: String(decoding: data, as: UTF8.self), day: day ?? 0)
    }

    /// The recorded events that replay these beacons (one a beacon, at its time): what `replay`
    /// and `flights import` hand the pipeline beside a capture's datagrams.
    package var events: [RecordedEvent] {
        entries.map { RecordedEvent(time: $0.time, change: .ogn([$0.beacon.line])) }
    }

    /// `decode --json`'s line for a beacon: a `traffic` object `from` `ogn`, with the OGN fields.
    package static func json(_ e: Entry) -> String {
        let b = e.beacon
        var w = JSONWriter()
        w.add("type", "traffic")
        w.add("from", "ogn")
        w.add("time", Timestamp.iso8601(e.time))
        w.add("dialect", b.dialect)
        w.add("callsign", b.callsign)
        w.add("receiver", b.receiver)
        if b.relayed { w.add("relayed", true) }
        w.add("address", hex6: b.address)
        w.add("addressType", b.addressType.description)
        w.add("aircraftType", b.aircraftType.description)
        w.add("aircraftTypeCode", Int(b.aircraftType.rawValue))
        w.add("stealth", b.stealth)
        w.add("noTracking", b.noTracking)
        w.add("latitude", b.position.latitude, decimals: 7)
        w.add("longitude", b.position.longitude, decimals: 7)
        w.add("altitudeFt", b.altitudeFt)
        w.add("altitudeType", "geometric")
        if let p = b.pressureAltitudeFt { w.add("pressureAltitudeFt", p) }
        w.add("trackDeg", b.trackDeg, decimals: 0)
        w.add("groundSpeedKt", b.groundSpeedKt)
        w.add("climbFpm", b.climbFpm)
        w.add("turnRateRot", b.turnRateRot, decimals: 1)
        w.add("emitterCategory", Int(b.aircraftType.emitterCategory))
        if let f = b.flightNumber { w.add("flight", f) }
        if let s = b.secondOfDay { w.add("beaconTime", Timestamp.pad(s / 3600, 2) + ":" + Timestamp.pad(s / 60 % 60, 2) + ":" + Timestamp.pad(s % 60, 2)) }
        if let v = b.signalDB { w.add("signalDB", v, decimals: 1) }
        if let v = b.errors { w.add("errors", v) }
        if let v = b.frequencyOffsetKHz { w.add("frequencyOffsetKHz", v, decimals: 1) }
        return w.result
    }
}
