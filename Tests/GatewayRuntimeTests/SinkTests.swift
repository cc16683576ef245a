import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures
@testable import GatewayRuntime

/// A sink is one type and one line of wiring (issue 21): this one, a dozen lines, hears every
/// output of a live gateway fed over a real UDP socket, the alert changes encoded once.
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct SinkTests {
    final class CountingSink: GatewaySink, @unchecked Sendable {  // counted under its own lock
        let seen = Locked<(outputs: Int, alerts: [String], finished: Bool)>((0, [], false))
        func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
            seen.withLock { s in
                s.outputs += 1
                s.alerts += alerts.map(\.json)
                #expect(alerts.map(\.event) == outputs.alerts)
            }
        }
        func finish() { seen.withLock { $0.finished = true } }
    }

    @Test func aFakeSinkHearsEveryOutput() throws {
        let sink = CountingSink()
        let gateway = LiveGateway(sinks: [])
        gateway.add(sink)
        try gateway.start(bind: "127.0.0.1", port: 0)
        let capture = try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.pcap").path)
        let sender = try UDPSender(host: "127.0.0.1", port: gateway.port)
        for d in capture.datagrams.prefix(60) { sender.send(d.bytes) }
        _ = eventually(5) { sink.seen.value.outputs >= 60 }
        gateway.stop()
        let seen = sink.seen.value
        #expect(seen.outputs >= 60)  // one a datagram, and one a tick
        #expect(seen.finished)
        // The N99GT taxi target never alerts on the ground; nothing else is near in the first minute.
        #expect(seen.alerts.allSatisfy { !$0.contains("a99999") })
    }

    /// A source is one type and one line of wiring too: this one hands in the demo flight at the
    /// capture's times, from a thread of its own; the fake sink above hears the outputs, and the
    /// alerts are the replay's of the same datagrams (one pipeline for both).
    final class CaptureThreadSource: GatewaySource {
        let datagrams: [CapturedDatagram]
        init(_ datagrams: [CapturedDatagram]) { self.datagrams = datagrams }
        func start(_ inlet: GatewayInlet) throws(GatewayError) {
            let datagrams = self.datagrams
            Thread.detachNewThread { for d in datagrams { inlet.deliver(.datagram(d.bytes), at: d.timestamp) } }
        }
        func stop() {}
    }

    @Test func aFakeSourceFeedsTheSameOnePipeline() throws {
        let capture = try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.pcap").path)
        let flight = capture.datagrams
        let sink = CountingSink()
        let gateway = LiveGateway(sinks: [sink])
        gateway.add(CaptureThreadSource(flight))
        try gateway.start()
        _ = eventually(5) { sink.seen.value.outputs >= flight.count }
        gateway.stop()
        #expect(sink.seen.value.outputs == flight.count)
        var replay = CaptureReplay(pipeline: GatewayPipeline())
        let replayed = flight.flatMap { replay.process($0).alerts }
        #expect(replayed.count >= 2, "the demo flight's traffic conflict")
        #expect(sink.seen.value.alerts == replayed.map { EncodedAlert($0).json })
    }
}
