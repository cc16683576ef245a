import GatewaySupport
import GatewayRecords
import CCurl

/// Sends one notification to one target, once (the outbox retries): ntfy's publish API, an
/// e-mail through SMTP, a signed JSON webhook. Each attempt blocks a Dispatch thread (libcurl,
/// `Offload`), never the cooperative pool, with a hard timeout, so a dead target costs its own
/// queue at most `timeout` seconds and never the others'.
package struct Delivery: Sendable {
    /// Whole-attempt timeout, seconds.
    package var timeout = 10.0
    /// The User-Agent and the mail's X-Mailer.
    package var agent = "skygate-gatewayd/\(GatewayVersion.current)"

    /// A delivery that waits at most `timeout` seconds.
    package init(timeout: Double = 10) { self.timeout = timeout }

    /// Why one attempt failed, and whether trying again can help (a refused token cannot).
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The reason, in words.
        package var description: String
        /// A 4xx answer (not 408 or 429): the target refuses this notification or our credentials.
        package var permanent: Bool
    }

    /// Sends `n` to `target`.
    package func send(_ n: Notification, to target: NotifyTarget) async throws(Failure) {
        switch target.kind {
        case .ntfy: try await http(target, url: base(target) + target.path, body: Array(n.message.utf8), headers: ntfyHeaders(n, target))
        case .json: try await http(target, url: base(target) + target.path, body: Array(n.json.utf8), headers: try webhookHeaders(n, target))
        case .mail:
            let message = Self.mail(n, from: target.sender, to: target.to, agent: agent)
            let target = target, timeout = self.timeout
            guard let result = await Offload.run(on: .global(), { Self.smtp(message, target: target, timeout: timeout) }) else {
                throw Failure(description: "cancelled (the gateway is stopping)", permanent: false)
            }
            if let failure = result { throw failure }
        }
    }

    func base(_ t: NotifyTarget) -> String {
        let defaultPort = t.secure ? 443 : 80
        return "\(t.secure ? "https" : "http")://\(t.host)\(t.port == defaultPort ? "" : ":\(t.port)")"
    }

    /// ntfy's headers: `Title`, `Priority`, `Tags`, `Click`, and the token.
    func ntfyHeaders(_ n: Notification, _ t: NotifyTarget) -> [(String, String)] {
        var h: [(String, String)] = [("Title", Self.headerValue(n.title)), ("Priority", String(n.priority)),
                                     ("Tags", n.tags.joined(separator: ",")), ("Content-Type", "text/plain; charset=utf-8"),
                                     ("X-Skygate-Id", n.id)]
        if let url = n.url { h.append(("Click", url)) }
        if let token = t.token { h.append(("Authorization", "Bearer \(token)")) }
        return h
    }

    /// The webhook's headers: JSON, `Idempotency-Key`, and with a secret `X-Skygate-Signature:
    /// sha256=<hex HMAC-SHA256 of the body>`.
    func webhookHeaders(_ n: Notification, _ t: NotifyTarget) throws(Failure) -> [(String, String)] {
        var h = [("Content-Type", "application/json"), ("Idempotency-Key", n.id)]
        if let secret = t.secret {
            guard let signature = Self.hmacSHA256(key: Array(secret.utf8), data: Array(n.json.utf8)) else {
                let why = skygate_hmac_error().map { String(cString: $0) } ?? "unknown"
                throw Failure(description: "cannot sign the webhook: libcrypto is not usable (\(why)): sudo apt-get install libssl3", permanent: false)
            }
            h.append(("X-Skygate-Signature", "sha256=" + Self.hex(signature)))
        }
        return h
    }

    func http(_ t: NotifyTarget, url: String, body: [UInt8], headers: [(String, String)]) async throws(Failure) {
        var client = HTTPClient()
        client.timeout = timeout
        client.retryDelays = []
        client.userAgent = agent
        client.verifyTLS = t.verifyTLS
        client.caFile = t.caFile
        client.maximumBytes = 1 << 20
        do {
            _ = try await client.post(url, body: body, headers: headers)
        } catch {
            let permanent = error.kind == .credentials || (error.kind == .status && (error.status.map { $0 >= 400 && $0 < 500 && $0 != 408 && $0 != 429 } ?? false))
            var reason = error.reason
            if let status = error.status { reason = "HTTP \(status): " + reason }
            if error.status == 401 || error.status == 403 { reason = "HTTP \(error.status ?? 0): the token or password is refused" }
            throw Failure(description: reason, permanent: permanent)
        }
    }

    /// HMAC-SHA256 through libcrypto (nil when it cannot be loaded).
    package static func hmacSHA256(key: [UInt8], data: [UInt8]) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: 32)
        let ok = key.withUnsafeBytes { k in data.withUnsafeBufferPointer { d in
            out.withUnsafeMutableBufferPointer { o in skygate_hmac_sha256(k.baseAddress, Int32(k.count), d.baseAddress, d.count, o.baseAddress) }
        } }
        return ok == 1 ? out : nil
    }

    /// Lower-case hex.
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".unicodeScalars)
        var s = ""
        s.reserveCapacity(bytes.count * 2)
        for b in bytes { s.unicodeScalars.append(digits[Int(b >> 4)]); s.unicodeScalars.append(digits[Int(b & 15)]) }
        return s
    }

    /// A header value: ASCII as it is, else RFC 2047's `=?UTF-8?B?…?=` (ntfy and every mail reader
    /// decode it; raw UTF-8 in a header is not HTTP).
    package static func headerValue(_ s: String) -> String {
        let clean = s.replacingAll("\r", with: " ").replacingAll("\n", with: " ")
        if clean.utf8.allSatisfy({ $0 >= 32 && $0 < 127 }) { return clean }
        return "=?UTF-8?B?" + Base64.encode(Array(clean.utf8)) + "?="
    }

    /// The e-mail: `Date`, `From`, `To`, `Subject`, a `Message-ID` made of the notification's
    /// id, plain text in UTF-8 (base64 when not ASCII), lines ending CRLF.
    package static func mail(_ n: Notification, from: String, to: [String], agent: String) -> [UInt8] {
        var body = n.message
        if let url = n.url { body += "\n\n" + url }
        body += "\n\n-- \nskygate gatewayd · notification \(n.id)\n"
        let ascii = body.utf8.allSatisfy { $0 < 128 }
        var lines = [
            "Date: \(rfc5322Date(n.time))",
            "From: skygate <\(from)>",
            "To: \(to.joined(separator: ", "))",
            "Subject: \(headerValue(n.title))",
            "Message-ID: <\(n.id)@skygate.invalid>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: \(ascii ? "7bit" : "base64")",
            "X-Mailer: \(agent)",
            "X-Skygate-Kind: \(n.kind.rawValue)",
            "X-Skygate-Severity: \(n.severity)",
            "",
        ]
        if ascii {
            lines += body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        } else {
            let encoded = Base64.encode(Array(body.utf8))
            var i = encoded.startIndex
            while i < encoded.endIndex {
                let j = encoded.index(i, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
                lines.append(String(encoded[i..<j]))
                i = j
            }
        }
        return Array(lines.joined(separator: "\r\n").utf8) + Array("\r\n".utf8)
    }

    /// `Sat, 05 Dec 2026 18:05:00 +0000`.
    package static func rfc5322Date(_ t: Double) -> String {
        let seconds = Int64(t.rounded(.down)), days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (y, m, d) = Timestamp.civil(fromDays: days)
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][Int(((days % 7) + 7) % 7)]
        let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][Int(m) - 1]
        let s = seconds - days * 86_400
        return "\(weekday), \(Timestamp.pad(d, 2)) \(month) \(y) \(Timestamp.pad(s / 3600, 2)):\(Timestamp.pad(s / 60 % 60, 2)):\(Timestamp.pad(s % 60, 2)) +0000"
    }

    /// One SMTP transaction through libcurl; nil when the server took the message.
    static func smtp(_ message: [UInt8], target t: NotifyTarget, timeout: Double) -> Failure? {
        guard skygate_curl_load() != 0 else {
            let why = skygate_curl_load_error().map { String(cString: $0) } ?? "not found"
            return Failure(description: "libcurl is not installed (\(why)): sudo apt-get install libcurl4", permanent: false)
        }
        guard let curl = skygate_curl_easy_init() else { return Failure(description: "libcurl did not initialise", permanent: false) }
        defer { skygate_curl_easy_cleanup(curl) }
        let source = MailSource(message)
        let box = Unmanaged.passRetained(source)
        defer { box.release() }
        var recipients: UnsafeMutablePointer<curl_slist>? = nil
        for r in t.to { recipients = skygate_curl_slist_append(recipients, "<\(r)>") }
        defer { skygate_curl_slist_free_all(recipients) }
        let read: skygate_write_callback = { ptr, size, count, user in
            guard let ptr, let user else { return 0 }
            let source = Unmanaged<MailSource>.fromOpaque(user).takeUnretainedValue()
            let n = min(size * count, source.bytes.count - source.offset)
            if n > 0 {
                source.bytes.withUnsafeBytes { b in UnsafeMutableRawPointer(ptr).copyMemory(from: b.baseAddress! + source.offset, byteCount: n) }
                source.offset += n
            }
            return n
        }
        _ = skygate_setopt_string(curl, CURLOPT_URL, "\(t.secure ? "smtps" : "smtp")://\(t.host):\(t.port)")
        _ = skygate_setopt_long(curl, CURLOPT_TIMEOUT_MS, Int(timeout * 1000))
        _ = skygate_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, Int(min(timeout, 10) * 1000))
        _ = skygate_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
        // mailto: STARTTLS when the server offers it; with a password, required (a password is
        // never sent in clear). mailtos: TLS from the first byte.
        if !t.secure { _ = skygate_setopt_long(curl, CURLOPT_USE_SSL, Int(t.password != nil ? CURLUSESSL_ALL.rawValue : CURLUSESSL_TRY.rawValue)) }
        _ = skygate_setopt_long(curl, CURLOPT_SSL_VERIFYPEER, t.verifyTLS ? 1 : 0)
        _ = skygate_setopt_long(curl, CURLOPT_SSL_VERIFYHOST, t.verifyTLS ? 2 : 0)
        if let ca = t.caFile { _ = skygate_setopt_string(curl, CURLOPT_CAINFO, ca) }
        if let user = t.user { _ = skygate_setopt_string(curl, CURLOPT_USERNAME, user) }
        if let password = t.password { _ = skygate_setopt_string(curl, CURLOPT_PASSWORD, password) }
        _ = skygate_setopt_string(curl, CURLOPT_MAIL_FROM, "<\(t.sender)>")
        _ = skygate_setopt_slist(curl, CURLOPT_MAIL_RCPT, recipients)
        _ = skygate_setopt_long(curl, CURLOPT_UPLOAD, 1)
        _ = skygate_setopt_write(curl, CURLOPT_READFUNCTION, read)
        _ = skygate_setopt_pointer(curl, CURLOPT_READDATA, box.toOpaque())
        let code = skygate_curl_easy_perform(curl)
        guard code != CURLE_OK else { return nil }
        var status = 0
        _ = skygate_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status)
        let words = String(cString: skygate_curl_easy_strerror(code)).lowercased()
        switch code {
        case CURLE_LOGIN_DENIED: return Failure(description: "the SMTP server refused the user or password", permanent: true)
        case CURLE_USE_SSL_FAILED: return Failure(description: "the SMTP server does not offer STARTTLS: the password is not sent in clear (use mailtos:// or a relay without credentials)", permanent: true)
        case CURLE_SEND_FAIL_REWIND, CURLE_OPERATION_TIMEDOUT: return Failure(description: "timed out after \(Int(timeout)) s", permanent: false)
        default:
            // 5xx from the server (a refused recipient) is permanent; 4xx (greylisting, busy) is not.
            return Failure(description: "SMTP \(status > 0 ? "\(status): " : "")\(words)", permanent: status >= 500)
        }
    }

    private final class MailSource {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }
}

/// RFC 4648 base64 (headers in RFC 2047 words, mail bodies that are not ASCII).
enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 2 < bytes.count {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [alphabet[Int(v >> 18)], alphabet[Int(v >> 12 & 63)], alphabet[Int(v >> 6 & 63)], alphabet[Int(v & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let v = UInt32(bytes[i]) << 16
            out += [alphabet[Int(v >> 18)], alphabet[Int(v >> 12 & 63)], UInt8(ascii: "="), UInt8(ascii: "=")]
        } else if rest == 2 {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [alphabet[Int(v >> 18)], alphabet[Int(v >> 12 & 63)], alphabet[Int(v >> 6 & 63)], UInt8(ascii: "=")]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
