import GatewaySupport
import Dispatch
import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Receives UDP datagrams on a non-blocking IPv4 socket with a Dispatch read source.
///
/// The socket gets a large receive buffer (Stratux bursts can exceed 16 kB) and each wake-up
/// drains every queued datagram into one reused 64 KiB buffer. The handler runs on `queue` and
/// is given the bytes (valid only during the call) and the receive time (the wall clock: this is
/// the edge where time enters the system).
package final class UDPListener: Sendable {
    /// The port actually bound (useful when asking for port 0).
    package let port: UInt16
    private let fd: Int32
    /// The read source (locked: libdispatch's sources are not `Sendable` types, though `cancel` is thread-safe).
    private let source: Locked<any DispatchSourceRead>
    private let acceptFrom: Set<UInt32>
    private let refusedCount = Atomic<Int>(0)
    /// Datagrams dropped because they came from an address not in `acceptFrom`.
    package var refused: Int { refusedCount.load(ordering: .relaxed) }
    /// Most datagrams read per wake-up (about 50 ms of work at most): under a saturating flood the
    /// queue still gets back to its timers (ticks, the systemd watchdog) and to a stop between
    /// batches; what the socket cannot hold meanwhile the kernel drops. 64 cost a third of the
    /// loopback ingest rate (20,000 against 30,000 datagrams/s without loss).
    package static let batch = 1024
    /// Most bytes read per wake-up: 1,024 datagrams of 65,000 bytes of junk frames are 64 MB and
    /// seconds of deframing, which a stop would wait behind.
    package static let batchBytes = 1 << 20
    /// Set by `stopReading()` from any thread: the drain stops before its next datagram.
    private let stopping = Atomic<Bool>(false)

    /// Binds `address:port` and starts receiving on `queue`.
    package init(
        address: String = "0.0.0.0", port: UInt16, queue: DispatchQueue, receiveBufferBytes: Int32 = 4 << 20,
        acceptFrom: [String] = [], handler: @escaping @Sendable (UnsafeRawBufferPointer, Double) -> Void
    ) throws(GatewayError) {
        var allowed = Set<UInt32>()
        for host in acceptFrom {
            var a = in_addr()
            guard inet_pton(AF_INET, host, &a) == 1 else {
                throw GatewayError.setting(name: "accept_from", message: "accept_from: '\(host)' is not an IPv4 address like 192.168.10.1")
            }
            allowed.insert(a.s_addr)
        }
        self.acceptFrom = allowed
        let (fd, bound) = try IPv4Socket.bound(
            type: Int32(SOCK_DGRAM.rawValue), address: address, port: port, what: "UDP",
            inUse: "is another gatewayd or Stratux client running? choose another with --udp-port", receiveBuffer: receiveBufferBytes)
        self.fd = fd
        self.port = bound
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        self.source = Locked(source)
        // The one reused buffer is the handler's own: only the read source's queue runs it.
        var buffer = [UInt8](repeating: 0, count: 65_536)
        source.setEventHandler { [unowned self] in self.drain(into: &buffer, handler) }
        source.setCancelHandler { close(fd) }
        source.resume()
    }

    private func drain(into buffer: inout [UInt8], _ handler: (UnsafeRawBufferPointer, Double) -> Void) {
        var bytes = 0
        for _ in 0..<Self.batch {
            if bytes >= Self.batchBytes || stopping.load(ordering: .relaxed) { return }
            var from = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let n = buffer.withUnsafeMutableBytes { b in
                withUnsafeMutablePointer(to: &from) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, b.baseAddress, b.count, 0, $0, &length) }
                }
            }
            if n < 0 { return }  // EAGAIN: drained (or a transient error: the source fires again)
            if !acceptFrom.isEmpty, !acceptFrom.contains(from.sin_addr.s_addr) {
                refusedCount.add(1, ordering: .relaxed)
                continue
            }
            let now = Date().timeIntervalSince1970
            bytes += n
            buffer.withUnsafeBytes { handler(UnsafeRawBufferPointer(rebasing: $0[0..<n]), now) }
        }
    }

    /// Stops reading at the next datagram, from any thread: a stop under a flood does not wait
    /// for the batch being read, nor for what the socket still holds (`cancel` then closes it).
    package func stopReading() { stopping.store(true, ordering: .relaxed) }

    /// Stops receiving and closes the socket.
    package func cancel() {
        stopReading()
        source.withLock { $0.cancel() }
    }

    deinit { source.withLock { $0.cancel() } }
}

/// Sends UDP datagrams to one IPv4 host:port (for `gatewayd send` and GDL 90 forwarding).
package final class UDPSender: Sendable {
    private let fd: Int32
    private let destination: sockaddr_in
    /// "host:port" as given.
    package let target: String

    /// Opens a socket aimed at `host:port`; `host` is an IPv4 address or a name.
    package init(host: String, port: UInt16) throws(GatewayError) {
        target = "\(host):\(port)"
        var destination = sockaddr_in()
        destination.sin_family = sa_family_t(AF_INET)
        destination.sin_port = port.bigEndian
        if inet_pton(AF_INET, host, &destination.sin_addr) != 1 {
            var hints = addrinfo()
            hints.ai_family = AF_INET
            hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
            var result: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, nil, &hints, &result) == 0, let info = result else {
                throw GatewayError.socket(what: "UDP \(host):\(port)", reason: "cannot resolve host \(host)")
            }
            defer { freeaddrinfo(result) }
            let resolved = info.pointee.ai_addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            destination.sin_addr = resolved
        }
        self.destination = destination
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw GatewayError.socket(what: "UDP \(target)", reason: String(cString: strerror(errno))) }
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &yes, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Sends one datagram; returns false (never blocks, never throws) when the kernel refuses it.
    @discardableResult
    package func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
        withUnsafePointer(to: destination) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == bytes.count
            }
        }
    }

    /// Sends one datagram held in an array.
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { send($0) } }

    deinit { close(fd) }
}
