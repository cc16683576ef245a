import Foundation
import GDL90
import GatewaySupport
import GatewayDomain
import GatewayCaptures
import GatewayRecords
import GatewayNotams
import GatewayFeeds
import GatewayRuntime

/// The fuzz targets: each takes arbitrary bytes and must neither crash, hang nor leak, whatever
/// they are. Chosen by `FUZZ_TARGET` (libFuzzer builds) or the first argument (replay builds).
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// Deframer (any chunking) and every message decoder, then re-encode what decoded.
    case gdl90
    /// FIS-B uplink payloads: header, frames, APDUs, TWGO, text, gridded; then the product store.
    case fisb
    /// Capture files: pcap, pcapng, dump978 text, raw.
    case capture
    /// Airspace GeoJSON files.
    case airspace
    /// NOTAM texts (ICAO and FAA domestic) and FAA NOTAM API replies.
    case notam
    /// gpsd JSON lines into the core (with an area and a target to alert on), then every feed.
    case gpsd
    /// Configuration files (the TOML subset).
    case config
    /// Every feed encoder over a snapshot whose numbers are arbitrary finite doubles.
    case feeds
    /// Raw bytes as a request to the real HTTP server on loopback; it must answer /healthz after.
    case http
    /// One FAA NOTAM API feature (as `notams import` and `run --notams` read them), its area
    /// given to the core and evaluated at a position.
    case notamfeature
    /// A recorded events file (`replay --events`): its airspace sets given to the core.
    case events

    /// Runs the target on `data`.
    package func run(_ data: [UInt8]) {
        switch self {
        case .gdl90:
            var deframer = Deframer()
            let split = data.isEmpty ? 0 : Int(data[0]) % max(1, data.count)
            var messages = 0
            let handle: (DeframerEvent) -> Void = { event in
                guard case .frame(let f) = event, let m = try? Message.decode(f.message) else { return }
                messages += 1
                // Whatever decodes re-encodes, and the re-encoding decodes to the same value.
                let again = try? Message.decode(m.encode())
                if case .unknown = m {} else { precondition(again != nil, "re-encoded \(m.typeName) does not decode") }
            }
            deframer.feed(data[..<split], handle)
            deframer.feed(data[split...], handle)
            deframer.finish(handle)
            var pipeline = GatewayPipeline()
            _ = pipeline.process(.datagram(data), at: 1_800_000_000)
            _ = pipeline.finish(.silence(CaptureReplay.trailingSilence))
        case .fisb:
            var payload = Array(data.prefix(Uplink.payloadLength))
            if payload.count < Uplink.payloadLength { payload += [UInt8](repeating: 0, count: Uplink.payloadLength - payload.count) }
            var store = FISBProductStore()
            _ = store.ingest(payload: payload, at: 1_800_000_000)
            _ = store.flushHeld()
            _ = store.expire(at: 1_800_100_000)
        case .capture:
            let contents = CaptureFile.parse(data, name: "fuzz")
            for d in contents.datagrams.prefix(1000) { precondition(d.bytes.count <= 65_535, "datagram longer than UDP allows") }
        case .airspace:
            _ = try? AirspaceFile.parse(Data(data), name: "fuzz")
        case .notam:
            let n = NotamParser.parse(String(decoding: data, as: UTF8.self), source: "fuzz")
            _ = n.airspaceArea()
            _ = NotamTranslator.translate(n.text)
            _ = try? FAANotamAPI.parse(data, url: "fuzz")
            _ = try? FAANotamSearch.parse(data, url: "fuzz")
        case .gpsd:
            var pipeline = GatewayPipeline()
            let origin = Position(latitude: 45, longitude: -123)
            _ = pipeline.process(.airspace([AirspaceArea(id: "R-1", name: "R-1", shape: .circle(center: origin, radiusNM: 2), severity: .warning)]), at: 1)
            _ = pipeline.process(Self.traffic(TrafficReport(address: 0xABCDEF, position: origin, pressureAltitudeFt: 3000,
                                                            groundSpeedKt: 100, verticalSpeedFpm: 0, trackDeg: 90)), at: 1)
            var t = 2.0
            for line in data.split(separator: 0x0A).prefix(64) {
                if let fix = GPSDClient.fix(fromJSONLine: Array(line)) { _ = pipeline.process(.gpsFix(fix), at: t) }
                t += 0.5
            }
            Self.encodeFeeds(pipeline.core.snapshot(at: t))
        case .config:
            _ = try? GatewayConfig.parse(String(decoding: data, as: UTF8.self), file: "fuzz")
        case .feeds:
            var numbers = data.withUnsafeBytes { raw in
                (0..<(raw.count / 8)).map { Double(bitPattern: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) }
                    .filter(\.isFinite)
            }.makeIterator()
            func next() -> Double { numbers.next() ?? 0 }
            let position = Position(latitude: max(-90, min(90, next())), longitude: max(-180, min(180, next())))
            let fix = OwnshipFix(position: position, altitudeFt: next(), altitudeIsPressure: true, velocity: PlaneVelocity(east: next(), north: next()),
                                 groundSpeedKt: next(), trackDeg: next(), verticalSpeedFpm: next(), airborne: true, source: .gpsd,
                                 ageSec: next(), isHeld: true, heightAboveTerrainFt: next())
            var pipeline = GatewayPipeline()
            _ = pipeline.process(Self.traffic(TrafficReport(address: 0x123456, position: position, pressureAltitudeFt: 3000,
                                                            groundSpeedKt: 4000, verticalSpeedFpm: -32000, trackDeg: 359)), at: 1)
            var snapshot = pipeline.core.snapshot(at: 1)
            snapshot.ownship = fix
            Self.encodeFeeds(snapshot)
        case .http:
            HTTPFuzzServer.run(Array(data.prefix(65_536)))
        case .notamfeature:
            let file = Array("{\"items\":[".utf8) + data + Array("]}".utf8)
            var areas: [AirspaceArea] = []
            _ = try? NotamFile.parse(file, name: "fuzz") { n throws(GatewayError) in if let a = n.airspaceArea() { areas.append(a) } }
            Self.watch(areas)
        case .events:
            guard let events = try? RecordedEventLog.parse(Data(data), path: "fuzz") else { return }
            for case .airspace(let areas) in events.prefix(64).map(\.change) { Self.watch(areas) }
        }
    }

    /// `areas` given to a core and evaluated with ownship inside the first of them and at the
    /// poles and the antimeridian (the spatial index must be total over whatever got through).
    static func watch(_ areas: [AirspaceArea]) {
        var pipeline = GatewayPipeline()
        _ = pipeline.process(.airspace(areas), at: 1)
        for (i, p) in [Position(latitude: 45, longitude: -123), Position(latitude: 89.9, longitude: 179.9),
                       Position(latitude: -89.9, longitude: -179.9)].enumerated() {
            let fix = GPSFix(position: p, altitudeFt: 3000, groundSpeedKt: 100, trackDeg: 90, verticalSpeedFpm: 0)
            _ = pipeline.process(.gpsFix(fix), at: 2 + Double(i))
        }
        Self.encodeFeeds(pipeline.core.snapshot(at: 5))
    }

    /// `report` as the GDL 90 datagram that carries it: the fuzz targets reach the core through
    /// the pipeline's `process`, as every driver does.
    static func traffic(_ report: TrafficReport) -> GatewayInput {
        .datagram(Message.traffic(report).frame())
    }

    /// Every feed's encoding of `snapshot` (they must be total over any finite numbers).
    static func encodeFeeds(_ snapshot: FeedSnapshot) {
        _ = FeedEncoders.aircraftJSON(snapshot)
        _ = FeedEncoders.trafficGeoJSON(snapshot)
        _ = FeedEncoders.airspaceGeoJSON(snapshot)
        _ = FeedEncoders.health(snapshot)
        _ = FeedEncoders.metrics(snapshot, feeds: FeedCounters())
        _ = NMEA.sentences(snapshot)
    }

    /// The target named by `FUZZ_TARGET`, default gdl90.
    package static let selected: FuzzTarget = ProcessInfo.processInfo.environment["FUZZ_TARGET"].flatMap(FuzzTarget.init) ?? .gdl90
}

