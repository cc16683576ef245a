/// GDL 90 re-broadcast (`--forward host:port`, and `auto` for EFBs that announce themselves):
/// each datagram the pipeline re-encoded with our alert bits, sent to every target with
/// MSG_DONTWAIT (a stalled or absent EFB costs a failed send, never a wait), counted in the hub.
/// Touched on the core's queue only (`carryOut`, and EFB announcements the live gateway's
/// discovery source hands in there).
public final class ForwardSink: GatewaySink, @unchecked Sendable {  // state touched on the core's queue only
    private let targets: [UDPSender]
    private let hub: FeedHub?
    /// EFBs announcing on UDP 63093, when `auto` forwarding is on.
    var efbs: EFBRegistry?
    private var efbSenders: [EFBRegistry.EFB: UDPSender] = [:]

    /// A forwarder to `targets`, and to announcing EFBs when `efbs` is given.
    init(targets: [UDPSender], efbs: EFBRegistry?, hub: FeedHub?) {
        self.targets = targets
        self.efbs = efbs
        self.hub = hub
    }

    /// An EFB's announcement (on the core's queue): a sender for it when it is new.
    func announce(from host: String, payload: [UInt8], at time: Double) {
        guard var registry = efbs else { return }
        defer { efbs = registry }
        if let efb = registry.announce(from: host, payload: payload, at: time), efbSenders[efb] == nil,
           let sender = try? UDPSender(host: efb.host, port: efb.port) {
            efbSenders[efb] = sender
        }
    }

    public func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        guard !outputs.rebroadcast.isEmpty else { return }
        var senders = targets
        if var registry = efbs {
            let live = Set(registry.active(at: time))
            efbs = registry
            efbSenders = efbSenders.filter { live.contains($0.key) }
            senders += efbSenders.sorted { $0.key.host < $1.key.host }.map(\.value)
        }
        var sent = 0, failed = 0
        for sender in senders {
            for d in outputs.rebroadcast {
                if sender.send(d) { sent += 1 } else { failed += 1 }
            }
        }
        hub?.countForward(sent: sent, failed: failed)
    }
}
