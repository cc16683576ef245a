import GatewaySupport
import GatewayDomain
import Dispatch
import ServiceLifecycle

/// Where the pipeline's inputs come from (see ../shared/DESIGN.md, "sources in, sinks out"): GDL 90
/// over UDP, gpsd, EFB discovery, the airspace (NOTAM files, the store, refreshes), the
/// acknowledgements, the clock's tick, a capture played live. Each is one type, registered with
/// `LiveGateway.add(_:)` in one place (`GatewayApp`); a source hands timed `GatewayInput`s to its
/// `GatewayInlet`, and the live gateway records them (when recording) and feeds them to the one
/// pipeline on its serial queue. Adding a source is a new file and one line of wiring.
package protocol GatewaySource: Sendable {
    /// Starts producing into `inlet`: binds, opens, connects. An error here stops the gateway's
    /// start before any "listening" line, naming what could not be opened.
    func start(_ inlet: GatewayInlet) throws(GatewayError)
    /// Stops producing, from any thread, without waiting for the core's queue: nothing more is
    /// handed in after the next input.
    func stop()
    /// The source's timed work (the clock's tick, a poll, a reload), as services the app's
    /// `ServiceGroup` runs beside the others and stops with them: no source starts a timer of
    /// its own. Each does nothing before `start` and after `stop`. None by default.
    var services: [any Service] { get }
}

extension GatewaySource {
    /// No timed work.
    package var services: [any Service] { [] }
}

/// What a source hands its inputs to: the live gateway's pipeline on its serial queue, at the
/// gateway's clock.
package struct GatewayInlet: Sendable {
    private let gateway: LiveGateway

    init(_ gateway: LiveGateway) { self.gateway = gateway }

    /// The core's serial queue: a Dispatch source reading there (the UDP socket) hands its
    /// bytes in with `receive`, without a copy.
    package var queue: DispatchQueue { gateway.queue }

    /// The gateway's clock: the wall clock live, the capture's under `run --replay`.
    package func now() -> Double { gateway.clock() }

    /// Hands `input` in at `time` (nil: the gateway's clock now), from any thread; it is
    /// handled on the core's queue in the order given.
    package func deliver(_ input: GatewayInput, at time: Double? = nil) {
        gateway.deliver(input, at: time)
    }

    /// Hands `input` in unless the core is behind (`LiveGateway.offer`): false, and counted,
    /// when it was dropped. For fast stream feeds whose newest read matters more than an old one.
    @discardableResult
    package func offer(_ input: GatewayInput, at time: Double? = nil) -> Bool {
        gateway.offer(input, at: time)
    }

    /// Hands in a datagram held in a buffer valid only during the call. On `queue` only.
    package func receive(_ bytes: UnsafeRawBufferPointer, at time: Double) {
        dispatchPrecondition(condition: .onQueue(gateway.queue))
        gateway.receive(bytes, at: time)
    }
}
