import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import GDL90

/// The running gateway: UDP listener, optional gpsd, a one-second tick, all feeding one
/// `GatewayPipeline` on one serial queue (the single writer). What the pipeline decides goes to
/// the sinks (`GatewaySink`: feeds, terminal, alert log, forwarder, NOTAM store, voice…), each
/// on that queue, the alert changes encoded once.
public final class LiveGateway: @unchecked Sendable {
    /// Where alerts go: each change with its encodings, made once.
    public typealias AlertSink = @Sendable ([EncodedAlert]) -> Void

    /// The serial queue that owns the pipeline.
    public let queue = DispatchQueue(label: "gatewayd.core")
    private var pipeline: GatewayPipeline
    /// The UDP socket's reader, set by `start`; behind its own lock so that a stop reaches it
    /// without waiting for the queue.
    private let listener = Locked<UDPListener?>(nil)
    private var gpsd: GPSDClient?
    private var timer: DispatchSourceTimer?
    private var gpsdStatus: GPSDClient.Status?
    /// Feeds: the hub the HTTP and NMEA servers read (nil: no feeds).
    public let hub: FeedHub?
    /// The sinks, in the order they are handed outputs (registered before `start`).
    private var sinks: [any GatewaySink] = []
    private var heldTargets = 0
    private var gpsRejectedLogged = 0
    private var gpsRejectedLoggedAt = -Double.infinity
    private var forwarder: ForwardSink?
    private var discovery: DatagramSocket?
    /// The airspace areas last given (nil before the first set).
    private var givenAirspace: [AirspaceArea]?
    /// When set (before `start`), every datagram and gpsd fix is recorded (`run --record DIR`).
    public var recorder: FlightRecorder?
    /// Called on the core's queue with each notice the core has (an echo of ownship learned or
    /// forgotten): one log line each.
    public var onNotice: (@Sendable (String) -> Void)?
    /// When set (before `start`), the time each datagram took from receipt to alerts delivered
    /// and forwarded is appended here, ms (benchmarks).
    public var latencyProbe: LatencyProbe?

    /// The UDP port bound.
    public var port: UInt16 { listener.value?.port ?? 0 }
    /// The gateway's clock (set before `start`): the wall clock, or a capture's when a capture is
    /// the source (`run --replay`). Ticks, gpsd fixes, airspace sets and acknowledgements are
    /// stamped with it, so the page and the alerts follow the capture's time.
    public var clock: @Sendable () -> Double = { Date().timeIntervalSince1970 }
    /// Seconds of wall time between ticks: 1, or less when a capture plays faster than real time.
    public var tickInterval: Double = 1

    /// Creates a gateway whose outputs go to `sinks` (more can be added before `start`); the
    /// feeds' picture is produced when `hub` is given. Nothing runs until `start`.
    public init(core: GatewayCore = GatewayCore(), hub: FeedHub? = nil, sinks: [any GatewaySink]) {
        self.pipeline = GatewayPipeline(core: core, outputs: .init(fisb: true, snapshotInterval: hub == nil ? nil : 0.25, flightSamples: true))
        self.hub = hub
        self.sinks = (hub.map { [FeedHubSink(hub: $0)] } ?? []) + sinks
    }

    /// A gateway whose alerts go to `onAlerts` and the alert log (when given), and whose
    /// picture goes to `hub` (when given).
    public convenience init(core: GatewayCore = GatewayCore(), log: AlertLog?, hub: FeedHub? = nil, onAlerts: @escaping AlertSink,
                            onLogError: @escaping @Sendable (GatewayError) -> Void = { _ in }) {
        self.init(core: core, hub: hub, sinks: [AlertHandlerSink(onAlerts)] + (log.map { [AlertLogSink(log: $0, onError: onLogError)] } ?? []))
    }

    /// Registers `sink` (before `start`): it is handed every output from then on.
    public func add(_ sink: any GatewaySink) {
        queue.sync { sinks.append(sink) }
    }

    /// Binds the UDP socket and starts the tick (and gpsd when given "host:port").
    /// GDL 90 is accepted only from `acceptFrom` (IPv4 addresses) when it is not empty.
    public func start(bind: String, port: UInt16, gpsd: (host: String, port: UInt16)? = nil, acceptFrom: [String] = []) throws(GatewayError) {
        listener.set(try UDPListener(address: bind, port: port, queue: queue, acceptFrom: acceptFrom) { [unowned self] bytes, time in
            // Times to the microsecond, as the flight recorder keeps them: its replay is identical.
            self.receive(bytes, at: CaptureTime.quantized(time))
        })
        startTicking(gpsd: gpsd)
    }

