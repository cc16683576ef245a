import GatewaySupport
import GatewayDomain
import GatewayCaptures
import GDL90
import NIOCore
import NIOPosix

/// Reads the Open Glider Network's APRS (an APRS-IS server, `aprs.glidernet.org:14580`, or a
/// local `ogn-decode`'s APRS output, port 50001) and hands on, for each read, the aircraft beacons
/// it held (`OGNBeaconParser`). Built like `SBSClient` on `ReconnectingConnection`: event-loop I/O,
/// never the core's queue; reconnects with backoff (`ReconnectPolicy.ogn`) after a refused or lost
/// connection or `silence` seconds without a line (an APRS-IS server sends a `#` comment every
/// 20 s or so: a silent one is gone).
///
/// On connecting it logs in read-only, as OGN asks of clients that only listen:
/// `user NOCALL pass -1 vers skygate <version> filter r/LAT/LON/KM`, the range around `position()`
/// (`[ogn] near`, else ownship); without a position yet, without a filter (a local ogn-decode
/// ignores it anyway), and the filter is sent (`#filter r/…`) once a position is known, and again
/// when it has moved a quarter of the range. It answers the server's comments (its keep-alives)
/// with a `#keepalive` line at most every `keepAliveEvery` seconds, so the server keeps a client
/// that only listens. Lines over 4 kB are dropped, counted; receiver and status beacons skipped,
/// counted; lines that are not beacons counted, the last one's reason kept for the status line.
package final class OGNClient: Sendable, CustomStringConvertible {
    /// Connection state and counts, for the status line.
    package struct Status: Sendable, Equatable, LineLinkStatus {
        /// Connected now.
        package var connected = false
        /// Why the last connection ended or failed, while not connected.
        package var reason: String?
        /// Lines read.
        package var lines = 0
        /// Aircraft beacons taken.
        package var beacons = 0
        /// Receiver and status beacons skipped.
        package var skipped = 0
        /// Lines that were not beacons (and over-long ones), and the last one's reason.
        package var wrongLines = 0
        package var lastWrong: String?
        /// Reads dropped because the core was behind (`OGNSource`).
        package var droppedReads = 0
    }

    private let host: String
    private let port: UInt16
    private let rangeKm: Double
    private let position: @Sendable () -> Position?
    private let onBeacons: @Sendable ([OGNBeacon], Double) -> Void
    private let clock: @Sendable () -> Double
    private let group: any EventLoopGroup
    private let link: LineLink<Status>
    private let connection = Locked<ReconnectingConnection?>(nil)

    /// Seconds without a line after which the connection is tried anew.
    package static let silence: Int64 = 60
    /// Seconds between two keep-alive answers at most.
    package static let keepAliveEvery = 60.0

    /// A client for `host:port` asking for `rangeKm` around `position()`. `onBeacons` gets each
    /// read's beacons and the time they were read (`clock`); `onStatus` every change of the status,
    /// and whether a person should be told (connected, or the first failure).
    package init(host: String, port: UInt16 = 14580, rangeKm: Double = 50, position: @escaping @Sendable () -> Position? = { nil },
                 clock: @escaping @Sendable () -> Double, onBeacons: @escaping @Sendable ([OGNBeacon], Double) -> Void,
                 onStatus: @escaping @Sendable (Status, Bool) -> Void = { _, _ in },
                 group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.host = host
        self.port = port
        self.rangeKm = rangeKm
        self.position = position
        self.clock = clock
        self.onBeacons = onBeacons
        let name = "OGN \(HostPort(host: host, port: port))"
        link = LineLink(policy: .ogn, status: Status(), onStatus: onStatus) { n in
            "\(name) closes each connection right after it is made (\(n) times in a row): does the server refuse the login?"
        }
        self.group = group
    }

    /// `OGN host:port`.
    package var description: String { "OGN \(HostPort(host: host, port: port))" }

    /// The status now.
    package var status: Status { link.status }

    /// The login line (no newline) for a filter around `position` (none without one).
    package static func login(position: Position?, rangeKm: Double) -> String {
        "user NOCALL pass -1 vers skygate \(GatewayVersion.current)" + (position.map { " filter " + filter($0, rangeKm: rangeKm) } ?? "")
    }

    /// APRS-IS's range filter: `r/LAT/LON/KM`, four decimals.
    package static func filter(_ p: Position, rangeKm: Double) -> String {
        "r/\(JSONWriter.format(p.latitude, decimals: 4))/\(JSONWriter.format(p.longitude, decimals: 4))/\(Int(rangeKm.rounded()))"
    }

    /// Connects, and keeps reconnecting until `stop`.
    package func start() {
        let (name, clock, port, range, position) = (description, self.clock, self.port, rangeKm, self.position)
        let c = ReconnectingConnection(
            host: host, port: port, connectTimeout: 5, silence: Self.silence, group: group,
            handler: { OGNLineHandler(client: self, name: name, clock: clock, rangeKm: range, position: position) },
            retryDelay: { [link] in link.delay() },
            failed: { error in
                self.ended("\(name): \(ConnectionFailure.reason(error)) (is it an APRS-IS server such as aprs.glidernet.org:14580, or ogn-decode's APRS port 50001?)")
            })
        connection.set(c)
        c.start()
    }

    /// Stops reconnecting and closes the connection.
    package func stop() { connection.value?.stop() }

    fileprivate func update(_ change: (inout Status) -> Bool) { link.update(change) }
    fileprivate func connected() { link.connected() }
    fileprivate func ended(_ reason: String) { link.ended(reason) }

    fileprivate func read(lines: Int, beacons: [OGNBeacon], skipped: Int, wrong: [String], at time: Double) {
        if !beacons.isEmpty { onBeacons(beacons, time) }
        update { s in
            s.lines += lines
            s.beacons += beacons.count
            s.skipped += skipped
            s.wrongLines += wrong.count
            if let last = wrong.last { s.lastWrong = last }
            return false
        }
    }
}

