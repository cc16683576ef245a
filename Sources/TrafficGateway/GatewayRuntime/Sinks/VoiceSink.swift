import GatewaySupport
import GatewayDomain
import GatewayVoice
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The voice as a sink: it carries out the core's outputs by speaking callouts into the headset.
///
/// `carryOut` is called on the core's serial queue and only hands the alert changes and flight
/// status to the voice's own queue (never a wait; at most 1,024 batches waiting, then dropped and
/// counted). There the `CalloutScheduler` decides what to say and when, and the samples (the
/// vocabulary rendered once at start) go to the `ALSAPlayer`'s thread. espeak-ng failing to start
/// is a log line and a retry every 30 s; so is a sound device missing, busy or unplugged.
package final class VoiceSink: GatewaySink, Sendable {
    /// What the voice needs to run (`[voice]` configuration).
    package struct Settings: Sendable, Equatable {
        /// ALSA playback device.
        package var device = "default"
        /// Voice parameters (voice, rate, volume).
        package var speech = SpeechSynthesizer.Parameters()
        /// When to speak.
        package var callouts = CalloutScheduler.Settings()
        /// asoundrc text the device is looked up in instead of the system's (tests, benchmarks).
        package var alsaConfiguration: String?
        /// Seconds between attempts when espeak-ng or the device failed.
        package var retrySec = 30.0
        /// The defaults.
        package init() {}
    }

    /// What the voice's queue works on, behind a lock only that queue takes (and `stop`).
    private struct State {
        var scheduler: CalloutScheduler
        var vocabulary: CalloutVocabulary?
        var player: ALSAPlayer?
        var lastRenderAttempt = -Double.infinity
        var clock: (event: Double, uptime: UInt64)?
        var wake: DispatchWorkItem?
        var stopped = false
    }

    /// Settings in force.
    package let settings: Settings
    private let queue = DispatchQueue(label: "gatewayd.voice")
    private let log: @Sendable (String) -> Void
    private let waiting = Locked<(count: Int, dropped: Int)>((0, 0))
    private let state: Locked<State>
    /// Called on the playback thread when a callout's first frames reached ALSA, with the
    /// callout and the monotonic time (ns) the alert change that caused it was handed over
    /// (benchmarks: arrival to first frame).
    private let onFirstFrames: (@Sendable (TimedCallout, UInt64) -> Void)?
    /// Called on the voice's queue with every callout started (tests, logs).
    private let onCallout: (@Sendable (TimedCallout) -> Void)?

    /// A voice sink; nothing is rendered or opened until `start`. `onCallout` hears every
    /// callout started, `onFirstFrames` each one's first frames reaching ALSA.
    package init(settings: Settings, onCallout: (@Sendable (TimedCallout) -> Void)? = nil,
                onFirstFrames: (@Sendable (TimedCallout, UInt64) -> Void)? = nil, log: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.log = log
        self.onCallout = onCallout
        self.onFirstFrames = onFirstFrames
        state = Locked(State(scheduler: CalloutScheduler(settings: settings.callouts)))
    }

    /// Renders the vocabulary and opens the device, on the voice's own queue and thread.
    package func start() {
        queue.async { self.state.withLock { self.prepare(&$0) } }
    }

    /// Waits until what `start` began is done (tests, benchmarks).
    package func waitUntilReady() { queue.sync {} }

    /// Carries out one input's outputs (on the core's queue; never blocks).
    package func carryOut(_ outputs: GatewayOutputs, at time: Double) {
        let alerts = outputs.alerts, flight = outputs.flight
        let handed = DispatchTime.now().uptimeNanoseconds
        let taken = waiting.withLock { w -> Bool in
            guard w.count < 1_024 else { w.dropped += 1; return false }
            w.count += 1
            return true
        }
        guard taken else { return }
        queue.async {
            self.waiting.withLock { $0.count -= 1 }
            self.state.withLock { s in
                s.clock = (time, handed)
                let callouts = s.scheduler.receive(alerts, flight: flight, at: time)
                self.speak(callouts, handed: handed, &s)
            }
        }
    }

    /// `GatewaySink`: carries out one input's outputs (the encoded alerts are not needed).
    package func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        carryOut(outputs, at: time)
    }

    /// `GatewaySink`: the process is ending; stops the playback.
    package func finish() { stop() }

    /// Stops the playback (what is being said is finished).
    package func stop() {
        let player = queue.sync {
            state.withLock { s -> ALSAPlayer? in
                s.stopped = true
                s.wake?.cancel()
                s.wake = nil
                return s.player
            }
        }
        player?.stop()
    }

    /// Callouts played and dropped so far, and whether the device is open.
    package var counts: (played: Int, dropped: Int, deviceOpen: Bool) {
        queue.sync { state.withLock { $0.player } }?.counts ?? (0, 0, false)
    }

    // MARK: On the voice's queue, the state locked

    private func prepare(_ s: inout State) {
        s.lastRenderAttempt = DispatchTime.now().uptimeNanoseconds.seconds
        do {
            let vocabulary = try CalloutVocabulary(parameters: settings.speech)
            s.vocabulary = vocabulary
            s.scheduler = CalloutScheduler(settings: settings.callouts, durations: vocabulary.durations)
            let player = ALSAPlayer(device: settings.device, sampleRate: vocabulary.sampleRate, configuration: settings.alsaConfiguration,
                                    retrySec: settings.retrySec, log: log)
            player.start()
            s.player = player
        } catch {
            log("voice: \(error); callouts are not spoken, tried again every \(Int(settings.retrySec)) s")
        }
    }

    private func speak(_ callouts: [TimedCallout], handed: UInt64, _ s: inout State) {
        guard !s.stopped else { return }
        if s.vocabulary == nil, DispatchTime.now().uptimeNanoseconds.seconds - s.lastRenderAttempt >= settings.retrySec { prepare(&s) }
        for c in callouts {
            onCallout?(c)
            guard let vocabulary = s.vocabulary, let player = s.player else { continue }
            var started: (@Sendable () -> Void)?
            if let report = onFirstFrames { started = { report(c, handed) } }
            player.play(vocabulary.pcm(c.callout), started: started)
        }
        scheduleWake(&s)
    }

    /// Passes time for the scheduler when it next has something to do (a queued callout after
    /// the one playing, a warning's repeat, "Traffic not available"), between the core's ticks.
    /// A deadline on the voice's own queue (`asyncAfter`), moved at each change: the one timer
    /// of the gateway not a `PeriodicService`, as its time is not periodic.
    private func scheduleWake(_ s: inout State) {
        s.wake?.cancel()
        guard !s.stopped, let next = s.scheduler.nextWake, let clock = s.clock else { return }
        let nowEvent = clock.event + (DispatchTime.now().uptimeNanoseconds - clock.uptime).seconds
        let item = DispatchWorkItem { [weak self] in
            guard let self else { return }
            self.state.withLock { s in
                guard let clock = s.clock else { return }
                let now = clock.event + (DispatchTime.now().uptimeNanoseconds - clock.uptime).seconds
                let callouts = s.scheduler.advance(to: now)
                self.speak(callouts, handed: DispatchTime.now().uptimeNanoseconds, &s)
            }
        }
        s.wake = item
        queue.asyncAfter(deadline: .now() + max(0.001, next - nowEvent), execute: item)  // concurrency: the voice's next callout at its time, on the voice's own queue
    }
}

extension UInt64 {
    /// Nanoseconds as seconds.
    fileprivate var seconds: Double { Double(self) / 1e9 }
}
