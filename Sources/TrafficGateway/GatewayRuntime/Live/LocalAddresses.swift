#if canImport(Glibc)
import Glibc
#endif

/// The machine's own IPv4 addresses (every interface), so the gateway never forwards GDL 90 to
/// its own listening port.
package enum LocalAddresses {
    /// Dotted-quad addresses of every IPv4 interface, loopback included.
    package static func ipv4() -> Set<String> {
        var out: Set<String> = ["127.0.0.1"]
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return out }
        defer { freeifaddrs(list) }
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            if let addr = entry.pointee.ifa_addr, addr.pointee.sa_family == sa_family_t(AF_INET) {
                var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                if getnameinfo(addr, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 {
                    out.insert(String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
                }
            }
            cursor = entry.pointee.ifa_next
        }
        return out
    }
}
