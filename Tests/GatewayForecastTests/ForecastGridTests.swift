import Testing
import Foundation
@testable import GatewayForecast

/// The forecast radar's own arithmetic, against hand-computed values: the bands, the Lambert
/// grid's inverse mapping, the GRIB checks made before ecCodes is asked, the NOMADS URLs, the
/// run names. (The whole path against ecCodes-made files is ForecastEndToEndTests.)
@Suite struct ForecastGridTests {
    @Test func bandsAreFiveDBZWide() {
        #expect(ForecastPicture.band(nil) == 0 && ForecastPicture.band(-12) == 0 && ForecastPicture.band(4.99) == 0)
        #expect(ForecastPicture.band(5) == 1 && ForecastPicture.band(9.9) == 1 && ForecastPicture.band(10) == 2)
        #expect(ForecastPicture.band(72) == 14 && ForecastPicture.band(75) == 15 && ForecastPicture.band(90) == 15)
    }

    @Test func lambertGridPointsFromTheFilesParameters() {
        // HRRR's cone (standard parallels 38.5°, LoV 262.5°, a sphere of 6,371,229 m), 3 km, the
        // first point at 43.5 N 125 W: that point is (0, 0), and LoV's meridian is straight up.
        let scan = ForecastGrid.Scan(iNegative: false, jPositive: true, jConsecutive: false)
        let l = LambertConformal(lat1: 43.5, lon1: -125, lov: 262.5, latin1: 38.5, latin2: 38.5, dx: 3000, dy: 3000, radius: 6_371_229, scan: scan)
        let first = l.gridPoint(latitude: 43.5, longitude: -125)
        #expect(abs(first.i) < 1e-9 && abs(first.j) < 1e-9)
        // Values from the cone's formulas worked by hand (Snyder, Map Projections, 15-1 to 15-4):
        // 0.27° north along 125 W, 9.60 rows up and 2.96 columns east (the meridian leans
        // toward LoV, 27.5° east); 1° east along 43.5 N, 25.84 columns east and 7.81 rows down
        // (the parallel curves).
        let north = l.gridPoint(latitude: 43.77, longitude: -125)
        #expect(abs(north.i - 2.958) < 0.01 && abs(north.j - 9.604) < 0.01, "\(north)")
        let east = l.gridPoint(latitude: 43.5, longitude: -124)
        #expect(abs(east.i - 25.839) < 0.01 && abs(east.j + 7.805) < 0.01, "\(east)")
    }

    @Test func notGRIBAndTruncatedAreNamedBeforeECCodes() {
        #expect(throws: ForecastError("not a GRIB file (it begins '<html><body>busy</body></html>')")) {
            try ForecastGRIB.decode(Array("<html><body>busy</body></html>".utf8))
        }
        var grib = Array("GRIB".utf8) + [0, 0, 0, 2] + [0, 0, 0, 0, 0, 0, 0x10, 0]  // declares 4,096 bytes
        grib += [UInt8](repeating: 0, count: 100)
        #expect(throws: ForecastError("truncated GRIB message: 116 bytes of the 4096 it declares")) { try ForecastGRIB.decode(grib) }
    }

    @Test func nomadsURLsAndRunNames() {
        let run = ForecastStore.runTime("2026120518")!
        #expect(ForecastStore.runName(run) == "2026120518")
        #expect(ForecastModel.hrrr.url(base: "https://nomads.ncep.noaa.gov/", run: run, hour: 7, west: -126.5, south: 41.6, east: -119.4, north: 48.2)
                == "https://nomads.ncep.noaa.gov/cgi-bin/filter_hrrr_2d.pl?dir=%2Fhrrr.20261205%2Fconus&file=hrrr.t18z.wrfsfcf07.grib2&var_REFC=on&lev_entire_atmosphere=on&subregion=&leftlon=-126.5&rightlon=-119.4&toplat=48.2&bottomlat=41.6")
        #expect(ForecastModel.nam.url(base: "http://127.0.0.1:9", run: run, hour: 42, west: 0, south: 0, east: 1, north: 1)
                .contains("filter_nam_conusnest.pl?dir=%2Fnam.20261205&file=nam.t18z.conusnest.hiresf42.tm00.grib2"))
        #expect(ForecastModel.hrrr.hours(runHour: 18) == 0...48 && ForecastModel.hrrr.hours(runHour: 17) == 0...18 && ForecastModel.nam.hours(runHour: 6) == 0...60)
    }
}

/// What the feeds server answers about the runs kept (`/weather/forecast/`), and which paths it
/// will ever read (issue 55).
@Suite struct ForecastIndexTests {
    static func store() throws -> ForecastStore {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-forecast-index-\(UUID().uuidString)").path
        return ForecastStore(root: root)
    }

    static func run(_ model: ForecastModel, _ name: String, hours: [Int], fetched: [Int]) -> ForecastRun {
        ForecastRun(model: model, run: ForecastStore.runTime(name)!, hours: hours, fetched: fetched, problems: [:],
                    west: -124, south: 44, east: -122, north: 46, bytesFetched: 1000)
    }

