import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// Why a TCP client's connection failed or ended, as a person reads it ("Connection refused",
/// "connection timed out", "cannot resolve HOST: …"), from SwiftNIO's errors (gpsd, SBS).
enum ConnectionFailure {
    static func reason(_ error: any Error) -> String {
        if let e = error as? IOError { return String(cString: strerror(e.errnoCode)) }
        // A refused connection comes wrapped: the reason of the (last) address tried.
        if let e = error as? NIOConnectionError, let last = e.connectionErrors.last { return reason(last.error) }
        if let e = error as? NIOConnectionError, let dns = e.dnsAAAAError ?? e.dnsAError { return "cannot resolve \(e.host): \(dns)" }
        if case ChannelError.connectTimeout? = error as? ChannelError { return "connection timed out" }
        return "\(error)"
    }
}
