import Foundation
import Synchronization

/// A real HTTP/1.1 server on loopback for tests: answers each request with the next scripted
/// reply (or never answers, for timeouts: the connection is held open until `stop`) and records
/// what was asked.
package final class TestHTTPServer: @unchecked Sendable {
    package enum Reply: Sendable {
        case respond(status: Int, headers: [String: String] = [:], body: String)
        case hang
    }

    package let port: UInt16
    private let fd: Int32
    private let replies: Mutex<[Reply]>
    package let requests = Mutex<[String]>([])
    private let stopped = Mutex(false)
    /// Connections never answered (`.hang`), closed by `stop`.
    private let held = Mutex<[Int32]>([])

    package init(_ replies: [Reply]) throws {
        self.replies = Mutex(replies)
        (fd, port) = loopbackListener()
        Thread { [self] in self.serve() }.start()
    }

    package var base: String { "http://127.0.0.1:\(port)" }

    private func serve() {
        while !stopped.withLock({ $0 }) {
            let c = accept(fd, nil, nil)
            if c < 0 { return }
            var data = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 65536)
            // Read the head, then the body by Content-Length.
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(c, $0.baseAddress, $0.count, 0) }
                if n <= 0 { break }
                data += buffer[0..<n]
                let text = String(decoding: data, as: UTF8.self)
                if let headEnd = text.range(of: "\r\n\r\n") {
                    let head = text[..<headEnd.lowerBound].lowercased()
                    let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                        .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                    if text.utf8.count - text.utf8.distance(from: text.startIndex, to: headEnd.upperBound) >= length { break }
                }
            }
            requests.withLock { $0.append(String(decoding: data, as: UTF8.self)) }
            let reply = replies.withLock { $0.isEmpty ? Reply.respond(status: 500, body: "no more scripted replies") : $0.removeFirst() }
            switch reply {
            case .hang:
                held.withLock { h in if stopped.withLock({ $0 }) { close(c) } else { h.append(c) } }
            case .respond(let status, let headers, let body):
                var head = "HTTP/1.1 \(status) X\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n"
                for (k, v) in headers { head += "\(k): \(v)\r\n" }
                let bytes = Array((head + "\r\n" + body).utf8)
                _ = bytes.withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(c)
            }
        }
    }

    package func stop() {
        stopped.withLock { $0 = true }
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
        for c in held.withLock({ h -> [Int32] in defer { h = [] }; return h }) { close(c) }
    }
}

/// A TCP socket listening on 127.0.0.1 on a free port: its descriptor and the port.
package func loopbackListener(backlog: Int32 = 16) -> (fd: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr)
    _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    listen(fd, backlog)
    var bound = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return (fd, UInt16(bigEndian: bound.sin_port))
}
