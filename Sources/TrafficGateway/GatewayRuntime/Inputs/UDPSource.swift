import GatewaySupport
/// GDL 90 over UDP (Stratux sends to port 4000): a Dispatch read source on the core's own queue
/// (the brief), each datagram handed in from the socket's buffer, stamped with its receive time
/// to the microsecond, as the flight recorder keeps times (its replay is identical).
package final class UDPSource: GatewaySource {
    private let address: String
    private let requestedPort: UInt16
    private let acceptFrom: [String]
    private let listener = Locked<UDPListener?>(nil)

    /// A source for `address:port` (port 0: any free one), accepting GDL 90 only from the IPv4
    /// addresses `acceptFrom` when it is not empty.
    package init(address: String, port: UInt16, acceptFrom: [String] = []) {
        self.address = address
        self.requestedPort = port
        self.acceptFrom = acceptFrom
    }

    /// The port bound (0 before `start`).
    package var port: UInt16 { listener.value?.port ?? 0 }

    package func start(_ inlet: GatewayInlet) throws(GatewayError) {
        listener.set(try UDPListener(address: address, port: requestedPort, queue: inlet.queue, acceptFrom: acceptFrom) { bytes, time in
            inlet.receive(bytes, at: CaptureTime.quantized(time))
        })
    }

    /// Stops reading at the next datagram (a flood queued behind it is not waited for) and closes the socket.
    package func stop() {
        guard let l = listener.value else { return }
        l.stopReading()
        l.cancel()
    }
}
