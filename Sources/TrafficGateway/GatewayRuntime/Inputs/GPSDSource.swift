import GatewaySupport
/// Ownship's position from gpsd (SwiftNIO's client, reconnecting): each fix handed in at the
/// gateway's clock; the connection state kept for the status line.
package final class GPSDSource: GatewaySource {
    private let host: String
    private let port: UInt16
    private let client = Locked<GPSDClient?>(nil)
    private let state = Locked<GPSDClient.Status?>(nil)

    /// A source reading gpsd at `host:port`.
    package init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// The connection state (nil before the first attempt ended).
    package var status: GPSDClient.Status? { state.value }

    package func start(_ inlet: GatewayInlet) throws(GatewayError) {
        let state = self.state
        let c = GPSDClient(host: host, port: port, onFix: { fix in inlet.deliver(.gpsFix(fix)) },
                           onStatus: { status in state.set(status) })
        client.set(c)
        c.start()
    }

    package func stop() { client.value?.stop() }
}
