import GDL90
import GatewaySupport

/// Inputs in, outputs out: deframer, decoder and core chained behind one call, `process(_:at:)`,
/// which `run`, `replay`, `decode`, `fisb`, the benchmarks and the tests all use.
///
/// Time comes from the caller (a datagram's receive time, a pcap timestamp) or, for raw GDL 90
/// streams with no timestamps, from the heartbeat clock: seconds since 0000Z on a given date.
///
/// **The tick rule.** Before any input at time `t`, the core is given a `.tick` at every whole
/// second of event time passed since the previous input. The live clock's `.tick` inputs pass
/// time the same way, but a tick is due only at whole seconds of event time, so the ticks a live
/// session gives the core depend on the event times alone: the replay of its recording gives the
/// core the very same sequence, and so the very same alerts.
package struct GatewayPipeline: Sendable {
    /// Where event times come from.
    package enum TimeSource: Sendable, Equatable {
        /// Each ingest call carries its time.
        case given
        /// Times are taken from heartbeats: `midnight` (epoch seconds of 0000Z of the stream's
        /// first day) plus the heartbeat's seconds since 0000Z, rolling over at midnight.
        case heartbeat(midnight: Double)
    }

    /// The core.
    package private(set) var core: GatewayCore
    private var deframer = Deframer()
    /// Where event times come from.
    package let timeSource: TimeSource
    private var heartbeatClock: Double?
    private var dayOffset = 0.0
    /// The last whole second of event time ticked (or seen).
    private var tickedSecond: Double?

    /// After a silence longer than this many seconds only its first seconds and its last are
    /// ticked: every timer in the core runs out within it (targets drop after 60 s).
    package static let tickedSilence = 120.0

    /// What `process` produces besides alerts (`GatewayOutputs`); nothing more by default.
    package struct OutputOptions: Sendable {
        /// FIS-B products as they arrive or change, and the product set (and its NOTAMs) when it changed.
        package var fisb = false
        /// GDL 90 re-broadcast of each datagram's messages, traffic alert bits set from our alerts.
        package var rebroadcast: Rebroadcast?
        /// The feeds' snapshot at most this often (seconds) and on every tick; nil: none.
        package var snapshotInterval: Double?
        /// Ownship once a second (`FlightSample`), for the logbook.
        package var flightSamples = false
        /// Every gridded FIS-B block heard (`GatewayOutputs.gridBlocks`): the radar pictures.
        package var grids = false
        /// Nothing beyond alerts.
        package init(fisb: Bool = false, rebroadcast: Rebroadcast? = nil, snapshotInterval: Double? = nil, flightSamples: Bool = false,
                    grids: Bool = false) {
            self.fisb = fisb
            self.grids = grids
            self.flightSamples = flightSamples
            self.rebroadcast = rebroadcast
            self.snapshotInterval = snapshotInterval
        }
    }

    /// What `process` produces besides alerts.
    package let outputOptions: OutputOptions
    private var lastSnapshot = -Double.infinity
    private var outputFISBRevision = 0
    private var outputNOTAMRevision = 0
    private var gpsRejectedSaid = 0
    private var gpsRejectedSaidAt = -Double.infinity

    /// Creates a pipeline around `core`, producing `outputs` besides alerts from `process`.
    package init(core: GatewayCore = GatewayCore(), timeSource: TimeSource = .given, outputs: OutputOptions = OutputOptions()) {
        var core = core
        if outputs.fisb { core.configuration.collectsFISBProducts = true }
        if outputs.flightSamples { core.configuration.collectsFlightSamples = true }
        if outputs.grids { core.collectGridBlocks() }
        self.core = core
        self.timeSource = timeSource
        self.outputOptions = outputs
    }

    // MARK: The one face

    /// What a status line shows at `time` (a read of the pipeline's state, never a way in).
    package struct Status: Sendable {
        /// Counters.
        package var counters: GatewayCounters
        /// Targets in the picture.
        package var targets: Int
        /// Active traffic alerts.
        package var activeAlerts: Int
        /// Where ownship's position comes from.
        package var positionSource: PositionSource
        /// The receiver's problem, nil when healthy.
        package var problem: String?
    }

    /// The status at `time` (the live gateway's status line).
    package func status(at time: Double) -> Status {
        Status(counters: core.counters, targets: core.picture.targets.count, activeAlerts: core.trafficAlerts.activeCount,
               positionSource: core.ownship.fix(at: time)?.source ?? .none, problem: core.health.problem(at: time))
    }


    /// Feeds one input at `time` and returns every output it caused (`GatewayOutputs`): what a
    /// driver carries out, never reaching into the core for more. Every driver (the live gateway,
    /// `replay`, `decode`, `fisb`, the benchmarks, the tests) comes through here.
    ///
    /// `time` is the input's event time; nil takes the latest event's (and, for a datagram of a
    /// raw stream timed by heartbeats, the heartbeat clock's). `observe` sees every decoded message
    /// and rejection of a datagram with its time (`decode`, forwarding).
    package mutating func process(_ input: GatewayInput, at time: Double? = nil,
                                 observe: (consuming PipelineItem, Double) -> Void = { _, _ in }) -> GatewayOutputs {
        let time = Self.plausible(time)
        if case .datagram(let bytes) = input {
            return bytes.withUnsafeBytes { process(datagram: $0, at: time, observe: observe) }
        }
        let t = time ?? core.now ?? 0
        switch input {
        case .datagram:
            preconditionFailure("handled above")
        case .tick:
            return outputs(advance(to: t), tick: true, at: t)
        case .ogn(let beacons):
            var alerts = advance(to: t)
            for b in beacons { alerts += core.handle(.ogn(b), at: t) }
            var out = outputs(alerts, tick: false)
            if let rebroadcast = outputOptions.rebroadcast { out.rebroadcast = ognRebroadcast(beacons, rebroadcast) }
            return out
        case .gpsFix(let fix):
            return outputs(handle(.gpsFix(fix), at: t), tick: false)
        case .airspace(let areas):
            return outputs(handle(.airspace(areas), at: t), tick: true, at: t)
        case .acknowledge(let id):
            return outputs(handle(.acknowledge(id), at: t), tick: false)
        case .announcement(let announcement):
            var out = GatewayOutputs()
            out.announcements = [announcement]
            return out
        }
    }

    /// `process(.datagram(…))` for bytes held elsewhere (a socket's buffer, a mapped capture): no copy.
    package mutating func process(datagram bytes: UnsafeRawBufferPointer, at time: Double?,
                                 observe: (consuming PipelineItem, Double) -> Void = { _, _ in }) -> GatewayOutputs {
        let time = Self.plausible(time)
        var out = GatewayOutputs()
        if let rebroadcast = outputOptions.rebroadcast {
            var messages: [Message] = []
            out.alerts = ingest(bytes, at: time) { item, t in
                if case .message(let m, _) = item { messages.append(m) }
                observe(item, t)
            }
            let engine = core.trafficAlerts
            out.rebroadcast = rebroadcast.datagrams(messages) { engine.level(of: $0) }
        } else {
            out.alerts = ingest(bytes, at: time, observe: observe)
        }
        complete(&out, tick: false)
        return out
    }

    /// `process(.datagram(…))` for a datagram deframed and decoded ahead by a `FrameDecoder`
    /// (`decoded`; `byteCount` the datagram's length): the same outputs. A pipeline fed this way is fed only
    /// this way, and is finished with the decoder's last items (`finish(_:decoded:observe:)`).
    /// `observe`, when given, sees a copy of each item.
    package mutating func process(decoded: borrowing FrameDecoder.Decoded, byteCount: Int, at time: Double?,
                                 observe: ((consuming PipelineItem, Double) -> Void)? = nil) -> GatewayOutputs {
        let time = Self.plausible(time)
        var out = GatewayOutputs()
        if let rebroadcast = outputOptions.rebroadcast {
            var messages: [Message] = []
            out.alerts = ingest(decoded: decoded, byteCount: byteCount, at: time) { item, t in
                if case .message(let m, _) = item { messages.append(m) }
                observe?(item, t)
            }
            let engine = core.trafficAlerts
            out.rebroadcast = rebroadcast.datagrams(messages) { engine.level(of: $0) }
        } else {
            out.alerts = ingest(decoded: decoded, byteCount: byteCount, at: time, observe: observe)
        }
        complete(&out, tick: false)
        return out
    }

    /// OGN beacons as GDL 90 traffic reports for the EFBs, the alert bit ours: none for a
    /// no-tracking sender (used for alerts only), a stealth one under its pseudonym, without a
    /// callsign; an ownship ghost is not sent.
    private func ognRebroadcast(_ beacons: [OGNBeacon], _ rebroadcast: Rebroadcast) -> [[UInt8]] {
        let engine = core.trafficAlerts
        var messages: [Message] = []
        for b in beacons where !b.noTracking {
            guard let key = core.picture.key(ofOGN: b), core.picture.targets[key] != nil else { continue }
            var r = b.trafficReport(address: key.address, anonymous: b.stealth)
            r.alertStatus = engine.level(of: key) == nil ? 0 : 1
            messages.append(.traffic(r))
        }
        // The alert bit is set above (the report's address type does not name an OGN namespace).
        return Self.pack(messages, rebroadcast.maximumDatagram)
    }

    /// Frames `messages` as they are, in datagrams of at most `limit` bytes.
    private static func pack(_ messages: [Message], _ limit: Int) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var current: [UInt8] = []
        for m in messages {
            let frame = m.frame()
            if !current.isEmpty && current.count + frame.count > limit {
                out.append(current)
                current.removeAll(keepingCapacity: true)
            }
            current += frame
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// A given time the core can take (`Timestamp.plausible`), else nil: the input is taken at the
    /// latest event's time. The readers refuse such times and say so; this is the last guard,
    /// so that no driver can hand the tick rule a time it cannot step through.
    @inline(__always)
    static func plausible(_ time: Double?) -> Double? {
        guard let time, Timestamp.isPlausible(time) else { return nil }
        return time
    }

    /// How a stream ends (`finish`).
    package enum Ending: Sendable, Equatable {
        /// Read for its FIS-B products: the reports held back waiting for parts that never came
        /// are given (in `fisbProducts`), once each, and no time passes (products are not aged
        /// past the stream's end).
        case products
        /// Replayed as a flight: this many seconds of silence are ticked after the last event,
        /// so that hysteresis and drop timers run out as they would live.
        case silence(Double)
        /// Only the frame left open is reported (a driver with more to feed first, then the silence).
        case openFrameOnly
    }

    /// Ends the stream: a frame left open is reported as truncated, then `ending` is applied.
    /// Fed by a `FrameDecoder`, `decoded` is its `finish()`: the frame it left open.
    package mutating func finish(_ ending: Ending, decoded: [PipelineItem]? = nil,
                                observe: (consuming PipelineItem, Double) -> Void = { _, _ in }) -> GatewayOutputs {
        var alerts: [AlertEvent] = []
        let t = core.now ?? currentTime(given: nil)
        var events: [FrameError] = []
        if let decoded {
            for case .rejected(let e) in decoded { events.append(e) }
        } else {
            deframer.finish { if case .rejected(let e) = $0 { events.append(e) } }
        }
        for e in events {
            observe(.rejected(e), t)
            alerts += core.handle(.frameRejected(e), at: t)
        }
        var out = outputs(alerts, tick: false)
        switch ending {
        case .products:
            out.fisbProducts += core.flushHeldFISB()
        case .silence(let seconds):
            if let end = core.now { out.merge(process(.tick, at: end + seconds)) }
        case .openFrameOnly:
            break
        }
        return out
    }

    /// `alerts` with the other outputs due (see `complete`).
    private mutating func outputs(_ alerts: [AlertEvent], tick: Bool, at time: Double? = nil) -> GatewayOutputs {
        var out = GatewayOutputs()
        out.alerts = alerts
        complete(&out, tick: tick, at: time)
        return out
    }

    /// Fills the outputs besides alerts. `tick`: a tick or a change of areas (snapshot forced, FIS-B set checked).
    private mutating func complete(_ out: inout GatewayOutputs, tick: Bool, at given: Double? = nil) {
        let time = given ?? core.now ?? 0
        if outputOptions.fisb {
            out.fisbProducts = core.drainFISBProducts()
            if tick && core.fisbRevision != outputFISBRevision {
                outputFISBRevision = core.fisbRevision
                out.fisbStore = core.fisb.all
            }
            if tick && core.fisbNOTAMRevision != outputNOTAMRevision {
                outputNOTAMRevision = core.fisbNOTAMRevision
                out.fisbNOTAMs = (out.fisbStore ?? core.fisb.all).filter { $0.kind.isNOTAM }
            }
        }
        if let interval = outputOptions.snapshotInterval, tick || time - lastSnapshot >= interval || time < lastSnapshot {
            lastSnapshot = time
            out.snapshot = core.snapshot(at: time)
        }
        if outputOptions.flightSamples { out.flightSamples = core.drainFlightSamples() }
        if outputOptions.grids { out.gridBlocks = core.drainGridBlocks() }
        out.notices = core.drainNotices()
        if tick { gpsRejectedNotice(at: time, into: &out.notices) }
        out.nextTick = (tickedSecond ?? time.rounded(.down)) + 1
        out.flight = FlightStatus(phase: core.ownship.flight.phase, lastMessage: core.health.lastMessage)
    }

    /// Impossible gpsd values are dropped by the core and counted: said at most once a minute of event time.
    private mutating func gpsRejectedNotice(at time: Double, into notices: inout [String]) {
        let rejected = core.counters.gpsValuesRejected
        guard rejected > gpsRejectedSaid, time - gpsRejectedSaidAt >= 60 else { return }
        notices.append("gpsd sent \(rejected - gpsRejectedSaid) physically impossible value(s) (altitude, speed, track or climb out of range, or no valid position): dropped, counted in gatewayd_gps_values_rejected_total")
        gpsRejectedSaid = rejected
        gpsRejectedSaidAt = time
    }

    // MARK: A stream read in parts

    /// Makes the stream's next byte stream offset `offset`, for a pipeline that reads a part of a
    /// stream from its start (`ParallelDecode`), before it is fed.
    package mutating func startPart(at offset: Int) {
        deframer = Deframer(offset: offset)
    }

    /// Whether a fresh pipeline fed the next part of the stream, from its start at a flag, gives
    /// what this one would for it: nothing of a frame held, and the part's times its own.
    /// `firstDatagramTimed`: the part's first datagram carries its time; `heartbeatFirst`: with a
    /// heartbeat clock, the seconds since 0000Z of the part's first item when it is a heartbeat
    /// (nil when any other item comes first, or none).
    package func continuesFresh(firstDatagramTimed: Bool, heartbeatFirst: Double?) -> Bool {
        guard deframer.holdsNothing else { return false }
        switch timeSource {
        case .given:
            return firstDatagramTimed || core.now == nil
        case .heartbeat:
            // With no heartbeat read yet every time is midnight's, as in a fresh pipeline.
            guard dayOffset == 0 else { return false }
            guard let clock = heartbeatClock else { return true }
            // The day rolls over at the part's first heartbeat here but not in a fresh pipeline.
            guard let first = heartbeatFirst else { return false }
            return !(first + 43_200 < clock)
        }
    }

    /// This pipeline, having read a stream up to where `next` (fresh, `continuesFresh`) started,
    /// takes on `next`'s state after its part, with the counts of both.
    package mutating func adopt(_ next: GatewayPipeline) {
        var counters = core.counters
        counters.merge(next.core.counters)
        self = next
        core.replaceCounters(counters)
    }

    // MARK: Inside

    /// The time of the latest event.
    package var now: Double? { core.now }

    /// Feeds one datagram or chunk. `time` is used with `.given`; with `.heartbeat` it is ignored.
    private mutating func ingest(
        _ bytes: UnsafeRawBufferPointer, at time: Double?,
        observe: (consuming PipelineItem, Double) -> Void
    ) -> [AlertEvent] {
        var alerts: [AlertEvent] = []
        let start = currentTime(given: time)
        Self.advance(core: &core, ticked: &tickedSecond, to: start, alerts: &alerts)
        alerts += core.handle(.datagram(bytes: bytes.count), at: start)
        Self.feed(bytes, deframer: &deframer, core: &core, clock: &heartbeatClock, dayOffset: &dayOffset,
                  ticked: &tickedSecond, source: timeSource, given: time, alerts: &alerts, observe: observe)
        return alerts
    }

    /// `ingest` for items decoded ahead.
    private mutating func ingest(
        decoded: borrowing FrameDecoder.Decoded, byteCount: Int, at time: Double?,
        observe: ((consuming PipelineItem, Double) -> Void)?
    ) -> [AlertEvent] {
        var alerts: [AlertEvent] = []
        let start = currentTime(given: time)
        Self.advance(core: &core, ticked: &tickedSecond, to: start, alerts: &alerts)
        alerts += core.handle(.datagram(bytes: byteCount), at: start)
        var nextUplink = 0
        // Read where they lie (see `take`); the reading thread frees them when it reuses the batch.
        decoded.items.withUnsafeBufferPointer { buffer in
            for i in buffer.indices {
                // The uplink read ahead is passed where it lies: a local optional copy of it was
                // made and destroyed for every item through Optional's generic witnesses.
                let t: Double
                if nextUplink < decoded.uplinks.count, case .message(.uplink, _) = buffer[i] {
                    t = Self.take(buffer[i], read: decoded.uplinks[nextUplink], core: &core, clock: &heartbeatClock, dayOffset: &dayOffset,
                                  ticked: &tickedSecond, source: timeSource, given: time, alerts: &alerts)
                    nextUplink += 1
                } else {
                    t = Self.take(buffer[i], read: nil, core: &core, clock: &heartbeatClock, dayOffset: &dayOffset,
                                  ticked: &tickedSecond, source: timeSource, given: time, alerts: &alerts)
                }
                if let observe { observe(buffer[i], t) }
            }
        }
        return alerts
    }

    /// Passes time to the core under the tick rule: a `.tick` at every whole second of event time
    /// up to `time` not ticked yet. Nothing when no second is due.
    private mutating func advance(to time: Double) -> [AlertEvent] {
        var alerts: [AlertEvent] = []
        Self.advance(core: &core, ticked: &tickedSecond, to: time, alerts: &alerts)
        return alerts
    }

    /// Time passes to `time` under the tick rule, then the core handles `event` at it.
    private mutating func handle(_ event: GatewayEvent, at time: Double) -> [AlertEvent] {
        var alerts = advance(to: time)
        alerts += core.handle(event, at: time)
        return alerts
    }

    /// The tick rule (see the type's documentation). The first event only sets the clock.
    private static func advance(core: inout GatewayCore, ticked: inout Double?, to time: Double, alerts: inout [AlertEvent]) {
        guard time.isFinite else { return }
        let second = time.rounded(.down)
        guard let last = ticked else {
            ticked = second
            return
        }
        if second < last - 2 {
            // The clock went back (a live clock step, a capture spliced from two days): restart.
            ticked = second
            return
        }
        guard second > last else { return }
        var next = last + 1
        // `next > last`: a time where one second no longer counts (2^53 s) never loops.
        while next <= second, next > last {
            alerts += core.handle(.tick, at: next)
            next += 1
            if next - last > tickedSilence && next < second { next = second }
        }
        ticked = second
    }

    private func currentTime(given: Double?) -> Double {
        switch timeSource {
        case .given: return given ?? core.now ?? 0
        case .heartbeat(let midnight): return (heartbeatClock ?? core.now.map { $0 - midnight } ?? 0) + midnight + dayOffset
        }
    }

    private static func feed(
        _ bytes: UnsafeRawBufferPointer, deframer: inout Deframer, core: inout GatewayCore, clock: inout Double?,
        dayOffset: inout Double, ticked: inout Double?, source: TimeSource, given: Double?, alerts: inout [AlertEvent],
        observe: (consuming PipelineItem, Double) -> Void
    ) {
        deframer.feed(bytes) { event in
            let item = PipelineItem(event)
            let t = take(item, read: nil, core: &core, clock: &clock, dayOffset: &dayOffset, ticked: &ticked, source: source,
                         given: given, alerts: &alerts)
            // Last: the item moves to the observer (observers never see the core).
            observe(item, t)
        }
    }

    /// One item, deframed and decoded here or ahead (`FrameDecoder`): the heartbeat clock read,
    /// time passed, the core told (`read`: an uplink's payload read ahead). Returns the item's
    /// event time. Borrowed, so that items decoded ahead stay where they lie: `for item in items`
    /// copied each one (through the runtime's generic copy of the case's payload), and moving
    /// them out freed their memory on this thread, off the one that allocated it, where glibc
    /// makes the two threads queue for its lock (see `HandOff.put`).
    @inline(__always)
    private static func take(
        _ item: borrowing PipelineItem, read: FISBReadUplink?, core: inout GatewayCore, clock: inout Double?, dayOffset: inout Double,
        ticked: inout Double?, source: TimeSource, given: Double?, alerts: inout [AlertEvent]
    ) -> Double {
        var t: Double
        switch source {
        case .given: t = given ?? core.now ?? 0
        case .heartbeat(let midnight): t = midnight + dayOffset + (clock ?? 0)
        }
        switch item {
        case .message(let message, _):
            if case .heartbeat(let hb) = message, case .heartbeat(let midnight) = source {
                let seconds = Double(hb.secondsSinceMidnight)
                if let previous = clock, seconds + 43_200 < previous { dayOffset += 86_400 }
                clock = seconds
                t = midnight + dayOffset + seconds
                advance(core: &core, ticked: &ticked, to: t, alerts: &alerts)
            }
            // Nearly always no alert: appending an empty array still costs a call.
            let raised = core.handle(message: message, read: read, at: t)
            if !raised.isEmpty { alerts += raised }
        case .invalid(let error, _):
            alerts += core.handle(.messageRejected(error), at: t)
        case .rejected(let error):
            let raised = core.handle(.frameRejected(error), at: t)
            if !raised.isEmpty { alerts += raised }
        }
        return t
    }
}

/// What the pipeline saw, for observers (`decode`, forwarding, metrics).
package enum PipelineItem: Sendable {
    /// A decoded message and the stream offset of its frame.
    case message(Message, offset: Int)
    /// A frame with a good CRC whose message could not be decoded.
    case invalid(MessageError, offset: Int)
    /// A rejected frame.
    case rejected(FrameError)
}

extension PipelineItem {
    /// A deframer's event as the pipeline takes it: a frame's message decoded (or found invalid),
    /// a rejection as it is.
    @inline(__always)
    init(_ event: DeframerEvent) {
        switch event {
        case .frame(let frame):
            do throws(MessageError) {
                self = .message(try Message.decode(frame.message), offset: frame.offset)
            } catch {
                self = .invalid(error, offset: frame.offset)
            }
        case .rejected(let error):
            self = .rejected(error)
        }
    }
}

/// Deframes and decodes datagrams ahead of a pipeline, on another thread (`PrefetchingCapture`):
/// the very items the pipeline's own deframer would give it, for `process(decoded:…)`; and, when
/// it reads FIS-B, each uplink's payload read too (`FISBReadUplink`), which the core's product
/// store then only applies. One decoder follows one stream from its start, as the pipeline's
/// deframer would (a frame may continue into the next datagram, or the next file of a recording).
package struct FrameDecoder: Sendable {
    /// A datagram decoded.
    package struct Decoded: Sendable {
        /// Its items in order.
        package var items: [PipelineItem] = []
        /// The payload of each of its uplink messages read, in their order (when reading FIS-B;
        /// nil for one the store reads itself, see `FISBUplinkReader.readAhead`).
        package var uplinks: [FISBReadUplink?] = []
    }

    private var deframer = Deframer()
    private var reader: FISBUplinkReader?

    /// A decoder at the start of a stream; `readingFISB`: reading uplink payloads too.
    package init(readingFISB: Bool = false) {
        reader = readingFISB ? FISBUplinkReader() : nil
    }

    /// The items of the next datagram or chunk of the stream, in order.
    package mutating func decode(_ bytes: [UInt8]) -> Decoded {
        var out = Decoded()
        bytes.withUnsafeBytes { raw in
            deframer.feed(raw) { event in
                let item = PipelineItem(event)
                if reader != nil, case .message(.uplink(let uplink), _) = item { out.uplinks.append(reader?.readAhead(uplink.payload)) }
                out.items.append(item)
            }
        }
        return out
    }

    /// The end of the stream: a frame left open, reported as truncated. The decoder starts afresh.
    package mutating func finish() -> [PipelineItem] {
        var items: [PipelineItem] = []
        deframer.finish { items.append(PipelineItem($0)) }
        return items
    }
}

/// Everything the pipeline decided for one input, for its driver to carry out: alert changes to
/// deliver, FIS-B products to keep, datagrams to re-broadcast, the feeds' picture, and when time
/// must next pass. A driver that carries these out needs nothing else from the core.
package struct GatewayOutputs: Sendable {
    /// Alert changes, in order.
    package var alerts: [AlertEvent] = []
    /// FIS-B products new or changed by this input, in arrival order.
    package var fisbProducts: [FISBReport] = []
    /// Every FIS-B product held, when the set changed since it was last given (on ticks).
    package var fisbStore: [FISBReport]?
    /// The FIS-B NOTAMs held, when they changed since last given (on ticks): what the NOTAM
    /// store keeps for later flights.
    package var fisbNOTAMs: [FISBReport]?
    /// GDL 90 datagrams to re-broadcast, traffic alert bits set from our alerts.
    package var rebroadcast: [[UInt8]] = []
    /// The feeds' picture, when one is due.
    package var snapshot: FeedSnapshot?
    /// The event time by which the core next needs time to pass (the next whole second).
    package var nextTick: Double?
    /// Ownship's flight phase and when GDL 90 last arrived (the voice: silent on the ground,
    /// "Traffic not available" when GDL 90 stops in flight).
    package var flight: FlightStatus?
    /// Ownship once a second since the last output (with `OutputOptions.flightSamples`): the logbook's input.
    package var flightSamples: [FlightSample] = []
    /// The gridded FIS-B blocks heard (with `OutputOptions.grids`), in arrival order.
    package var gridBlocks: [GridBlockReceipt] = []
    /// Things worth one log line each (an echo of ownship learned or forgotten, gpsd values dropped).
    package var notices: [String] = []
    /// EFB announcements passed through (for the forwarder's list of EFBs).
    package var announcements: [EFBAnnouncement] = []

    /// Adds `later`'s outputs after these (one input's outputs, then the next's): lists are
    /// joined, the latest picture, product set, tick and flight status kept.
    package mutating func merge(_ later: GatewayOutputs) {
        alerts += later.alerts
        fisbProducts += later.fisbProducts
        fisbStore = later.fisbStore ?? fisbStore
        fisbNOTAMs = later.fisbNOTAMs ?? fisbNOTAMs
        rebroadcast += later.rebroadcast
        snapshot = later.snapshot ?? snapshot
        nextTick = later.nextTick ?? nextTick
        flight = later.flight ?? flight
        flightSamples += later.flightSamples
        gridBlocks += later.gridBlocks
        notices += later.notices
        announcements += later.announcements
    }

    /// No output.
    package init() {}
}
