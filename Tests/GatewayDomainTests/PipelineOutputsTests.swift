import GDL90
import Testing
@testable import GatewaySimulation
@testable import GatewayDomain
@testable import GatewayCaptures

/// The pipeline returns every output it decides, so a driver carries them out without reaching
/// into the core: FIS-B products as they change and the product set on ticks, re-broadcast
/// datagrams with our alert bit, the feeds' snapshot at its rate, and the next tick.
@Suite(.timeLimit(.minutes(5))) struct PipelineOutputsTests {
    @Test func fisbProductsAsTheyChangeAndTheSetOnTicks() {
        var pipeline = GatewayPipeline(outputs: .init(fisb: true))
        let t0 = DemoFlight.start
        var products: [FISBReport] = []
        for (i, payload) in FISBSamples.uplinks().enumerated() {
            let frame = Message.uplink(Uplink(timeOfReception: nil, payload: payload)).frame()
            let out = frame.withUnsafeBytes { pipeline.process(datagram: $0, at: t0 + Double(i)) }
            #expect(out.fisbStore == nil, "the set comes on ticks only")
            products += out.fisbProducts
        }
        #expect(!products.isEmpty)
        // The same products a decoder of those uplinks reports, in the same order.
        let reference = FISBCaptureDecoder.decode(FISBSamples.uplinks().enumerated().map { i, p in
            (t0 + Double(i), Message.uplink(Uplink(timeOfReception: nil, payload: p)).frame())
        })
        #expect(products.map(\.key) == Array(reference.reports.map(\.key).prefix(products.count)))
        let tick = pipeline.process(.tick, at: t0 + 100)
        #expect(tick.fisbStore?.count == pipeline.core.fisb.all.count)
        #expect(tick.fisbNOTAMs.map { $0.allSatisfy(\.kind.isNOTAM) } ?? true)
        #expect(pipeline.process(.tick, at: t0 + 101).fisbStore == nil, "unchanged: not given again")
    }

    @Test func rebroadcastCarriesOurAlertBitAndSnapshotsKeepTheirRate() {
        var pipeline = GatewayPipeline(outputs: .init(rebroadcast: Rebroadcast(), snapshotInterval: 0.25))
        var sawAlertBit = false, snapshots = 0, datagrams = 0
        for d in DemoFlight().datagrams() {
            let out = d.bytes.withUnsafeBytes { pipeline.process(datagram: $0, at: d.time) }
            datagrams += 1
            if out.snapshot != nil { snapshots += 1 }
            #expect(out.nextTick == d.time.rounded(.down) + 1)
            var deframer = Deframer()
            for datagram in out.rebroadcast {
                deframer.feed(datagram) { event in
                    if case .frame(let f) = event, case .traffic(let r)? = try? Message.decode(f.message), r.alertStatus == 1 {
                        // Our bit is set only on a target we alert on.
                        #expect(pipeline.core.trafficAlerts.level(of: TargetKey(address: r.address, type: r.addressType)) != nil)
                        sawAlertBit = true
                    }
                }
            }
            #expect(!out.rebroadcast.isEmpty)
        }
        #expect(sawAlertBit, "the demo flight's conflict is re-broadcast with the alert bit")
        // One datagram a second: every one is at least 0.25 s after the last snapshot.
        #expect(snapshots == datagrams)
        var quiet = GatewayPipeline()
        let d = DemoFlight().datagrams()[0]
        let none = d.bytes.withUnsafeBytes { quiet.process(datagram: $0, at: d.time) }
        #expect(none.snapshot == nil && none.rebroadcast.isEmpty && none.fisbProducts.isEmpty, "nothing asked, nothing made")
    }
}
