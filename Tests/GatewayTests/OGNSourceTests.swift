import Foundation
import GDL90
import Synchronization
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures
@testable import GatewayRuntime

/// An APRS-IS-like server on loopback: each connection's first line (the login) is kept, then
/// the next scripted text is sent, and the connection kept open or closed.
final class TestAPRSServer: @unchecked Sendable {
    let port: UInt16
    private let fd: Int32
    private let scripts: Mutex<[(text: String, close: Bool)]>
    let logins = Mutex<[String]>([])
    /// Lines the client sent after its login (keep-alives, filters), all connections.
    let sent = Mutex<[String]>([])
    private let open = Mutex<[Int32]>([])

    init(_ scripts: [(text: String, close: Bool)]) {
        self.scripts = Mutex(scripts)
        (fd, port) = loopbackListener(backlog: 8)
        Thread { [self] in self.serve() }.start()
    }

    private func readLine(_ c: Int32) -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while recv(c, &byte, 1, 0) == 1 {
            if byte == 0x0A { return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
            line.append(byte)
        }
        return nil
    }

    private func serve() {
        while true {
            let c = accept(fd, nil, nil)
            if c < 0 { close(fd); return }
            let login = readLine(c) ?? ""
            logins.withLock { $0.append(login) }
            let script = scripts.withLock { $0.isEmpty ? (text: "", close: false) : $0.removeFirst() }
            let bytes = Array(script.text.utf8)
            var done = 0
            while done < bytes.count {
                let n = bytes[done...].withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                done += n
            }
            if script.close {
                close(c)
            } else {
                open.withLock { $0.append(c) }
                Thread { [self] in
                    while let line = self.readLine(c) { self.sent.withLock { $0.append(line) } }
                }.start()
            }
        }
    }

    /// Connections kept open now.
    var openConnections: Int { open.withLock { $0.count } }

    /// Sends `text` on every connection kept open (a feed going on after the login's script).
    func push(_ text: String) {
        let bytes = Array(text.utf8)
        for c in open.withLock({ $0 }) {
            var done = 0
            while done < bytes.count {
                let n = bytes[done...].withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                done += n
            }
        }
    }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        for c in open.withLock({ $0 }) { shutdown(c, Int32(SHUT_RDWR)); close(c) }
    }
}

@Suite(.timeLimit(.minutes(5)), .tags(.process), .slow) struct OGNSourceTests {
    static let beacons = """
    # aprsc 2.1.14-g5e22b37 26 May 2026 10:00:00 GMT GLIDERN1 127.0.0.1:14580\r
    FLRDD89C9>OGFLR,qAS,LIDH:/115054h4543.22N/01132.84E'260/072/A=002542 !W10! id06DD89C9 +198fpm -0.8rot 7.0dB 0e +0.7kHz gps2x3\r
    LILH>OGNSDR,TCPIP*,qAC,GLIDERN2:/132201h4457.61NI00900.58E&/A=000423\r
    not an APRS line at all\r
    ICA4B0E3A>APRS,qAS,Letzi:/165319h4711.75N\\00802.59E^327/149/A=006498 id154B0E3A -3959fpm +0.5rot 9.0dB 0e -6.3kHz gps1x3\r

    """

    /// Login line and filter, the server's comment answered, the receiver skipped, garbage
    /// counted, the beacons handed on; the connection lost, said once, and made again.
    @Test func logsInReadsAndReconnects() async throws {
        let server = TestAPRSServer([(text: Self.beacons, close: true), (text: Self.beacons, close: false)])
        defer { server.stop() }
        let got = Mutex<[OGNBeacon]>([])
        let said = Mutex<[String]>([])
        let client = OGNClient(host: "127.0.0.1", port: server.port, rangeKm: 100, position: { Position(latitude: 45.5, longitude: 11.25) },
                               clock: { 1_800_000_000 }, onBeacons: { b, _ in got.withLock { $0 += b } }, onStatus: { status, tell in
            if tell { said.withLock { $0.append(status.connected ? "connected" : status.reason ?? "") } }
        })
        client.start()
        defer { client.stop() }
        try await eventually(20) { got.withLock { $0.count } >= 4 }
        let logins = server.logins.withLock { $0 }
        #expect(logins.count == 2)
        #expect(logins.allSatisfy { $0 == "user NOCALL pass -1 vers skygate \(GatewayVersion.current) filter r/45.5/11.25/100" })
        let beacons = got.withLock { $0 }
        #expect(beacons.map(\.address) == [0xDD89C9, 0x4B0E3A, 0xDD89C9, 0x4B0E3A])
        let status = client.status
        #expect(status.connected && status.beacons == 4 && status.skipped == 2 && status.wrongLines == 2)
        #expect(status.lastWrong?.contains("not an APRS line") == true)
        // The comment is answered with a keep-alive on the connection kept open.
        try await eventually(10) { server.sent.withLock { $0 }.contains("#keepalive") }
        #expect(said.withLock { $0 } == ["connected", "OGN 127.0.0.1:\(server.port) closed the connection", "connected"])
    }

    /// Nothing listening: one line naming the server and what it should be, then quiet retries.
    @Test func anAbsentServerIsSaidOnce() async throws {
        let server = TestAPRSServer([])
        let port = server.port
        server.stop()
        let said = Mutex<[String]>([])
        let attempts = Mutex(0)
        let client = OGNClient(host: "127.0.0.1", port: port, clock: { 0 }, onBeacons: { _, _ in }, onStatus: { status, tell in
            attempts.withLock { $0 += 1 }
            if tell { said.withLock { $0.append(status.reason ?? "connected") } }
        })
        client.start()
        try await eventually(15) { attempts.withLock { $0 } >= 2 }
        client.stop()
        let lines = said.withLock { $0 }
        #expect(lines.count == 1 && lines.first?.contains("OGN 127.0.0.1:\(port)") == true && lines.first?.contains("APRS-IS") == true)
    }

    /// A line over 4 kB is dropped and counted; the beacon after it is read.
    @Test func anOverlongLineIsDropped() async throws {
        let text = String(repeating: "x", count: 6000) + "\r\n" + Self.beacons
        let server = TestAPRSServer([(text: text, close: false)])
        defer { server.stop() }
        let got = Mutex(0)
        let client = OGNClient(host: "127.0.0.1", port: server.port, clock: { 0 }, onBeacons: { b, _ in got.withLock { $0 += b.count } })
        client.start()
        defer { client.stop() }
        try await eventually(15) { got.withLock { $0 } >= 2 }
        #expect(client.status.wrongLines == 2 && server.logins.withLock { $0 } == ["user NOCALL pass -1 vers skygate \(GatewayVersion.current)"])
    }
}
