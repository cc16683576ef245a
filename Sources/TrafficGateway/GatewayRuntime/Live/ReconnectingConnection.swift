import GatewaySupport
import NIOCore
import NIOPosix

/// A TCP client connection kept up, for the sources that read a line protocol from another
/// program (gpsd, a 1090 receiver's SBS output): SwiftNIO's `ClientBootstrap` on an event loop
/// (never the cooperative pool, never the core's queue), an `IdleStateHandler` that closes a
/// connection silent for `silence` seconds, the pipeline's own handler made anew for each
/// connection, and a reconnect after the delay `retryDelay` gives each time an attempt fails or a
/// connection ends, until `stop`. What the protocol means stays with its client.
final class ReconnectingConnection: Sendable {
    private let host: String
    private let port: UInt16
    private let connectTimeout: Int64
    private let silence: Int64
    private let handler: @Sendable () -> any ChannelHandler
    private let retryDelay: @Sendable () -> Double
    private let failed: @Sendable (any Error) -> Void
    private let group: any EventLoopGroup
    /// Stopped, and the channel of the connection in use (to close on stop).
    private let state = Locked<(stopped: Bool, channel: (any Channel)?)>((false, nil))

    /// A connection to `host:port`: `handler` makes the protocol's handler for each connection,
    /// `retryDelay` says how long to wait before the next attempt, seconds (asked at each: the client's `ReconnectPolicy`), `failed` hears
    /// an attempt that failed (a connection that ends says so through its handler).
    init(host: String, port: UInt16, connectTimeout: Int64, silence: Int64, group: any EventLoopGroup,
         handler: @escaping @Sendable () -> any ChannelHandler, retryDelay: @escaping @Sendable () -> Double,
         failed: @escaping @Sendable (any Error) -> Void) {
        self.host = host
        self.port = port
        self.connectTimeout = connectTimeout
        self.silence = silence
        self.group = group
        self.handler = handler
        self.retryDelay = retryDelay
        self.failed = failed
    }

    /// Connects, and keeps reconnecting until `stop`.
    func start() { connect(on: group.next()) }

    /// Stops reconnecting and closes the connection.
    func stop() {
        let channel = state.withLock { s -> (any Channel)? in
            s.stopped = true
            defer { s.channel = nil }
            return s.channel
        }
        channel?.close(promise: nil)
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func connect(on loop: any EventLoop) {
        guard !isStopped else { return }
        let (silence, handler) = (self.silence, self.handler)
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(.seconds(connectTimeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: .seconds(silence)))
                    try channel.pipeline.syncOperations.addHandler(handler())
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
                self.failed(error)
                self.retry(on: loop)
            }
        }
    }

    private func retry(on loop: any EventLoop) {
        guard !isStopped else { return }
        loop.scheduleTask(in: .milliseconds(Int64(retryDelay() * 1000))) { self.connect(on: loop) }  // concurrency: the reconnect backoff (gpsd, SBS) on the connection's own event loop; stop() ends it
    }
}
