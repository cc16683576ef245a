import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayFeeds
@testable import GatewayFleet
@testable import GatewayRuntime

/// The club's ground station following its gliders through OGN (`gatewayd fleet --ogn`,
/// `[fleet] ogn_ids`): a club glider's beacons put it on `/api/fleet` by its registration; a
/// no-tracking or stealth one, or an aircraft not the club's, never appears.
@Suite(.serialized, .timeLimit(.minutes(5)), .tags(.process), .slow) struct FleetOGNTests {
    static let beacons = """
    # aprsc test\r
    FLRDDA001>OGFLR,qAS,Club:/120000h4701.20N/01100.00E'180/055/A=004500 !W00! id06DDA001 +250fpm +2.5rot 10.0dB 0e +0.1kHz\r
    FLRDDA002>OGFLR,qAS,Club:/120000h4701.00N/01100.50E'270/050/A=004300 !W00! id46DDA002 +100fpm +0.0rot 10.0dB 0e +0.1kHz\r
    FLRDDA003>OGFLR,qAS,Club:/120000h4702.00N/01101.00E'090/060/A=004000 !W00! id06DDA003 +000fpm +0.0rot 10.0dB 0e +0.1kHz\r
    FLRDDA004>OGFLR,qAS,Club:/120000h4702.50N/01101.50E'090/060/A=004000 !W00! id86DDA004 +000fpm +0.0rot 10.0dB 0e +0.1kHz\r

    """

    /// A port nothing listens on (bound, then closed).
    static func freePort() -> UInt16 {
        let (fd, port) = loopbackListener()
        close(fd)
        return port
    }

    @Test(.ownThread) func theClubsGlidersJoinTheFleetFromOGNAlone() async throws {
        guard let executable = gatewaydExecutable() else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-fleet-ogn-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/gatewayd.toml"
        try "[fleet]\nogn_ids = [\"DDA001=D-KABC\", \"dda002 = D-KXYZ\", \"DDA004=D-KSTL\"]\n".write(toFile: config, atomically: true, encoding: .utf8)
        let server = TestAPRSServer([(text: Self.beacons, close: false)])
        defer { server.stop() }
        let http = Self.freePort(), broker = Self.freePort()
        let process = Process()
        process.executableURL = executable
        // The club's broker is down: the station still follows OGN and serves the page.
        process.arguments = ["fleet", "--broker", "mqtt://127.0.0.1:\(broker)", "--ogn", "127.0.0.1:\(server.port)", "--config", config,
                             "--http-port", "\(http)", "--http-bind", "127.0.0.1", "--database", directory + "/fleet.sqlite"]
        process.standardError = Pipe()
        process.standardOutput = Pipe()
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            process.waitUntilExit()
        }
        var fleet: [String: Any] = [:]
        try await eventually(30) {
            guard let body = try? HTTPConnection.get("http://127.0.0.1:\(http)/api/fleet").body, body.contains("D-KABC"),
                  let o = JSONReader.object(Array(body.utf8)) else { return false }
            fleet = o
            return true
        }
        let login = server.logins.withLock { $0 }.first ?? ""
        #expect(login.hasPrefix("user NOCALL pass -1 vers skygate"))
        let gateways = fleet["gateways"] as? [[String: Any]] ?? []
        #expect(gateways.map { $0["id"] as? String } == ["D-KABC"], "only the club's glider that may be tracked: \(gateways)")
        let glider = try #require(gateways.first)
        #expect(glider["ogn"] as? String == "DDA001")
        #expect(glider["online"] as? Bool == true)
        let ownship = try #require(glider["ownship"] as? [String: Any])
        #expect(abs((ownship["lat"] as? Double ?? 0) - 47.02) < 0.0001 && abs((ownship["lon"] as? Double ?? 0) - 11) < 0.0001)
        #expect(ownship["altitudeFt"] as? Double == 4500 && ownship["trackDeg"] as? Double == 180 && ownship["groundSpeedKt"] as? Double == 55)
        #expect(ownship["source"] as? String == "ogn" && ownship["aircraftType"] as? String == "glider")
        let body = try HTTPConnection.get("http://127.0.0.1:\(http)/api/fleet").body
        for hidden in ["DDA002", "D-KXYZ", "DDA003", "DDA004", "D-KSTL"] { #expect(!body.contains(hidden), "\(hidden) is on /api/fleet") }
    }

    /// `config check` names the bad entry of `[fleet] ogn_ids` and says what it should be.
    @Test func aBadEntryIsNamed() throws {
        for (entry, says) in [("DD12=D-KABC", "'DD12' is not a FLARM id"), ("DD1234", "has no '='"), ("DD1234=D KABC", "cannot name an aircraft")] {
            do {
                _ = try GatewayConfig.parse("[fleet]\nogn_ids = [\"3F0A21=LS4\", \"\(entry)\"]\n", file: "g.toml")
                Issue.record("\(entry) should be refused")
            } catch {
                #expect("\(error)".contains("g.toml:2: 'ogn_ids' in [fleet]: \"\(entry)\"") && "\(error)".contains(says), "\(error)")
            }
        }
        let c = try GatewayConfig.parse("[fleet]\nogn_ids = [\"3f0a21 = LS4\"]\n", file: "g.toml")
        #expect(c.fleetOGNGliders == [ClubGlider(id: 0x3F0A21, registration: "LS4")])
    }
}
