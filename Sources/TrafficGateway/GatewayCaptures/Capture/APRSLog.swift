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
    /// Aircraft beacons read (as many as `entries` holds, when it keeps them).
    package private(set) var beaconCount = 0
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

    /// Reads `text`; `day` is the epoch of 0000Z of the day lines without a time prefix are on.
    package init(text: String, day: Double) {
        var text = text
        var log = APRSLog(), kept: [Entry] = []
        text.withUTF8 { log.scan($0, day: day) { kept.append($0) } }
        log.entries = kept
        self = log
    }

    /// A log read without keeping its beacons: `scan` hands each one on.
    private init() {}

    /// Reads the lines of `bytes`, handing each aircraft beacon to `body` as it is read and
    /// counting what is skipped and what is wrong: the bytes are read in place, a line at a time
    /// (no `String` a line, no array of lines), so a log of any size costs its beacons, not its
    /// text several times over.
    private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, day: Double, _ body: (Entry) -> Void) {
        let parser = OGNBeaconParser()
        var start = 0, number = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            number += 1
            var last = end
            while last > start, bytes[last - 1] == 0x0D || bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 { last -= 1 }
            var first = start
            while first < last, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
            defer { start = end + 1 }
            if first == last { continue }
            let (time, bodyStart) = Self.timePrefix(bytes, from: first, to: last)
            switch parser.parse(UnsafeBufferPointer(rebasing: bytes[bodyStart..<last])) {
            case .beacon(let b):
                beaconCount += 1
                body(Entry(time: time ?? b.secondOfDay.map { day + Double($0) } ?? day, beacon: b))
            case .receiver, .status, .comment:
                skipped += 1
            case .problem(let why):
                problems.add(line: number, why)
            }
        }
    }

    /// An ISO time prefix of the line `bytes[from..<to]` (`2026-05-26T11:50:55Z `, also with `: `
    /// or without the `Z`) and where the beacon starts; nil and `from` when there is none.
    static func timePrefix(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> (Double?, Int) {
        guard to - from > 20, bytes[from] >= 0x30, bytes[from] <= 0x39 else { return (nil, from) }
        var cut = from
        while cut < to, cut - from < 40, bytes[cut] != 0x20 { cut += 1 }
        guard cut < to, bytes[cut] == 0x20 else { return (nil, from) }
        var stampEnd = cut
        if bytes[stampEnd - 1] == 0x3A { stampEnd -= 1 }
        var stamp = String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<stampEnd]), as: UTF8.self)
        if !stamp.hasSuffix("Z") { stamp += "Z" }
        guard let t = Timestamp.parse(stamp) else { return (nil, from) }
        return (t, cut + 1)
    }

    /// An ISO time prefix and the rest of the line (nil: none).
    static func splitTime(_ line: String) -> (Double?, Substring) {
        var copy = line
        let (time, start) = copy.withUTF8 { timePrefix($0, from: 0, to: $0.count) }
        guard time != nil else { return (nil, Substring(line)) }
        return (time, line[line.utf8.index(line.utf8.startIndex, offsetBy: start)...])
    }

    /// Reads the file at `path` (its lines without a time on the day it was last written, UTC,
    /// unless `date` names one).
    package static func read(path: String, date: Double? = nil) throws(GatewayError) -> APRSLog {
        var kept: [Entry] = []
        var log = try forEach(path: path, date: date) { kept.append($0) }
        log.entries = kept
        return log
    }

    /// Reads the file at `path` as `read` does, handing each beacon to `body` as it is read
    /// instead of keeping them (what `decode` prints); returns the counts (no entries).
    @discardableResult
    package static func forEach(path: String, date: Double? = nil, _ body: (Entry) -> Void) throws(GatewayError) -> APRSLog {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GatewayError.file(path: path, reason: "cannot read the APRS log (missing or unreadable)")
        }
        var day = date
        if day == nil, let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date {
            day = (modified.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        }
        var log = APRSLog()
        data.withUnsafeBytes { raw in log.scan(raw.bindMemory(to: UInt8.self), day: day ?? 0, body) }
        return log
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
