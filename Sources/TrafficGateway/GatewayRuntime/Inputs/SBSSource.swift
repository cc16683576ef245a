import GatewaySupport
/// Traffic from a 1090 MHz receiver's SBS BaseStation output (dump1090, readsb: port 30003), beside
/// GDL 90 over UDP: each read's positions handed in as one datagram of GDL 90 traffic reports at
/// the gateway's clock, so the core merges them with GDL 90 traffic by address (a target heard
/// both ways is one target) and the flight recorder keeps them like any datagram (the replay of a
/// recording is the session it was). Ownship then comes from gpsd (or a Stratux's GDL 90).
package final class SBSSource: GatewaySource {
    private let host: String
    private let port: UInt16
    private let client = Locked<SBSClient?>(nil)
    private let tell: @Sendable (String) -> Void

    /// A source reading `host:port`; `tell` gets the lines a person should read (connected, lost,
    /// the first failure: retries are quiet).
    package init(host: String, port: UInt16, tell: @escaping @Sendable (String) -> Void = { _ in }) {
        self.host = host
        self.port = port
        self.tell = tell
    }

    /// Reads dropped because the core was behind (`GatewayInlet.offer`), and the first said.
    private let dropped = Locked<(count: Int, said: Bool)>((0, false))

    /// The connection's state and counts (nil before `start`), with the reads dropped.
    package var status: SBSClient.Status? {
        guard var s = client.value?.status else { return nil }
        s.droppedReads = dropped.withLock { $0.count }
        return s
    }

    package func start(_ inlet: GatewayInlet) throws(GatewayError) {
        let tell = self.tell, name = "\(HostPort(host: host, port: port))"
        let dropped = self.dropped
        let c = SBSClient(host: host, port: port, clock: { inlet.now() }, onReports: { frames, time in
            // Bounded: a feed faster than the core drops reads (counted, said once), never the alerts.
            guard !inlet.offer(.datagram(frames), at: time) else { return }
            if dropped.withLock({ d -> Bool in d.count += 1; defer { d.said = true }; return !d.said }) {
                tell("SBS \(name) sends faster than the gateway can take: reads dropped (counted on the status line)")
            }
        }, onStatus: { status, said in
            guard said else { return }
            tell(status.connected ? "SBS \(name) connected" : "\(status.reason ?? "SBS \(name) disconnected"); retrying quietly with backoff")
        })
        client.set(c)
        c.start()
    }

    package func stop() { client.value?.stop() }
}
