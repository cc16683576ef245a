import GatewayDomain
import GDL90

/// FIS-B products of datagrams, as a library function over the one pipeline (`GatewayPipeline`
/// with FIS-B outputs, what `gatewayd fisb` runs through `CaptureReplay`): each product is
/// reported when it is complete and whenever it changes. Datagrams without a time are dated
/// `fallbackTime`, or the time of the last one that had one.
package struct FISBCaptureDecoder: Sendable {
    private var pipeline: GatewayPipeline
    private var lastTime: Double

    /// The product store.
    package var store: FISBProductStore { pipeline.core.fisb }
    /// GDL90 frames rejected by the deframer or the message decoder.
    package var rejectedFrames: Int { pipeline.core.counters.errors }
    /// Uplink messages seen.
    package var uplinkMessages: Int { pipeline.core.counters.messageCounts[Self.uplinkIndex] }
    private static let uplinkIndex = Message.typeNames.firstIndex(of: "uplink")!

    /// Creates a decoder; `fallbackTime` dates datagrams that carry no time (raw GDL90 streams).
    package init(fallbackTime: Double = 0, refreshTimeout: Double = 3600) {
        var core = GatewayCore()
        core.replaceFISBStore(FISBProductStore(refreshTimeout: refreshTimeout))
        pipeline = GatewayPipeline(core: core, outputs: .init(fisb: true))
        lastTime = fallbackTime
    }

    /// Feeds one datagram received at `time` (nil: the last known time); returns reports.
    package mutating func ingest(_ bytes: [UInt8], at time: Double?) -> [FISBReport] {
        if let time { lastTime = time }
        let t = lastTime
        return pipeline.process(.datagram(bytes), at: t).fisbProducts
    }

    /// Ends the capture: reports held back waiting for parts that never came (a TFR text without
    /// its areas), once each.
    package mutating func finish() -> [FISBReport] {
        pipeline.finish(.products).fisbProducts
    }

    /// Decodes a whole capture: every report in order, with the store at the end.
    package static func decode(_ datagrams: [(time: Double?, bytes: [UInt8])],
                              fallbackTime: Double = 0) -> (reports: [FISBReport], decoder: FISBCaptureDecoder) {
        var d = FISBCaptureDecoder(fallbackTime: fallbackTime)
        var out: [FISBReport] = []
        for datagram in datagrams { out += d.ingest(datagram.bytes, at: datagram.time) }
        out += d.finish()
        return (out, d)
    }
}
