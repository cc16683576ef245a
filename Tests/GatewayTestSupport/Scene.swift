import GDL90
import GatewaySupport
@testable import GatewayDomain

/// A small scenario builder: ownship at the origin heading north, targets placed in NM.
package struct Scene {
    package let plane = LocalPlane(origin: Position(latitude: 45, longitude: -122))
    package var core = GatewayCore()

    package init() {}

    package func position(east: Double, north: Double) -> Position { plane.unproject(PlanePoint(east: east, north: north)) }

    package mutating func ownship(at t: Double, north: Double = 0, altitude: Int = 3000, speed: Int = 100, airborne: Bool = true, address: UInt32 = 0xA1B2C3,
                                  type: AddressType = .adsbICAO) -> [AlertEvent] {
        core.handle(.message(.ownship(TrafficReport(
            addressType: type, address: address, position: position(east: 0, north: north), pressureAltitudeFt: altitude,
            airborne: airborne, groundSpeedKt: speed, verticalSpeedFpm: 0, trackDeg: 0))), at: t)
    }

    package mutating func target(at t: Double, address: UInt32 = 0xAB4549, type: AddressType = .adsbICAO, east: Double, north: Double,
                                 altitude: Int? = 3000, speed: Int = 120, track: Double = 180, vs: Int = 0, airborne: Bool = true,
                                 extrapolated: Bool = false, callsign: String = "N825V", alertBit: UInt8 = 0) -> [AlertEvent] {
        core.handle(.message(.traffic(TrafficReport(
            alertStatus: alertBit, addressType: type, address: address, position: position(east: east, north: north),
            pressureAltitudeFt: altitude, airborne: airborne, extrapolated: extrapolated, groundSpeedKt: speed, verticalSpeedFpm: vs,
            trackDeg: track, callsign: callsign))), at: t)
    }
}
