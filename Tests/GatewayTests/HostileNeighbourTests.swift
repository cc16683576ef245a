import Dispatch
import Foundation
import Hummingbird
import Testing
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayFeeds
import GatewayHTTP
@testable import GatewayRuntime

/// Issue 27, items 5–7, 9, 11, 12: one client must not starve the others, and what the
/// configuration check accepts is what `run` binds.
@Suite(.timeLimit(.minutes(5))) struct HostileNeighbourTests {
    /// Item 7: ten bad attempts a minute from a neighbour lock out that neighbour, not the pilot.
    @Test func acknowledgementLimitIsPerAddress() {
        let gate = AcknowledgementGate(token: "s3cret", perMinute: 10)
        for i in 0..<10 {
            #expect(gate.check(authorization: "Bearer guess\(i)", origin: nil, host: nil, client: "192.168.10.66", now: Double(i)) == .unauthorized)
        }
        #expect(gate.check(authorization: "Bearer s3cret", origin: nil, host: nil, client: "192.168.10.66", now: 10) == .tooMany)
        #expect(gate.check(authorization: "Bearer s3cret", origin: nil, host: nil, client: "192.168.10.2", now: 10) == .allowed)
        // A minute later the neighbour may try again.
        #expect(gate.check(authorization: "Bearer s3cret", origin: nil, host: nil, client: "192.168.10.66", now: 70) == .allowed)
    }

    /// The table of clients stays bounded however many addresses try.
    @Test func acknowledgementClientsAreBounded() {
        let gate = AcknowledgementGate(token: "s3cret", perMinute: 1)
        for i in 0..<5_000 { _ = gate.check(authorization: nil, origin: nil, host: nil, client: "10.0.\(i / 256).\(i % 256)", now: 1) }
        #expect(gate.check(authorization: "Bearer s3cret", origin: nil, host: nil, client: "192.168.10.2", now: 2) == .allowed)
    }

    /// Item 6: 17 addresses with 31 idle connections each filled the 512; now the last 64 are
    /// kept for addresses holding none.
    @Test func lastSlotsAreKeptForNewAddresses() {
        let table = ConnectionsPerAddress(limit: 32, capacity: 512, reserved: 64)
        var held = 0
        for a in 0..<17 { for _ in 0..<31 where table.acquire("10.0.0.\(a)") { held += 1 } }
        // Holders stop at 448; the two addresses still holding none then get their first each.
        #expect(held == 450)
        #expect(table.refused == 17 * 31 - 450)
        // A health check from an 18th address gets in, and so do the newcomers after it.
        #expect(table.acquire("10.0.0.200"))
        for a in 0..<61 { #expect(table.acquire("10.0.1.\(a)")) }
        // A holder's connection closing makes room for a holder again only below the reserve.
        table.release("10.0.0.0")
        #expect(!table.acquire("10.0.0.1"))
    }

    /// Item 5: a slow handler (a large NOTAM query) waits on the heavy queue, so a quick one
    /// (`/healthz`) on the server's executor is answered meanwhile (one serial queue held them all).
    @Test func quickHandlersDoNotWaitBehindASlowOne() async throws {
        let release = DispatchSemaphore(value: 0)
        let slow = Task(executorPreference: QueueExecutor.shared) {
            await FeedServer.heavy { release.wait(); return Response(status: .ok) }
        }
        let started = ContinuousClock.now
        let fast = Task(executorPreference: QueueExecutor.shared) { ContinuousClock.now }
        let answered = await fast.value
        release.signal()
        #expect(await slow.value.status == .ok)
        #expect(answered - started < .seconds(5))
    }

    /// Item 9: a token of spaces is refused by the check (the page would offer acknowledgement
    /// and every attempt would fail).
    @Test func whitespaceTokensAreRefused() {
        for key in ["ack_token", "token"] {
            #expect(throws: ConfigError.self) { try GatewayConfig.parse("[feeds]\n\(key) = \"  \"\n", file: "g.toml") }
        }
        #expect((try? GatewayConfig.parse("[feeds]\nack_token = \"s3 cret\"\n", file: "g.toml"))?.ackToken == "s3 cret")
    }

    /// Item 12: the check and `run` share one address parser.
    @Test func addressesCheckedAsTheSocketsTakeThem() throws {
        for bad in ["+192.168.10.1", "192.168.010.001", "192.168.10", "1.2.3.4.5", " 127.0.0.1", "256.1.1.1"] {
            #expect(throws: ConfigError.self, "\(bad)") { try GatewayConfig.parse("[input]\naccept_from = [\"\(bad)\"]\n", file: "g.toml") }
            #expect(throws: ConfigError.self, "\(bad)") { try GatewayConfig.parse("[feeds]\nhttp_bind = \"\(bad)\"\n", file: "g.toml") }
            #expect(!IPv4Socket.isAddress(bad))
        }
        let c = try GatewayConfig.parse("[input]\naccept_from = [\"192.168.10.1\", \"0.0.0.0\"]\n", file: "g.toml")
        #expect(c.acceptFrom == ["192.168.10.1", "0.0.0.0"])
    }

    /// Item 11: control characters from outside never reach the terminal or the journal.
    @Test func logLinesAndAlertLinesAreEscaped() {
        let lines = Locked<[String]>([])
        let console = GatewayConsole(alerts: { _ in }, info: { l in lines.withLock { $0.append(l) } },
                                     warning: { _ in }, error: { _ in })
        console.info("gatewayd: x\ngatewayd: stopping on SIGTERM\u{1B}[2J acknowledged")
        #expect(lines.value == ["gatewayd: x\\u{A}gatewayd: stopping on SIGTERM\\u{1B}[2J acknowledged"])
        let line = AlertFormatter.humanLine(time: 0, level: "warning", change: "raised", message: "Inside TFR \u{1B}[31mX\u{0}", colour: false)
        #expect(line.hasSuffix("Inside TFR \\u{1B}[31mX\\u{0}"))
    }
}
