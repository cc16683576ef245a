import NIOCore

/// Open HTTP connections counted by client address, so one neighbour on a shared Wi-Fi cannot
/// take every connection the server has (`FeedServer.maximumConnections` in all).
public final class ConnectionsPerAddress: Sendable {
    /// Most connections from one address.
    public let limit: Int
    private let counts = Locked<[String: Int]>([:])
    private let refusedCount = Locked(0)

    /// Creates a table allowing `limit` connections an address.
    public init(limit: Int) {
        self.limit = limit
    }

    /// Connections refused so far.
    public var refused: Int { refusedCount.withLock { $0 } }

    /// Takes a slot for `address`; false when it has `limit` already.
    func acquire(_ address: String) -> Bool {
        let ok = counts.withLock { c in
            guard c[address, default: 0] < limit else { return false }
            c[address, default: 0] += 1
            return true
        }
        if !ok { refusedCount.withLock { $0 += 1 } }
        return ok
    }

    /// Gives back a slot.
    func release(_ address: String) {
        counts.withLock { c in
            let n = c[address, default: 1] - 1
            c[address] = n > 0 ? n : nil
        }
    }

    /// A channel handler for one connection: closes it at once when its address is over the limit.
    func handler() -> any RemovableChannelHandler { Handler(table: self) }

    final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        let table: ConnectionsPerAddress
        var address: String?

        init(table: ConnectionsPerAddress) {
            self.table = table
        }

        func handlerAdded(context: ChannelHandlerContext) {
            let a = context.channel.remoteAddress?.ipAddress ?? "unknown"
            if table.acquire(a) {
                address = a
            } else {
                context.close(promise: nil)
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            context.fireChannelRead(data)
        }

        func channelInactive(context: ChannelHandlerContext) {
            giveBack()
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            giveBack()
        }

        private func giveBack() {
            if let address {
                table.release(address)
                self.address = nil
            }
        }
    }
}
