import GatewaySupport
import GatewayDomain
import GDL90

/// Traffic from the Open Glider Network (FLARM, OGN trackers, FANET, PilotAware, SafeSky…):
/// each read's aircraft beacons handed in as one input at the gateway's clock (`GatewayInput.ogn`),
/// so the core merges them with GDL 90 and SBS traffic where the address type says they are one
/// aircraft (ICAO) and keeps them apart where it does not (FLARM, OGN, random). The flight
/// recorder keeps their lines, but a no-tracking sender's (OGN's terms of use).
package final class OGNSource: GatewaySource {
    private let host: String
    private let port: UInt16
    private let rangeKm: Double
    private let position: @Sendable () -> Position?
    private let client = Locked<OGNClient?>(nil)
    private let tell: @Sendable (String) -> Void
    private let dropped = Locked<(count: Int, said: Bool)>((0, false))

    /// A source reading `host:port`, asking for `rangeKm` around `position()` (`[ogn] near`, else
    /// ownship); `tell` gets the lines a person should read (connected, lost, the first failure).
    package init(host: String, port: UInt16, rangeKm: Double = 50, position: @escaping @Sendable () -> Position? = { nil },
                 tell: @escaping @Sendable (String) -> Void = { _ in }) {
        self.host = host
        self.port = port
        self.rangeKm = rangeKm
        self.position = position
        self.tell = tell
    }

    /// The connection's state and counts (nil before `start`), with the reads dropped.
    package var status: OGNClient.Status? {
        guard var s = client.value?.status else { return nil }
        s.droppedReads = dropped.withLock { $0.count }
        return s
    }

    package func start(_ inlet: GatewayInlet) throws(GatewayError) {
        let tell = self.tell, name = "\(HostPort(host: host, port: port))", dropped = self.dropped
        let c = OGNClient(host: host, port: port, rangeKm: rangeKm, position: position, clock: { inlet.now() }, onBeacons: { beacons, time in
            // Bounded like SBS: a feed faster than the core drops reads (counted, said once), never the alerts.
            guard !inlet.offer(.ogn(beacons), at: time) else { return }
            if dropped.withLock({ d -> Bool in d.count += 1; defer { d.said = true }; return !d.said }) {
                tell("OGN \(name) sends faster than the gateway can take: reads dropped (counted on the status line)")
            }
        }, onStatus: { status, said in
            guard said else { return }
            tell(status.connected ? "OGN \(name) connected" : "\(status.reason ?? "OGN \(name) disconnected"); retrying quietly with backoff")
        })
        client.set(c)
        c.start()
    }

    package func stop() { client.value?.stop() }
}
