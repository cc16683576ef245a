import GatewaySupport

/// What a reconnecting line client's status says of its connection (SBS, OGN).
package protocol LineLinkStatus: Sendable {
    /// Connected now.
    var connected: Bool { get set }
    /// Why not, when not.
    var reason: String? { get set }
}

/// The connection bookkeeping the line clients (SBS, OGN) share: their status under one lock
/// with the reconnect policy, and the words for a connection made or ended, each said once
/// (`ReconnectPolicy`: a steady connection lost, a run of flaps, the first failure; retries quiet).
package final class LineLink<Status: LineLinkStatus>: Sendable {
    private let state: Locked<(policy: ReconnectPolicy, status: Status)>
    private let onStatus: @Sendable (Status, Bool) -> Void
    private let flapping: @Sendable (Int) -> String

    /// A link starting with `status`, its backoff `policy`; `onStatus` hears each change and
    /// whether to say it; `flapping` words a run of short connections.
    package init(policy: ReconnectPolicy, status: Status, onStatus: @escaping @Sendable (Status, Bool) -> Void,
                 flapping: @escaping @Sendable (Int) -> String) {
        state = Locked((policy, status))
        self.onStatus = onStatus
        self.flapping = flapping
    }

    /// The status now.
    package var status: Status { state.withLock { $0.status } }

    /// The wait before the next attempt.
    package func delay() -> Double { state.withLock { $0.policy.delay() } }

    /// Changes the status; `change` returns whether to say it.
    package func update(_ change: (inout Status) -> Bool) {
        let (status, tell) = state.withLock { s -> (Status, Bool) in
            let tell = change(&s.status)
            return (s.status, tell)
        }
        onStatus(status, tell)
    }

    /// A connection made (said unless a run of flaps goes on).
    package func connected() {
        let tell = state.withLock { $0.policy.connected(at: DedicatedThread.monotonicSeconds) }
        update { s in
            s.connected = true
            s.reason = nil
            return tell
        }
    }

    /// A connection ended or an attempt failed, `reason` why.
    package func ended(_ reason: String) {
        let flapping = self.flapping
        let (tell, said) = state.withLock { s in
            s.policy.ended(reason, wasConnected: s.status.connected, hadReason: s.status.reason != nil,
                           at: DedicatedThread.monotonicSeconds, flapping: flapping)
        }
        update { s in
            s.connected = false
            s.reason = said
            return tell
        }
    }
}
