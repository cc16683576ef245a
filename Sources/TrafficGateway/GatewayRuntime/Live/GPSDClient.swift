import GatewaySupport
import GatewayDomain
import GatewayCaptures
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif
import ServiceLifecycle

/// Reads position fixes from gpsd's JSON protocol (TCP, default port 2947): sends
/// `?WATCH={"enable":true,"json":true}` and turns each TPV report with a 2D/3D fix into a
/// `GPSFix`. Reconnects 3 s after gpsd is absent, goes away or falls silent for 10 s. Built on
/// `ReconnectingConnection` (SwiftNIO's `ClientBootstrap`: event-loop I/O, an `IdleStateHandler`
/// for the silence, the retry a task scheduled on the loop), never on the cooperative pool. As a `Service`, it reads
/// from the moment the group runs until graceful shutdown.
package final class GPSDClient: Service, Sendable, CustomStringConvertible {
    /// Connection state, for the status line.
    package enum Status: Sendable, Equatable {
        /// Connected and watching.
        case connected
        /// Not connected, with the reason.
        case disconnected(String)
    }

    private let host: String
    private let port: UInt16
    private let connection: ReconnectingConnection

    /// Seconds a connection attempt may take.
    package static let connectTimeout: Int64 = 3
    /// Seconds of silence after which the connection is given up (gpsd reports every second).
    package static let silence: Int64 = 10

    /// Creates a client; nothing happens until `start` or `run`.
    package init(host: String, port: UInt16 = 2947, onFix: @escaping @Sendable (GPSFix) -> Void,
                onStatus: @escaping @Sendable (Status) -> Void = { _ in },
                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.host = host
        self.port = port
        // The one reconnect policy (`ReconnectPolicy.gpsd`): 1 s, doubling up to 30 s, jittered;
        // a connection that lasts starts it over.
        let policy = Locked(ReconnectPolicy.gpsd)
        connection = ReconnectingConnection(
            host: host, port: port, connectTimeout: Self.connectTimeout, silence: Self.silence, group: group,
            handler: { GPSDLineHandler(host: host, port: port, onFix: onFix, onStatus: onStatus, policy: policy) },
            retryDelay: { policy.withLock { $0.delay() } },
            failed: { error in onStatus(.disconnected("gpsd \(HostPort(host: host, port: port)): \(ConnectionFailure.reason(error)) (is gpsd running?)")) })
    }

    /// `gpsd host:port`.
    package var description: String { "gpsd \(HostPort(host: host, port: port))" }

    /// "host:port" (port 2947 if omitted; IPv6 in brackets), or nil.
    package static func parse(_ text: String) -> (host: String, port: UInt16)? {
        HostPort(text, defaultPort: 2947).map { ($0.host, $0.port) }
    }

    /// Connects (SwiftNIO's `ClientBootstrap`), asks gpsd to watch, and reconnects after a failure
    /// or `silence` seconds without a report (`ReconnectPolicy.gpsd`), until `stop`.
    package func start() { connection.start() }

    /// Stops reconnecting and closes the connection.
    package func stop() { connection.stop() }

    /// As a service: runs until graceful shutdown, then stops.
    package func run() async throws {
        start()
        try? await gracefulShutdown()
        stop()
    }
}

/// One gpsd connection: asks to watch once active, cuts what arrives into lines (at most 64 kB
/// waiting), hands TPV fixes on, closes on `IdleStateHandler`'s read timeout, and says why the
/// connection ended.
private final class GPSDLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let host: String
    private let port: UInt16
    private let onFix: @Sendable (GPSFix) -> Void
    private let onStatus: @Sendable (GPSDClient.Status) -> Void
    private var pending: [UInt8] = []
    private var reason: String?

    private let policy: Locked<ReconnectPolicy>

    init(host: String, port: UInt16, onFix: @escaping @Sendable (GPSFix) -> Void, onStatus: @escaping @Sendable (GPSDClient.Status) -> Void,
         policy: Locked<ReconnectPolicy>) {
        self.policy = policy
        self.host = host
        self.port = port
        self.onFix = onFix
        self.onStatus = onStatus
    }

    private var name: String { "gpsd \(HostPort(host: host, port: port))" }

    func channelActive(context: ChannelHandlerContext) {
        _ = policy.withLock { $0.connected(at: DedicatedThread.monotonicSeconds) }
        context.writeAndFlush(NIOAny(ByteBuffer(string: "?WATCH={\"enable\":true,\"json\":true}\n")), promise: nil)
        onStatus(.connected)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        if let bytes = buffer.readBytes(length: buffer.readableBytes) { pending += bytes }
        while let newline = pending.firstIndex(of: 0x0A) {
            let line = Array(pending[..<newline])
            pending.removeSubrange(...newline)
            if let fix = GPSDReport.fix(fromJSONLine: line) { onFix(fix) }
        }
        if pending.count > 65_536 { pending.removeAll() }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            reason = "\(name) sent nothing for \(GPSDClient.silence) s"
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        reason = "\(name): \(error)"
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        onStatus(.disconnected(reason ?? "\(name) closed the connection"))
        context.fireChannelInactive()
    }
}

extension GPSDClient {
    /// The fix in one gpsd JSON line (`GPSDReport.fix`), if it is a TPV report with mode 2 or 3.
    package static func fix(fromJSONLine line: [UInt8]) -> GPSFix? { GPSDReport.fix(fromJSONLine: line) }
}
