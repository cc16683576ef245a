import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ServiceLifecycle
import Synchronization

/// Reads position fixes from gpsd's JSON protocol (TCP, default port 2947): sends
/// `?WATCH={"enable":true,"json":true}` and turns each TPV report with a 2D/3D fix into a
/// `GPSFix`. Reconnects 3 s after gpsd is absent or goes away. Everything happens on the
/// client's own dispatch queue (a connection is read with blocking calls and 1 s timeouts; the
/// wait between connections is a deadline on that queue), never on the cooperative pool. As a
/// `Service`, it reads from the moment the group runs until graceful shutdown.
public final class GPSDClient: Service, Sendable, CustomStringConvertible {
    /// Connection states reported to the owner.
    public enum Status: Sendable, Equatable {
        /// Connected and reading.
        case connected
        /// Not connected; the reason.
        case disconnected(String)
    }

    private let host: String
    private let port: UInt16
    private let onFix: @Sendable (GPSFix) -> Void
    private let onStatus: @Sendable (Status) -> Void
    private let stopped = Atomic(false)
    private let reader = DispatchQueue(label: "gatewayd.gpsd")

    /// Creates a client for `host:port`; nothing happens until `start()` or `run()`.
    public init(host: String, port: UInt16 = 2947, onFix: @escaping @Sendable (GPSFix) -> Void,
                onStatus: @escaping @Sendable (Status) -> Void = { _ in }) {
        self.host = host
        self.port = port
        self.onFix = onFix
        self.onStatus = onStatus
    }

    /// `gpsd host:port`.
    public var description: String { "gpsd \(HostPort(host: host, port: port))" }

    /// Parses "host:port" or "host" (port 2947), as `HostPort` does.
    public static func parse(_ text: String) -> (host: String, port: UInt16)? {
        HostPort(text, defaultPort: 2947).map { ($0.host, $0.port) }
    }

    /// Starts connecting, and reconnecting, until `stop()`.
    public func start() {
        reader.async { self.connection() }
    }

    /// Stops: a connection under way ends within a second (its read timeout); no new one is made.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    /// Reads from now until graceful shutdown (or cancellation), then stops.
    public func run() async throws {
        start()
        try? await gracefulShutdown()
        stop()
    }

    private var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// One connection, then the next one 3 s after it ended.
    private func connection() {
        guard !isStopped else { return }
        let reason = session()
        guard !isStopped else { return }
        onStatus(.disconnected(reason))
        reader.asyncAfter(deadline: .now() + 3) { self.connection() }
    }

    /// One connection: returns why it ended.
    private func session() -> String {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else {
            return "gpsd \(host):\(port): cannot resolve host"
        }
        defer { freeaddrinfo(result) }
        let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard fd >= 0 else { return "gpsd: " + String(cString: strerror(errno)) }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            return "gpsd \(host):\(port): \(String(cString: strerror(errno))) (is gpsd running?)"
        }
        let watch = "?WATCH={\"enable\":true,\"json\":true}\n"
        _ = watch.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        onStatus(.connected)
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var silent = 0
        while !isStopped {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return "gpsd \(host):\(port) closed the connection" }
            if n < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                    silent += 1
                    if silent >= 10 { return "gpsd \(host):\(port) sent nothing for 10 s" }
                    continue
                }
                return "gpsd \(host):\(port): " + String(cString: strerror(errno))
            }
            silent = 0
            pending += chunk[0..<n]
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                if let fix = GPSDClient.fix(fromJSONLine: line) { onFix(fix) }
            }
            if pending.count > 65_536 { pending.removeAll() }
        }
        return "stopped"
    }

    /// The fix in one gpsd JSON line, if it is a TPV report with mode 2 or 3.
    public static func fix(fromJSONLine line: [UInt8]) -> GPSFix? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
              object["class"] as? String == "TPV",
              let mode = object["mode"] as? Int, mode >= 2,
              let lat = object["lat"] as? Double, let lon = object["lon"] as? Double,
              (-90...90).contains(lat), (-180...180).contains(lon)
        else { return nil }
        let altMeters = (object["altMSL"] as? Double) ?? (object["alt"] as? Double)
        let speed = (object["speed"] as? Double).map { $0 * 3600 / 1852 }
        let climb = (object["climb"] as? Double).map { $0 * 196.850_394 }
        // Altitude, speed, track and climb are checked against physical ranges by the core
        // (`GPSFix.validated`), which counts what it drops.
        return GPSFix(position: .init(latitude: lat, longitude: lon), altitudeFt: mode == 3 ? altMeters.map { $0 / 0.3048 } : nil,
                      groundSpeedKt: speed, trackDeg: object["track"] as? Double, verticalSpeedFpm: climb)
    }
}
