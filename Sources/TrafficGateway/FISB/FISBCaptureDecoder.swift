import GDL90

/// The `gatewayd fisb` pipeline as a library function: datagrams of a capture are deframed,
/// uplink messages (0x07) decoded and fed to a product store; each product is reported when it
/// is complete and whenever it changes.
public struct FISBCaptureDecoder: Sendable {
    /// The product store.
    public private(set) var store: FISBProductStore
    /// GDL90 frames rejected by the deframer or the message decoder.
    public private(set) var rejectedFrames = 0
    /// Uplink messages seen.
    public private(set) var uplinkMessages = 0
    private var deframer = Deframer()
    private var lastTime: Double

    /// Creates a decoder; `fallbackTime` dates datagrams that carry no time (raw GDL90 streams).
    public init(fallbackTime: Double = 0, refreshTimeout: Double = 3600) {
        store = FISBProductStore(refreshTimeout: refreshTimeout)
        lastTime = fallbackTime
    }

    /// Feeds one datagram received at `time` (nil: the last known time); returns reports.
    public mutating func ingest(_ bytes: [UInt8], at time: Double?) -> [FISBReport] {
        if let time { lastTime = time }
        var payloads: [[UInt8]] = []
        var rejected = 0
        deframer.feed(bytes) { event in
            switch event {
            case .frame(let f):
                guard f.messageID == Uplink.id else { return }
                guard case .uplink(let u)? = try? Message.decode(f.message) else {
                    rejected += 1
                    return
                }
                payloads.append(u.payload)
            case .rejected:
                rejected += 1
            }
        }
        rejectedFrames += rejected
        uplinkMessages += payloads.count
        var out: [FISBReport] = []
        for p in payloads { out += store.ingest(payload: p, at: lastTime) }
        return out
    }

    /// Ends the capture: reports held back waiting for parts that never came (a TFR text without
    /// its areas), once each.
    public mutating func finish() -> [FISBReport] { store.flushHeld() }

    /// Decodes a whole capture: every report in order, with the store at the end.
    public static func decode(_ datagrams: [(time: Double?, bytes: [UInt8])],
                              fallbackTime: Double = 0) -> (reports: [FISBReport], decoder: FISBCaptureDecoder) {
        var d = FISBCaptureDecoder(fallbackTime: fallbackTime)
        var out: [FISBReport] = []
        for datagram in datagrams { out += d.ingest(datagram.bytes, at: datagram.time) }
        out += d.finish()
        return (out, d)
    }
}
