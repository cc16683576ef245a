import GatewayDomain
import GatewayCaptures
/// The callouts of a replayed capture, in order, each at the event time it starts: what
/// `gatewayd replay --callouts` prints and writes as a WAV, and what the golden tests pin.
package struct CalloutTimeline: Sendable {
    /// The scheduler deciding them.
    package private(set) var scheduler: CalloutScheduler
    /// Callouts so far.
    package private(set) var callouts: [TimedCallout] = []
    /// Event time of the first and the last input.
    package private(set) var span: ClosedRange<Double>?

    /// A timeline with the voice settings and the spoken lengths of `durations`.
    package init(settings: CalloutScheduler.Settings = .init(), durations: CalloutDurations = .estimated) {
        scheduler = CalloutScheduler(settings: settings, durations: durations)
    }

    /// Takes one input's outputs.
    package mutating func take(_ outputs: GatewayOutputs, at time: Double) {
        take(outputs.alerts, flight: outputs.flight, at: time)
    }

    /// Takes alert changes (and the flight status, when known) at `time`.
    package mutating func take(_ alerts: [AlertEvent], flight: FlightStatus?, at time: Double) {
        span = span.map { min($0.lowerBound, time)...max($0.upperBound, time) } ?? time...time
        callouts += scheduler.receive(alerts, flight: flight, at: time)
    }

    /// Ends the capture: what is still queued is spoken. The silence a replay ticks after the
    /// capture (alerts running out) is not given: a capture's end is not traffic lost.
    package mutating func finish() {
        callouts += scheduler.flush()
    }

    /// The timeline, one line a callout (`HH:MM:SS  text`), or JSON Lines.
    package func lines(json: Bool) -> [String] {
        callouts.map { json ? $0.json : $0.line }
    }
}

extension CalloutTimeline {
    /// Replays one capture's datagrams (from `next`, until nil) through `replay` into the
    /// timeline, the airspace `areas` set at the first datagram's time; ends with `finish`.
    /// `emit` is given the new callouts as they are decided.
    package mutating func replay(_ replay: inout CaptureReplay, areas: [AirspaceArea] = [], next: () -> CapturedDatagram?,
                                emit: ([TimedCallout]) -> Void = { _ in }) {
        var told = callouts.count
        func tell() {
            if callouts.count > told { emit(Array(callouts[told...])) }
            told = callouts.count
        }
        var datagram = next()
        if !areas.isEmpty {
            var probe = replay
            let first = datagram.flatMap { probe.eventTime(of: $0) } ?? replay.pipeline.now ?? 0
            take(replay.process(.airspace(areas), at: first).alerts, flight: nil, at: first)
        }
        while let d = datagram {
            let outputs = replay.process(d)
            take(outputs, at: replay.pipeline.now ?? d.timestamp ?? 0)
            tell()
            datagram = next()
        }
        // The stream's last frame and the silence after it run the alerts out: nothing is said of them.
        _ = replay.finish()
        finish()
        tell()
    }
}
