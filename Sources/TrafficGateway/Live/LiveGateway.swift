import Dispatch
import Foundation
import GDL90

/// The running gateway: UDP listener, optional gpsd, a one-second tick, all feeding one
/// `GatewayPipeline` on one serial queue (the single writer). Alert changes go to `onAlerts`
/// on that queue; the alert log is written on its own queue so a slow disk never stalls decoding.
public final class LiveGateway: @unchecked Sendable {
    /// Where alerts go.
    public typealias AlertSink = @Sendable ([AlertEvent]) -> Void

    /// The serial queue that owns the pipeline.
    public let queue = DispatchQueue(label: "gatewayd.core")
    private let logQueue = DispatchQueue(label: "gatewayd.alert-log")
    private var pipeline: GatewayPipeline
    private var listener: UDPListener?
    private var gpsd: GPSDClient?
    private var timer: DispatchSourceTimer?
    private let onAlerts: AlertSink
    private let log: AlertLog?
    private let onLogError: @Sendable (GatewayError) -> Void
    private var gpsdStatus: GPSDClient.Status?

    /// The UDP port bound.
    public var port: UInt16 { listener?.port ?? 0 }

    /// Creates a gateway; nothing runs until `start`.
    public init(core: GatewayCore = GatewayCore(), log: AlertLog?, onAlerts: @escaping AlertSink,
                onLogError: @escaping @Sendable (GatewayError) -> Void = { _ in }) {
        self.pipeline = GatewayPipeline(core: core)
        self.log = log
        self.onAlerts = onAlerts
        self.onLogError = onLogError
    }

    /// Binds the UDP socket and starts the tick (and gpsd when given "host:port").
    public func start(bind: String, port: UInt16, gpsd: (host: String, port: UInt16)? = nil) throws(GatewayError) {
        listener = try UDPListener(address: bind, port: port, queue: queue) { [unowned self] bytes, time in
            self.deliver(self.pipeline.ingest(bytes, at: time))
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [unowned self] in
            self.deliver(self.pipeline.tick(at: Date().timeIntervalSince1970))
        }
        timer.resume()
        self.timer = timer
        if let gpsd {
            let client = GPSDClient(host: gpsd.host, port: gpsd.port, onFix: { [unowned self] fix in
                self.queue.async { self.deliver(self.pipeline.gpsFix(fix, at: Date().timeIntervalSince1970)) }
            }, onStatus: { [unowned self] status in
                self.queue.async { self.gpsdStatus = status }
            })
            client.start()
            self.gpsd = client
        }
    }

    private func deliver(_ alerts: [AlertEvent]) {
        guard !alerts.isEmpty else { return }
        onAlerts(alerts)
        if let log {
            let onLogError = self.onLogError
            logQueue.async {
                do throws(GatewayError) { try log.append(alerts) } catch { onLogError(error) }
            }
        }
    }

    /// A snapshot of the status line: counters, sources, health.
    public func status() -> GatewayStatus {
        queue.sync {
            let core = pipeline.core
            let now = Date().timeIntervalSince1970
            return GatewayStatus(
                counters: core.counters, targets: core.picture.targets.count, activeAlerts: core.trafficAlerts.activeCount,
                positionSource: core.ownship.fix(at: now)?.source ?? .none, problem: core.health.problem(at: now),
                gpsd: gpsdStatus)
        }
    }

    /// Stops everything and waits for pending alert-log writes.
    public func stop() {
        queue.sync {
            timer?.cancel()
            listener?.cancel()
            gpsd?.stop()
        }
        logQueue.sync {}
    }
}

/// A point-in-time summary of the running gateway.
public struct GatewayStatus: Sendable {
    /// Counters.
    public var counters: GatewayCounters
    /// Targets in the picture.
    public var targets: Int
    /// Active traffic alerts.
    public var activeAlerts: Int
    /// Ownship position source in use.
    public var positionSource: PositionSource
    /// Receiver problem, nil when healthy.
    public var problem: String?
    /// gpsd connection state, when configured.
    public var gpsd: GPSDClient.Status?

    /// One line for the log.
    public var line: String {
        var s = "datagrams \(counters.datagrams), messages \(counters.messages), rejected \(counters.errors), "
        s += "targets \(targets), alerts \(activeAlerts), position from \(positionSource.rawValue)"
        if let gpsd {
            switch gpsd {
            case .connected: s += ", gpsd connected"
            case .disconnected(let why): s += ", gpsd: \(why)"
            }
        }
        if let problem { s += "; receiver: \(problem)" }
        return s
    }
}
