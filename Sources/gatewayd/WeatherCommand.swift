import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GDL90
import GatewaySupport
import GatewayRecords
import GatewayWeather

/// `gatewayd weather`: weather kept for the flight (issue 42).
struct WeatherCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weather",
        abstract: "Fetch weather before the flight (aviationweather.gov) and show what is kept for it.",
        discussion: """
            On the ground, with internet: fetch METARs, TAFs, PIREPs, SIGMETs/AIRMETs, G-AIRMETs, CWAs and winds aloft for an area or a route into the gateway's database. In flight the page shows them beside what FIS-B brings, the newer of each by observation time, each saying where it came from and how old it is. A failed or empty answer never removes what is kept.

            Examples:
              gatewayd weather fetch --near KSLE --radius 75
              gatewayd weather fetch --route KSLE KPDX KSEA
              gatewayd weather list
            """,
        subcommands: [WeatherFetchCommand.self, WeatherListCommand.self, ForecastCommand.self]
    )
}

/// `gatewayd weather fetch`.
struct WeatherFetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch", abstract: "Fetch METAR, TAF, PIREP, SIGMET/AIRMET, G-AIRMET, CWA and winds aloft for an area or a route, and keep them.",
        usage: "gatewayd weather fetch (--near ICAO|LAT,LON [--radius NM] | --route ICAO ICAO …) [--database PATH]")

    @Option(parsing: .unconditional, help: "Centre: an airport (KSLE, from the airport table, no network) or LAT,LON.")
    var near: String?

    // `.unconditional`: a value may begin with "-" (`--radius -1` is then refused for its range,
    // not called a missing value; `--near -33.9,151.2` is a place).
    @Option(parsing: .unconditional, help: "Radius around --near, NM (5–300).")
    var radius: Double = 50

    @Option(parsing: .upToNextOption, help: "A route: airports in order (KSLE KPDX KSEA); the area is a box around them with --margin.")
    var route: [String] = []

    @Option(parsing: .unconditional, help: "Margin around the route, NM (5–200).")
    var margin: Double = 25

    @Option(help: "Base URL replacing the Data API's (a mirror, a proxy, a test server).")
    var url: String = AviationWeatherClient.defaultURL

    @OptionGroup var db: NotamDatabaseOption

    func validate() throws {
        if near == nil && route.isEmpty { throw ValidationError("give --near ICAO|LAT,LON (with --radius) or --route ICAO ICAO …") }
        if near != nil && !route.isEmpty { throw ValidationError("give --near or --route, not both") }
        if let near, AirportTable.place(near) == nil {
            throw ValidationError("--near \(near) is neither LAT,LON like 44.91,-123.00 nor an airport of the airport table (data/airports.bin)")
        }
        for id in route where AirportTable.shared?.airport(id) == nil {
            throw ValidationError("--route: \(id) is not an airport of the airport table (data/airports.bin)")
        }
        if route.count == 1 { throw ValidationError("--route needs at least two airports (or use --near \(route[0]))") }
        if !(5...300).contains(radius) { throw ValidationError("--radius must be 5 to 300 NM") }
        if !(5...200).contains(margin) { throw ValidationError("--margin must be 5 to 200 NM") }
    }

    /// The area asked for, with the station PIREPs are asked around.
    func area() -> WeatherArea? { WeatherArea.of(near: near, radiusNM: near == nil ? margin : radius, route: route) }

    func run() async throws {
        guard let area = area() else { throw CommandFailure("the route's airports were not found in the airport table") }
        let database: GatewayDatabase
        do { database = try GatewayDatabase(path: db.database ?? GatewayDatabase.defaultPath()) } catch { throw CommandFailure("\(error)") }
        var http = HTTPClient()
        http.onRetry = { attempt, reason in Terminal.error("weather: \(reason); retry \(attempt) of 3") }
        let fetch = WeatherFetch(client: AviationWeatherClient(baseURL: url, http: http), store: WeatherStore(database: database), area: area)
        Terminal.error("weather: fetching \(fetch.products.count) products for \(JSONWriter.format(area.south, decimals: 2))…\(JSONWriter.format(area.north, decimals: 2))° N, \(JSONWriter.format(area.west, decimals: 2))…\(JSONWriter.format(area.east, decimals: 2))° E (PIREPs within \(Int(area.radiusNM)) NM of \(area.centreStation)) from \(url)")
        let outcomes = await fetch.run(at: Date().timeIntervalSince1970) { Terminal.error("weather: " + $0.line) }
        let stored = (try? fetch.store.count()) ?? 0
        Terminal.error("weather: \(stored) reports kept in \(database.path)")
        try? database.close()
        if outcomes.allSatisfy({ $0.error != nil }) { throw CommandFailure("weather: every product failed (no network?): nothing new stored, \(stored) reports kept") }
    }
}

/// `gatewayd weather list`.
struct WeatherListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Print the weather kept for the flight (fetched), newest first by kind and station.")

    @Flag(help: "JSON Lines output.")
    var json = false

    @OptionGroup var db: NotamDatabaseOption

    func run() throws {
        let now = Date().timeIntervalSince1970
        let records: [WeatherRecord]
        let refreshes: [String: (time: Double, count: Int)]
        do {
            let database = try GatewayDatabase(path: db.database ?? GatewayDatabase.defaultPath())
            let store = WeatherStore(database: database)
            records = try store.all(at: now)
            refreshes = try store.refreshes()
        } catch {
            throw CommandFailure("\(error)")
        }
        var out = OutputBuffer(capacity: 1 << 16)
        for r in records {
            if json {
                var w = JSONWriter()
                w.add("kind", r.kind.rawValue)
                w.add("station", r.station)
                w.add("time", Timestamp.iso8601(r.time))
                w.add("expires", Timestamp.iso8601(r.expires))
                w.add("received", Timestamp.iso8601(r.received))
                w.add("source", r.source)
                w.add("text", r.text)
                out.append(w.result)
            } else {
                let minutes = Int((now - r.time) / 60)
                let age = minutes >= 0 ? "\(minutes) min old" : "valid in \(-minutes / 60) h \(-minutes % 60) min"
                out.append("\(Timestamp.iso8601(r.time))  \(r.kind.rawValue.paddedRight(8)) \((r.station ?? "").paddedRight(5)) \(age.paddedRight(16)) \(r.text.split(separator: "\n").joined(separator: " ").prefix(110))")
            }
            out.append(byte: 0x0A)
        }
        Terminal.out(&out)
        if !json {
            let lines = refreshes.sorted { $0.key < $1.key }.map { "\($0.key) \(Timestamp.iso8601($0.value.time)) (\($0.value.count))" }
            Terminal.error("weather: \(records.count) reports kept" + (lines.isEmpty ? "; never fetched (gatewayd weather fetch --near ICAO)" : "; last refreshes: " + lines.joined(separator: ", ")))
        }
    }
}
