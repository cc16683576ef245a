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
import GatewayDomain
import GatewayRecords
import GatewayNotams

extension Benchmarks {
    /// Airspace alert evaluation per ownship update with `areas` active areas (circles and
    /// polygons spread over the CONUS, a few dozen near the route), beside a baseline that tests
    /// every area without the index; and the parse rate of NOTAM texts beside a whitespace split.
    package static func airspace(areas count: Int = 5_000, updates: Int = 2_000) -> [Result] {
        var areas: [AirspaceArea] = []
        var seed: UInt64 = 42
        func random() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for i in 0..<count {
            let lat = 25 + random() * 24, lon = -124 + random() * 57
            let c = Position(latitude: lat, longitude: lon)
            let shape: AirspaceArea.Shape = i % 2 == 0
                ? .circle(center: c, radiusNM: 1 + random() * 10)
                : .polygon((0..<8).map { k in Geodesy.destination(from: c, bearingDeg: Double(k) * 45, distanceNM: 2 + random() * 8) })
            areas.append(AirspaceArea(id: "A\(i)", name: "A\(i)", shape: shape, ceilingFt: 10_000))
        }
        // Ownship flies a straight line through a cluster of areas near Salem.
        for i in 0..<40 {
            areas.append(AirspaceArea(id: "near\(i)", name: "near", shape: .circle(center: Position(latitude: 44.8 + Double(i) * 0.02, longitude: -123.1 + Double(i % 5) * 0.05), radiusNM: 1.5), ceilingFt: 5000))
        }
        var engine = AirspaceAlertEngine()
        engine.setAreas(areas)
        let fixes = (0..<updates).map { k in
            OwnshipFix(position: Position(latitude: 44.7 + Double(k) * 0.0005, longitude: -123.0), altitudeFt: 3000, altitudeIsPressure: true,
                       velocity: PlaneVelocity(speedKt: 120, trackDeg: 0), groundSpeedKt: 120, trackDeg: 0, verticalSpeedFpm: 0,
                       airborne: true, source: .gdl90)
        }
        var events = 0
        let t0 = DispatchTime.now().uptimeNanoseconds
        for (k, fix) in fixes.enumerated() { events += engine.evaluate(fix: fix, at: Double(k)).count }
        let indexed = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6 / Double(updates)
        // Baseline: every area's geometry, every update (what the index avoids).
        let t1 = DispatchTime.now().uptimeNanoseconds
        var inside = 0
        for fix in fixes.prefix(200) {
            let plane = LocalPlane(origin: fix.position)
            for a in areas where AirspaceGeometry(shape: a.shape, plane: plane, velocity: fix.velocity, lookAheadSec: 120).signedDistanceNM < 0 {
                inside += 1
            }
        }
        let brute = Double(DispatchTime.now().uptimeNanoseconds - t1) / 1e6 / 200
        // NOTAM texts.
        let texts = (0..<2_000).map { i in
            i % 2 == 0
                ? "!FDC 6/\(1000 + i) ZSE OR..AIRSPACE SALEM, OR..TEMPORARY FLIGHT RESTRICTIONS WI AN AREA DEFINED AS 3NM RADIUS OF 450034N1230011W (SLE) SFC-4000FT MSL EFFECTIVE 2605161300 UTC UNTIL 2605161800 UTC. 2605161300-2605161800"
                : "A\(1000 + i)/26 NOTAMN\nQ) KZSE/QRRCA/IV/BO/W/000/060/4458N12246W004\nA) KZSE B) 2605161200 C) 2605162000\nE) RESTRICTED AREA ACT WI AN AREA DEFINED AS 445634N1224855W-445634N1224318W-450034N1224318W-450034N1224855W\nF) SFC G) 6000FT MSL"
        }
        let t2 = DispatchTime.now().uptimeNanoseconds
        var parsed = 0
        for t in texts where NotamParser.parse(t, source: "bench").geometry != nil { parsed += 1 }
        let parseRate = Double(texts.count) / (Double(DispatchTime.now().uptimeNanoseconds - t2) / 1e9)
        let t3 = DispatchTime.now().uptimeNanoseconds
        var words = 0
        for t in texts { words += t.split(whereSeparator: { $0 == " " || $0 == "\n" }).count }
        let splitRate = Double(texts.count) / (Double(DispatchTime.now().uptimeNanoseconds - t3) / 1e9)
        return [
            Result(name: "airspace evaluation per ownship update, \(areas.count) active areas", value: indexed, unit: "ms",
                   baseline: brute, note: "baseline: every area tested, no index (\(inside) insides); \(events) alert changes along the route"),
            Result(name: "NOTAM texts parsed", value: parseRate, unit: "texts/s", baseline: splitRate,
                   note: "baseline: whitespace split of the same texts (\(words) words); \(parsed) of \(texts.count) with geometry"),
        ]
    }
}
