import GatewaySupport
import GatewayDomain
import GatewayRecords
import GatewayFeeds
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
import ServiceLifecycle

/// The running gateway: its sources (`GatewaySource`: GDL 90 over UDP, gpsd, discovery, the
/// airspace, acknowledgements, the tick, a capture) hand timed inputs to one `GatewayPipeline` on
/// one serial queue (the single writer); the flight recorder keeps every input; what the pipeline
/// decides goes to the sinks (`GatewaySink`: feeds, terminal, alert log, forwarder, NOTAM store,
/// voice, logbook…), each on that queue, the alert changes encoded once. Sources and sinks are
/// registered before `start` (`GatewayApp` does it, in one place).
package final class LiveGateway: Sendable {
    /// Where alerts go: each change with its encodings, made once.
    package typealias AlertSink = @Sendable ([EncodedAlert]) -> Void

    /// The serial queue that owns the pipeline.
    package let queue = DispatchQueue(label: "gatewayd.core")
    /// The pipeline and the sinks, in the order they are handed outputs: taken on `queue` (and
    /// by `add`, `status` and `stop` through it), so uncontended.
    /// The alert events' ids (`AlertEventIDs`), stamped here in stream order, when given.
    private let state: Locked<(pipeline: GatewayPipeline, sinks: [any GatewaySink], ids: AlertEventIDs?)>
    /// The sources, in the order they start; behind their own lock, so that a stop reaches them
    /// without waiting for the queue.
    private let sources = Locked<[any GatewaySource]>([])
    private let recorder: FlightRecorder?
    /// The gateway's clock: the wall clock, or a capture's when a capture is the source (`run
    /// --replay`). Inputs handed in without a time are stamped with it, so the page and the
    /// alerts follow the capture's time.
    package let clock: @Sendable () -> Double
    /// When given, the time each datagram took from receipt to alerts delivered and forwarded
    /// is appended here, ms (benchmarks).
    private let latencyProbe: LatencyProbe?

    /// Creates a gateway whose outputs go to `sinks` (more with `add`); the feeds' picture is
    /// produced when `hub` is given (a `FeedHubSink` first), each datagram re-broadcast with our
    /// alert bits for `forwarding`, every input kept by `recorder`, each datagram's latency
    /// added to `latencyProbe`, each alert event given its stable id from `eventIDs` (a running
    /// gateway; none in tests and benchmarks that compare with the engine's goldens). Nothing
    /// runs until `start`.
    package init(core: GatewayCore = GatewayCore(), hub: FeedHub? = nil, sinks: [any GatewaySink], forwarding: Bool = false,
                recorder: FlightRecorder? = nil, latencyProbe: LatencyProbe? = nil, eventIDs: AlertEventIDs? = nil,
                clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        let pipeline = GatewayPipeline(core: core, outputs: .init(fisb: true, rebroadcast: forwarding ? Rebroadcast() : nil,
                                                                  snapshotInterval: hub == nil ? nil : 0.25, flightSamples: true, grids: true))
        self.state = Locked((pipeline, (hub.map { [FeedHubSink(hub: $0)] } ?? []) + sinks, eventIDs))
        self.recorder = recorder
        self.latencyProbe = latencyProbe
        self.clock = clock
    }

    /// A gateway whose alerts go to `onAlerts` and the alert log (when given), and whose
    /// picture goes to `hub` (when given).
    package convenience init(core: GatewayCore = GatewayCore(), log: AlertLog?, hub: FeedHub? = nil, forwarding: Bool = false,
                            recorder: FlightRecorder? = nil, onAlerts: @escaping AlertSink,
                            onLogError: @escaping @Sendable (GatewayError) -> Void = { _ in }) {
        self.init(core: core, hub: hub, sinks: [AlertHandlerSink(onAlerts)] + (log.map { [AlertLogSink(log: $0, onError: onLogError)] } ?? []),
                  forwarding: forwarding, recorder: recorder)
    }

    /// Registers `sink` (before `start`): it is handed every output from then on.
    package func add(_ sink: any GatewaySink) {
        queue.sync { state.withLock { $0.sinks.append(sink) } }
    }

    /// Registers `source` (before `start`).
    package func add(_ source: any GatewaySource) {
        sources.withLock { $0.append(source) }
    }

    /// Starts every source in the order added; when one fails, those started are stopped and the error thrown.
    package func start() throws(GatewayError) {
        let inlet = GatewayInlet(self)
        let all = sources.value
        for (i, source) in all.enumerated() {
            do throws(GatewayError) {
                try source.start(inlet)
            } catch {
                for started in all[..<i].reversed() { started.stop() }
                throw error
            }
        }
    }

    /// Adds a GDL 90 UDP source on `bind:port` and a one-second tick, and starts (tests and benchmarks).
    package func start(bind: String, port: UInt16, acceptFrom: [String] = []) throws(GatewayError) {
        add(UDPSource(address: bind, port: port, acceptFrom: acceptFrom))
        add(TickSource())
        try start()
    }

    /// The sources' timed work (the tick, the polls, the reloads), for the app's `ServiceGroup`
    /// to run: a gateway run outside a group (tests, benchmarks) has no timers.
    package var services: [any Service] { sources.value.flatMap(\.services) }

    /// The UDP port the first GDL 90 source bound (0 when none).
    package var port: UInt16 { sources.value.lazy.compactMap { $0 as? UDPSource }.first?.port ?? 0 }

    /// Hands `input` in at `time` (nil: the clock now) from any thread: recorded, fed to the
    /// pipeline and its outputs carried out, on the core's queue.
    package func deliver(_ input: GatewayInput, at time: Double? = nil) {
        queue.async { self.handle(input, at: time) }
    }

    /// One input on the core's queue: timed (nil: the clock now), recorded, processed, carried out.
    private func handle(_ input: GatewayInput, at time: Double?) {
        let t = CaptureTime.quantized(inOrder(time ?? clock()))
        if input.isRecorded { recorder?.record(input, at: t) }
        state.withLock { c in Self.carryOut(c.pipeline.process(input, at: t), to: c.sinks, ids: &c.ids, at: t) }
    }

    /// Inputs offered by fast stream sources (`offer`) waiting for the core, and those dropped.
    private let offered = Locked<(waiting: Int, dropped: Int)>((0, 0))
    /// The most offered inputs waiting at once: a few reads of a fast feed. Past it the newest
    /// read is dropped (counted), so a feed faster than the core (150,000 SBS lines a second)
    /// costs skipped reads, never a growing queue in front of the GDL 90 datagrams and the alerts.
    package static let mostOffered = 16

    /// `deliver` for a source whose input may be dropped when the core is behind (a stream feed
    /// read as fast as it comes: SBS). False, and counted, when `mostOffered` wait already.
    @discardableResult
    package func offer(_ input: GatewayInput, at time: Double? = nil) -> Bool {
        let taken = offered.withLock { o -> Bool in
            guard o.waiting < Self.mostOffered else { o.dropped += 1; return false }
            o.waiting += 1
            return true
        }
        guard taken else { return false }
        queue.async {
            self.handle(input, at: time)
            self.offered.withLock { $0.waiting -= 1 }
        }
        return true
    }

    /// Offered inputs dropped so far because the core was behind (`offer`).
    package var droppedOffers: Int { offered.withLock { $0.dropped } }

    /// The latest time an input was handled at (on the core's queue).
    private let latest = Locked<Double>(-.infinity)

    /// The time an input is handled at: its own, but never before the latest handled. Sources
    /// stamp their inputs on their own threads (an SBS or OGN read when it is read) and the core
    /// takes them later, behind the datagrams and ticks stamped meanwhile. Handled at its own time,
    /// a read that waited a second stepped the core's clock back to before the latest ownship
    /// report: no fix "yet" at that time, so every alert was cleared, and rejoined at the next
    /// report (seen in CI: one alert cleared a hundred times under an SBS flood). A step back of a
    /// minute or more is a clock set back or a capture begun again, and is taken as it is.
    private func inOrder(_ t: Double) -> Double {
        latest.withLock { last in
            if t >= last || last - t >= 60 { last = t; return t }
            return last
        }
    }

    /// A datagram in a buffer valid only during the call, on the core's queue (the UDP source).
    func receive(_ bytes: UnsafeRawBufferPointer, at time: Double) {
        let time = inOrder(time)
        recorder?.record(bytes, at: time)
        let started = latencyProbe == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        defer {
            if let probe = latencyProbe { probe.add(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6) }
        }
        state.withLock { c in Self.carryOut(c.pipeline.process(datagram: bytes, at: time), to: c.sinks, ids: &c.ids, at: time) }
    }

    /// Replaces the airspace areas watched (a canned set, tests); alerts follow.
    package func setAirspace(_ areas: [AirspaceArea]) { deliver(.airspace(areas)) }

    /// Acknowledges an airspace alert (alert id or area id).
    package func acknowledge(_ id: String) { deliver(.acknowledge(id)) }

    /// Hands what the pipeline decided to every sink, the alert changes encoded once (each with
    /// its id, when `ids` is given).
    private static func carryOut(_ outputs: GatewayOutputs, to sinks: [any GatewaySink], ids: inout AlertEventIDs?, at time: Double) {
        var encoded: [EncodedAlert] = []
        if !outputs.alerts.isEmpty {
            encoded.reserveCapacity(outputs.alerts.count)
            for event in outputs.alerts { encoded.append(EncodedAlert(event, eventId: ids?.next())) }
        }
        for sink in sinks { sink.carryOut(outputs, alerts: encoded, at: time) }
    }

    /// A snapshot of the status line: counters, sources, health (`gpsd`: its connection state, when configured).
    package func status(gpsd: GPSDClient.Status? = nil) -> GatewayStatus {
        let pipeline = queue.sync { () -> GatewayPipeline.Status in
            let now = clock()
            return state.withLock { $0.pipeline.status(at: now) }
        }
        return GatewayStatus(counters: pipeline.counters, targets: pipeline.targets, activeAlerts: pipeline.activeAlerts,
                             positionSource: pipeline.positionSource, problem: pipeline.problem, gpsd: gpsd)
    }

    /// Stops every source from this thread, without waiting for the queue: the first step of a
    /// stop, so that nothing after it waits for queued input (a flood).
    package func stopReading() {
        for source in sources.value.reversed() { source.stop() }
    }

    /// Stops everything: the sources, then what was queued is handled, then the recorder and the
    /// sinks finish what they queued (the alert log's writes).
    package func stop() {
        stopReading()
        queue.sync {}
        recorder?.close()
        for sink in queue.sync(execute: { state.withLock { $0.sinks } }) { sink.finish() }
    }
}

