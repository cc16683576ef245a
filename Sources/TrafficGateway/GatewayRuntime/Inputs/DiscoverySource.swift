import GatewaySupport
import GatewayDomain
/// EFBs announcing themselves on UDP 63093 (ForeFlight's GDL 90 discovery): each announcement
/// handed in with its sender, for the forwarder (`ForwardSink`) to keep its list of EFBs.
package final class DiscoverySource: GatewaySource {
    private let requestedPort: UInt16
    private let socket = Locked<DatagramSocket?>(nil)

    /// A source on `port` (63093; 0 for any free one in tests).
    package init(port: UInt16 = 63093) { requestedPort = port }

    /// The port bound (0 before `start`).
    package var port: UInt16 { socket.value?.port ?? 0 }

    package func start(_ inlet: GatewayInlet) throws(GatewayError) {
        socket.set(try DatagramSocket(port: requestedPort, queue: inlet.queue) { host, bytes in
            inlet.deliver(.announcement(EFBAnnouncement(host: host, payload: bytes)))
        })
    }

    package func stop() { socket.value?.cancel() }
}
