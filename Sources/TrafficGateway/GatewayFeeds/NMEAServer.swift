import GatewaySupport
import Dispatch
import NIOCore
import NIOPosix

/// FLARM NMEA over TCP (Stratux serves it on port 2000) for XCSoar-family apps: every second
/// each client gets the sentences of the latest snapshot. Built on SwiftNIO's `ServerBootstrap`
/// (its accept back-off pauses accepting when the process is out of descriptors, instead of
/// spinning). Writes never wait: a client whose channel is not writable (its socket buffer and
/// our 64 kB high-water mark are full) misses that second; one that misses 5 in a row is dropped
/// and counted. Clients are capped (`maximumClients`, `maximumPerAddress`): one past a cap is
/// accepted and closed at once.
package final class NMEAServer: Sendable {
    /// Most clients at once (an XCSoar or two per cockpit).
    package static let maximumClients = 32
    /// Most clients from one address.
    package static let maximumPerAddress = 4
    /// The port bound.
    package let port: UInt16
    private let channel: any Channel
    private let clients: Clients
    private let timer: RepeatedTask

    /// The connected clients, touched from their event loops.
    private final class Clients: Sendable {
        struct Client {
            var channel: any Channel
            var peer: String
            var missed = 0
        }
        let state = Locked<(clients: [ObjectIdentifier: Client], refused: Int)>(([:], 0))

        /// Admits `channel` unless a cap is reached (then false, counted).
        func admit(_ channel: any Channel) -> Bool {
            let peer = channel.remoteAddress?.ipAddress ?? "?"
            return state.withLock { s in
                guard s.clients.count < NMEAServer.maximumClients,
                      s.clients.values.lazy.filter({ $0.peer == peer }).count < NMEAServer.maximumPerAddress else {
                    s.refused += 1
                    return false
                }
                s.clients[ObjectIdentifier(channel)] = Client(channel: channel, peer: peer)
                return true
            }
        }

        func remove(_ channel: any Channel) { state.withLock { _ = $0.clients.removeValue(forKey: ObjectIdentifier(channel)) } }
    }

    /// Binds `address:port` and starts serving the hub's snapshots every `interval` seconds.
    package init(address: String = "0.0.0.0", port: UInt16, hub: FeedHub, interval: Double = 1,
                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) throws(GatewayError) {
        let clients = Clients()
        self.clients = clients
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 16 << 10, high: 64 << 10))
            .childChannelInitializer { channel in
                guard clients.admit(channel) else { return channel.close() }
                channel.closeFuture.whenComplete { _ in clients.remove(channel) }
                return channel.eventLoop.makeSucceededVoidFuture()
            }
        _ = try IPv4Socket.socketAddress(address, port: port)
        do {
            channel = try bootstrap.bind(host: address, port: Int(port)).wait()
        } catch let error as IOError {
            throw IPv4Socket.listenError(what: "NMEA TCP", address: address, port: port,
                                         inUse: "choose another with --nmea-port, 0 disables", code: error.errnoCode)
        } catch {
            throw GatewayError.socket(what: "cannot listen on NMEA TCP \(address):\(port)", reason: "\(error)")
        }
        self.port = UInt16(channel.localAddress?.port ?? Int(port))
        let nanoseconds = Int64(interval * 1e9)
        timer = channel.eventLoop.scheduleRepeatedTask(initialDelay: .nanoseconds(nanoseconds), delay: .nanoseconds(nanoseconds)) { _ in  // concurrency: the FLARM NMEA feed's sentences each interval on the client's event loop; closed with the channel
            Self.broadcast(NMEA.sentences(hub.snapshot).joined(), to: clients, hub: hub)
        }
    }

    /// Clients connected now.
    package var clientCount: Int { clients.state.withLock { $0.clients.count } }

    /// Connections refused for a cap.
    package var refused: Int { clients.state.withLock { $0.refused } }

    /// One second's sentences to every client that can take them now.
    private static func broadcast(_ text: String, to clients: Clients, hub: FeedHub) {
        let now = clients.state.withLock { $0.clients }
        guard !now.isEmpty else { return }
        for (id, client) in now {
            let channel = client.channel
            if channel.isWritable {
                channel.writeAndFlush(ByteBuffer(string: text), promise: nil)
                clients.state.withLock { $0.clients[id]?.missed = 0 }
            } else if client.missed + 1 >= 5 {
                // A reader gone quiet for 5 seconds: dropped, counted, its slot freed.
                clients.state.withLock { _ = $0.clients.removeValue(forKey: id) }
                channel.close(promise: nil)
                hub.countNMEADrop()
            } else {
                clients.state.withLock { $0.clients[id]?.missed = client.missed + 1 }
            }
        }
    }

    /// Stops serving and closes every client.
    package func stop() {
        timer.cancel()
        try? channel.close().wait()
        let all = clients.state.withLock { s -> [any Channel] in
            defer { s.clients = [:] }
            return s.clients.values.map(\.channel)
        }
        for c in all { try? c.close().wait() }
    }
}
