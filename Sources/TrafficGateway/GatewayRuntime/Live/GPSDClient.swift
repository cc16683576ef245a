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
/// SwiftNIO's `ClientBootstrap` (event-loop I/O, an `IdleStateHandler` for the silence, the
/// retry a task scheduled on the loop), never on the cooperative pool. As a `Service`, it reads
/// from the moment the group runs until graceful shutdown.
public final class GPSDClient: Service, Sendable, CustomStringConvertible {
    /// Connection state, for the status line.
    public enum Status: Sendable, Equatable {
        /// Connected and watching.
        case connected
        /// Not connected, with the reason.
        case disconnected(String)
    }

    private let host: String
    private let port: UInt16
    private let onFix: @Sendable (GPSFix) -> Void
    private let onStatus: @Sendable (Status) -> Void
    private let group: any EventLoopGroup
    /// Stopped, and the channel of the connection in use (to close on stop).
    private let state = Locked<(stopped: Bool, channel: (any Channel)?)>((false, nil))

    /// Seconds between connection attempts.
    public static let retryDelay: Int64 = 3
    /// Seconds of silence after which the connection is given up (gpsd reports every second).
    public static let silence: Int64 = 10

    /// Creates a client; nothing happens until `start` or `run`.
    public init(host: String, port: UInt16 = 2947, onFix: @escaping @Sendable (GPSFix) -> Void,
                onStatus: @escaping @Sendable (Status) -> Void = { _ in },
                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.host = host
        self.port = port
        self.onFix = onFix
        self.onStatus = onStatus
        self.group = group
    }

    /// `gpsd host:port`.
    public var description: String { "gpsd \(HostPort(host: host, port: port))" }

    /// "host:port" (port 2947 if omitted; IPv6 in brackets), or nil.
    public static func parse(_ text: String) -> (host: String, port: UInt16)? {
        HostPort(text, defaultPort: 2947).map { ($0.host, $0.port) }
    }

    /// Connects (SwiftNIO's `ClientBootstrap`), asks gpsd to watch, and reconnects every
    /// `retryDelay` seconds after a failure or `silence` seconds without a report, until `stop`.
    public func start() { connect(on: group.next()) }

    /// Stops reconnecting and closes the connection.
    public func stop() {
        let channel = state.withLock { s -> (any Channel)? in
            s.stopped = true
            defer { s.channel = nil }
            return s.channel
        }
        channel?.close(promise: nil)
    }

    /// As a service: runs until graceful shutdown, then stops.
    public func run() async throws {
        start()
        try? await gracefulShutdown()
        stop()
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func connect(on loop: any EventLoop) {
        guard !isStopped else { return }
        let (host, port, onFix, onStatus) = (self.host, self.port, self.onFix, self.onStatus)
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(.seconds(Self.retryDelay))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: .seconds(Self.silence)))
                    try channel.pipeline.syncOperations.addHandler(GPSDLineHandler(host: host, port: port, onFix: onFix, onStatus: onStatus))
                }
            }
        bootstrap.connect(host: host, port: Int(port)).whenComplete { result in
            switch result {
            case .success(let channel):
                let keep = self.state.withLock { s -> Bool in
                    guard !s.stopped else { return false }
                    s.channel = channel
                    return true
                }
                guard keep else { channel.close(promise: nil); return }
                channel.closeFuture.whenComplete { _ in
                    self.state.withLock { if $0.channel === channel { $0.channel = nil } }
                    self.retry(on: loop)
                }
            case .failure(let error):
                guard !self.isStopped else { return }
                onStatus(.disconnected("gpsd \(HostPort(host: host, port: port)): \(ConnectionFailure.reason(error)) (is gpsd running?)"))
                self.retry(on: loop)
            }
        }
    }

    private func retry(on loop: any EventLoop) {
        guard !isStopped else { return }
        loop.scheduleTask(in: .seconds(Self.retryDelay)) { self.connect(on: loop) }
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

    init(host: String, port: UInt16, onFix: @escaping @Sendable (GPSFix) -> Void, onStatus: @escaping @Sendable (GPSDClient.Status) -> Void) {
        self.host = host
        self.port = port
        self.onFix = onFix
        self.onStatus = onStatus
    }

    private var name: String { "gpsd \(HostPort(host: host, port: port))" }

    func channelActive(context: ChannelHandlerContext) {
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
    public static func fix(fromJSONLine line: [UInt8]) -> GPSFix? { GPSDReport.fix(fromJSONLine: line) }
}
