#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Tells systemd how the service is doing, with the `sd_notify` protocol: one datagram such as
/// `READY=1`, `WATCHDOG=1`, `STOPPING=1` or `STATUS=…` to the Unix socket named by `$NOTIFY_SOCKET`
/// (a leading `@` means Linux's abstract namespace). systemd sets that variable for `Type=notify`
/// units, and `$WATCHDOG_USEC` when the unit has `WatchdogSec=`. Elsewhere every call does nothing.
package struct SystemdNotifier: Sendable, Equatable {
    /// The notification socket, nil when not started by systemd with `Type=notify`.
    package let socketPath: String?
    /// How often to send `WATCHDOG=1` (half of `WatchdogSec=`), nil without a watchdog.
    package let watchdogInterval: Double?

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` (the watchdog is ours only when
    /// that pid is `pid` or unset).
    package init(environment: [String: String] = ProcessInfo.processInfo.environment,
                pid: Int32 = ProcessInfo.processInfo.processIdentifier) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        if socketPath != nil, let usec = environment["WATCHDOG_USEC"].flatMap(UInt64.init), usec > 0,
           environment["WATCHDOG_PID"].map({ Int32($0) == pid }) ?? true {
            watchdogInterval = Double(usec) / 2_000_000
        } else {
            watchdogInterval = nil
        }
    }

    /// Sends `state` (lines `KEY=value`). False when there is no socket or the send failed: the
    /// caller goes on either way (systemd then restarts or times out the unit, as configured).
    @discardableResult
    package func notify(_ state: String) -> Bool {
        #if os(Linux)
        guard let socketPath else { return false }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        let abstract = path.first == UInt8(ascii: "@")
        if abstract { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity || (abstract && path.count == capacity) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        // A path is NUL-terminated (sun_path is zeroed); an abstract name is exactly its bytes.
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count + (abstract ? 0 : 1)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let message = Array(state.utf8)
        // Never waits: a socket whose queue is full (a stalled systemd, an unread test socket) costs
        // one ping, not the core's queue that pets the watchdog.
        let sent = message.withUnsafeBytes { bytes in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), $0, socklen_t(length))
                }
            }
        }
        return sent == message.count
        #else
        return false
        #endif
    }
}
