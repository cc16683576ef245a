import GatewayCaptures
/// The times of one capture's datagrams as the logbook follows them. A time far from the one
/// before it (more than `jumpSec` ahead, or more than `behindSec` behind) is held until the
/// datagrams after it tell what it was: when `confirmations` of them follow it, the clock stepped
/// (a receiver that set its clock, a GPS week rollover): the held ones and those after go on from
/// there; when the next one goes on from before it, it was a lone bad time (a datagram dated a
/// year ahead) and is skipped. Nothing is decided on one datagram, and nothing is lost to one.
struct CaptureTimeline {
    /// What a jump turned out to be.
    enum Step: Equatable {
        /// Lone bad times: skipped.
        case outliers
        /// The clock stepped ahead (a gap, or a clock set forward): fed on.
        case forward
        /// The clock stepped back: the session before it ends, the rest is a session of its own.
        case backward
    }

    /// What to do with a datagram.
    enum Next {
        /// Feed it.
        case feed
        /// Hold it: the next ones tell.
        case hold
        /// The held datagrams, what they were, and then the datagram given, to feed after them.
        case release([CapturedDatagram], Step, then: CapturedDatagram?)
    }

    /// A time this far past the last one is a jump, seconds (longer than any pause of a receiver
    /// that stays on; a longer silence ends a flight anyway).
    static let jumpSec = 600.0
    /// A time this far before the last one is a jump back, seconds (datagrams of one second
    /// arrive in any order).
    static let behindSec = 1.0
    /// Datagrams that must follow a jump for it to be a step of the clock.
    static let confirmations = 4

    /// Whether the capture's first time was given.
    private(set) var started = false
    private var last = 0.0
    private var held: [CapturedDatagram] = []

    /// The capture's first time.
    mutating func start(at time: Double) {
        started = true
        last = time
    }

    private func follows(_ time: Double, _ previous: Double) -> Bool {
        time >= previous - Self.behindSec && time <= previous + Self.jumpSec
    }

    /// What to do with `datagram` (it has a timestamp).
    mutating func next(_ datagram: CapturedDatagram) -> Next {
        let t = datagram.timestamp!
        guard let latest = held.last?.timestamp else {
            if follows(t, last) {
                last = max(last, t)
                return .feed
            }
            held = [datagram]
            return .hold
        }
        if follows(t, latest) {
            held.append(datagram)
            guard held.count >= Self.confirmations else { return .hold }
            return release()
        }
        // Not on the jump's line: the held ones were lone bad times.
        let outliers = held
        held = []
        if follows(t, last) {
            last = max(last, t)
            return .release(outliers, .outliers, then: datagram)
        }
        held = [datagram]
        return .release(outliers, .outliers, then: nil)
    }

    /// The datagrams still held at the end of the capture, and what they were: a step when more
    /// than one agree, else a lone bad time.
    mutating func end() -> ([CapturedDatagram], Step)? {
        guard !held.isEmpty else { return nil }
        if held.count >= 2, case .release(let datagrams, let step, _) = release() { return (datagrams, step) }
        defer { held = [] }
        return (held, .outliers)
    }

    /// The held datagrams as a step of the clock.
    private mutating func release() -> Next {
        let datagrams = held
        let step: Step = datagrams[0].timestamp! < last ? .backward : .forward
        last = datagrams.compactMap(\.timestamp).max()!
        held = []
        return .release(datagrams, step, then: nil)
    }
}
