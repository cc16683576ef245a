import GatewaySupport
import GatewayFeeds

/// The one follower of an alert stream (issue 53: `tail` and `fleet tail` each had their own
/// loop): connects, hands on each event's data, and when the stream ends or the peer is away
/// reconnects after 2 s, then 1.5 times longer up to 10 s, resuming after the last event id it
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
        var delay = 2.0
        var connectedOnce = false
        var lastEventID: String?
        while true {
            do {
                var connection = try HTTPConnection(target, timeout: 5, sending: lastEventID.map { [("Last-Event-ID", $0)] } ?? [])
                defer { connection.close() }
                guard connection.status == 200 else {
                    throw HTTPConnection.Failure(description: "\(shown) answered HTTP \(connection.status)")
                }
                Terminal.error(connectedOnce ? "\(name): reconnected to \(shown)" : "\(name): following \(shown)")
                connectedOnce = true
                delay = 2
                var parser = SSEParser(lastEventID: lastEventID)
                while let piece = try connection.readBody() {
                    let events = parser.feed(piece)
                    lastEventID = parser.lastEventID
                    for event in events where !onEvent(event) { return }
                }
                Terminal.error("\(name): \(peer) closed the stream; reconnecting in \(Int(delay)) s")
            } catch {
                Terminal.error("\(name): \(error); retrying in \(Int(delay)) s")
            }
            Terminal.pause(delay)
            delay = min(delay * 1.5, 10)
        }
    }
}
