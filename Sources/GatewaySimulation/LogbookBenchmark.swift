#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import GDL90
import GatewaySupport
import GatewayDomain
import GatewayCaptures
import GatewayRecords

extension Benchmarks {
    /// The logbook (issue 23): `hours` of flight recordings (the two-flights scenario back to
    /// back, as the recorder's hour files) built into a logbook by `FlightImport`, beside the
    /// same run's plain replay of the same files (the baseline), each with its peak resident
    /// memory (VmHWM, reset before each); the import of a fifth of the hours shows the peak does
    /// not grow with the recording's length. Then each export of a 3 h flight (10,800 points).
    package static func logbook(hours: Int = 10, progress: (String) -> Void = { _ in }) throws(GatewayError) -> [Result] {
        let dir = "/tmp/gatewayd-bench-logbook-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
            throw GatewayError.file(path: dir, reason: "cannot create (\(error))")
        }
        progress("writing \(hours) h of recordings")
        let (bytes, flights) = try writeRecordings(hours: hours, into: dir)
        let short = dir + "/short"
        try? FileManager.default.createDirectory(atPath: short, withIntermediateDirectories: true)
        let shortHours = max(1, hours / 5)
        _ = try writeRecordings(hours: shortHours, into: short)
        var results: [Result] = []

        func timed(_ body: () throws(GatewayError) -> Void) throws(GatewayError) -> (seconds: Double, peakMB: Double) {
            resetPeakResident()
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, peakResidentMB() ?? 0)
        }
        progress("replaying them (baseline)")
        let session = try ReplaySession.resolve(dir)
        let replay = try timed { () throws(GatewayError) in
            var r = CaptureReplay(pipeline: GatewayPipeline())
            for path in session.captures {
                var stream: CaptureStream
                do { stream = try CaptureStream(path: path) } catch { throw GatewayError.file(path: path, reason: "\(error)") }
                while let d = stream.next() { _ = r.process(d) }
            }
            _ = r.finish()
        }
        progress("building the logbook from them")
        var kept = 0, endedInAir = 0
        let build = try timed { () throws(GatewayError) in
            var book = Logbook(store: LogbookStore(database: try GatewayDatabase(path: dir + "/logbook.sqlite")), airports: AirportTable.located(), source: dir)
            let flights = try FlightImport.run([dir], into: &book).flights
            kept = flights.count
            endedInAir = flights.filter { $0.0.endedInAir }.count
        }
        let buildShort = try timed { () throws(GatewayError) in
            var book = Logbook(store: LogbookStore(database: try GatewayDatabase(path: short + "/logbook.sqlite")), airports: AirportTable.located(), source: short)
            _ = try FlightImport.run([short], into: &book)
        }
        let mb = Double(bytes) / 1_048_576
        results.append(Result(name: "logbook: \(hours) h of recordings (\(JSONWriter.format(mb, decimals: 1)) MB, \(flights) flights) into the logbook",
                              value: build.seconds, unit: "s", baseline: replay.seconds,
                              note: "baseline: the same files replayed without the logbook; \(kept) flights kept (\(flights) took off; \(endedInAir) kept as ended in the air: cut by the recording's end)"))
        results.append(Result(name: "logbook: \(hours) h of recording read at", value: Double(hours) * 3600 / build.seconds, unit: "x real time",
                              baseline: Double(hours) * 3600 / replay.seconds))
        results.append(Result(name: "logbook: peak resident memory, \(hours) h", value: build.peakMB, unit: "MB", baseline: replay.peakMB,
                              note: "baseline: replay alone; \(shortHours) h into the logbook peaked at \(JSONWriter.format(buildShort.peakMB, decimals: 1)) MB"))

        // Exports of a 3 h flight.
        let flight = threeHourFlight()
        for format in FlightExport.allCases {
            var best = Double.infinity
            var size = 0
            for _ in 0..<3 {
                let start = DispatchTime.now().uptimeNanoseconds
                size = format.render(flight).count
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            results.append(Result(name: "export \(format.rawValue) of a 3 h flight (\(flight.track.count) points, \(JSONWriter.format(Double(size) / 1_048_576, decimals: 2)) MB)",
                                  value: best, unit: "ms"))
        }
        // The reference for the exports: the flight stored and read back whole.
        let store = LogbookStore(database: try GatewayDatabase(path: dir + "/three-hours.sqlite"))
        var best = Double.infinity
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            if case .added(let id) = try store.save(flight) {
                _ = try store.flight(id)
                try store.delete(id)
            }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        results.append(Result(name: "logbook: the 3 h flight saved, read back and deleted (SQLite)", value: best, unit: "ms"))
        return results
    }

    /// Issue 40, item 13: one flight of 4 h and one of 16 h (1 Hz samples, two targets in range
    /// all along) built by the logbook's detector alone: the time per sample should not grow with
    /// the flight (the 16 h flight's time is about 4 times the 4 h one's: linear). Its draft was
    /// copied out and back at every sample, so each append copied the whole track.
    package static func flightLength(progress: (String) -> Void = { _ in }) -> [Result] {
        func build(hours: Int) -> Double {
            var detector = FlightDetector(source: "bench")
            let start = 1_778_940_000.0, count = hours * 3_600
            var samples: [FlightSample] = []
            samples.reserveCapacity(4_096)
            let began = ContinuousClock.now
            for i in 0..<count {
                let t = start + Double(i)
                let north = Double(i) * 100 / 3_600 / 60  // 100 kt north, in degrees
                let own = Position(latitude: 20 + north.truncatingRemainder(dividingBy: 50), longitude: -123)
                let nearby = (0..<2).map { k in
                    FlightSample.Nearby(subject: "a0000\(k)", callsign: "N\(k)", position: Position(latitude: own.latitude + 0.01, longitude: -123 + 0.01 * Double(k)),
                                        altitudeFt: 5_000, rangeNM: 0.9)
                }
                samples.append(FlightSample(time: t, position: own, pressureAltitudeFt: 4_500, geometricAltitudeFt: 4_600, groundSpeedKt: 100, trackDeg: 0,
                                            verticalSpeedFpm: 0, phase: .airborne, phaseChangeBegan: i == 0 ? t : nil, phaseFromFirstFix: false, nearby: nearby))
                if samples.count == 4_096 || i == count - 1 {
                    _ = detector.receive(samples: samples, alerts: [])
                    samples.removeAll(keepingCapacity: true)
                }
            }
            let flight = detector.finish()
            precondition(flight?.track.count == count, "the bench flight was not kept whole")
            let d = ContinuousClock.now - began
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        progress("a 4 h flight")
        let four = build(hours: 4)
        progress("a 16 h flight")
        let sixteen = build(hours: 16)
        return [Result(name: "logbook: a 16 h flight built by the detector (1 Hz, 2 targets)", value: sixteen, unit: "s", baseline: four,
                       note: "baseline: a 4 h flight in the same run; ×4 is linear")]
    }

    /// `hours` of the two-flights scenario back to back, as the recorder's hour files in `dir`;
    /// returns the bytes written and the flights flown.
    static func writeRecordings(hours: Int, into dir: String) throws(GatewayError) -> (bytes: Int, flights: Int) {
        let scenario = FlightScenario.twoFlights.scenario
        let takeoffs = FlightScenario.twoFlights.expected.compactMap(\.takeoff)
        let one = scenario.datagrams()
        let period = Double(scenario.duration)
        let start = scenario.start
        let end = start + Double(hours) * 3600
        var hour: [(time: Double, bytes: [UInt8])] = []
        var hourStart = start
        var total = 0, flights = 0
        func flush() throws(GatewayError) {
            guard !hour.isEmpty else { return }
            let name = dir + "/gdl90-" + String(Timestamp.iso8601(hourStart).prefix(13).map { $0 == "T" ? "-" : $0 }) + ".pcapng"
            let bytes = PcapWriter.pcapng(hour, link: .linuxSLL2, nanoseconds: true)
            do { try Data(bytes).write(to: URL(fileURLWithPath: name)) } catch { throw GatewayError.file(path: name, reason: "cannot write (\(error))") }
            total += bytes.count
            hour.removeAll(keepingCapacity: true)
        }
        var k = 0.0
        while start + k * period < end {
            flights += takeoffs.filter { $0 + k * period < end }.count
            for d in one {
                let t = d.time + k * period
                guard t < end else { break }
                if t >= hourStart + 3600 {
                    try flush()
                    hourStart += 3600
                }
                hour.append((t, d.bytes))
            }
            k += 1
        }
        try flush()
        return (total, flights)
    }

    /// A 3 h flight: 10,800 one-second points on a wandering course, with alerts and encounters.
    static func threeHourFlight() -> LoggedFlight {
        let t0 = Timestamp.midnight(year: 2026, month: 5, day: 16) + 15 * 3600
        let plane = LocalPlane(origin: TrafficScenario.origin)
        var track: [LoggedFlight.TrackPoint] = []
        var east = 0.0, north = 0.0
        for s in 0..<10_800 {
            let heading = 90 * PlaneVelocity(speedKt: 1, trackDeg: Double(s) / 30).east + 45
            let v = PlaneVelocity(speedKt: 120, trackDeg: heading)
            east += v.east / 3600
            north += v.north / 3600
            let climb: Double = Double(s) * 10, descent: Double = Double(10_800 - s) * 10
            let alt: Double = min(min(climb, 6500), descent) + 214
            track.append(.init(time: t0 + Double(s), position: plane.unproject(PlanePoint(east: east, north: north)), pressureAltitudeFt: alt,
                               geometricAltitudeFt: alt + 150, groundSpeedKt: 120, trackDeg: heading))
        }
        let alerts = stride(from: 600, to: 10_800, by: 900).map { s in
            LoggedFlight.Alert(time: t0 + Double(s), alertID: "traffic-\(s)", kind: .traffic, level: .caution, subject: "a0000\(s % 10)",
                               message: "Traffic 2 o'clock, 1.2 NM, 300 ft above", position: track[s].position, altitudeFt: track[s].altitudeFt)
        }
        let encounters = stride(from: 700, to: 10_800, by: 900).map { s in
            LoggedFlight.Encounter(subject: "a1000\(s % 10)", callsign: "N\(s)EN", time: t0 + Double(s), rangeNM: 0.5, verticalFt: 300,
                                   position: track[s].position, altitudeFt: Int(track[s].pressureAltitudeFt ?? 0) + 300, ownshipPosition: track[s].position,
                                   track: (s - 30...s + 30).map { .init(time: t0 + Double($0), position: track[$0].position, altitudeFt: 3000) })
        }
        return LoggedFlight(id: 1, offBlock: t0, takeoff: t0 + 60, landing: t0 + 10_740, onBlock: t0 + 10_799, departure: "KSLE", arrival: "KSLE",
                            distanceNM: 360, maxAltitudeFt: 6864, maxGroundSpeedKt: 120, track: track, alerts: alerts, encounters: encounters,
                            airspace: [], source: "bench")
    }
}
