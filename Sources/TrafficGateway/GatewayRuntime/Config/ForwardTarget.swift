import GatewaySupport
/// Where GDL90 is re-broadcast to (`--forward`, `[feeds] forward`): a fixed `host:port`, or
/// `auto`: every EFB that announces itself on UDP 63093.
package enum ForwardTarget: Sendable, Hashable, CustomStringConvertible {
    /// A fixed receiver.
    case host(HostPort)
    /// EFBs found by their announcements.
    case auto

    /// Parses `auto` or `host:port` (`[v6]:port`); nil otherwise.
    package init?(_ text: String) {
        if text == "auto" {
            self = .auto
        } else if let target = HostPort(text) {
            self = .host(target)
        } else {
            return nil
        }
    }

    /// `auto` or `host:port`.
    package var description: String {
        switch self {
        case .host(let target): target.description
        case .auto: "auto"
        }
    }
}
