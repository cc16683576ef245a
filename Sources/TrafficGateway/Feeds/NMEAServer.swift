import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// FLARM NMEA over TCP (Stratux serves it on port 2000) for XCSoar-family apps: every second
/// each client gets the sentences of the latest snapshot. Writes never block: a client whose
/// socket buffer is full misses that second (skips ahead); one that misses 5 in a row is
/// dropped and counted. Clients are capped (`maximumClients`, `maximumPerAddress`): one past a cap
/// is accepted and closed at once; when the process is out of descriptors, accepting pauses for a
/// second instead of spinning.
public final class NMEAServer: @unchecked Sendable {
    /// Most clients at once (an XCSoar or two per cockpit).
    public static let maximumClients = 32
    /// Most clients from one address.
    public static let maximumPerAddress = 4
    /// The port bound.
    public let port: UInt16
    private let fd: Int32
    private let queue = DispatchQueue(label: "gatewayd.nmea")
    private let acceptSource: DispatchSourceRead
    private var timer: DispatchSourceTimer?
    private var clients: [Int32: Int] = [:]  // fd → consecutive missed seconds
    private var peers: [Int32: UInt32] = [:]  // fd → IPv4 address
    private var paused = false
    /// Connections refused: over a cap, or while out of descriptors.
    public private(set) var refused = 0
    private let hub: FeedHub

    /// Binds `address:port` and starts serving the hub's snapshots once a second.
    public init(address: String = "0.0.0.0", port: UInt16, hub: FeedHub, interval: Double = 1) throws(GatewayError) {
        self.hub = hub
        let (fd, bound) = try IPv4Socket.bound(type: Int32(SOCK_STREAM.rawValue), address: address, port: port, what: "NMEA TCP",
                                               inUse: "choose another with --nmea-port, 0 disables", reuseAddress: true)
        self.fd = fd
        self.port = bound
        acceptSource = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        acceptSource.setEventHandler { [unowned self] in self.acceptAll() }
        acceptSource.setCancelHandler { close(fd) }
        acceptSource.resume()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [unowned self] in self.broadcast() }
        timer.resume()
        self.timer = timer
    }

    /// Clients connected now.
    public var clientCount: Int { queue.sync { clients.count } }

    private func acceptAll() {
        while !paused {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let c = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(fd, $0, &length) }
            }
            if c < 0 {
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    // Out of descriptors: the listening socket stays readable, so pause instead of spinning.
                    refused += 1
                    paused = true
                    acceptSource.suspend()
                    queue.asyncAfter(deadline: .now() + 1) { [weak self] in
                        guard let self, self.paused else { return }
                        self.paused = false
                        self.acceptSource.resume()
                    }
                }
                return
            }
            let peer = address.sin_addr.s_addr
            if clients.count >= Self.maximumClients || peers.values.lazy.filter({ $0 == peer }).count >= Self.maximumPerAddress {
                close(c)
                refused += 1
                continue
            }
            _ = fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK)
            var one: Int32 = 1
            _ = setsockopt(c, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            clients[c] = 0
            peers[c] = peer
        }
    }

    private func drop(_ c: Int32) {
        close(c)
        clients[c] = nil
        peers[c] = nil
    }

    private func broadcast() {
        guard !clients.isEmpty else { return }
        let text = NMEA.sentences(hub.snapshot).joined()
        let bytes = Array(text.utf8)
        for (c, missed) in clients {
            let n = bytes.withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            if n == bytes.count {
                clients[c] = 0
            } else if n < 0 && errno != EAGAIN && errno != EWOULDBLOCK {
                drop(c)  // gone
            } else if missed + 1 >= 5 {
                drop(c)
                hub.countNMEADrop()
            } else {
                // A full (or partly written) buffer: this second is skipped; a partial sentence
                // ends at the next CR LF the client reads, which NMEA readers resynchronise on.
                clients[c] = missed + 1
            }
        }
    }

    /// Stops serving and closes every client.
    public func stop() {
        queue.sync {
            timer?.cancel()
            if paused { acceptSource.resume() }
            paused = false
            acceptSource.cancel()
            for c in clients.keys { close(c) }
            clients = [:]
            peers = [:]
        }
    }
}