/// A point-in-time summary of the running gateway.
package struct GatewayStatus: Sendable {
    /// Counters.
    package var counters: GatewayCounters
    /// Targets in the picture.
    package var targets: Int
    /// Active traffic alerts.
    package var activeAlerts: Int
    /// Ownship position source in use.
    package var positionSource: PositionSource
    /// Receiver problem, nil when healthy.
    package var problem: String?
    /// gpsd connection state, when configured.
    package var gpsd: GPSDClient.Status?
    /// The SBS (1090 MHz) source's state and counts, when configured.
    package var sbs: SBSClient.Status?
    /// The OGN source's state and counts, when configured.
    package var ogn: OGNClient.Status?
    /// Why the database runs in memory (a storage fault at start), nil when on its file.
    package var storage: String?

    /// One line for the log.
    package var line: String {
        var s = "datagrams \(counters.datagrams), messages \(counters.messages), rejected \(counters.errors), "
        s += "targets \(targets), alerts \(activeAlerts), position from \(positionSource.rawValue)"
        if let gpsd {
            switch gpsd {
            case .connected: s += ", gpsd connected"
            case .disconnected(let why): s += ", gpsd: \(why)"
            }
        }
        if let sbs {
            s += sbs.connected ? ", SBS connected (\(sbs.reports) positions" : ", \(sbs.reason ?? "SBS connecting") (\(sbs.reports) positions"
            if sbs.droppedReads > 0 { s += ", \(sbs.droppedReads) reads dropped: faster than the gateway takes them" }
            s += sbs.wrongLines > 0 ? ", \(sbs.wrongLines) wrong lines, last: \(sbs.lastWrong ?? ""))" : ")"
        }
        if let ogn {
            s += ogn.connected ? ", OGN connected (\(ogn.beacons) beacons" : ", \(ogn.reason ?? "OGN connecting") (\(ogn.beacons) beacons"
            if ogn.skipped > 0 { s += ", \(ogn.skipped) receiver/status skipped" }
            if ogn.droppedReads > 0 { s += ", \(ogn.droppedReads) reads dropped: faster than the gateway takes them" }
            s += ogn.wrongLines > 0 ? ", \(ogn.wrongLines) wrong lines, last: \(ogn.lastWrong ?? ""))" : ")"
        }
        if let problem { s += "; receiver: \(problem)" }
        if let storage { s += "; storage degraded: \(storage)" }
        return s
    }
}

/// Collects latencies from the gateway's queue for a benchmark to read afterwards.
package final class LatencyProbe: Sendable {
    private let values = Locked<[Double]>([])
    /// Creates an empty probe.
    package init() {}
    /// Adds one latency, ms.
    package func add(_ ms: Double) { values.withLock { $0.append(ms) } }
    /// The latencies so far, sorted.
    package var sorted: [Double] { values.withLock { $0.sorted() } }
}
