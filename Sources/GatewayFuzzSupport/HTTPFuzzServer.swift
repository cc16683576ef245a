import Foundation
import GDL90
#if canImport(Glibc)
import Glibc
import GatewayDomain
import GatewayFeeds
#endif

/// The real feeds server on loopback for the `http` fuzz target: raw bytes go to it as a request
/// over TCP (the write side then closed), the reply is read, and the server must still answer
/// `/healthz` afterwards. One server per process, started on first use.
enum HTTPFuzzServer {
    static let shared: (server: FeedServer, port: UInt16, hub: FeedHub)? = {
        let hub = FeedHub(now: Date().timeIntervalSince1970)
        var pipeline = GatewayPipeline()
        _ = pipeline.process(FuzzTarget.traffic(TrafficReport(address: 0xABCDEF, position: Position(latitude: 45, longitude: -123),
                                                              pressureAltitudeFt: 3000, groundSpeedKt: 100, verticalSpeedFpm: 0, trackDeg: 90)), at: 1)
        hub.publish(pipeline.core.snapshot(at: 1))
        let server = FeedServer(hub: hub)
        do { try server.start(host: "127.0.0.1", port: 0) } catch { return nil }
        return (server, UInt16(server.port), hub)
    }()

    /// Sends `bytes` as one connection's whole input; returns the reply (at most `seconds` of
    /// waiting for each read) and the `errno` that ended it early (0 when the server closed).
    ///
    /// A signal interrupts these calls with EINTR even under SA_RESTART, because the socket has
    /// timeouts (signal(7)), and libFuzzer's `-timeout` watchdog raises SIGALRM every few
    /// seconds: each call is retried on EINTR, else a health check that landed on the alarm read
    /// as a server that stopped answering (CI failed on this twice).
    @discardableResult
    static func exchange(_ bytes: [UInt8], port: UInt16, seconds: Int = 1) -> (reply: [UInt8], errno: Int32) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return ([], errno) }
        defer { close(fd) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        // An interrupted connect goes on in the background: wait until the socket is writable.
        if ok != 0 {
            guard errno == EINTR else { return ([], errno) }
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            var error: Int32 = 0, length = socklen_t(MemoryLayout<Int32>.size)
            while poll(&p, 1, Int32(seconds * 1000)) < 0, errno == EINTR {}
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0, p.revents & Int16(POLLOUT) != 0 else {
                return ([], error != 0 ? error : ETIMEDOUT)
            }
        }
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }  // the server closed on a bad request: its reply is still read below
            sent += n
        }
        _ = shutdown(fd, Int32(SHUT_WR))
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while reply.count < 1 << 20 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            if n < 0 { return (reply, errno) }
            if n == 0 { break }
            reply += buffer[0..<n]
        }
        return (reply, 0)
    }

    /// Runs one fuzz input: the request, then a health check that must succeed.
    static func run(_ data: [UInt8]) {
        guard let (server, port, hub) = shared else { preconditionFailure("the fuzz server did not start") }
        exchange(data, port: port)
        // An input that opened `/alerts` left a stream the client has closed: the live gateway's
        // tick finds such streams with a keep-alive write (every 10 s); here, after every input,
        // or they pile up to the per-address cap and the health check below is refused.
        hub.keepAlive()
        // 5 s: a sanitizer build on a busy 2-core machine can pause for over a second (a CI run
        // once failed here at 1 s on an input that answers in milliseconds); a hung server still fails.
        let health = exchange(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8), port: port, seconds: 5)
        guard health.reply.starts(with: Array("HTTP/1.1 ".utf8)) else {
            let open = server.perAddress.open("127.0.0.1")
            preconditionFailure("""
                the server stopped answering after a fuzz input: health check got \(health.reply.count) bytes, \
                errno \(health.errno) (\(String(cString: strerror(health.errno)))), \(open.address) connections open from \
                127.0.0.1 (\(open.total) in all), \(server.perAddress.refused) refused so far
                """)
        }
    }
}
