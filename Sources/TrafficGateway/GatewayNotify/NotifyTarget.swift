import GatewaySupport

/// Where notifications go, written as a URL in the convention self-hosters already know from
/// Apprise: `ntfy://[TOKEN@]HOST[:PORT]/TOPIC` (ntfy's publish API; `ntfys://` over TLS),
/// `mailto://[USER:PASSWORD@]SMTPHOST[:PORT]?to=a@b.org[,c@d.org][&from=…]` (SMTP, STARTTLS when the
/// server offers it; `mailtos://` TLS from the start, port 465) and `json://HOST[:PORT]/PATH`
/// (a webhook, one JSON `POST` a notification; `jsons://` over TLS; `?secret=S` signs the body).
/// Every query also takes `verify=no` (a self-signed certificate on the LAN: TLS without checking
/// who answers) and `cafile=PATH` (that certificate, checked).
package struct NotifyTarget: Sendable, Equatable, CustomStringConvertible {
    /// The kind of target.
    package enum Kind: String, Sendable, Equatable {
        /// ntfy's publish API.
        case ntfy
        /// E-mail through SMTP.
        case mail
        /// A JSON webhook.
        case json
    }

    /// The kind.
    package var kind: Kind
    /// TLS: `ntfys`, `jsons`, `mailtos` (TLS from the start); for `mailto`, STARTTLS when offered.
    package var secure: Bool
    /// Host name or address.
    package var host: String
    /// The port (the scheme's default when not written).
    package var port: Int
    /// ntfy: the topic; json: the path (with a leading `/`).
    package var path: String
    /// ntfy's access token (`Authorization: Bearer`).
    package var token: String?
    /// SMTP user and password.
    package var user: String?
    /// SMTP password.
    package var password: String?
    /// Mail recipients.
    package var to: [String]
    /// Mail sender.
    package var from: String?
    /// The webhook's HMAC-SHA256 key.
    package var secret: String?
    /// TLS without checking the certificate (`verify=no`).
    package var verifyTLS = true
    /// A CA or self-signed certificate file to check the server's against (`cafile=`).
    package var caFile: String?
    /// The URL as written (secrets and all): what identifies the target in the outbox.
    package var url: String

    /// The scheme words the reader knows, for errors.
    package static let schemes = "ntfy://, ntfys://, mailto://, mailtos://, json:// or jsons://"

    /// Reads `url`; throws a sentence naming what is wrong with it (the URL itself masked).
    package init(url: String) throws(NotifyError) {
        func bad(_ why: String) -> NotifyError { NotifyError("\(NotifyTarget.mask(url)): \(why)") }
        guard let sep = url.firstRange(of: "://") else { throw bad("not a URL: write it like ntfy://ntfy.sh/my-topic (\(Self.schemes))") }
        let scheme = url[..<sep.lowerBound].lowercased()
        switch scheme {
        case "ntfy": (kind, secure, port) = (.ntfy, false, 80)
        case "ntfys": (kind, secure, port) = (.ntfy, true, 443)
        case "mailto": (kind, secure, port) = (.mail, false, 25)
        case "mailtos": (kind, secure, port) = (.mail, true, 465)
        case "json": (kind, secure, port) = (.json, false, 80)
        case "jsons": (kind, secure, port) = (.json, true, 443)
        default: throw bad("the scheme \(scheme):// is not one of \(Self.schemes)")
        }
        self.url = url
        var rest = url[sep.upperBound...]
        var query: Substring = ""
        if let q = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: q)...]
            rest = rest[..<q]
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<slash]
        path = String(rest[slash...])
        token = nil; user = nil; password = nil
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            authority = authority[authority.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                user = Self.percentDecoded(credentials[..<colon])
                password = Self.percentDecoded(credentials[credentials.index(after: colon)...])
            } else if kind == .ntfy {
                token = Self.percentDecoded(credentials)
            } else {
                user = Self.percentDecoded(credentials)
            }
        }
        if let colon = authority.lastIndex(of: ":") {
            guard let p = Int(authority[authority.index(after: colon)...]), (1...65535).contains(p) else {
                throw bad("the port '\(authority[authority.index(after: colon)...])' is not a number from 1 to 65535")
            }
            port = p
            authority = authority[..<colon]
        } else if kind == .mail && !secure && user != nil {
            // Submission with credentials: port 587 (port 25 is for relays on the LAN).
            port = 587
        }
        host = String(authority)
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" }) else {
            throw bad("no host: write the server's name or address after ://")
        }
        to = []; from = nil; secret = nil; caFile = nil
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            let name = parts[0].lowercased(), value = parts.count > 1 ? Self.percentDecoded(parts[1]) : ""
            switch name {
            case "to" where kind == .mail: to += value.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
            case "from" where kind == .mail: from = value
            case "secret" where kind == .json: secret = value
            case "verify": verifyTLS = !["no", "false", "0"].contains(value.lowercased())
            case "cafile": caFile = value
            default: throw bad("'\(name)' is not a setting of a \(scheme):// target")
            }
        }
        switch kind {
        case .ntfy:
            let topic = path.dropFirst()
            guard !topic.isEmpty, topic.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }), topic.count <= 64 else {
                throw bad("no topic: write ntfy://HOST/TOPIC, a topic of letters, digits, - and _ (up to 64)")
            }
        case .mail:
            guard !to.isEmpty else { throw bad("no recipient: add ?to=you@example.org") }
            for address in to + (from.map { [$0] } ?? []) where !Self.isMailAddress(address) {
                throw bad("'\(address)' is not an e-mail address")
            }
        case .json:
            if path.isEmpty { path = "/" }
        }
    }

    /// `name@domain`, nothing that could end an SMTP command.
    static func isMailAddress(_ s: String) -> Bool {
        let parts = s.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
            && s.unicodeScalars.allSatisfy { $0.value > 32 && $0 != "<" && $0 != ">" && $0 != "," && $0.value != 127 }
    }

    /// The sender, `from=` or skygate@ the SMTP host.
    package var sender: String { from ?? "skygate@\(host)" }

    /// The URL with its secrets (token, password, secret) masked: what is said and shown.
    package var description: String { Self.mask(url) }

    /// `url` with a token or password before `@` and a `secret=` masked.
    package static func mask(_ url: String) -> String {
        var out = SecretMasking.url(url)
        // A lone token before @ (ntfy://TOKEN@host) is a secret too.
        if let sep = out.firstRange(of: "://") {
            let end = out[sep.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? out.endIndex
            if let at = out[sep.upperBound..<end].lastIndex(of: "@"), !out[sep.upperBound..<at].contains(":") {
                out.replaceSubrange(sep.upperBound..<at, with: "****")
            }
        }
        return out
    }

    /// %XX sequences decoded (credentials with @ or : in them are written %40, %3A).
    static func percentDecoded(_ s: Substring) -> String {
        var bytes: [UInt8] = []
        var i = s.utf8.startIndex
        let u = s.utf8
        while i < u.endIndex {
            let b = u[i]
            if b == UInt8(ascii: "%"), let h = u.index(i, offsetBy: 2, limitedBy: u.endIndex), h < u.endIndex,
               let v = UInt8(String(decoding: u[u.index(after: i)...h], as: UTF8.self), radix: 16) {
                bytes.append(v)
                i = u.index(after: h)
            } else {
                bytes.append(b)
                i = u.index(after: i)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A short stable key for the outbox: the target's delivery rows follow it (a changed token
    /// is another target). FNV-1a of the URL, hex.
    package var key: String {
        var h: UInt64 = 1_469_598_103_934_665_603
        for b in url.utf8 { h = (h ^ UInt64(b)) &* 1_099_511_628_211 }
        return String(h, radix: 16)
    }
}

/// A notification setting or delivery that went wrong, in words that say what to do.
package struct NotifyError: Error, CustomStringConvertible, Equatable {
    /// The sentence.
    package var description: String
    /// An error saying `description`.
    package init(_ description: String) { self.description = description }
}
