#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Opening and binding the gateway's IPv4 sockets (UDP listener, EFB discovery, NMEA server),
/// with one set of error sentences.
public enum IPv4Socket {
    /// Whether `text` is an IPv4 address as the sockets take it (`inet_pton`: four decimal
    /// octets, no sign, no leading zeros): the one parser `config check` and `run` share.
    public static func isAddress(_ text: String) -> Bool {
        var a = in_addr()
        return inet_pton(AF_INET, text, &a) == 1
    }

    /// `address:port` as a socket address, or the error sentence for an address that is not IPv4.
    public static func socketAddress(_ address: String, port: UInt16) throws(GatewayError) -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        guard inet_pton(AF_INET, address, &addr.sin_addr) == 1 else {
            throw GatewayError.setting(name: address, message: "\(address) is not an IPv4 address (e.g. 0.0.0.0 or 127.0.0.1)")
        }
        return addr
    }

    /// The error sentence for a bind or listen on `what address:port` that failed with `code`.
    public static func listenError(what: String, address: String, port: UInt16, inUse: String, code: Int32) -> GatewayError {
        let reason = code == EADDRINUSE ? "port \(port) is already in use (\(inUse))"
            : code == EACCES ? "permission denied (ports below 1024 need privileges)" : String(cString: strerror(code))
        return GatewayError.socket(what: "cannot listen on \(what) \(address):\(port)", reason: reason)
    }

    /// A socket of `type` (SOCK_DGRAM, SOCK_STREAM) bound to `address:port`, non-blocking;
    /// returns it and the port actually bound (useful with port 0). `inUse` says what to do when
    /// the port is taken.
    public static func bound(type: Int32, address: String, port: UInt16, what: String, inUse: String,
                      reuseAddress: Bool = false, broadcast: Bool = false, receiveBuffer: Int32? = nil) throws(GatewayError) -> (fd: Int32, port: UInt16) {
        var addr = try socketAddress(address, port: port)
        let fd = socket(AF_INET, type, 0)
        guard fd >= 0 else { throw GatewayError.socket(what: "\(what) \(address):\(port)", reason: String(cString: strerror(errno))) }
        var yes: Int32 = 1
        if reuseAddress { _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size)) }
        if broadcast { _ = setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &yes, socklen_t(MemoryLayout<Int32>.size)) }
        if var size = receiveBuffer { _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if ok != 0 || (type == Int32(SOCK_STREAM.rawValue) && listen(fd, 16) != 0) {
            let code = errno
            close(fd)
            throw listenError(what: what, address: address, port: port, inUse: inUse, code: code)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: actual.sin_port))
    }
}
