import Testing
@testable import GatewaySimulation

/// A short flood (the full one is `gatewayd bench --only flood`, 30 s at 50,000 datagrams/s):
/// valid and garbage frames over real UDP; every datagram received is accounted for frame by
/// frame, and the conflict mixed into the flood still raises its warning.
@Suite(.serialized, .timeLimit(.minutes(5))) struct FloodTests {
    @Test func floodIsAccountedForAndAlertsStillWork() throws {
        let report = try Benchmarks.flood(rate: 10_000, seconds: 1)
        #expect(report.sent > 9_000)
        #expect(report.received > 0 && report.received <= report.sent)
        #expect(report.countersAddUp, "\(report.lines)")
        #expect(report.scenarioAlerted)
    }
}
