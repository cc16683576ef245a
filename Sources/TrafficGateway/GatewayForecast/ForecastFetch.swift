import GatewaySupport
import GatewayRecords
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Fetches a model run's composite reflectivity hour by hour from NOMADS's GRIB filter (only the
/// box, only REFC), decodes and draws each hour, and keeps the run (`ForecastStore`): complete
/// when every hour asked for is drawn, else partial with what is missing and why, completed by
/// the next fetch of the same run. A bad or empty reply never replaces what is kept.
package struct ForecastFetch: Sendable {
    package var model: ForecastModel
    /// NOMADS, or a mirror or test server.
    package var base = "https://nomads.ncep.noaa.gov"
    /// The box, degrees.
    package var west: Double, south: Double, east: Double, north: Double
    /// f00 to this hour at most (nil: the whole run).
    package var lastHour: Int?
    /// Degrees a pixel of the pictures (0.02°: about 1.2 NM, under the models' 3 km).
    package var pixel = 0.02
    package var store: ForecastStore
    package var http: HTTPClient
    package var keepRuns = 5
    package var maxMB = 150

    /// A fetch of `model` over a box into `store`.
    package init(model: ForecastModel, west: Double, south: Double, east: Double, north: Double, store: ForecastStore) {
        self.model = model
        (self.west, self.south, self.east, self.north) = (west, south, east, north)
        self.store = store
        var http = HTTPClient()
        http.timeout = 60
        http.retryDelays = [2]
        self.http = http
    }

    /// What one fetch did.
    package struct Outcome: Sendable {
        package var run: ForecastRun
        /// Hours drawn by this fetch.
        package var drawn: Int
        /// Runs removed by `keep_runs` and `max_mb`, in words.
        package var removed: [String]
    }

    /// The hours of `run` asked for.
    package func hours(for run: Double) -> [Int] {
        let runHour = Int(run.truncatingRemainder(dividingBy: 86_400) / 3600)
        let all = model.hours(runHour: runHour)
        return Array(all.lowerBound...min(all.upperBound, lastHour ?? all.upperBound))
    }

    /// The newest run whose last hour asked for is on the server, tried from the current hour
    /// backwards (12 hourly HRRR runs, 4 NAM cycles); nil when none answers with GRIB.
    package func newestRun(now: Double, progress: @Sendable (String) -> Void = { _ in }) async -> Double? {
        let hour = (now / 3600).rounded(.down) * 3600
        let step = Double(model.cycle) * 3600
        var t = (hour / step).rounded(.down) * step
        for _ in 0..<(model == .hrrr ? 12 : 4) {
            let last = hours(for: t).last ?? 0
            let url = model.url(base: base, run: t, hour: last, west: west, south: south, east: east, north: north)
            if let r = try? await http.get(url), (try? ForecastGRIB.decode(r.body)) != nil { return t }
            progress("\(model.label) \(ForecastStore.runName(t)) not complete on the server yet")
            t -= step
        }
        return nil
    }

    /// Fetches `run` (what is missing of it when it was fetched before), draws and keeps it.
    package func fetch(run: Double, progress: @Sendable (String) -> Void = { _ in }) async -> Outcome {
        let wanted = hours(for: run)
        var r = store.runs(model).first { $0.run == run && $0.west == Self.rounded(west) && $0.north == Self.rounded(north) }
            ?? ForecastRun(model: model, run: run, hours: wanted, fetched: [], problems: [:], west: Self.rounded(west), south: Self.rounded(south),
                           east: Self.rounded(east), north: Self.rounded(north), bytesFetched: 0)
        r.hours = Array(Set(r.hours + wanted)).sorted()
        var drawn = 0
        for hour in r.missing {
            let key = ForecastStore.stem(hour)
            let url = model.url(base: base, run: run, hour: hour, west: west, south: south, east: east, north: north)
            do {
                let reply = try await http.get(url)
                let clock = ContinuousClock(), started = clock.now
                let field = try ForecastGRIB.decode(reply.body)
                let decoded = clock.now
                guard field.run == run, field.forecastHour == hour else {
                    throw ForecastError("a file of run \(ForecastStore.runName(field.run)) hour \(field.forecastHour), not the one asked for")
                }
                let picture = ForecastPicture.draw(field, west: west, south: south, east: east, north: north, pixel: pixel)
                let drawnAt = clock.now
                try store.write(picture, field: field, model: model, source: url)
                let written = clock.now
                r.fetched.append(hour)
                r.problems[key] = nil
                r.bytesFetched += reply.body.count
                drawn += 1
                func ms(_ d: Duration) -> String { JSONWriter.format(Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000, decimals: 1) }
                progress("\(model.label) \(ForecastStore.runName(run)) \(key): \(reply.body.count / 1024) kB, \(field.nx)×\(field.ny) points, "
                         + "drawn \(picture.width)×\(picture.height) (decoded in \(ms(decoded - started)) ms, drawn in \(ms(drawnAt - decoded)) ms, PNG and files in \(ms(written - drawnAt)) ms)")
            } catch let e as FetchError {
                r.problems[key] = e.status.map { "HTTP \($0)" + ($0 == 404 ? ": not on the server (yet)" : ": \(e.reason)") } ?? e.reason
                progress("\(model.label) \(ForecastStore.runName(run)) \(key): \(r.problems[key]!)")
                // The network gone: the hours after it would fail the same way; the next refresh goes on.
                if e.kind == .network { break }
            } catch {
                r.problems[key] = "\(error)"
                progress("\(model.label) \(ForecastStore.runName(run)) \(key): \(error)")
            }
            try? store.save(r)
        }
        try? store.save(r)
        let removed = store.prune(keepRuns: keepRuns, maxMB: maxMB)
        return Outcome(run: r, drawn: drawn, removed: removed)
    }

    static func rounded(_ v: Double) -> Double { (v * 10_000).rounded() / 10_000 }

    /// A box around `centre` with `radiusNM`, or around every point of a route with it as margin.
    package static func box(points: [(Double, Double)], radiusNM: Double) -> (west: Double, south: Double, east: Double, north: Double)? {
        guard !points.isEmpty else { return nil }
        let dLat = radiusNM / 60
        let lats = points.map(\.0), lons = points.map(\.1)
        let midLat = (lats.min()! + lats.max()!) / 2
        let dLon = radiusNM / (60 * max(0.05, cos(midLat * .pi / 180)))
        return (lons.min()! - dLon, max(-90, lats.min()! - dLat), lons.max()! + dLon, min(90, lats.max()! + dLat))
    }
}
