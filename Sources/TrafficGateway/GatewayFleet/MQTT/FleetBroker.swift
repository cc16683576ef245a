import GatewaySupport
#if canImport(Glibc)
import Glibc
#endif

/// A broker's address, `mqtt://HOST[:PORT]` (default 1883) or `mqtts://HOST[:PORT]` (TLS,
/// default 8883, the broker's certificate checked against the name or address given).
package struct FleetBroker: Sendable, Equatable, CustomStringConvertible {
    /// TLS or not.
    package var tls: Bool
    /// Host name or address, as given.
    package var host: String
    /// TCP port.
    package var port: Int

    /// The broker of `url`, or nil when it is not one: a scheme other than mqtt or mqtts, user
    /// information (credentials belong in the password file), a path, query or bad port.
    package init?(url: String) {
        let scheme: Bool
        var rest: Substring
        if url.hasPrefix("mqtt://") { scheme = false; rest = url.dropFirst(7) } else if url.hasPrefix("mqtts://") { scheme = true; rest = url.dropFirst(8) } else { return nil }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.isEmpty, !rest.contains(where: { "/?#@ ".contains($0) }) else { return nil }
        var host = rest, port = scheme ? 8883 : 1883
        if rest.hasPrefix("[") {  // [IPv6]:port
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let p = Int(after.dropFirst()), (1...65_535).contains(p) else { return nil }
                port = p
            }
        } else if let colon = rest.lastIndex(of: ":") {
            guard let p = Int(rest[rest.index(after: colon)...]), (1...65_535).contains(p) else { return nil }
            host = rest[..<colon]
            port = p
        }
        guard !host.isEmpty else { return nil }
        self.tls = scheme
        self.host = String(host)
        self.port = port
    }

    /// `mqtt://host:port` (never any credential).
    package var description: String {
        "\(tls ? "mqtts" : "mqtt")://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}

/// The `[fleet]` settings a gateway and a ground station share.
package struct FleetSettings: Sendable, Equatable {
    package var broker: FleetBroker
    /// The gateway's name in the fleet (`skygate/NAME/…`); nil for a ground station.
    package var id: String?
    package var username: String?
    /// The password file (root-only; its trailing newline is not part of the password).
    package var passwordFile: String?
    /// The CA file for `mqtts://`.
    package var caFile: String?

    package init(broker: FleetBroker, id: String? = nil, username: String? = nil, passwordFile: String? = nil, caFile: String? = nil) {
        self.broker = broker
        self.id = id
        self.username = username
        self.passwordFile = passwordFile
        self.caFile = caFile
    }

    /// Whether `id` can name a gateway: 1–64 bytes of UTF-8 without `/`, `+`, `#` (MQTT's topic
    /// separator and wildcards), control or format characters (a right-to-left override) or
    /// spaces, not `.` or `..`, not starting with `$` (brokers' own topics).
    package static func isValidID(_ id: String) -> Bool {
        let bytes = id.utf8.count
        guard (1...64).contains(bytes), !id.hasPrefix("$"), id != ".", id != ".." else { return false }
        // Control characters, and format characters (the right-to-left override, zero-width
        // joiners): a name that reads as another on the page.
        return !id.unicodeScalars.contains {
            "/+# ".unicodeScalars.contains($0) || $0.properties.generalCategory == .control || $0.properties.generalCategory == .format || $0.value == 0x7F
        }
    }

    /// Checks the CA file at `path` before libmosquitto takes it (it says nothing of a junk file
    /// until a handshake fails, and then blames the broker's certificate): readable, and holding a
    /// PEM certificate.
    package static func checkCAFile(_ path: String) throws(GatewayError) {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }  // a folder of certificates (CApath)
        guard let file = OpenFile.reading(path) else {
            let why = errno == ENOENT ? "no such file" : errno == EACCES ? "not readable by this user" : String(cString: strerror(errno)).lowercased()
            throw GatewayError.setting(name: "fleet.ca_file", message: "[fleet] ca_file \(path): cannot be read (\(why))")
        }
        let head = file.read(upTo: 1 << 20)
        file.close()
        guard String(decoding: head, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
            throw GatewayError.setting(name: "fleet.ca_file", message: "[fleet] ca_file \(path): not a PEM certificate file (no BEGIN CERTIFICATE line): give the CA that signed the broker's certificate")
        }
    }

    /// The password in the file at `path`: its content without one trailing newline (`\n` or
    /// `\r\n`). `${CREDENTIALS_DIRECTORY}` in the path is systemd's credentials folder. The
    /// error never quotes the file.
    package static func readPassword(path: String, environment: [String: String]) throws(GatewayError) -> String {
        var path = path
        if path.contains("${CREDENTIALS_DIRECTORY}") {
            guard let dir = environment["CREDENTIALS_DIRECTORY"], !dir.isEmpty else {
                throw GatewayError.setting(name: "fleet.password_file", message: "[fleet] password_file \(path): $CREDENTIALS_DIRECTORY is not set (systemd's LoadCredential= gives it; see deploy/README.md)")
            }
            path = path.replacingAll("${CREDENTIALS_DIRECTORY}", with: dir)
        }
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw GatewayError.setting(name: "fleet.password_file", message: "[fleet] password_file \(path): is a folder, not a file")
        }
        guard let file = OpenFile.reading(path) else {
            let why = errno == ENOENT ? "no such file" : errno == ELOOP ? "a loop of symbolic links" : errno == EACCES ? "not readable by this user" : String(cString: strerror(errno)).lowercased()
            throw GatewayError.setting(name: "fleet.password_file", message: "[fleet] password_file \(path): cannot be read (\(why))")
        }
        var text = file.read(upTo: 4096)
        file.close()
        if text.last == UInt8(ascii: "\n") { text.removeLast(); if text.last == UInt8(ascii: "\r") { text.removeLast() } }
        guard !text.isEmpty, let password = String(validating: text, as: UTF8.self) else {
            throw GatewayError.setting(name: "fleet.password_file", message: "[fleet] password_file \(path): empty or not UTF-8 text")
        }
        return password
    }
}
