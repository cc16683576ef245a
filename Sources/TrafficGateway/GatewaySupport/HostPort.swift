/// A network endpoint as the user writes it: `host:port`, `host` (with a default port, where one
/// applies), or `[v6 address]:port`. The one parser behind `--gpsd`, `--forward`, `send --to` and
/// the configuration file.
public struct HostPort: Sendable, Hashable, CustomStringConvertible {
    /// A host name or address, without brackets.
    public var host: String
    /// 1...65535.
    public var port: UInt16

    /// An endpoint from its parts.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port`, `[address]:port` or, when `defaultPort` is given, a bare `host` or
    /// `[address]`. Nil for an empty host, a port that is not 1...65535, or an IPv6 address without
    /// brackets (its colons would be ambiguous). Spaces around the text are not allowed.
    public init?(_ text: String, defaultPort: UInt16? = nil) {
        let bare: Substring, portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            bare = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if rest.isEmpty {
                portText = nil
            } else {
                guard rest.first == ":" else { return nil }
                portText = rest.dropFirst()
            }
        } else {
            let colons = text.filter { $0 == ":" }.count
            guard colons <= 1 else { return nil }
            if let colon = text.firstIndex(of: ":") {
                bare = text[..<colon]
                portText = text[text.index(after: colon)...]
            } else {
                bare = Substring(text)
                portText = nil
            }
        }
        guard !bare.isEmpty, !bare.contains(where: { $0 == " " || $0 == "/" || $0 == "[" || $0 == "]" }) else { return nil }
        let port: UInt16
        if let portText {
            guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let p = UInt16(portText), p > 0 else { return nil }
            port = p
        } else {
            guard let defaultPort else { return nil }
            port = defaultPort
        }
        self.init(host: String(bare), port: port)
    }

    /// `host:port`, with brackets around an IPv6 address.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
