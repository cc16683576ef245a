import GDL90

/// One input a source hands the pipeline, stamped with its time by the source (see
/// ../shared/DESIGN.md, "sources in, sinks out"): what the live gateway, the flight recorder
/// and replay exchange. The pipeline turns each into `GatewayEvent`s for the core.
package enum GatewayInput: Sendable, Equatable {
    /// A GDL 90 datagram (or a raw stream's chunk) as received.
    case datagram([UInt8])
    /// OGN aircraft beacons (one read of an APRS connection, or a line of a log), in order.
    case ogn([OGNBeacon])
    /// A position fix from gpsd.
    case gpsFix(GPSFix)
    /// The airspace areas to watch from now on (NOTAM refresh, the store's re-read, a canned set).
    case airspace([AirspaceArea])
    /// The user acknowledged an airspace alert (by alert id or area id).
    case acknowledge(String)
    /// Time passes with no input (the live clock's tick).
    case tick
    /// An EFB announced itself (UDP 63093): passed through to the forwarder, not to the core.
    case announcement(EFBAnnouncement)

    /// Whether a recording keeps it: everything but the clock's ticks, which replay re-creates
    /// from the inputs' own times (the tick rule), and EFB announcements (a replay must not
    /// forward to an EFB long gone). OGN beacons are recorded but for the no-tracking ones
    /// (`recorded`: the flight recorder keeps what this returns).
    package var isRecorded: Bool {
        switch self {
        case .tick, .announcement: false
        case .ogn(let beacons): beacons.contains { !$0.noTracking }
        default: true
        }
    }

    /// What a recording may keep of it: OGN beacons without the no-tracking ones (the OGN's
    /// terms: such a sender is used for collision alerts only); nil when nothing.
    package var recorded: GatewayInput? {
        switch self {
        case .tick, .announcement: return nil
        case .ogn(let beacons):
            let kept = beacons.filter { !$0.noTracking }
            return kept.isEmpty ? nil : .ogn(kept)
        default: return self
        }
    }
}

/// An EFB's discovery announcement: who sent it and what it said (ForeFlight's JSON).
package struct EFBAnnouncement: Sendable, Equatable {
    /// The sender's IPv4 address.
    package var host: String
    /// The datagram's bytes.
    package var payload: [UInt8]

    /// An announcement from `host`.
    package init(host: String, payload: [UInt8]) {
        self.host = host
        self.payload = payload
    }
}
