/// Ownship's flight phase and when GDL 90 last arrived, as the core sees them after an input:
/// what a sink that speaks needs besides the alert changes ("nothing on the ground", "Traffic not
/// available" when GDL 90 stops in flight).
package struct FlightStatus: Sendable, Equatable {
    /// Ownship's phase (unknown before its first fix).
    package var phase: FlightState.Phase
    /// Event time of the last GDL 90 message decoded (nil: none yet).
    package var lastMessage: Double?

    /// A status.
    package init(phase: FlightState.Phase, lastMessage: Double?) {
        self.phase = phase
        self.lastMessage = lastMessage
    }

    /// True when ownship is flying.
    package var airborne: Bool { phase == .airborne }
}
