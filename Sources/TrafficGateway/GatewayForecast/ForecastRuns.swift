import GatewaySupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A weather model the forecast radar fetches, as NOAA's NOMADS GRIB filter serves it.
package enum ForecastModel: String, Sendable, CaseIterable {
    /// HRRR (3 km CONUS, hourly runs: f00–f18, f00–f48 for the 00/06/12/18Z runs).
    case hrrr
    /// NAM 3 km CONUS nest (00/06/12/18Z, f00–f60).
    case nam

    /// The forecast hours a run of this model has.
    package func hours(runHour: Int) -> ClosedRange<Int> {
        switch self {
        case .hrrr: 0...(runHour % 6 == 0 ? 48 : 18)
        case .nam: 0...60
        }
    }

    /// Hours between runs.
    package var cycle: Int { self == .hrrr ? 1 : 6 }

    /// The filter's URL for one forecast hour over a box (NOMADS's query form).
    package func url(base: String, run: Double, hour: Int, west: Double, south: Double, east: Double, north: Double) -> String {
        let day = ForecastStore.runName(run).prefix(8), hh = ForecastStore.runName(run).suffix(2)
        let ff = hour < 10 ? "0\(hour)" : "\(hour)"
        let (script, dir, file): (String, String, String)
        switch self {
        case .hrrr: (script, dir, file) = ("filter_hrrr_2d.pl", "/hrrr.\(day)/conus", "hrrr.t\(hh)z.wrfsfcf\(ff).grib2")
        case .nam: (script, dir, file) = ("filter_nam_conusnest.pl", "/nam.\(day)", "nam.t\(hh)z.conusnest.hiresf\(ff).tm00.grib2")
        }
        func d(_ v: Double) -> String { JSONWriter.format(v, decimals: 3) }
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        return "\(trimmed)/cgi-bin/\(script)?dir=\(HTTPEscape.component(dir))&file=\(file)&var_REFC=on&lev_entire_atmosphere=on&subregion=&leftlon=\(d(west))&rightlon=\(d(east))&toplat=\(d(north))&bottomlat=\(d(south))"
    }

    /// "HRRR", "NAM nest".
    package var label: String { self == .hrrr ? "HRRR" : "NAM nest" }
}

/// Percent-encoding of a query component.
enum HTTPEscape {
    static func component(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out += "%" + String(hex[Int(b >> 4)]) + String(hex[Int(b & 15)])
            }
        }
        return out
    }
}

/// One run kept: which hours were asked for, fetched and drawn, which are missing and why.
package struct ForecastRun: Sendable, Equatable {
    package var model: ForecastModel
    /// The run's reference time, seconds since 1970.
    package var run: Double
    /// Every hour asked for.
    package var hours: [Int]
    /// Hours fetched, decoded and drawn.
    package var fetched: [Int]
    /// Why a missing hour is missing ("f07": "HTTP 404").
    package var problems: [String: String]
    /// The box drawn, degrees.
    package var west: Double, south: Double, east: Double, north: Double
    /// GRIB bytes fetched for the run.
    package var bytesFetched: Int

    /// Hours asked for and not drawn.
    package var missing: [Int] { hours.filter { !fetched.contains($0) } }
    /// Every hour asked for is drawn.
    package var complete: Bool { missing.isEmpty }
}

