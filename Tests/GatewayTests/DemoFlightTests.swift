import GDL90
import Testing
@testable import TrafficGateway

/// Runs the scripted demo flight through the whole pipeline.
func runDemo(_ datagrams: [DemoFlight.Datagram] = DemoFlight().datagrams()) -> (alerts: [AlertEvent], core: GatewayCore) {
    var pipeline = GatewayPipeline()
    var alerts: [AlertEvent] = []
    for d in datagrams { alerts += pipeline.ingest(d.bytes, at: d.time) }
    alerts += pipeline.finish()
    alerts += pipeline.tick(at: (datagrams.last?.time ?? 0) + 1)
    return (alerts, pipeline.core)
}

@Suite struct DemoFlightTests {
    @Test func printAlerts() {
        let (alerts, core) = runDemo()
        for a in alerts { print(AlertFormatter.json(a)) }
        print(core.counters)
    }
}
