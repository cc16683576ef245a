import ArgumentParser
import GatewaySupport
import GatewayRecords
import GatewayNotams
import GatewayRuntime

// The library's typed settings as option values, each read by the library's one parser.

extension LogLevel: ExpressibleByArgument {}

extension NotamSourceKind: ExpressibleByArgument {}

extension ForwardTarget: ExpressibleByArgument {
    /// `auto` or `host:port`.
    public init?(argument: String) { self.init(argument) }
}

extension HostPort {
    /// `host:port`, or `host` alone with `defaultPort`, for an option's `transform:`.
    static func argument(_ text: String, defaultPort: UInt16? = nil) throws -> HostPort {
        guard let value = HostPort(text, defaultPort: defaultPort) else {
            throw ValidationError("\(text) is not \(defaultPort == nil ? "host:port" : "host or host:port") (an IPv6 address goes in brackets: [fe80::1]:\(defaultPort ?? 4000))")
        }
        return value
    }
}
