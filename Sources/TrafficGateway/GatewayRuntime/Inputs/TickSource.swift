import GatewaySupport
import ServiceLifecycle

/// The clock's tick: `.tick` handed in every `interval` of the injected clock (a second live;
/// less when a capture plays faster than real time), so staleness, hysteresis and silence are
/// re-evaluated when no input comes. The pipeline ticks the core only at whole seconds of event
/// time (the tick rule), so the live ticks never make a session differ from its replay. The
/// ticking is a service of the app's group (`services`).
package final class TickSource: GatewaySource {
    private let inlet: Locked<GatewayInlet?>
    /// The tick, a `PeriodicService` on the injected clock.
    package let services: [any Service]

    /// A tick every `interval` on `clock`.
    package init(every interval: Duration = .seconds(1), clock: any Clock<Duration> = ContinuousClock()) {
        let inlet = Locked<GatewayInlet?>(nil)
        self.inlet = inlet
        services = [PeriodicService("tick", delay: interval, every: interval, clock: clock) { inlet.value?.deliver(.tick) }]
    }

    package func start(_ inlet: GatewayInlet) throws(GatewayError) { self.inlet.set(inlet) }

    package func stop() { inlet.set(nil) }
}
