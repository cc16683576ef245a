import ArgumentParser
import GatewayRuntime
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewaySupport
import GatewayRecords
import GatewayForecast

/// `gatewayd weather forecast`: model forecast radar kept for home and the route (issue 55).
struct ForecastCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forecast",
        abstract: "Fetch model forecast radar (HRRR, NAM nest) for an area or a route, drawn like the radar, and keep it for the flight.",
        discussion: """
            Composite reflectivity (REFC) of every forecast hour of a run, from NOAA's NOMADS GRIB filter (only the box is downloaded), decoded with ecCodes (sudo apt-get install libeccodes0) and drawn per hour as fFF.png (indexed, 5 dBZ bands), fFF.pgw (world file, WGS 84) and fFF.json, under the database's folder in forecast/<model>/<run>/. A run becomes the current forecast only when every hour asked for is drawn; one cut short is kept as partial and completed by the next fetch. Model forecast, not observed radar.

            Examples:
              gatewayd weather forecast fetch --near KSLE --radius 200
              gatewayd weather forecast fetch --model nam --route KSLE KPDX KSEA --hours 24
              gatewayd weather forecast list
            """,
        subcommands: [ForecastFetchCommand.self, ForecastListCommand.self]
    )
}

/// `gatewayd weather forecast fetch`.
struct ForecastFetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch", abstract: "Fetch, decode and draw a model run's reflectivity for an area or a route.",
        usage: "gatewayd weather forecast fetch [--model hrrr|nam] (--near ICAO|LAT,LON [--radius NM] | --route ICAO ICAO …) [--hours N] [--run YYYYMMDDHH] [--config FILE]")

    @Option(help: "hrrr (3 km, hourly runs, 18 h; 48 h at 00/06/12/18Z) or nam (NAM 3 km CONUS nest, 60 h every 6 h). Default: [forecast] model of --config, else hrrr.")
    var model: String?

    @Option(parsing: .unconditional, help: "Centre: an airport (KSLE, from the airport table) or LAT,LON. Default: [forecast] near of --config.")
    var near: String?

    @Option(parsing: .unconditional, help: "Radius around --near (or margin around --route), NM (10–400). Default: [forecast] radius_nm of --config, else 200.")
    var radius: Double?

    @Option(parsing: .upToNextOption, help: "A route: airports in order (KSLE KPDX KSEA). Default: [forecast] route of --config.")
    var route: [String] = []

    @Option(help: "The last forecast hour fetched: 3 means f00–f03 (default: [forecast] hours of --config, else the whole run).")
    var hours: Int?

    @Option(help: "The run, YYYYMMDDHH (default: the newest complete on the server, tried from the current hour backwards).")
    var run: String?

    @Option(help: "NOMADS base URL replacing https://nomads.ncep.noaa.gov (a mirror, a test server). Default: [forecast] url of --config.")
    var url: String?

    @Option(help: "Keep at most this many runs a model. Default: [forecast] keep_runs of --config, else 5.")
    var keepRuns: Int?

    @Option(help: "Keep at most this many megabytes of forecast pictures. Default: [forecast] max_mb of --config, else 150.")
    var maxMb: Int?

    @Option(help: "Configuration file: its [forecast] section (model, near or route, radius_nm, hours, url, keep_runs, max_mb) and its database, each taken where no option names it.")
    var config: String?

    @OptionGroup var db: NotamDatabaseOption

    func validate() throws {
        if let model, ForecastModel(rawValue: model) == nil { throw ValidationError("--model must be hrrr or nam") }
        if near == nil && route.isEmpty && config == nil { throw ValidationError("give --near ICAO|LAT,LON (with --radius), --route ICAO ICAO …, or --config FILE with [forecast] near or route") }
        if let near, AirportTable.place(near) == nil { throw ValidationError("--near \(near) is neither LAT,LON nor an airport of the airport table") }
        for id in route where AirportTable.place(id) == nil { throw ValidationError("--route: \(id) is not an airport of the airport table") }
        if let radius, !(10...400).contains(radius) { throw ValidationError("--radius must be 10 to 400 NM") }
        if let hours, hours < 0 { throw ValidationError("--hours must be 0 or more") }
        if let run, ForecastStore.runTime(run) == nil { throw ValidationError("--run must be YYYYMMDDHH, like 2026120512") }
    }

    /// The options, each from the command line, else from `[forecast]` of `--config`, else its default.
    struct Settings {
        var model: ForecastModel, places: [String], radius: Double, hours: Int?, url: String, keepRuns: Int, maxMB: Int, database: String
    }

    func settings() throws -> Settings {
        var c: GatewayConfig?
        if let config {
            do { c = try GatewayConfig.load(path: config, required: true) } catch { throw CommandFailure("\(error)") }
        }
        var places: [String] = route
        if let near { places = [near] } else if route.isEmpty, let c { places = c.forecastNear.map { [$0] } ?? c.forecastRoute }
        guard !places.isEmpty else { throw CommandFailure("forecast: no --near, no --route, and no [forecast] near or route in \(config ?? "the configuration")") }
        let model = ForecastModel(rawValue: self.model ?? c?.forecastModel ?? "hrrr") ?? .hrrr
        return Settings(model: model, places: places, radius: radius ?? c?.forecastRadiusNM ?? 200,
                        hours: hours ?? c.flatMap { $0.forecastHours > 0 ? $0.forecastHours : nil },
                        url: url ?? c?.forecastURL ?? "https://nomads.ncep.noaa.gov", keepRuns: keepRuns ?? c?.forecastKeepRuns ?? 5,
                        maxMB: maxMb ?? c?.forecastMaxMB ?? 150, database: db.database ?? c?.database ?? GatewayDatabase.defaultPath())
    }

    func run() async throws {
        let s = try settings()
        let model = s.model, url = s.url, database = s.database
        let points = s.places.compactMap(AirportTable.place).map { ($0.latitude, $0.longitude) }
        guard let box = ForecastFetch.box(points: points, radiusNM: s.radius) else { throw CommandFailure("forecast: no place to fetch for") }
        var fetch = ForecastFetch(model: model, west: box.west, south: box.south, east: box.east, north: box.north, store: ForecastStore(database: database))
        fetch.base = url
        fetch.lastHour = s.hours
        fetch.keepRuns = s.keepRuns
        fetch.maxMB = s.maxMB
        fetch.http.onRetry = { attempt, reason in Terminal.error("forecast: \(reason); retry \(attempt)") }
        let progress: @Sendable (String) -> Void = { Terminal.error("forecast: " + $0) }
        let runTime: Double
        if let run, let t = ForecastStore.runTime(run) {
            runTime = t
        } else {
            guard let t = await fetch.newestRun(now: Date().timeIntervalSince1970, progress: progress) else {
                throw CommandFailure("forecast: no complete \(model.label) run found on \(SecretMasking.url(url)) in the last \(model == .hrrr ? 12 : 24) hours (no network? the server down?); kept: \(ForecastStore(database: database).current(model).map { ForecastStore.runName($0.run) } ?? "none")")
            }
            runTime = t
        }
        let outcome = await fetch.fetch(run: runTime, progress: progress)
        let r = outcome.run
        for line in outcome.removed { Terminal.error("forecast: removed \(line)") }
        let state = r.complete ? "complete" : "partial, missing " + r.missing.map(ForecastStore.stem).joined(separator: " ")
        print("forecast: \(model.label) \(ForecastStore.runName(r.run)): \(r.fetched.count) of \(r.hours.count) hours drawn (\(outcome.drawn) now), \(r.bytesFetched / 1024) kB fetched, \(state); in \(fetch.store.folder(model, r.run))")
        if !r.complete { throw ExitCode(1) }
    }
}

