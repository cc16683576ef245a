import GatewaySupport
import GatewayDomain
/// gpsd's JSON reports as the gateway reads them (a live gpsd, a gpspipe log, a recording's gpsd
/// interface): a pure parser, bytes in, a fix out.
package enum GPSDReport {
    /// The fix in one gpsd JSON line, if it is a TPV report with mode 2 or 3.
    package static func fix(fromJSONLine line: [UInt8]) -> GPSFix? {
        guard let object = JSONReader.object(line),
              object["class"] as? String == "TPV",
              let mode = JSONReader.int(object["mode"]), mode >= 2,
              let lat = object["lat"] as? Double, let lon = object["lon"] as? Double,
              (-90...90).contains(lat), (-180...180).contains(lon)
        else { return nil }
        let altMeters = (object["altMSL"] as? Double) ?? (object["alt"] as? Double)
        let speed = (object["speed"] as? Double).map { $0 * 3600 / 1852 }
        let climb = (object["climb"] as? Double).map { $0 * 196.850_394 }
        // Altitude, speed, track and climb are checked against physical ranges by the core
        // (`GPSFix.validated`), which counts what it drops.
        return GPSFix(position: .init(latitude: lat, longitude: lon), altitudeFt: mode == 3 ? altMeters.map { $0 / 0.3048 } : nil,
                      groundSpeedKt: speed, trackDeg: object["track"] as? Double, verticalSpeedFpm: climb)
    }
}
