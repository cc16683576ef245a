/// What to say about a connection that keeps dropping right after it is made: a broker whose
/// client id another client keeps taking over, or that drops each connection (the fleet's
/// publisher and station said "connected" 13–15 times in 30 s and never why); an SBS peer that
/// accepts and closes at once (18 reconnects in 18 s, two lines each). A connection that lasts less
/// than `shortest` seconds is a flap; "connected" is said only outside a run of flaps, "lost"
/// when a connection ends outside a run, and a run of `said` flaps is said once, with the likely
/// causes. A connection that lasts ends the run.
///
/// A peer that accepts and closes at once is said in four lines ("connected", "lost",
/// "connected", then the run), however long it goes on.
public struct ConnectionFlaps: Sendable {
    /// A connection shorter than this is a flap, seconds.
    public static let shortest = 10.0
    /// Flaps in a row before they are said.
    public static let said = 3

    private var connectedAt: Double?
    public private(set) var flaps = 0
    private var flappingSaid = false

    public init() {}

    /// A connection came up at `now` (monotonic seconds): whether to say so.
    public mutating func connected(at now: Double) -> Bool {
        connectedAt = now
        // After one short connection ("lost" was said) a reconnection is said; inside a run, not.
        return flaps < 2
    }

    /// What a lost connection at `now` calls for.
    public enum Saying: Equatable {
        /// A steady connection ended: say it was lost (and why).
        case lost
        /// The run of flaps reached `said`: say it keeps dropping, once.
        case flapping(Int)
        /// Nothing (inside a run of flaps).
        case quiet
    }

    /// The connection went down at `now`.
    public mutating func lost(at now: Double) -> Saying {
        guard let up = connectedAt else { return .quiet }
        connectedAt = nil
        if now - up >= Self.shortest {
            flaps = 0
            flappingSaid = false
            return .lost
        }
        flaps += 1
        if flaps >= Self.said && !flappingSaid {
            flappingSaid = true
            return .flapping(flaps)
        }
        return flaps == 1 ? .lost : .quiet
    }

    /// The sentence for a run of flaps of the connection to `broker` as client `id`.
    public static func flappingLine(broker: String, id: String, count: Int) -> String {
        "fleet: the connection to \(broker) drops right after it is made (\(count) times in a row): another client using the id \(id) takes it over, or the broker refuses this client (see the broker's log); retrying quietly"
    }
}
