import GatewaySupport
import GatewayCaptures
import GDL90
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// Reads a 1090 MHz receiver's SBS BaseStation output (dump1090, readsb: TCP port 30003) and
/// hands on, for each read, the GDL 90 traffic reports its positions make (`SBSDecoder`: the
/// lines merged per address). Built like `GPSDClient` on `ReconnectingConnection` (SwiftNIO's
/// `ClientBootstrap`): event-loop I/O, never the core's queue, so a stalled peer never delays the core. Reconnects with backoff
/// (`ReconnectPolicy.sbs`: 1 s, doubling to a minute, jittered) after a refused or lost connection, or `silence` seconds
/// without a line (readsb sends nothing while no aircraft is heard: a quiet reconnect then).
/// A line longer than 64 kB (not SBS) is dropped and counted; wrong lines are counted, with the
/// last one's reason kept for the status line.
package final class SBSClient: Sendable, CustomStringConvertible {
    /// Connection state and counts, for the status line.
    package struct Status: Sendable, Equatable, LineLinkStatus {
        /// Connected now.
        package var connected = false
        /// Why the last connection ended or failed, while not connected.
        package var reason: String?
        /// Lines read.
        package var lines = 0
        /// Traffic reports made.
        package var reports = 0
        /// Lines that were wrong (skipped), and the last one's reason.
        package var wrongLines = 0
        package var lastWrong: String?
        /// Reads dropped because the core was behind (`SBSSource`).
        package var droppedReads = 0
    }

    private let host: String
    private let port: UInt16
    private let onReports: @Sendable ([UInt8], Double) -> Void
    private let clock: @Sendable () -> Double
    private let group: any EventLoopGroup
    /// The reconnect policy (`ReconnectPolicy.sbs`: backoff, jitter, flaps), and the status.
    private let link: LineLink<Status>
    /// The connection kept up (from `start`).
    private let connection = Locked<ReconnectingConnection?>(nil)

    /// Seconds without a line after which the connection is tried anew.
    package static let silence: Int64 = 120
    /// The longest line kept waiting for its newline.
    static let longestLine = 65_536

    /// A client for `host:port`. `onReports` gets the frames of one read's positions and the time
    /// they were read (`clock`); `onStatus` every change of the status, and whether it is one a
    /// person should be told (connected, or the first failure after being connected or at start).
    package init(host: String, port: UInt16 = 30003, clock: @escaping @Sendable () -> Double,
                onReports: @escaping @Sendable ([UInt8], Double) -> Void,
                onStatus: @escaping @Sendable (Status, Bool) -> Void = { _, _ in },
                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.host = host
        self.port = port
        self.clock = clock
        self.onReports = onReports
        let name = "SBS \(HostPort(host: host, port: port))"
        link = LineLink(policy: .sbs, status: Status(), onStatus: onStatus) { n in
            "\(name) closes each connection right after it is made (\(n) times in a row): is another program on port \(port)?"
        }
        self.group = group
    }

    /// `SBS host:port`.
    package var description: String { "SBS \(HostPort(host: host, port: port))" }

    /// The status now.
    package var status: Status { link.status }

    /// Connects, and keeps reconnecting until `stop`.
    package func start() {
        let (name, clock, port) = (description, self.clock, self.port)
        let c = ReconnectingConnection(
            host: host, port: port, connectTimeout: 5, silence: Self.silence, group: group,
            handler: { SBSLineHandler(client: self, name: name, clock: clock) },
            retryDelay: { [link] in link.delay() },
            failed: { error in
                self.ended("\(name): \(ConnectionFailure.reason(error)) (is dump1090 or readsb running with its SBS output on port \(port)?)")
            })
        connection.set(c)
        c.start()
    }

    /// Stops reconnecting and closes the connection.
    package func stop() { connection.value?.stop() }

    fileprivate func update(_ change: (inout Status) -> Bool) { link.update(change) }
    fileprivate func connected() { link.connected() }
    fileprivate func ended(_ reason: String) { link.ended(reason) }

    fileprivate func read(lines: Int, reports: [UInt8], count: Int, wrong: [String], at time: Double) {
        if !reports.isEmpty { onReports(reports, time) }
        update { s in
            s.lines += lines
            s.reports += count
            s.wrongLines += wrong.count
            if let last = wrong.last { s.lastWrong = last }
            return false
        }
    }
}

/// One SBS connection: cuts what arrives into lines, decodes them, hands the reports of each read
/// on at once, and says why the connection ended.
private final class SBSLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let client: SBSClient
    private let name: String
    private let clock: @Sendable () -> Double
    private var decoder = SBSDecoder()
    private var pending: [UInt8] = []
    private var reason: String?

    init(client: SBSClient, name: String, clock: @escaping @Sendable () -> Double) {
        self.client = client
        self.name = name
        self.clock = clock
    }

    func channelActive(context: ChannelHandlerContext) {
        client.connected()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        if let bytes = buffer.readBytes(length: buffer.readableBytes) { pending += bytes }
        // Every line of this read is timed by the moment it was read, as the flight recorder keeps
        // times (`CaptureTime`, as the UDP source stamps datagrams): the replay of a recording is
        // the session it was.
        let time = CaptureTime.quantized(clock())
        var frames: [UInt8] = []
        var reports = 0, lines = 0
        var wrong: [String] = []
        let consumed = pending.withUnsafeBufferPointer { b in
            TextLines.forEach(b, atEnd: false) { start, end in
                lines += 1
                let line = UnsafeBufferPointer(rebasing: b[start..<end])
                guard !line.isEmpty, !(line.count == 1 && line[0] == 0x0D) else { return }
                switch decoder.feed(line, at: time) {
                case .report(let report):
                    frames += Message.traffic(report).frame()
                    reports += 1
                case .nothing:
                    break
                case .problem(let why):
                    wrong.append(why)
                }
            }
        }
        pending.removeFirst(consumed)
        if pending.count > SBSClient.longestLine {
            wrong.append("a line of more than \(SBSClient.longestLine / 1024) kB without a newline (not SBS text): dropped")
            pending.removeAll()
        }
        client.read(lines: lines, reports: frames, count: reports, wrong: wrong, at: time)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            reason = "\(name) sent nothing for \(SBSClient.silence) s (no aircraft heard, or the receiver stalled): reconnecting"
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        reason = "\(name): \(ConnectionFailure.reason(error))"
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        client.ended(reason ?? "\(name) closed the connection")
        context.fireChannelInactive()
    }
}