/// `gatewayd weather forecast list`.
struct ForecastListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The forecast runs kept: complete or partial (the hours missing), and which is current.")

    @Flag(help: "One JSON object a run: {\"model\", \"run\", \"state\", \"missing\", \"current\", \"hours\"}.")
    var json = false

    @OptionGroup var db: NotamDatabaseOption

    func run() throws {
        let store = ForecastStore(database: db.database ?? GatewayDatabase.defaultPath())
        let runs = store.runs()
        let currents = ForecastModel.allCases.compactMap(store.current)
        if runs.isEmpty && !json { Terminal.error("forecast: no run kept in \(store.root) (gatewayd weather forecast fetch --near KSLE)") }
        for r in runs {
            if json {
                var w = JSONWriter()
                w.add("model", r.model.rawValue)
                w.add("run", ForecastStore.runName(r.run))
                w.add("state", r.complete ? "complete" : "partial")
                w.addRaw("missing", "[" + r.missing.map { "\"\(ForecastStore.stem($0))\"" }.joined(separator: ",") + "]")
                w.add("current", currents.contains(r))
                w.add("hours", r.hours.count)
                w.add("bytes", store.bytes(r))
                print(w.result)
            } else {
                let state = r.complete ? "complete" : "partial, missing " + r.missing.map(ForecastStore.stem).joined(separator: " ")
                    + (r.problems.isEmpty ? "" : " (" + r.problems.sorted { $0.key < $1.key }.prefix(3).map { "\($0.key): \($0.value)" }.joined(separator: "; ") + ")")
                print("\(r.model.label) \(ForecastStore.runName(r.run))  \(r.fetched.count)/\(r.hours.count) hours  \(store.bytes(r) / 1024) kB  \(state)\(currents.contains(r) ? "  CURRENT" : "")")
            }
        }
    }
}
