import GatewayDomain
import GDL90

/// A gpsd fix with the time it was received (a line of `gpspipe -w` output, replayed beside a capture).
package struct TimedGPSFix: Sendable, Equatable {
    /// Epoch seconds.
    package var time: Double
    /// The fix.
    package var fix: GPSFix

    /// Creates a timed fix.
    package init(time: Double, fix: GPSFix) {
        self.time = time
        self.fix = fix
    }
}

/// The one replay driver: a capture's datagrams (and, optionally, the gpsd fixes recorded beside
/// it) through a `GatewayPipeline`, under the same tick rule as a live gateway, ending with the
/// 70 s of silence after which every timer has run out. `gatewayd replay`, the golden tests and the
/// benchmarks all replay through it; pacing (`--speed`) is the caller's, from `eventTime(of:)`.
package struct CaptureReplay: Sendable {
    /// Seconds of silence ticked after the last event, so hysteresis and drop timers run out as
    /// they would on a live gateway (targets drop after 60 s).
    package static let trailingSilence = 70.0

    /// The pipeline.
    package private(set) var pipeline: GatewayPipeline
    private var recorded: RecordedInputs
    private var rawClock = RawStreamClock()

    /// Creates a replay into `pipeline`, interleaving `gpsFixes` and the recorded `events`
    /// (airspace sets, acknowledgements) by their times.
    package init(pipeline: GatewayPipeline, gpsFixes: [TimedGPSFix] = [], events: [RecordedEvent] = []) {
        self.pipeline = pipeline
        recorded = RecordedInputs(fixes: gpsFixes, events: events)
    }

    /// The event time `datagram` will be handled at, for pacing: its timestamp, or for a raw
    /// stream's segment the heartbeat it begins with (nil when it has none).
    package mutating func eventTime(of datagram: CapturedDatagram) -> Double? {
        if let t = datagram.timestamp { return t }
        guard case .heartbeat(let midnight) = pipeline.timeSource else { return nil }
        return rawClock.time(of: datagram.bytes, midnight: midnight)
    }

    /// Feeds one datagram (the gpsd fixes and recorded events due before it first) and returns
    /// every output (the pipeline's `process`).
    /// `decoded`: the datagram's items from a `FrameDecoder` that has seen the capture so far
    /// (`PrefetchingCapture` decoding ahead); then every datagram comes so, and `finish` gets
    /// the decoder's last items. `observe` sees every decoded message and rejection.
    package mutating func process(_ datagram: CapturedDatagram, decoded: FrameDecoder.Decoded? = nil,
                                 observe: ((consuming PipelineItem, Double) -> Void)? = nil) -> GatewayOutputs {
        let early = (datagram.timestamp ?? pipeline.now).flatMap { recorded(through: $0) }
        let outputs = if let decoded {
            pipeline.process(decoded: decoded, byteCount: datagram.bytes.count, at: datagram.timestamp, observe: observe)
        } else {
            datagram.bytes.withUnsafeBytes { pipeline.process(datagram: $0, at: datagram.timestamp, observe: observe ?? { _, _ in }) }
        }
        guard var out = early else { return outputs }
        out.merge(outputs)
        return out
    }

    /// Feeds an input from elsewhere (airspace set at the capture's start, a test's acknowledgement).
    package mutating func process(_ input: GatewayInput, at time: Double) -> GatewayOutputs {
        pipeline.process(input, at: time)
    }

    /// Ends the capture: a frame left open is reported, the remaining fixes and events are fed,
    /// then `ending` (`.silence(trailingSilence)` for a flight, `.products` for its FIS-B).
    /// `decoded`: the `FrameDecoder`'s `finish()`, when the datagrams came decoded.
    package mutating func finish(_ ending: GatewayPipeline.Ending = .silence(trailingSilence), decoded: [PipelineItem]? = nil,
                                observe: (consuming PipelineItem, Double) -> Void = { _, _ in }) -> GatewayOutputs {
        guard case .silence = ending else { return pipeline.finish(ending, decoded: decoded, observe: observe) }
        var out = pipeline.finish(.openFrameOnly, decoded: decoded, observe: observe)
        if let rest = recorded(through: .infinity) { out.merge(rest) }
        if let end = pipeline.now, case .silence(let seconds) = ending { out.merge(pipeline.process(.tick, at: end + seconds)) }
        return out
    }

    /// Replays `datagrams` whole (no pacing) and returns every output.
    package mutating func replay(_ datagrams: [CapturedDatagram]) -> GatewayOutputs {
        var out = GatewayOutputs()
        for d in datagrams { out.merge(process(d)) }
        out.merge(finish())
        return out
    }

    /// Feeds the gpsd fixes and recorded events due by `time`, in time order (a fix first at a
    /// tie); their outputs, nil when none was due.
    private mutating func recorded(through time: Double) -> GatewayOutputs? {
        var out: GatewayOutputs?
        while let (t, input) = recorded.next(through: time) {
            let next = pipeline.process(input, at: t)
            if out == nil { out = next } else { out!.merge(next) }
        }
        return out
    }
}

extension RecordedEvent {
    /// The input it was, as the pipeline takes it again.
    package var input: GatewayInput {
        switch change {
        case .airspace(let areas): .airspace(areas)
        case .acknowledge(let id): .acknowledge(id)
        case .ogn(let lines): .ogn(OGNBeaconParser.beacons(lines))
        }
    }
}

/// Cuts a raw GDL 90 byte stream into one segment a heartbeat (each begins with the flag that
/// opens a heartbeat frame, `7E 00`), so a raw stream can be paced by its heartbeat clock like a
/// capture with timestamps. Segments are at most `maximumLength` bytes (streams without heartbeats).
package enum RawStreamSegmenter {
    /// The longest segment, bytes.
    package static let maximumLength = 65_536

    /// The ranges of the segments of `bytes`, in order, covering every byte.
    package static func segments(_ bytes: [UInt8]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0
        var i = 1
        while i < bytes.count {
            if (bytes[i] == 0x7E && i + 1 < bytes.count && bytes[i + 1] == 0x00) || i - start >= maximumLength {
                out.append(start..<i)
                start = i
            }
            i += 1
        }
        if start < bytes.count { out.append(start..<bytes.count) }
        return out
    }

    /// The seconds since 0000Z of the heartbeat frame `bytes` begins with, if it begins with one.
    package static func leadingHeartbeatSeconds(_ bytes: [UInt8]) -> Double? {
        guard bytes.count >= 2, bytes[0] == 0x7E, bytes[1] == 0x00 else { return nil }
        var deframer = Deframer()
        var seconds: Double?
        var done = false
        deframer.feed(bytes.prefix(32)) { event in
            guard !done else { return }
            done = true
            if case .frame(let frame) = event, case .heartbeat(let hb)? = try? Message.decode(frame.message) {
                seconds = Double(hb.secondsSinceMidnight)
            }
        }
        return seconds
    }
}

/// The times of a raw GDL 90 stream's heartbeat-led segments: the leading heartbeat's time of
/// day on `midnight`'s day, a day later each time it wraps past midnight.
package struct RawStreamClock: Sendable {
    private var day = 0.0
    private var last: Double?

    /// A clock at the stream's first day.
    package init() {}

    /// The time of the segment `bytes`, nil when it does not begin with a heartbeat.
    package mutating func time(of bytes: [UInt8], midnight: Double) -> Double? {
        guard let seconds = RawStreamSegmenter.leadingHeartbeatSeconds(bytes) else { return nil }
        if let last, seconds + 43_200 < last { day += 86_400 }
        last = seconds
        return midnight + day + seconds
    }
}