extension ReconnectPolicy {
    /// OGN's APRS: 2 s, doubling to two minutes (a public server: no hammering).
    package static let ogn = ReconnectPolicy(first: 2, longest: 120)
}

/// One APRS connection: logs in, cuts what arrives into lines, parses them, hands each read's
/// beacons on at once, answers keep-alives, keeps the filter on ownship, says why it ended.
private final class OGNLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let client: OGNClient
    private let name: String
    private let clock: @Sendable () -> Double
    private let rangeKm: Double
    private let position: @Sendable () -> Position?
    private let parser = OGNBeaconParser()
    private var pending: [UInt8] = []
    private var overlong = false
    private var reason: String?
    private var lastKeepAlive = -Double.infinity
    /// Where the filter was last centred (nil: no filter sent yet).
    private var filterCentre: Position?

    init(client: OGNClient, name: String, clock: @escaping @Sendable () -> Double, rangeKm: Double, position: @escaping @Sendable () -> Position?) {
        self.client = client
        self.name = name
        self.clock = clock
        self.rangeKm = rangeKm
        self.position = position
    }

    private func send(_ line: String, context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: line.utf8.count + 2)
        buffer.writeString(line + "\r\n")
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
    }

    func channelActive(context: ChannelHandlerContext) {
        filterCentre = position()
        send(OGNClient.login(position: filterCentre, rangeKm: rangeKm), context: context)
        lastKeepAlive = DedicatedThread.monotonicSeconds
        client.connected()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        if let bytes = buffer.readBytes(length: buffer.readableBytes) { pending += bytes }
        let time = CaptureTime.quantized(clock())
        var beacons: [OGNBeacon] = []
        var lines = 0, skipped = 0, comments = 0
        var wrong: [String] = []
        var skipping = overlong
        let parser = self.parser
        let consumed = pending.withUnsafeBufferPointer { b in
            TextLines.forEach(b, atEnd: false, overlong: &skipping) { start, end in
                lines += 1
                let line = UnsafeBufferPointer(rebasing: b[start..<end])
                guard !line.isEmpty, !(line.count == 1 && line[0] == 0x0D) else { return }
                switch parser.parse(line) {
                case .beacon(let beacon): beacons.append(beacon)
                case .receiver, .status: skipped += 1
                case .comment: comments += 1
                case .problem(let why): wrong.append(why)
                }
            } tooLong: { _ in
                lines += 1
                wrong.append("a line of more than \(TextLines.longestLine / 1024) kB without a newline (not APRS): dropped")
            }
        }
        overlong = skipping
        pending.removeFirst(consumed)
        if pending.count > OGNBeaconParser.longestLine, !overlong {
            // A line already longer than any beacon: dropped to its newline.
            wrong.append("a line of more than \(OGNBeaconParser.longestLine / 1024) kB (not an APRS beacon): dropped")
            pending.removeAll()
            overlong = true
        }
        let now = DedicatedThread.monotonicSeconds
        if comments > 0, now - lastKeepAlive >= OGNClient.keepAliveEvery {
            send("#keepalive", context: context)
            lastKeepAlive = now
        }
        if let p = position(), filterCentre.map({ Geodesy.distanceNM($0, p) * 1.852 > rangeKm / 4 }) ?? true {
            filterCentre = p
            send("#filter " + OGNClient.filter(p, rangeKm: rangeKm), context: context)
        }
        client.read(lines: lines, beacons: beacons, skipped: skipped, wrong: wrong, at: time)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            reason = "\(name) sent nothing for \(OGNClient.silence) s (an APRS-IS server sends a comment every 20 s): reconnecting"
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