    @Test func theIndexNamesTheCurrentRunItsHoursAndEveryRunKept() throws {
        let store = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: store.root) }
        #expect(store.indexJSON(preferred: nil) == #"{"current":null,"runs":[]}"#)
        try store.save(Self.run(.hrrr, "2026120512", hours: [0, 1, 2], fetched: [0, 1, 2]))
        try store.save(Self.run(.hrrr, "2026120518", hours: [0, 1, 2], fetched: [0, 2]))
        try store.save(Self.run(.nam, "2026120506", hours: [0, 1], fetched: [0, 1]))
        let json = store.indexJSON(preferred: nil)
        // The newest complete HRRR run (the partial 18Z is listed, never current).
        #expect(json.hasPrefix(#"{"current":{"model":"hrrr","label":"HRRR","run":"2026120512","runTime":"2026-12-05T12:00:00Z","hours":[{"hour":0,"valid":"2026-12-05T12:00:00Z","png":"/weather/forecast/hrrr/2026120512/f00.png","pgw":"/weather/forecast/hrrr/2026120512/f00.pgw","json":"/weather/forecast/hrrr/2026120512/f00.json"},"#), "\(json)")
        #expect(json.contains(#"{"hour":2,"valid":"2026-12-05T14:00:00Z","png":"/weather/forecast/hrrr/2026120512/f02.png""#))
        #expect(json.hasSuffix(#""runs":[{"model":"hrrr","run":"2026120518","state":"partial","missing":["f01"]},{"model":"hrrr","run":"2026120512","state":"complete","missing":[]},{"model":"nam","run":"2026120506","state":"complete","missing":[]}]}"#), "\(json)")
        // `[forecast] model = "nam"`: its run is the current one.
        #expect(store.indexJSON(preferred: .nam).hasPrefix(#"{"current":{"model":"nam","label":"NAM nest","run":"2026120506","#))
    }

    @Test func onlyTheStoresOwnFilesAreServed() {
        let store = ForecastStore(root: "/var/lib/skygate/forecast")
        #expect(store.servedFile(model: "hrrr", run: "2026120512", name: "f07.png") == "/var/lib/skygate/forecast/hrrr/2026120512/f07.png")
        #expect(store.servedFile(model: "nam", run: "2026120506", name: "f60.json") == "/var/lib/skygate/forecast/nam/2026120506/f60.json")
        for (model, run, name) in [("gfs", "2026120512", "f00.png"), ("hrrr", "20261205", "f00.png"), ("hrrr", "2026120512", "run.json"),
                                   ("hrrr", "2026120512", "f00.grib2"), ("hrrr", "2026120512", "f0.png"), ("hrrr", "2026120512", "../f00.png"),
                                   ("hrrr", "..", "f00.png"), ("hrrr", "2026120512", "f00.png.png"), ("hrrr", "2026120512", "f٠١.png")] {
            #expect(store.servedFile(model: model, run: run, name: name) == nil, "\(model)/\(run)/\(name)")
        }
    }
}

/// `[forecast] max_mb` and `keep_runs` (issue 55): the oldest runs go first, said, never a model's
/// current (newest complete) run, whatever the limits.
@Suite struct ForecastPruneTests {
    @Test func megabytesAndRunsAreCappedOldestFirstNeverTheCurrent() throws {
        let store = try ForecastIndexTests.store()
        defer { try? FileManager.default.removeItem(atPath: store.root) }
        // Five HRRR runs of 400 kB each (2.0 MB): the newest partial, the one before it complete.
        let names = ["2026120500", "2026120501", "2026120502", "2026120503", "2026120504"]
        for (k, name) in names.enumerated() {
            let r = ForecastIndexTests.run(.hrrr, name, hours: [0, 1], fetched: k == 4 ? [0] : [0, 1])
            try store.save(r)
            try [UInt8](repeating: 7, count: 400 << 10).write(to: store.folder(.hrrr, r.run) + "/f00.png")
        }
        // 1 MB: the oldest go until what is left fits (2 runs of 400 kB); the current one stays.
        let removed = store.prune(keepRuns: 10, maxMB: 1)
        #expect(removed == ["HRRR run 2026120500 (more than 1 MB on disk)", "HRRR run 2026120501 (more than 1 MB on disk)",
                            "HRRR run 2026120502 (more than 1 MB on disk)"], "\(removed)")
        #expect(store.runs().map { ForecastStore.runName($0.run) } == ["2026120504", "2026120503"])
        #expect(store.current(.hrrr).map { ForecastStore.runName($0.run) } == "2026120503")
        // A limit no run fits under: the current run is still kept, the partial newer one goes.
        let more = store.prune(keepRuns: 10, maxMB: 0)
        #expect(more == ["HRRR run 2026120504 (more than 0 MB on disk)"], "\(more)")
        #expect(store.runs().map { ForecastStore.runName($0.run) } == ["2026120503"])
        // keep_runs 1 with one run left: nothing to do.
        #expect(store.prune(keepRuns: 1, maxMB: 150).isEmpty)
    }
}

extension Array where Element == UInt8 {
    fileprivate func write(to path: String) throws {
        try Data(self).write(to: URL(fileURLWithPath: path))
    }
}
