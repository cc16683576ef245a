import GDL90

/// Everything that can happen to the gateway core. Each event comes with its time.
package enum GatewayEvent: Sendable {
    /// A datagram (or raw chunk) of this many bytes arrived.
    case datagram(bytes: Int)
    /// A decoded GDL 90 message.
    case message(Message)
    /// A frame the deframer rejected.
    case frameRejected(FrameError)
    /// A frame with a good CRC that did not decode as its type.
    case messageRejected(MessageError)
    /// An OGN aircraft beacon (FLARM, OGN trackers…).
    case ogn(OGNBeacon)
    /// A position fix from gpsd.
    case gpsFix(GPSFix)
    /// Time passes (a timer in live mode): staleness, hysteresis and silence are re-evaluated.
    case tick
    /// The airspace areas to watch (NOTAM refresh, FIS-B products, a canned set).
    case airspace([AirspaceArea])
    /// The user acknowledged an airspace alert (by alert id or area id).
    case acknowledge(String)
}
