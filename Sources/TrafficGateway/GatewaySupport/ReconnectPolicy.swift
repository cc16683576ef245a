/// The one reconnect policy of every client the gateway keeps connected (issue 53: there were
/// five loops, each with its own delays and words): gpsd, the SBS source, the fleet's MQTT
/// session (publisher and station), and the SSE followers (`tail`, `fleet tail`).
///
/// - **Backoff with jitter**: the first retry after `first` seconds, each next one `factor`
///   times longer up to `longest`, each delay spread by ±`jitter` of itself so that a club's
///   gateways (or a Pi's clients) that lost one broker do not all come back in the same second.
/// - **Said once**: the first failure after a connection (or at start) is said, the next ones
///   are quiet until a connection is made again; a run of connections dropped right after they
///   were made is said once (`ConnectionFlaps`).
/// - A connection that lasts resets the backoff; one that flaps keeps it growing.
public struct ReconnectPolicy: Sendable {
    /// The first delay, seconds.
    public let first: Double
    /// The longest delay, seconds.
    public let longest: Double
    /// How much longer each next delay is.
    public let factor: Double
    /// The spread of each delay, a fraction of it (0.2: ±20 %).
    public let jitter: Double
    private var nextDelay: Double
    private var failureSaid = false
    /// The connections dropped right after they were made.
    public private(set) var flaps = ConnectionFlaps()

    public init(first: Double, longest: Double, factor: Double = 2, jitter: Double = 0.2) {
        self.first = first
        self.longest = max(first, longest)
        self.factor = max(1, factor)
        self.jitter = min(max(0, jitter), 0.5)
        nextDelay = first
    }

    /// gpsd on the same host: back quickly, never longer than 30 s.
    public static let gpsd = ReconnectPolicy(first: 1, longest: 30)
    /// A 1090 receiver's SBS output: 1 s, doubling up to a minute.
    public static let sbs = ReconnectPolicy(first: 1, longest: 60)
    /// The club's MQTT broker: libmosquitto retries a connection itself; a client whose thread has
    /// given up (a refused TLS handshake) is made anew after 15 s, doubling up to 4 min.
    public static let mqtt = ReconnectPolicy(first: 15, longest: 240)
    /// A terminal following a stream: 2 s, then 1.5 times longer up to 10 s.
    public static let follower = ReconnectPolicy(first: 2, longest: 10, factor: 1.5)

    /// The delay before the next attempt, seconds (jittered, never below a tenth of `first`);
    /// the one after it grows.
    public mutating func delay() -> Double {
        let base = nextDelay
        nextDelay = min(nextDelay * factor, longest)
        let spread = base * jitter
        return max(first / 10, base + (spread > 0 ? Double.random(in: -spread...spread) : 0))
    }

    /// A connection was made at `now` (monotonic seconds): whether to say so (not inside a run of
    /// flaps). A connection outside a run resets the backoff.
    public mutating func connected(at now: Double) -> Bool {
        let say = flaps.connected(at: now)
        if flaps.flaps == 0 { nextDelay = first }
        failureSaid = false
        return say
    }

    /// The connection was lost at `now`: what to say (`ConnectionFlaps`).
    public mutating func lost(at now: Double) -> ConnectionFlaps.Saying {
        let saying = flaps.lost(at: now)
        // A steady connection that ends says so; the failures that follow are quiet.
        if saying != .quiet { failureSaid = true }
        return saying
    }

    /// A line client's connection ended or an attempt failed, `reason` why: whether to say it
    /// (once: when a steady connection is lost, when a run of flaps begins, or the first attempt
    /// fails; retries are quiet) and the reason to say (`flapping` words a run of flaps).
    /// `wasConnected` and `hadReason` are the client's status before it.
    public mutating func ended(_ reason: String, wasConnected: Bool, hadReason: Bool, at now: Double,
                               flapping: (Int) -> String) -> (tell: Bool, reason: String) {
        let saying: ConnectionFlaps.Saying? = wasConnected ? lost(at: now) : nil
        switch saying {
        case .flapping(let n)?: return (true, flapping(n))
        case .lost?: return (true, reason)
        case .quiet?: return (false, reason)
        case nil: return (!hadReason, reason)
        }
    }

    /// An attempt failed: whether to say it (the first since the last connection, or at start).
    public mutating func failed() -> Bool {
        defer { failureSaid = true }
        return !failureSaid
    }
}