/// The forecast runs kept beside the database: `forecast/<model>/<YYYYMMDDHH>/fFF.{png,pgw,json}`
/// and the run's `run.json` (what was asked, fetched, missing), each written whole and renamed into
/// place (`FileOutput`), the manifest after the hour's files: a power cut mid-fetch leaves the
/// last complete run complete and current.
package struct ForecastStore: Sendable {
    /// `…/forecast`.
    package let root: String

    /// The store beside `database` (its folder's `forecast/`).
    package init(database: String) {
        let folder = database.lastIndex(of: "/").map { String(database[..<$0]) } ?? "."
        root = folder + "/forecast"
    }

    /// A store at `root`.
    package init(root: String) { self.root = root }

    /// `YYYYMMDDHH` of a run time.
    package static func runName(_ t: Double) -> String {
        let iso = Timestamp.iso8601(t)  // 2026-12-05T12:00:00Z
        return String(iso.prefix(4)) + String(iso.dropFirst(5).prefix(2)) + String(iso.dropFirst(8).prefix(2)) + String(iso.dropFirst(11).prefix(2))
    }

    /// The run time of `YYYYMMDDHH`.
    package static func runTime(_ name: String) -> Double? {
        guard name.count == 10, name.allSatisfy(\.isNumber) else { return nil }
        let s = Array(name)
        return Timestamp.parse("\(String(s[0..<4]))-\(String(s[4..<6]))-\(String(s[6..<8]))T\(String(s[8..<10])):00:00Z")
    }

    /// A run's folder.
    package func folder(_ model: ForecastModel, _ run: Double) -> String { "\(root)/\(model.rawValue)/\(Self.runName(run))" }

    /// `fFF`.
    package static func stem(_ hour: Int) -> String { hour < 10 ? "f0\(hour)" : "f\(hour)" }

    /// Writes one hour's three files.
    package func write(_ picture: ForecastPicture, field: ForecastField, model: ForecastModel, source: String) throws(GatewayError) {
        let dir = folder(model, field.run)
        try makeDirectories(dir)
        let stem = dir + "/" + Self.stem(field.forecastHour)
        var w = JSONWriter()
        w.add("model", model.rawValue)
        w.add("run", Timestamp.iso8601(field.run))
        w.add("forecastHour", field.forecastHour)
        w.add("valid", Timestamp.iso8601(field.valid))
        var b = JSONWriter()
        b.add("west", picture.west, decimals: 4); b.add("south", picture.south, decimals: 4)
        b.add("east", picture.east, decimals: 4); b.add("north", picture.north, decimals: 4)
        w.addRaw("bounds", b.result)
        w.add("pixelDegrees", picture.pixel, decimals: 4)
        w.add("width", picture.width)
        w.add("height", picture.height)
        w.addRaw("levels", JSONWriter.array(ForecastPicture.legend.map { i, label in
            var l = JSONWriter()
            l.add("index", i)
            l.add("label", label)
            let (r, g, b) = ForecastPicture.palette[i]
            l.add("color", "#" + [r, g, b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())
            if i == 0 { l.add("transparent", true) }
            return l.result
        }))
        w.add("product", "composite reflectivity (REFC, entire atmosphere), model forecast, not observed radar")
        w.add("source", SecretMasking.url(source))
        try FileOutput.write(picture.png, to: stem + ".png")
        try FileOutput.write(Array(picture.worldFile.utf8), to: stem + ".pgw")
        try FileOutput.write(Array((w.result + "\n").utf8), to: stem + ".json")
    }

    /// Writes a run's manifest.
    package func save(_ r: ForecastRun) throws(GatewayError) {
        let dir = folder(r.model, r.run)
        try makeDirectories(dir)
        var w = JSONWriter()
        w.add("model", r.model.rawValue)
        w.add("run", Self.runName(r.run))
        w.addRaw("hours", "[" + r.hours.map(String.init).joined(separator: ",") + "]")
        w.addRaw("fetched", "[" + r.fetched.sorted().map(String.init).joined(separator: ",") + "]")
        var p = JSONWriter()
        for (k, v) in r.problems.sorted(by: { $0.key < $1.key }) { p.add(key: k, v) }
        w.addRaw("problems", p.result)
        var b = JSONWriter()
        b.add("west", r.west, decimals: 4); b.add("south", r.south, decimals: 4); b.add("east", r.east, decimals: 4); b.add("north", r.north, decimals: 4)
        w.addRaw("bounds", b.result)
        w.add("bytesFetched", r.bytesFetched)
        try FileOutput.write(Array((w.result + "\n").utf8), to: dir + "/run.json")
    }

    /// Every run kept, newest first (a manifest that cannot be read is skipped).
    package func runs(_ model: ForecastModel? = nil) -> [ForecastRun] {
        var out: [ForecastRun] = []
        for m in model.map({ [$0] }) ?? ForecastModel.allCases {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(m.rawValue)")) ?? [] {
                guard let run = Self.runTime(name), let data = FileManager.default.contents(atPath: "\(root)/\(m.rawValue)/\(name)/run.json"),
                      let o = JSONReader.object(Array(data)) else { continue }
                let bounds = o["bounds"] as? [String: Any] ?? [:]
                out.append(ForecastRun(model: m, run: run, hours: (o["hours"] as? [Any] ?? []).compactMap(JSONReader.int),
                                       fetched: (o["fetched"] as? [Any] ?? []).compactMap(JSONReader.int),
                                       problems: (o["problems"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String },
                                       west: bounds["west"] as? Double ?? 0, south: bounds["south"] as? Double ?? 0,
                                       east: bounds["east"] as? Double ?? 0, north: bounds["north"] as? Double ?? 0,
                                       bytesFetched: JSONReader.int(o["bytesFetched"]) ?? 0))
            }
        }
        return out.sorted { ($0.run, $0.model.rawValue) > ($1.run, $1.model.rawValue) }
    }

    /// What `GET /weather/forecast/` answers: the current run (of `preferred`, else of the first
    /// model with a complete run) with its hours' files and valid times, and every run kept with
    /// its state.
    package func indexJSON(preferred: ForecastModel?) -> String {
        let all = runs()
        let order = (preferred.map { [$0] } ?? []) + ForecastModel.allCases.filter { $0 != preferred }
        var w = JSONWriter()
        if let current = order.lazy.compactMap({ m in all.first { $0.model == m && $0.complete } }).first {
            let name = Self.runName(current.run), base = "/weather/forecast/\(current.model.rawValue)/\(name)/"
            var c = JSONWriter()
            c.add("model", current.model.rawValue)
            c.add("label", current.model.label)
            c.add("run", name)
            c.add("runTime", Timestamp.iso8601(current.run))
            c.addRaw("hours", JSONWriter.array(current.hours.sorted().map { hour in
                var h = JSONWriter()
                h.add("hour", hour)
                h.add("valid", Timestamp.iso8601(current.run + Double(hour) * 3600))
                for ext in ["png", "pgw", "json"] { h.add(key: ext, base + Self.stem(hour) + "." + ext) }
                return h.result
            }))
            w.addRaw("current", c.result)
        } else {
            w.addRaw("current", "null")
        }
        w.addRaw("runs", JSONWriter.array(all.map { r in
            var o = JSONWriter()
            o.add("model", r.model.rawValue)
            o.add("run", Self.runName(r.run))
            o.add("state", r.complete ? "complete" : "partial")
            o.addRaw("missing", JSONWriter.array(r.missing.map { "\"" + Self.stem($0) + "\"" }))
            return o.result
        }))
        return w.result
    }

    /// The path of a served file `/weather/forecast/<model>/<run>/<name>`, nil unless every part
    /// is what the store writes (a model, `YYYYMMDDHH`, `fFF.png|pgw|json`): nothing else under
    /// the folder, nothing outside it, is ever read.
    package func servedFile(model: String, run: String, name: String) -> String? {
        guard let m = ForecastModel(rawValue: model), Self.runTime(run) != nil else { return nil }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, ["png", "pgw", "json"].contains(parts[1]), parts[0].count == 3, parts[0].first == "f",
              parts[0].dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return "\(root)/\(m.rawValue)/\(run)/\(name)"
    }

    /// The current forecast of `model`: its newest complete run.
    package func current(_ model: ForecastModel) -> ForecastRun? { runs(model).first { $0.complete } }

    /// Bytes under a run's folder.
    package func bytes(_ r: ForecastRun) -> Int {
        let dir = folder(r.model, r.run)
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).reduce(0) { total, name in
            var info = stat()
            return total + (stat(dir + "/" + name, &info) == 0 ? Int(info.st_size) : 0)
        }
    }

    /// Keeps at most `keepRuns` runs a model and `maxMB` megabytes in all, the oldest going first,
    /// never a model's current (newest complete) run; returns what went, in words.
    @discardableResult
    package func prune(keepRuns: Int, maxMB: Int) -> [String] {
        var removed: [String] = []
        func remove(_ r: ForecastRun, _ why: String) {
            let dir = folder(r.model, r.run)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] { unlink(dir + "/" + name) }
            rmdir(dir)
            removed.append("\(r.model.label) run \(Self.runName(r.run)) (\(why))")
        }
        for m in ForecastModel.allCases {
            let current = self.current(m)
            for r in runs(m).dropFirst(max(keepRuns, 1)) where r != current { remove(r, "more than \(keepRuns) runs kept") }
        }
        var all = runs().sorted { $0.run < $1.run }
        var total = all.reduce(0) { $0 + bytes($1) }
        let currents = ForecastModel.allCases.compactMap(current)
        while total > maxMB << 20, let oldest = all.first(where: { !currents.contains($0) }) {
            total -= bytes(oldest)
            remove(oldest, "more than \(maxMB) MB on disk")
            all.removeAll { $0 == oldest }
        }
        return removed
    }
}
