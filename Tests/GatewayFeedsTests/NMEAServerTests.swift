import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySimulation
@testable import GatewaySupport
@testable import GatewayFeeds
#if canImport(Glibc)
import Glibc
#endif

/// The NMEA server on SwiftNIO's bootstrap keeps its caps: at most `maximumPerAddress` clients
/// from one address (one past it is closed at once and counted), and a stop closes every client.
@Suite(.timeLimit(.minutes(5))) struct NMEAServerTests {
    @Test func perAddressCapAndStop() throws {
        let server = try NMEAServer(address: "127.0.0.1", port: 0, hub: FeedHub(), interval: 0.1)
        var fds: [Int32] = []
        for _ in 0..<(NMEAServer.maximumPerAddress + 2) {
            let fd = HostileBenchmark.connectTCP(server.port, from: "127.0.0.1")
            #expect(fd >= 0)
            fds.append(fd)
        }
        defer { for fd in fds { close(fd) } }
        _ = eventually(10) { server.clientCount == NMEAServer.maximumPerAddress && server.refused == 2 }
        #expect(server.clientCount == NMEAServer.maximumPerAddress)
        #expect(server.refused == 2)
        // Every admitted client gets sentences each interval (an empty picture: GPRMC/GPGGA void).
        #expect(receive(fds[0], within: 10) { !$0.isEmpty }.contains("$"))
        server.stop()
        #expect(server.clientCount == 0)
    }

    @Test func aPortInUseIsAClearError() throws {
        let first = try NMEAServer(address: "127.0.0.1", port: 0, hub: FeedHub())
        defer { first.stop() }
        #expect(throws: GatewayError.socket(what: "cannot listen on NMEA TCP 127.0.0.1:\(first.port)",
                                            reason: "port \(first.port) is already in use (choose another with --nmea-port, 0 disables)")) {
            _ = try NMEAServer(address: "127.0.0.1", port: first.port, hub: FeedHub())
        }
        #expect(throws: GatewayError.self) { _ = try NMEAServer(address: "localhost", port: 0, hub: FeedHub()) }
    }
}
