import GatewaySupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A minimal blocking HTTP/1.1 client over a TCP socket, for `gatewayd tail` (an SSE stream
/// that may run for hours) and for reading the feeds in tests: plain http:// only, GET only,
/// Content-Length and chunked bodies. Not a general client: NOTAM fetching uses libcurl.
package struct HTTPConnection {
    /// A parsed `http://host[:port]/path` URL.
    package struct Target: Sendable, Equatable {
        /// Host name or address.
        package var host: String
        /// Port (80 when absent).
        package var port: UInt16
        /// Path with query ("/" when absent).
        package var path: String

        /// Parses `url`, or nil when it is not http://.
        package init?(_ url: String) {
            guard url.hasPrefix("http://") else { return nil }
            let rest = url.dropFirst(7)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            let authority = rest[..<slash]
            path = slash == rest.endIndex ? "/" : String(rest[slash...])
            guard let endpoint = HostPort(String(authority), defaultPort: 80) else { return nil }
            host = endpoint.host
            port = endpoint.port
        }
    }

    /// What went wrong, in words.
    package struct Failure: Error, CustomStringConvertible {
        /// The sentence.
        package var description: String
        /// Creates a failure.
        package init(description: String) { self.description = description }
    }

    private let fd: Int32
    private var pending: [UInt8] = []
    private var chunked = false
    private var chunkLeft = 0
    private var bodyLeft: Int? = nil
    /// Response status code.
    package private(set) var status = 0
    /// Response headers, names lower-cased.
    package private(set) var headers: [String: String] = [:]

    /// Connects, sends `GET path` (with `headers`) and reads the status line and headers.
    package init(_ target: Target, timeout: Double = 10, sending extraHeaders: [(String, String)] = []) throws(Failure) {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(target.host, String(target.port), &hints, &result) == 0, let info = result else {
            throw Failure(description: "cannot resolve \(target.host)")
        }
        defer { freeaddrinfo(result) }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw Failure(description: "cannot connect to \(target.host):\(target.port): \(reason)")
        }
        self.fd = fd
        let extra = extraHeaders.map { "\($0.0): \($0.1)\r\n" }.joined()
        let request = "GET \(target.path) HTTP/1.1\r\nHost: \(target.host):\(target.port)\r\nUser-Agent: gatewayd\r\nAccept: */*\r\n\(extra)\r\n"
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            Glibc.close(fd)
            throw Failure(description: "cannot send the request to \(target.host):\(target.port)")
        }
        // Status line and headers.
        guard let statusLine = try readLine() else { throw Failure(description: "the server closed the connection without answering") }
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let code = Int(parts[1]) else {
            throw Failure(description: "not an HTTP response: \(statusLine.prefix(60))")
        }
        status = code
        while let line = try readLine(), !line.isEmpty {
            if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                headers[name] = line[line.index(after: colon)...].trimmingWhitespace()
            }
        }
        chunked = headers["transfer-encoding"]?.lowercased().contains("chunked") ?? false
        if !chunked, let length = headers["content-length"].flatMap(Int.init) { bodyLeft = length }
    }

    /// Closes the connection.
    package func close() { Glibc.close(fd) }

    /// Sets a receive timeout (seconds; 0: none) for later reads.
    package func setReadTimeout(_ seconds: Double) {
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1e6))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// More raw bytes from the socket into `pending`; false at end of stream.
    private mutating func fill() throws(Failure) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK { throw Failure(description: "timed out waiting for the server") }
            throw Failure(description: String(cString: strerror(errno)))
        }
        if n == 0 { return false }
        pending += buffer[0..<n]
        return true
    }

    /// One raw line (CR LF or LF ended), nil at end of stream.
    private mutating func readLine() throws(Failure) -> String? {
        while true {
            if let lf = pending.firstIndex(of: 0x0A) {
                var line = Array(pending[..<lf])
                if line.last == 0x0D { line.removeLast() }
                pending.removeSubrange(...lf)
                return String(decoding: line, as: UTF8.self)
            }
            if try !fill() { return nil }
        }
    }

    /// The next piece of the body (de-chunked), nil at its end.
    package mutating func readBody() throws(Failure) -> [UInt8]? {
        if chunked {
            if chunkLeft == 0 {
                guard let sizeLine = try readLine() else { return nil }
                let size = Int(sizeLine.split(separator: ";").first.map(String.init)?.trimmingWhitespace() ?? "", radix: 16)
                guard let size else { throw Failure(description: "bad chunk size \(sizeLine.prefix(20))") }
                if size == 0 { return nil }
                chunkLeft = size
            }
            if pending.isEmpty, try !fill() { return nil }
            let take = min(chunkLeft, pending.count)
            let piece = Array(pending[..<take])
            pending.removeFirst(take)
            chunkLeft -= take
            if chunkLeft == 0 { _ = try readLine() }  // the CR LF after the chunk
            return piece
        }
        if let left = bodyLeft {
            if left == 0 { return nil }
            if pending.isEmpty, try !fill() { return nil }
            let take = min(left, pending.count)
            let piece = Array(pending[..<take])
            pending.removeFirst(take)
            bodyLeft = left - take
            return piece
        }
        if pending.isEmpty, try !fill() { return nil }
        defer { pending = [] }
        return pending
    }

    /// The whole body.
    package mutating func readAll() throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        while let piece = try readBody() { out += piece }
        return out
    }

    /// GETs `url` and returns status, headers and body (for tests and one-shot reads).
    package static func get(_ url: String, timeout: Double = 10) throws(Failure) -> (status: Int, headers: [String: String], body: String) {
        guard let target = Target(url) else { throw Failure(description: "\(url) is not an http:// URL") }
        var c = try HTTPConnection(target, timeout: timeout)
        defer { c.close() }
        c.setReadTimeout(timeout)
        let body = try c.readAll()
        return (c.status, c.headers, String(decoding: body, as: UTF8.self))
    }
}

