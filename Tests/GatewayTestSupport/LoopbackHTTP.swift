import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import GatewaySimulation

// Plain HTTP over loopback, as a client that reads to the close (the suites that ask a running
// server or gateway for its API: the cockpit's, the radar's, the SBS source's).

/// A whole HTTP/1.1 request over loopback (`Connection: close`): status code, raw head, body.
package func loopbackRequest(_ port: Int, _ method: String, _ path: String, headers: [String: String] = [:]) -> (status: Int, head: String, body: String) {
    let fd = HostileBenchmark.connectTCP(UInt16(port), from: "127.0.0.1", timeout: 10)
    guard fd >= 0 else { return (0, "", "") }
    defer { close(fd) }
    var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\nContent-Length: 0\r\n"
    for (k, v) in headers { text += "\(k): \(v)\r\n" }
    text += "\r\n"
    _ = text.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    var data = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { break }
        data += buffer[0..<n]
    }
    let all = String(decoding: data, as: UTF8.self)
    guard let split = all.range(of: "\r\n\r\n") else { return (0, all, "") }
    let head = String(all[..<split.lowerBound])
    let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
    var body = String(all[split.upperBound...])
    if head.lowercased().contains("transfer-encoding: chunked") {
        // De-chunk: size line, data, CRLF.
        var out = "", rest = Substring(body)
        while let line = rest.range(of: "\r\n"), let size = Int(rest[..<line.lowerBound], radix: 16), size > 0 {
            let start = line.upperBound
            let bytes = Array(rest[start...].utf8)
            out += String(decoding: bytes.prefix(size), as: UTF8.self)
            rest = Substring(String(decoding: bytes.dropFirst(size + 2), as: UTF8.self))
        }
        body = out
    }
    return (status, head, body)
}

/// `GET path` over loopback (other suites' way to read a running gateway's API).
package func loopbackGET(_ port: Int, _ path: String) -> (status: Int, head: String, body: String) { loopbackRequest(port, "GET", path) }
