import GatewaySupport
import CCurl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a fetch failed, in words that name the URL and say what to do.
package struct FetchError: Error, CustomStringConvertible, Equatable {
    /// What kind of failure.
    package enum Kind: String, Sendable, Equatable {
        /// DNS, connection, TLS, reset, timeout.
        case network
        /// An HTTP status that is not success.
        case status
        /// Success, but the body is not what the source promises (HTML bot page, bad JSON, empty).
        case content
        /// Credentials missing or refused.
        case credentials
    }
    /// The kind.
    package var kind: Kind
    /// The URL (without query credentials).
    package var url: String
    /// The HTTP status, when there was one.
    package var status: Int?
    /// The reason.
    package var reason: String
    /// Creates an error.
    package init(_ kind: Kind, url: String, status: Int? = nil, reason: String) {
        self.kind = kind
        self.url = url
        self.status = status
        self.reason = reason
    }
    /// One sentence.
    package var description: String { "\(SecretMasking.url(url)): \(status.map { "HTTP \($0): " } ?? "")\(reason)" }
}

/// An HTTP response.
package struct HTTPResponse: Sendable {
    /// Status code.
    package var status: Int
    /// Headers, names lower-cased.
    package var headers: [String: String]
    /// Body (decompressed).
    package var body: [UInt8]
}

