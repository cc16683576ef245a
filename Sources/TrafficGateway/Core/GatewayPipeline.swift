import GDL90

/// Bytes in, alerts out: deframer, decoder and core chained, as `run`, `replay` and the tests use them.
///
/// Time comes from the caller (a datagram's receive time, a pcap timestamp) or, for raw GDL 90
/// streams with no timestamps, from the heartbeat clock: seconds since 0000Z on a given date.
///
/// **The tick rule.** Before any event at time `t`, the core is given a `.tick` at every whole
/// second of event time passed since the previous event (`advance(to:)`). Live calls `advance(to:)`
/// from its one-second timer as well, but a tick is due only at whole seconds of event time, so
/// the ticks a live session gives the core depend on the event times alone: the replay of its
/// recording gives the core the very same sequence, and so the very same alerts.
public struct GatewayPipeline: Sendable {
    /// Where event times come from.
    public enum TimeSource: Sendable, Equatable {
        /// Each ingest call carries its time.
        case given
        /// Times are taken from heartbeats: `midnight` (epoch seconds of 0000Z of the stream's
        /// first day) plus the heartbeat's seconds since 0000Z, rolling over at midnight.
        case heartbeat(midnight: Double)
    }

    /// The core.
    public private(set) var core: GatewayCore
    private var deframer = Deframer()
    /// Where event times come from.
    public let timeSource: TimeSource
    private var heartbeatClock: Double?
    private var dayOffset = 0.0
    /// The last whole second of event time ticked (or seen).
    private var tickedSecond: Double?

    /// After a silence longer than this many seconds only its first seconds and its last are
    /// ticked: every timer in the core runs out within it (targets drop after 60 s).
    public static let tickedSilence = 120.0

    /// Creates a pipeline around `core`.
    public init(core: GatewayCore = GatewayCore(), timeSource: TimeSource = .given) {
        self.core = core
        self.timeSource = timeSource
    }

    /// The time of the latest event.
    public var now: Double? { core.now }

    /// Feeds one datagram or chunk. `time` is used with `.given`; with `.heartbeat` it is ignored.
    /// `observe` sees every decoded message and rejection with its time (for `decode`, forwarding).
    public mutating func ingest(
        _ bytes: UnsafeRawBufferPointer, at time: Double?,
        observe: (PipelineItem, Double) -> Void = { _, _ in }
    ) -> [AlertEvent] {
        var alerts: [AlertEvent] = []
        let start = currentTime(given: time)
        Self.advance(core: &core, ticked: &tickedSecond, to: start, alerts: &alerts)
        alerts += core.handle(.datagram(bytes: bytes.count), at: start)
        Self.feed(bytes, deframer: &deframer, core: &core, clock: &heartbeatClock, dayOffset: &dayOffset,
                  ticked: &tickedSecond, source: timeSource, given: time, alerts: &alerts, observe: observe)
        return alerts
    }

    /// Feeds a datagram held in an array.
    public mutating func ingest(_ bytes: [UInt8], at time: Double?, observe: (PipelineItem, Double) -> Void = { _, _ in }) -> [AlertEvent] {
        bytes.withUnsafeBytes { ingest($0, at: time, observe: observe) }
    }

    /// Ends the stream: a frame left open is reported as truncated.
    public mutating func finish(observe: (PipelineItem, Double) -> Void = { _, _ in }) -> [AlertEvent] {
        var alerts: [AlertEvent] = []
        let t = core.now ?? currentTime(given: nil)
        var events: [FrameError] = []
        deframer.finish { if case .rejected(let e) = $0 { events.append(e) } }
        for e in events {
            observe(.rejected(e), t)
            alerts += core.handle(.frameRejected(e), at: t)
        }
        return alerts
    }

    /// Passes time to the core under the tick rule: a `.tick` at every whole second of event time
    /// up to `time` not ticked yet (live timer, end of a replay). Nothing when no second is due.
    public mutating func advance(to time: Double) -> [AlertEvent] {
        var alerts: [AlertEvent] = []
        Self.advance(core: &core, ticked: &tickedSecond, to: time, alerts: &alerts)
        return alerts
    }

    /// Passes time to the core at exactly `time`, outside the tick rule (tests of the core's timers).
    public mutating func tick(at time: Double) -> [AlertEvent] {
        core.handle(.tick, at: time)
    }

    /// The core's pending notices (one log line each), forgotten once returned.
    public mutating func drainNotices() -> [String] { core.drainNotices() }

    /// Replaces the airspace areas the core watches.
    public mutating func setAirspace(_ areas: [AirspaceArea], at time: Double) -> [AlertEvent] {
        var alerts = advance(to: time)
        alerts += core.handle(.airspace(areas), at: time)
        return alerts
    }

    /// Acknowledges an airspace alert (by alert id or area id).
    public mutating func acknowledge(_ id: String, at time: Double) -> [AlertEvent] {
        var alerts = advance(to: time)
        alerts += core.handle(.acknowledge(id), at: time)
        return alerts
    }

    /// Feeds a gpsd fix.
    public mutating func gpsFix(_ fix: GPSFix, at time: Double) -> [AlertEvent] {
        var alerts = advance(to: time)
        alerts += core.handle(.gpsFix(fix), at: time)
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
        while next <= second {
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
        observe: (PipelineItem, Double) -> Void
    ) {
        deframer.feed(bytes) { event in
            var t: Double
            switch source {
            case .given: t = given ?? core.now ?? 0
            case .heartbeat(let midnight): t = midnight + dayOffset + (clock ?? 0)
            }
            switch event {
            case .frame(let frame):
                do throws(MessageError) {
                    let message = try Message.decode(frame.message)
                    if case .heartbeat(let hb) = message, case .heartbeat(let midnight) = source {
                        let seconds = Double(hb.secondsSinceMidnight)
                        if let previous = clock, seconds + 43_200 < previous { dayOffset += 86_400 }
                        clock = seconds
                        t = midnight + dayOffset + seconds
                        advance(core: &core, ticked: &ticked, to: t, alerts: &alerts)
                    }
                    observe(.message(message, offset: frame.offset), t)
                    alerts += core.handle(message: message, at: t)
                } catch {
                    observe(.invalid(error, offset: frame.offset), t)
                    alerts += core.handle(.messageRejected(error), at: t)
                }
            case .rejected(let error):
                observe(.rejected(error), t)
                alerts += core.handle(.frameRejected(error), at: t)
            }
        }
    }
}

/// What the pipeline saw, for observers (`decode`, forwarding, metrics).
public enum PipelineItem {
    /// A decoded message and the stream offset of its frame.
    case message(Message, offset: Int)
    /// A frame with a good CRC whose message could not be decoded.
    case invalid(MessageError, offset: Int)
    /// A rejected frame.
    case rejected(FrameError)
}