    /// Starts the tick (and gpsd when given "host:port") without a UDP socket: the GDL 90 comes
    /// from `inject` (a capture played as a live source).
    public func startTicking(gpsd: (host: String, port: UInt16)? = nil) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + tickInterval, repeating: tickInterval)
        timer.setEventHandler { [unowned self] in
            let now = self.clock()
            self.carryOut(self.pipeline.process(tickAt: now), at: now)
            for notice in self.pipeline.drainNotices() { self.onNotice?(notice) }
            // Impossible gpsd values are dropped by the core and counted; say so, at most once a minute.
            let rejected = self.pipeline.core.counters.gpsValuesRejected
            if rejected > self.gpsRejectedLogged, now - self.gpsRejectedLoggedAt >= 60 {
                self.onNotice?("gpsd sent \(rejected - self.gpsRejectedLogged) physically impossible value(s) (altitude, speed, track or climb out of range, or no valid position): dropped, counted in gatewayd_gps_values_rejected_total")
                self.gpsRejectedLogged = rejected
                self.gpsRejectedLoggedAt = now
            }
            // After a mass expiry (a flood of invented addresses gone quiet), and every 30 s, give
            // the freed heap back to the system: glibc keeps it otherwise, and MemoryMax counts it.
            let held = self.pipeline.core.picture.targets.count
            if self.heldTargets - held > 200 || Int(now) % 30 == 0 { HeapTrim.trim() }
            self.heldTargets = held
            // SSE clients gone during a quiet period are found by a keep-alive write.
            if Int(now) % 10 == 0 { self.hub?.keepAlive() }
        }
        timer.resume()
        self.timer = timer
        if let gpsd {
            let client = gpsdClient(host: gpsd.host, port: gpsd.port)
            client.start()
            self.gpsd = client
        }
    }

    /// A gpsd client whose fixes (recorded when recording) and connection state go to this
    /// gateway's core. Run it as a service, or give `start` gpsd's address to have one run until `stop`.
    public func gpsdClient(host: String, port: UInt16) -> GPSDClient {
        GPSDClient(host: host, port: port, onFix: { [weak self] fix in
            guard let self else { return }
            self.queue.async {
                let time = CaptureTime.quantized(self.clock())
                self.recorder?.record(fix, at: time)
                self.carryOut(self.pipeline.process(gpsFix: fix, at: time), at: time)
            }
        }, onStatus: { [weak self] status in
            guard let self else { return }
            self.queue.async { self.gpsdStatus = status }
        })
    }

    /// Forwards GDL 90 to `targets` ("host:port" senders) and, with `auto`, to EFBs that
    /// announce themselves on UDP 63093 (the discovery source; the forwarder is a sink). Call
    /// before `start`. An announcement naming `ownPort` (the GDL 90 port this gateway listens
    /// on) on one of this machine's addresses is refused.
    public func forward(to targets: [UDPSender], auto: Bool, ownPort: UInt16 = 0, discoveryPort: UInt16 = 63093) throws(GatewayError) {
        guard !targets.isEmpty || auto else { return }
        // The pipeline re-broadcasts each datagram's messages from now on (set before `start`).
        var options = pipeline.outputOptions
        options.rebroadcast = Rebroadcast()
        pipeline = GatewayPipeline(core: pipeline.core, timeSource: pipeline.timeSource, outputs: options)
        var registry: EFBRegistry?
        if auto {
            var efbs = EFBRegistry()
            efbs.ownPort = ownPort
            efbs.ownAddresses.formUnion(LocalAddresses.ipv4())
            registry = efbs
        }
        let forwarder = ForwardSink(targets: targets, efbs: registry, hub: hub)
        self.forwarder = forwarder
        add(forwarder)
        if auto {
            let clock = self.clock
            discovery = try DatagramSocket(port: discoveryPort, queue: queue) { host, bytes in
                forwarder.announce(from: host, payload: bytes, at: clock())
            }
        }
    }

    /// Replaces the airspace areas watched (NOTAM refresh, a canned file); alerts follow.
    public func setAirspace(_ areas: [AirspaceArea]) {
        queue.async {
            // The store is re-read every minute: a set unchanged since the last is neither
            // recorded again (the recording would grow by every area each minute) nor re-applied.
            guard areas != self.givenAirspace else { return }
            self.givenAirspace = areas
            let now = CaptureTime.quantized(self.clock())
            self.recorder?.record(RecordedEvent(time: now, change: .airspace(areas)))
            self.carryOut(self.pipeline.process(airspace: areas, at: now), at: now)
        }
    }

    /// Acknowledges an airspace alert (alert id or area id).
    public func acknowledge(_ id: String) {
        queue.async {
            let now = CaptureTime.quantized(self.clock())
            self.recorder?.record(RecordedEvent(time: now, change: .acknowledge(id)))
            self.carryOut(self.pipeline.process(acknowledge: id, at: now), at: now)
        }
    }

    /// The UDP port EFB discovery listens on (0 when off).
    public var discoveryPort: UInt16 { discovery?.port ?? 0 }

    /// EFBs found by discovery and still announcing.
    public func discoveredEFBs() -> [EFBRegistry.EFB] {
        queue.sync { forwarder?.efbs?.active(at: clock()) ?? [] }
    }

    /// A datagram from a source other than the UDP socket (a capture played live), at its time;
    /// handled on the core's queue as a received one is.
    public func inject(_ bytes: [UInt8], at time: Double) {
        queue.async { bytes.withUnsafeBytes { self.receive($0, at: time) } }
    }

    /// A gpsd fix from a source other than gpsd (a capture's recorded fixes), at its time.
    public func inject(_ fix: GPSFix, at time: Double) {
        queue.async {
            self.recorder?.record(fix, at: time)
            self.carryOut(self.pipeline.process(gpsFix: fix, at: time), at: time)
        }
    }

    private func receive(_ bytes: UnsafeRawBufferPointer, at time: Double) {
        recorder?.record(bytes, at: time)
        let started = latencyProbe == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        defer {
            if let probe = latencyProbe { probe.add(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6) }
        }
        carryOut(pipeline.process(datagram: bytes, at: time), at: time)
    }

    /// Hands what the pipeline decided to every sink, the alert changes encoded once.
    private func carryOut(_ outputs: GatewayOutputs, at time: Double) {
        let encoded = outputs.alerts.isEmpty ? [] : outputs.alerts.map(EncodedAlert.init)
        for sink in sinks { sink.carryOut(outputs, alerts: encoded, at: time) }
    }

    /// A snapshot of the status line: counters, sources, health.
    public func status() -> GatewayStatus {
        queue.sync {
            let core = pipeline.core
            let now = clock()
            return GatewayStatus(
                counters: core.counters, targets: core.picture.targets.count, activeAlerts: core.trafficAlerts.activeCount,
                positionSource: core.ownship.fix(at: now)?.source ?? .none, problem: core.health.problem(at: now),
                gpsd: gpsdStatus)
        }
    }

    /// Stops reading GDL 90 at the next datagram, from any thread, without waiting for the queue:
    /// the first step of a stop, so that nothing after it waits for queued input (a flood).
    public func stopReading() {
        listener.value?.stopReading()
    }

    /// Stops everything and waits for what the sinks have queued (the alert log's writes).
    public func stop() {
        // First, from this thread: the queue may be busy reading a flood.
        stopReading()
        queue.sync {
            timer?.cancel()
            listener.value?.cancel()
            discovery?.cancel()
            gpsd?.stop()
        }
        recorder?.close()
        for sink in queue.sync(execute: { sinks }) { sink.finish() }
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

/// Collects latencies from the gateway's queue for a benchmark to read afterwards.
public final class LatencyProbe: Sendable {
    private let values = Locked<[Double]>([])
    /// Creates an empty probe.
    public init() {}
    /// Adds one latency, ms.
    public func add(_ ms: Double) { values.withLock { $0.append(ms) } }
    /// The latencies so far, sorted.
    public var sorted: [Double] { values.withLock { $0.sorted() } }
}

/// glibc's `malloc_trim`, found at run time (absent from other C libraries, where it does nothing):
/// returns freed heap pages to the system.
enum HeapTrim {
    private typealias Trim = @convention(c) (Int) -> Int32
    private static let function: Trim? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
    }()

    static func trim() { _ = function?(0) }
}