/// Splits a Server-Sent Events byte stream into events' data (lines joined by "\n").
package struct SSEParser: Sendable {
    private var line: [UInt8] = []
    private var data: [String] = []
    private var idBuffer: String?
    /// The last event id the stream gave (its `id:` lines, taken when an event ends, even one
    /// without data): what a reconnecting client sends as `Last-Event-ID`.
    package private(set) var lastEventID: String?

    /// Creates a parser, resuming after `lastEventID` when given.
    package init(lastEventID: String? = nil) {
        self.lastEventID = lastEventID
        idBuffer = lastEventID
    }

    /// Feeds bytes; returns the data of every event completed by them.
    package mutating func feed(_ bytes: [UInt8]) -> [String] {
        feedEvents(bytes).map(\.data)
    }

    /// Feeds bytes; returns every event completed by them with its id (the last one given).
    package mutating func feedEvents(_ bytes: [UInt8]) -> [(id: String?, data: String)] {
        var events: [(id: String?, data: String)] = []
        for b in bytes {
            if b == 0x0A {
                if line.last == 0x0D { line.removeLast() }
                if line.isEmpty {
                    lastEventID = idBuffer
                    if !data.isEmpty { events.append((idBuffer, data.joined(separator: "\n"))) }
                    data = []
                } else if line.starts(with: Array("data:".utf8)) {
                    var value = Array(line.dropFirst(5))
                    if value.first == 0x20 { value.removeFirst() }
                    data.append(String(decoding: value, as: UTF8.self))
                } else if line.starts(with: Array("id:".utf8)) {
                    var value = Array(line.dropFirst(3))
                    if value.first == 0x20 { value.removeFirst() }
                    // An id with NUL is ignored (the SSE rules).
                    if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
                }
                line = []
            } else {
                line.append(b)
            }
        }
        return events
    }
}
