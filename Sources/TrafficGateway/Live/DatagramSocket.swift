import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A UDP socket that hands each datagram to a handler with its sender's IPv4 address (for EFB
/// discovery on port 63093). Shares the port with other listeners (SO_REUSEADDR), as several
/// apps on one host may listen for the same broadcast.
public final class DatagramSocket: @unchecked Sendable {
    /// The port bound.
    public let port: UInt16
    private let fd: Int32
    private let source: DispatchSourceRead
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// Binds `address:port` and receives on `queue`.
    public init(address: String = "0.0.0.0", port: UInt16, queue: DispatchQueue,
                handler: @escaping @Sendable (_ host: String, _ bytes: [UInt8]) -> Void) throws(GatewayError) {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        guard inet_pton(AF_INET, address, &addr.sin_addr) == 1 else {
            throw GatewayError.invalidInput("\(address) is not an IPv4 address")
        }
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw GatewayError.socket(what: "UDP \(address):\(port)", reason: String(cString: strerror(errno))) }
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &yes, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if bound != 0 {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw GatewayError.socket(what: "cannot listen on UDP \(address):\(port)", reason: reason)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        self.port = UInt16(bigEndian: actual.sin_port)
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [unowned self] in
            while true {
                var from = sockaddr_in()
                var fromLength = socklen_t(MemoryLayout<sockaddr_in>.size)
                let n = self.buffer.withUnsafeMutableBytes { buf in
                    withUnsafeMutablePointer(to: &from) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, buf.baseAddress, buf.count, 0, $0, &fromLength) }
                    }
                }
                if n < 0 { return }
                var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
                inet_ntop(AF_INET, &from.sin_addr, &text, socklen_t(INET_ADDRSTRLEN))
                let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                handler(host, Array(self.buffer[0..<n]))
            }
        }
        source.setCancelHandler { close(fd) }
        source.resume()
    }

    /// Stops receiving and closes the socket.
    public func cancel() { source.cancel() }
}
