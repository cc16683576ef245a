import GatewaySupport
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A UDP socket that hands each datagram to a handler with its sender's IPv4 address (for EFB
/// discovery on port 63093). Shares the port with other listeners (SO_REUSEADDR), as several
/// apps on one host may listen for the same broadcast.
package final class DatagramSocket: Sendable {
    /// The port bound.
    package let port: UInt16
    /// The read source (locked: libdispatch's sources are not `Sendable` types, though `cancel` is thread-safe).
    private let source: Locked<any DispatchSourceRead>

    /// Binds `address:port` and receives on `queue`.
    package init(address: String = "0.0.0.0", port: UInt16, queue: DispatchQueue,
                handler: @escaping @Sendable (_ host: String, _ bytes: [UInt8]) -> Void) throws(GatewayError) {
        let (fd, bound) = try IPv4Socket.bound(type: Int32(SOCK_DGRAM.rawValue), address: address, port: port, what: "UDP",
                                               inUse: "another listener without SO_REUSEADDR", reuseAddress: true, broadcast: true)
        self.port = bound
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        self.source = Locked(source)
        // The reused buffer is the handler's own: only the read source's queue runs it.
        var buffer = [UInt8](repeating: 0, count: 4096)
        source.setEventHandler {
            while true {
                var from = sockaddr_in()
                var fromLength = socklen_t(MemoryLayout<sockaddr_in>.size)
                let n = buffer.withUnsafeMutableBytes { buf in
                    withUnsafeMutablePointer(to: &from) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, buf.baseAddress, buf.count, 0, $0, &fromLength) }
                    }
                }
                if n < 0 { return }
                var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
                inet_ntop(AF_INET, &from.sin_addr, &text, socklen_t(INET_ADDRSTRLEN))
                let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                handler(host, Array(buffer[0..<n]))
            }
        }
        source.setCancelHandler { close(fd) }
        source.resume()
    }

    /// Stops receiving and closes the socket.
    package func cancel() { source.withLock { $0.cancel() } }
}
