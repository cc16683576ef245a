import GatewaySupport
import NIOCore

/// Open HTTP connections counted by client address, so one neighbour on a shared Wi-Fi cannot
/// take every connection the server has (the server's `maximumConnections` in all).
package final class ConnectionsPerAddress: Sendable {
    /// Most connections from one address.
    package let limit: Int
    /// Open connections by address, and in all.
    private let counts = Locked<(byAddress: [String: Int], total: Int)>(([:], 0))
    private let refusedCount = Locked(0)

    /// Connections the server serves at once.
    package let capacity: Int
    /// Slots near the cap kept for addresses that hold no connection.
    package let reserved: Int

    /// Creates a table allowing `limit` connections an address, `capacity` in all, the last
    /// `reserved` of them for addresses holding none.
    package init(limit: Int, capacity: Int = .max, reserved: Int = 0) {
        self.limit = limit
        self.capacity = capacity
        self.reserved = reserved
    }

    /// Connections refused so far.
    package var refused: Int { refusedCount.withLock { $0 } }

    /// Connections open now from `address`, and in all.
    package func open(_ address: String) -> (address: Int, total: Int) {
        counts.withLock { ($0.byAddress[address, default: 0], $0.total) }
    }

    /// Takes a slot for `address`; false when it has `limit` already, or when the server is
    /// near its cap (`capacity - reserved` open) and the address holds a connection already:
    /// the last `reserved` slots are kept for addresses that hold none, so a few neighbours
    /// with idle connections cannot lock a health check or the pilot's tablet out.
    package func acquire(_ address: String) -> Bool {
        let ok = counts.withLock { c in
            let held = c.byAddress[address, default: 0]
            guard held < limit else { return false }
            if held > 0, c.total >= capacity - reserved { return false }
            c.byAddress[address] = held + 1
            c.total += 1
            return true
        }
        if !ok { refusedCount.withLock { $0 += 1 } }
        return ok
    }

    /// Gives back a slot.
    package func release(_ address: String) {
        counts.withLock { c in
            guard let held = c.byAddress[address] else { return }
            c.byAddress[address] = held > 1 ? held - 1 : nil
            c.total -= 1
        }
    }

    /// A channel handler for one connection: closes it at once when its address is over the limit.
    package func handler() -> any RemovableChannelHandler { Handler(table: self) }

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
