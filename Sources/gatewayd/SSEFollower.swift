import GatewaySupport
import GatewayFeeds

/// The one follower of an alert stream (issue 53: `tail` and `fleet tail` each had their own
/// loop): connects, hands on each event's data, and when the stream ends or the peer is away
/// reconnects under the one `ReconnectPolicy` (2 s, then 1.5 times longer up to 10 s, jittered), resuming after the last event id it
/// saw (`Last-Event-ID`), so nothing is printed twice or missed. Each state is said once on
/// stderr, led by the command's name.
struct SSEFollower {
    /// `tail` or `fleet tail`.
    let name: String
    /// The stream.
    let target: HTTPConnection.Target
    /// The URL as it is said (secrets masked).
    let shown: String
    /// What the peer is, in the line said when it closes the stream ("the gateway", "the station").
    let peer: String

    /// Follows until `onEvent` returns false.
    func follow(_ onEvent: (String) -> Bool) {
        // The one reconnect policy (`ReconnectPolicy.follower`): 2 s, 1.5 times longer up to
        // 10 s, jittered; a failure said once until the stream is back.
        var policy = ReconnectPolicy.follower
        var connectedOnce = false
        var lastEventID: String?
        while true {
            do {
                var connection = try HTTPConnection(target, timeout: 5, sending: lastEventID.map { [("Last-Event-ID", $0)] } ?? [])
                defer { connection.close() }
                guard connection.status == 200 else {
                    throw HTTPConnection.Failure(description: "\(shown) answered HTTP \(connection.status)\(connection.status == 401 ? " (give the token as ?token=… in the URL)" : "")")
                }
                _ = policy.connected(at: DedicatedThread.monotonicSeconds)
                Terminal.error(connectedOnce ? "\(name): reconnected to \(shown)" : "\(name): following \(shown)")
                connectedOnce = true
                var parser = SSEParser(lastEventID: lastEventID)
                while let piece = try connection.readBody() {
                    let events = parser.feed(piece)
                    lastEventID = parser.lastEventID
                    for event in events where !onEvent(event) { return }
                }
                _ = policy.lost(at: DedicatedThread.monotonicSeconds)
                Terminal.error("\(name): \(peer) closed the stream; reconnecting")
            } catch {
                if policy.failed() { Terminal.error("\(name): \(error); retrying every few seconds (up to \(Int(policy.longest)) s apart)") }
            }
            Terminal.pause(policy.delay())
        }
    }
}