/// HTTP through libcurl, called directly through a small C shim rather than through
/// FoundationNetworking: URLSession on Linux is libcurl underneath anyway, drags in all of
/// Foundation (a bigger binary on the Pi) and has a record of teardown crashes; here each attempt
/// blocks a Dispatch thread (`Offload`, never the cooperative pool) with hard timeouts, and the
/// waits between attempts are `Task.sleep`s, which a shutdown cancels. TLS is verified, proxy variables
/// (`https_proxy`, `no_proxy`, …) are honoured by libcurl, gzip/deflate are accepted, and the
/// User-Agent names us. Retries: after 1 s, 2 s and 4 s on network errors, 429 (honouring
/// `Retry-After`) and 5xx; never on other 4xx.
package struct HTTPClient: Sendable {
    /// Whole-transfer timeout, seconds.
    package var timeout: Double = 10
    /// Delays before each retry; their count is the number of retries.
    package var retryDelays: [Double] = [1, 2, 4]
    /// How to wait between attempts (tests pass a no-op that records).
    package var sleep: @Sendable (Double) async -> Void = { try? await Task.sleep(for: .seconds(min(max(0, $0), 4000))) }  // concurrency: the HTTP client's backoff between attempts, awaited (a shutdown cancels it)
    /// User-Agent header.
    package var userAgent = "skygate-gatewayd/0.1 (+https://github.com/skygate/skygate)"
    /// The largest reply body read, bytes, after decompression (gzip and deflate are accepted):
    /// a larger reply is refused, naming the limit, and not retried. 64 MiB: the largest NOTAM
    /// or weather reply seen is a few megabytes; a 1 MB gzip bomb or an endless body stops here.
    package var maximumBytes = 64 << 20
    /// The longest `Retry-After` waited, seconds: a server asking for longer is not waited for
    /// (the fetch fails at once, saying what it asked), so a command never sits silent for hours.
    package var longestRetryAfter = 60.0
    /// Called before each retry with the attempt number and the reason (progress messages).
    package var onRetry: @Sendable (Int, String) -> Void = { _, _ in }
    /// Check the server's certificate (false: `verify=no` on a notification target, a
    /// self-signed certificate on the LAN).
    package var verifyTLS = true
    /// A CA or self-signed certificate file the server's is checked against, instead of the system's.
    package var caFile: String?

    /// A client with the defaults.
    package init() {}

    /// GET `url` with `headers`, retrying as described.
    package func get(_ url: String, headers: [(String, String)] = []) async throws(FetchError) -> HTTPResponse {
        try await send(url: url, headers: headers, form: nil)
    }

    /// POST `form` (URL-encoded) to `url`, retrying as described.
    package func post(_ url: String, form: [(String, String)], headers: [(String, String)] = []) async throws(FetchError) -> HTTPResponse {
        try await send(url: url, headers: headers, form: form)
    }

    /// POST `body` as it is (its `Content-Type` among `headers`) to `url`, retrying as described.
    package func post(_ url: String, body: [UInt8], headers: [(String, String)] = []) async throws(FetchError) -> HTTPResponse {
        try await send(url: url, headers: headers, form: nil, raw: body)
    }

    /// Most redirects followed.
    static let maximumRedirects = 5

    /// Where a redirect from `url` to `location` goes, and whether the request's own headers
    /// (credentials: `client_id`, `client_secret`, a bearer token) may go with it: only to the same
    /// scheme, host and port. An https → http downgrade is refused (nil).
    static func redirect(from url: String, to location: String) -> (url: String, keepHeaders: Bool)? {
        guard let base = URL(string: url), let target = URL(string: location, relativeTo: base)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "https" || scheme == "http" else { return nil }
        if base.scheme?.lowercased() == "https" && scheme == "http" { return nil }
        let same = scheme == base.scheme?.lowercased() && target.host?.lowercased() == base.host?.lowercased() && target.port == base.port
        return (target.absoluteString, same)
    }

    func send(url: String, headers: [(String, String)], form: [(String, String)]?, raw: [UInt8]? = nil) async throws(FetchError) -> HTTPResponse {
        // A missing libcurl is not a network error to retry.
        guard skygate_curl_load() != 0 else {
            let why = skygate_curl_load_error().map { String(cString: $0) } ?? "not found"
            throw FetchError(.network, url: url, reason: "libcurl is not installed (\(why)): sudo apt-get install libcurl4")
        }
        var attempt = 0
        var url = url, headers = headers, form = form, raw = raw, redirects = 0
        while true {
            let (u, h, f, r) = (url, headers, form, raw)
            guard let result = await Offload.run(on: .global(), { self.once(url: u, headers: h, form: f, raw: r) }) else {
                throw FetchError(.network, url: url, reason: "cancelled (the gateway is stopping)")
            }
            // Redirects are followed here, not by libcurl, which would send our credential headers
            // to whatever host a redirect names.
            if case .success(let r) = result, [301, 302, 303, 307, 308].contains(r.status), let location = r.headers["location"] {
                guard redirects < Self.maximumRedirects, let next = Self.redirect(from: url, to: location) else {
                    throw FetchError(.network, url: url, reason: "redirected to \(location.prefix(200)), which is not followed (too many redirects, or https to http)")
                }
                redirects += 1
                url = next.url
                if !next.keepHeaders { headers = [] }
                if r.status == 303 || ((r.status == 301 || r.status == 302) && (form != nil || raw != nil)) { form = nil; raw = nil }
                continue
            }
            var retryAfter: Double? = nil
            var reason: String
            switch result {
            case .success(let r) where r.status < 400:
                return r
            case .success(let r):
                let snippet = String(decoding: r.body.prefix(200), as: UTF8.self)
                if r.status == 429 {
                    let asked = r.headers["retry-after"].flatMap(Double.init).flatMap { $0.isFinite ? max($0, 0) : nil }
                    if let asked, asked > longestRetryAfter {
                        throw FetchError(.status, url: url, status: r.status,
                                         reason: "rate limited (429): the server asks to wait \(Int(min(asked, 1e9))) s, longer than the \(Int(longestRetryAfter)) s waited; try again later")
                    }
                    retryAfter = asked
                    reason = "rate limited (429)" + (asked.map { ", waiting \(Int($0)) s as the server asks" } ?? "")
                } else if r.status >= 500 {
                    reason = "server error \(r.status)"
                } else {
                    throw FetchError(r.status == 401 || r.status == 403 ? .credentials : .status, url: url, status: r.status,
                                     reason: Self.explain(status: r.status, body: snippet))
                }
                if attempt >= retryDelays.count {
                    throw FetchError(.status, url: url, status: r.status, reason: "\(reason), still after \(attempt + 1) attempts")
                }
            case .failure(let e) where e.kind == .content:
                // Too large: the same reply again would be too large again.
                throw e
            case .failure(let e):
                if attempt >= retryDelays.count {
                    throw FetchError(.network, url: url, reason: "\(e.reason), still after \(attempt + 1) attempts")
                }
                reason = e.reason
            }
            let delay = retryAfter ?? retryDelays[attempt]
            attempt += 1
            onRetry(attempt, reason)
            await sleep(delay)  // concurrency: the HTTP client's backoff between attempts, awaited (a shutdown cancels it)
            if Task.isCancelled { throw FetchError(.network, url: url, reason: "cancelled (the gateway is stopping)") }
        }
    }

    static func explain(status: Int, body: String) -> String {
        let html = body.lowercased().contains("<html") || body.lowercased().contains("<!doctype")
        switch status {
        case 401: return "credentials refused: check FAA_CLIENT_ID and FAA_CLIENT_SECRET"
        case 403 where html: return "refused with an HTML page (the site's bot protection): use the FAA NOTAM API with a key, or another --url"
        case 403: return "forbidden: check the credentials and that the account may use this API"
        case 404: return "not found: check --url"
        default: return "request refused" + (body.isEmpty ? "" : ": " + body.prefix(120))
        }
    }

    /// One attempt, no retry.
    func once(url: String, headers: [(String, String)], form: [(String, String)]?, raw: [UInt8]? = nil) -> Result<HTTPResponse, FetchError> {
        guard skygate_curl_load() != 0 else {
            let why = skygate_curl_load_error().map { String(cString: $0) } ?? "not found"
            return .failure(FetchError(.network, url: url, reason: "libcurl is not installed (\(why)): sudo apt-get install libcurl4"))
        }
        guard let curl = skygate_curl_easy_init() else { return .failure(FetchError(.network, url: url, reason: "libcurl did not initialise")) }
        defer { skygate_curl_easy_cleanup(curl) }
        let sink = Sink()
        sink.limit = maximumBytes
        let box = Unmanaged.passRetained(sink)
        defer { box.release() }
        var list: UnsafeMutablePointer<curl_slist>? = nil
        for (k, v) in headers { list = skygate_curl_slist_append(list, "\(k): \(v)") }
        defer { skygate_curl_slist_free_all(list) }
        let write: skygate_write_callback = { ptr, size, count, user in
            let n = size * count
            guard let ptr, let user else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue()
            guard sink.body.count + n <= sink.limit else {
                sink.overflowed = true
                return 0  // libcurl ends the transfer (CURLE_WRITE_ERROR)
            }
            sink.body.append(contentsOf: UnsafeRawBufferPointer(start: ptr, count: n))
            return n
        }
        let header: skygate_write_callback = { ptr, size, count, user in
            let n = size * count
            guard let ptr, let user else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue()
            let line = String(decoding: UnsafeRawBufferPointer(start: ptr, count: n), as: UTF8.self)
            if line.hasPrefix("HTTP/") { sink.headers = [:] }
            if let colon = line.firstIndex(of: ":") {
                sink.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingWhitespaceAndNewlines()
            }
            return n
        }
        var body = ""
        _ = skygate_setopt_string(curl, CURLOPT_URL, url)
        _ = skygate_setopt_long(curl, CURLOPT_TIMEOUT_MS, Int(timeout * 1000))
        _ = skygate_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, Int(min(timeout, 10) * 1000))
        _ = skygate_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = skygate_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 0)
        _ = skygate_setopt_long(curl, CURLOPT_SSL_VERIFYPEER, verifyTLS ? 1 : 0)
        _ = skygate_setopt_long(curl, CURLOPT_SSL_VERIFYHOST, verifyTLS ? 2 : 0)
        if let caFile { _ = skygate_setopt_string(curl, CURLOPT_CAINFO, caFile) }
        _ = skygate_setopt_string(curl, CURLOPT_ACCEPT_ENCODING, "")
        _ = skygate_setopt_string(curl, CURLOPT_USERAGENT, userAgent)
        _ = skygate_setopt_slist(curl, CURLOPT_HTTPHEADER, list)
        _ = skygate_setopt_write(curl, CURLOPT_WRITEFUNCTION, write)
        _ = skygate_setopt_pointer(curl, CURLOPT_WRITEDATA, box.toOpaque())
        _ = skygate_setopt_write(curl, CURLOPT_HEADERFUNCTION, header)
        _ = skygate_setopt_pointer(curl, CURLOPT_HEADERDATA, box.toOpaque())
        if let form {
            body = form.map { "\(Self.escape($0.0))=\(Self.escape($0.1))" }.joined(separator: "&")
            _ = skygate_setopt_long(curl, CURLOPT_POST, 1)
            _ = skygate_setopt_string(curl, CURLOPT_COPYPOSTFIELDS, body)
        } else if var raw {
            _ = skygate_setopt_long(curl, CURLOPT_POST, 1)
            _ = skygate_setopt_long(curl, CURLOPT_POSTFIELDSIZE, raw.count)
            // COPYPOSTFIELDS copies POSTFIELDSIZE bytes (set first): the body may hold any byte.
            if raw.isEmpty { raw = [0] }
            _ = raw.withUnsafeMutableBytes { skygate_setopt_pointer(curl, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
        }
        let code = skygate_curl_easy_perform(curl)
        if sink.overflowed {
            return .failure(FetchError(.content, url: url, reason: "the reply is larger than \(Self.megabytes(maximumBytes)), the most read (decompressed): not read further"))
        }
        guard code == CURLE_OK else {
            let reason = code == CURLE_OPERATION_TIMEDOUT
                ? "timed out after \(Int(timeout)) s" : String(cString: skygate_curl_easy_strerror(code)).lowercased()
            return .failure(FetchError(.network, url: url, reason: reason))
        }
        var status = 0
        _ = skygate_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status)
        return .success(HTTPResponse(status: status, headers: sink.headers, body: sink.body))
    }

    /// `n` bytes in words: "64 MB", "512 kB".
    static func megabytes(_ n: Int) -> String { n >= 1 << 20 ? "\(n >> 20) MB" : "\(n >> 10) kB" }

    /// Percent-encoding for form values.
    package static func escape(_ s: String) -> String {
        // RFC 3986 unreserved characters stay; every other byte of the UTF-8 is %XX.
        var out = ""
        for b in s.utf8 {
            switch b {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(Unicode.Scalar(hex[Int(b >> 4)])) + String(Unicode.Scalar(hex[Int(b & 15)]))
            }
        }
        return out
    }

    private final class Sink {
        var body: [UInt8] = []
        var headers: [String: String] = [:]
        /// The most body bytes kept (`maximumBytes`), and whether the reply went past it.
        var limit = Int.max
        var overflowed = false
    }
}
