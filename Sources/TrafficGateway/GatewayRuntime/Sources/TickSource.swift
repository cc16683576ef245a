import GatewaySupport
/// The clock's tick: `.tick` handed in every `interval` of the injected clock (a second live;
/// less when a capture plays faster than real time), so staleness, hysteresis and silence are
/// re-evaluated when no input comes. The pipeline ticks the core only at whole seconds of event
/// time (the tick rule), so the live ticks never make a session differ from its replay.
public final class TickSource: GatewaySource {
    private let interval: Duration
    private let clock: any Clock<Duration>
    private let task = Locked<Task<Void, Never>?>(nil)

    /// A tick every `interval` on `clock`.
    public init(every interval: Duration = .seconds(1), clock: any Clock<Duration> = ContinuousClock()) {
        self.interval = interval
        self.clock = clock
    }

    public func start(_ inlet: GatewayInlet) throws(GatewayError) {
        let interval = self.interval, clock = self.clock
        task.set(Task {
            while (try? await clock.sleep(for: interval)) != nil {
                inlet.deliver(.tick)
            }
        })
    }

    public func stop() { task.value?.cancel() }
}
