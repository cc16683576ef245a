import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GDL90
import GatewaySupport
import GatewayRecords
import GatewayNotams

/// A real-shaped NOTAM set for benchmarks and coverage checks: FAA NOTAM API features in the
/// mix a busy region's reply has (about two thirds aerodrome NOTAMs: runways, taxiways,
/// obstacles, navaids; one third airspace: TFRs with official polygons, restricted areas with
/// multi-part geometry, MOAs as open boundary pieces, circles in every wording, corridors,
/// GPS tests, parachute areas, ICAO NOTAMs with Q-lines), every wording the parsers must read.
/// Deterministic: the same count gives the same bytes.
package enum NotamCorpus {
    /// Writes `count` features as `{"items": [...]}` to `path`, one feature at a time.
    package static func write(count: Int, to path: String) throws(GatewayError) {
        let out = try OpenFile.writing(path)
        try out.write(Array("{\"pageSize\":\(count),\"pageNum\":1,\"totalCount\":\(count),\"totalPages\":1,\"items\":[\n".utf8))
        var seed: UInt64 = 7
        func random() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for i in 0..<count {
            try out.write(Array(((i > 0 ? ",\n" : "") + feature(i, random: random)).utf8))
        }
        try out.write(Array("\n]}\n".utf8))
    }

    static func dms(_ v: Double, degreeDigits: Int) -> String {
        let a = abs(v)
        let d = Int(a), m = Int((a - Double(d)) * 60), s = Int(((a - Double(d)) * 60 - Double(m)) * 60)
        return String(repeating: "0", count: max(0, degreeDigits - String(d).count)) + String(d)
            + (m < 10 ? "0" : "") + String(m) + (s < 10 ? "0" : "") + String(s)
    }

    static func coordinate(_ p: Position, slash: Bool = false) -> String {
        dms(p.latitude, degreeDigits: 2) + (p.latitude < 0 ? "S" : "N") + (slash ? "/" : "") + dms(p.longitude, degreeDigits: 3) + (p.longitude < 0 ? "W" : "E")
    }

    static func ring(_ points: [Position]) -> String {
        "[" + (points + [points[0]]).map { "[\(JSONWriter.format($0.longitude, decimals: 6)),\(JSONWriter.format($0.latitude, decimals: 6))]" }.joined(separator: ",") + "]"
    }

    static func line(_ points: [Position]) -> String {
        "[" + points.map { "[\(JSONWriter.format($0.longitude, decimals: 6)),\(JSONWriter.format($0.latitude, decimals: 6))]" }.joined(separator: ",") + "]"
    }

    static func box(_ c: Position, _ w: Double, _ h: Double) -> [Position] {
        [Position(latitude: c.latitude - h, longitude: c.longitude - w), Position(latitude: c.latitude - h, longitude: c.longitude + w),
         Position(latitude: c.latitude + h, longitude: c.longitude + w), Position(latitude: c.latitude + h, longitude: c.longitude - w)]
    }

    /// One feature of kind `i % 20`.
    static func feature(_ i: Int, random: () -> Double) -> String {
        let c = Position(latitude: 26 + random() * 22, longitude: -123 + random() * 53)
        let month = i / 1000 % 12 + 1
        let number = "\(month < 10 ? "0" : "")\(month)/\(String(i % 1000 + 1000).suffix(3))"
        let airports = ["KSLE", "KPDX", "KLAW", "KOKC", "KDEN", "KABQ", "KSAN", "KSEA", "KBOS", "KATL"]
        let icao = airports[i % airports.count]
        let loc = String(icao.dropFirst())
        let times = "2605161300-2605172300"
        var account = loc, classification = "DOM", selection = "", text: String, geometry = #"{"type":"GeometryCollection","geometries":[]}"#
        var fdc = false, extra = "", end = "2026-05-17T23:00:00Z", validity = times
        switch i % 20 {
        case 0:  // FDC TFR, circle in the text and as the official polygon
            fdc = true; selection = "QRTCA"
            text = "OR..AIRSPACE SALEM, OR..TEMPORARY FLIGHT RESTRICTIONS WI AN AREA DEFINED AS 3NM RADIUS OF \(coordinate(c)) (SLE) SFC-3000FT MSL. PURSUANT TO 14 CFR SECTION 91.137(A)(1)"
            geometry = #"{"type":"Polygon","coordinates":["# + ring((0..<120).map { Geodesy.destination(from: c, bearingDeg: Double($0) * 3, distanceNM: 3) }) + "]}"
        case 1:  // restricted area activation, two official parts, limits only in the text
            account = "Z" + loc.prefix(2); selection = "QRRCA"
            text = "AIRSPACE R\(2500 + i % 400)A ACT SFC-7999FT"
            geometry = #"{"type":"MultiPolygon","coordinates":[["# + ring(box(c, 0.2, 0.1)) + "],[" + ring(box(Position(latitude: c.latitude + 0.3, longitude: c.longitude), 0.2, 0.1)) + "]]}"
        case 2:  // MOA, open boundary pieces
            account = "Z" + loc.prefix(2)
            text = "AIRSPACE DEMO \(i % 7 + 1)A MOA ACT 1000FT-FL180"
            let b = box(c, 0.4, 0.25)
            geometry = #"{"type":"GeometryCollection","geometries":[{"type":"LineString","coordinates":"# + line(Array(b[0...2]))
                + #"},{"type":"LineString","coordinates":"# + line([b[2], b[3], b[0]]) + "}]}"
        case 3:  // MOA without geometry, ceiling "UP TO BUT NOT INCLUDING"
            account = "Z" + loc.prefix(2)
            text = "AIRSPACE TAOS MOA ACT UP TO BUT NOT INCLUDING FL225"
        case 4:
            fdc = true
            text = "CA..AIRSPACE SANTA ANA, CA..TEMPORARY FLIGHT RESTRICTIONS WI 3 NMR OF \(coordinate(c, slash: true)) SFC-2000FT. PURSUANT TO 14 CFR SECTION 91.137(A)(2)"
        case 5:
            account = "GPS"; classification = "DOM"
            text = "NAV GPS (WSMR GPS 26-\(i % 50)) (INCLUDING WAAS, GBAS, AND ADS-B) MAY NOT BE AVBL WI A 372NM RADIUS CENTERED AT \(coordinate(c)) (TCS054036) FL400-UNL"
        case 6:
            text = "AIRSPACE UAS WI AN AREA DEFINED AS 0.2NM EITHER SIDE OF A LINE FM \(coordinate(c)) TO \(coordinate(Position(latitude: c.latitude + 0.03, longitude: c.longitude + 0.05))) TO \(coordinate(Position(latitude: c.latitude + 0.08, longitude: c.longitude + 0.06))) SFC-400FT AGL"
        case 7:
            text = "AIRSPACE PJE WI AN AREA DEFINED AS 5NM RADIUS OF \(coordinate(c)) UP TO AND INCLUDING 17999FT"
        case 8:
            text = "AIRSPACE UAS WI AN AREA DEFINED AS \(coordinate(c))-\(coordinate(Position(latitude: c.latitude + 0.05, longitude: c.longitude)))-\(coordinate(Position(latitude: c.latitude + 0.05, longitude: c.longitude + 0.05)))-\(coordinate(c)) UP TO AND INCLUDING 3000FT AGL"
        case 9:  // ICAO format with a Q-line circle only
            classification = "INTL"
            let q = "\(dms(c.latitude, degreeDigits: 2).prefix(4))N\(dms(c.longitude, degreeDigits: 3).prefix(5))W005"
            text = "Q) KZSE/QWPLW/IV/BO/W/000/120/\(q)\nA) \(icao) B) 2605161300 C) 2605172300\nE) PJE WILL TAKE PLACE\nF) SFC G) FL120"
        case 10, 11, 12:
            text = "RWY \(i % 36 + 1)/\((i % 36 + 18) % 36 + 1) CLSD"
            selection = "QMRLC"
        case 13, 14:
            text = "TWY \(["A", "B", "N", "C"][i % 4]) CLSD"
            validity = "2605161300-2605172300EST"
        case 15, 16:
            text = "OBST CRANE (ASN 2026-ANM-\(i)) \(coordinate(c)) (1.2NM N \(loc)) 350FT (150FT AGL) FLAGGED AND LGTD"
        case 17:
            text = "NAV VOR U/S"
            end = "PERM"; validity = "2605161300-PERM"
        case 18:
            text = "SVC TWR CLSD"
            extra = #","coordinates":"\#(dms(c.latitude, degreeDigits: 2).prefix(4))N\#(dms(c.longitude, degreeDigits: 3).prefix(5))W""#
        default:
            text = "AD AP BCN OTS"
        }
        if fdc { account = "FDC"; classification = "FDC" }
        let num = fdc ? "6/\(1000 + i)" : number
        let domestic = classification == "INTL" ? nil : "!\(account) \(num) \(loc) \(text) \(validity)"
        func esc(_ s: String) -> String { s.replacingAll("\"", with: "\\\"").replacingAll("\n", with: "\\n") }
        // The API sends the ICAO form beside the domestic one (as HTML-ish formatted text).
        let icaoForm = #"{"type":"ICAO","formattedText":"A\#(1000 + i % 9000)/26 NOTAMN\nQ) KZSE/\#(selection.isEmpty ? "QXXXX" : selection)/IV/NBO/A/000/999/\#(dms(c.latitude, degreeDigits: 2).prefix(4))N\#(dms(c.longitude, degreeDigits: 3).prefix(5))W005\nA) \#(icao)\nB) 2605161300\nC) 2605172300\nE) \#(esc(text))"}"#
        let translation = domestic.map { #"{"type":"LOCAL_FORMAT","simpleText":"\#(esc($0))"},"# + icaoForm } ?? icaoForm
        return """
            {"type":"Feature","properties":{"coreNOTAMData":{"notamEvent":{"scenario":"6000"},"notam":{"id":"NOTAM_1_\(80_000_000 + i)",\
            "series":"","number":"\(num)","type":"N","issued":"2026-05-15T18:00:00Z","affectedFIR":"KZSE","location":"\(loc)",\
            "icaoLocation":"\(icao)","effectiveStart":"2026-05-16T13:00:00Z","effectiveEnd":"\(end)",\
            "text":"\(esc(text))","classification":"\(classification)","accountId":"\(account)","selectionCode":"\(selection)"\(extra)},\
            "notamTranslation":[\(translation)]}},"geometry":\(geometry)}
            """
    }

    /// Coverage of a parsed set: the share with an area, with limits, with a kind.
    package static func coverage(_ notams: [Notam]) -> (area: Double, limits: Double, kind: Double) {
        let n = Double(max(1, notams.count))
        return (Double(notams.filter { $0.geometry != nil }.count) / n, Double(notams.filter { $0.limits != nil }.count) / n,
                Double(notams.filter { $0.kind != nil }.count) / n)
    }
}

extension Benchmarks {
    /// Peak resident memory (VmHWM), MB.
    package static func peakResidentMB() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            if let kb = line.split(separator: " ").compactMap({ Double($0) }).first { return kb / 1024 }
        }
        return nil
    }

    /// Resets the peak to the current resident size (Linux `clear_refs` 5); false when refused.
    @discardableResult
    package static func resetPeakResident() -> Bool {
        guard let h = try? OpenFile.writing("/proc/self/clear_refs") else { return false }
        return (try? h.write(Array("5".utf8))) != nil
    }

    /// `notams import` end to end on a real-shaped set of `count` NOTAMs (`NotamCorpus`): the
    /// streamed reader (one feature decoded at a time) beside the same run's baseline, the whole
    /// file parsed as one JSON tree (what import did before); each stored into a fresh database
    /// in one refresh. Rates in NOTAMs/s, peaks as resident MB (VmHWM, reset between the two).
    /// `corpus`: where to write the set (kept); nil: a temporary file, removed.
    package static func notamImport(count: Int = 10_000, corpus: String? = nil) throws(GatewayError) -> [Result] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notam-bench-\(UUID())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = corpus ?? dir.appendingPathComponent("corpus.json").path
        try NotamCorpus.write(count: count, to: path)
        let size = ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? 0
        func run(_ name: String, _ load: () throws(GatewayError) -> [Notam]) throws(GatewayError) -> (rate: Double, peak: Double?, stored: Int, notams: [Notam]) {
            resetPeakResident()
            let t0 = DispatchTime.now().uptimeNanoseconds
            let notams = try load()
            let store = NotamStore(database: try GatewayDatabase(path: dir.appendingPathComponent("\(name).sqlite").path))
            try store.refresh(source: "file", notams: notams, at: Timestamp.parse("2026-05-16T12:00:00Z")!) { _ in false }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
            return (Double(notams.count) / seconds, peakResidentMB(), try store.count(), notams)
        }
        let streamed = try run("streamed") { () throws(GatewayError) in try NotamFile.read(path: path) }
        let whole = try run("whole") { () throws(GatewayError) in
            guard let data = FileManager.default.contents(atPath: path) else { throw GatewayError.unreadable(what: "NOTAM file", path: path) }
            // What import did before: the whole file as one JSON tree, then each feature.
            guard let object = JSONReader.object(data), let items = object["items"] as? [Any] else {
                throw GatewayError.content(place: path, reason: "not the NOTAM API's JSON")
            }
            return items.compactMap { ($0 as? [String: Any]).flatMap { FAANotamAPI.notam($0) } }
        }
        let cov = NotamCorpus.coverage(streamed.notams)
        let t0 = DispatchTime.now().uptimeNanoseconds
        let parsedOnly = try NotamFile.read(path: path).count
        let parseRate = Double(parsedOnly) / (Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
        let mb = Double(size) / 1_048_576
        return [
            Result(name: "notam import rate (\(count) NOTAMs, \(JSONWriter.format(mb, decimals: 1)) MB, streamed → SQLite)", value: streamed.rate, unit: "NOTAMs/s",
                   baseline: whole.rate, note: "baseline: whole file as one JSON tree; \(streamed.stored) stored"),
            Result(name: "notam import peak resident memory (streamed)", value: streamed.peak ?? 0, unit: "MB",
                   baseline: whole.peak, note: "baseline: whole file as one JSON tree (measured after, peak reset between)"),
            Result(name: "notam file read + parse only (streamed)", value: parseRate, unit: "NOTAMs/s"),
            Result(name: "notam coverage: with an area", value: cov.area * 100, unit: "%", note: "with limits \(JSONWriter.format(cov.limits * 100, decimals: 1)) %, with a kind \(JSONWriter.format(cov.kind * 100, decimals: 1)) %"),
        ]
    }
}
