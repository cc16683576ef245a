import GatewaySupport
import GatewayDomain
import GatewayFeeds
/// GDL 90 re-broadcast (`--forward host:port`, and `auto` for EFBs that announce themselves):
/// each datagram the pipeline re-encoded with our alert bits, sent to every target with
/// MSG_DONTWAIT (a stalled or absent EFB costs a failed send, never a wait), counted in the hub.
/// EFB announcements (`DiscoverySource`) come through the pipeline's outputs like everything else.
package final class ForwardSink: GatewaySink {
    private struct EFBs {
        var registry: EFBRegistry
        var senders: [EFBRegistry.EFB: UDPSender] = [:]
    }

    private let targets: [UDPSender]
    private let hub: FeedHub?
    /// EFBs announcing on UDP 63093, when `auto` forwarding is on.
    private let efbs: Locked<EFBs>?

    /// A forwarder to `targets`, and to announcing EFBs when `efbs` is given.
    package init(targets: [UDPSender], efbs: EFBRegistry?, hub: FeedHub?) {
        self.targets = targets
        self.efbs = efbs.map { Locked(EFBs(registry: $0)) }
        self.hub = hub
    }

    /// Auto-forwarding's registry: announcements naming `ownPort` (this gateway's GDL 90 port) on
    /// one of this machine's addresses are refused.
    package static func registry(ownPort: UInt16) -> EFBRegistry {
        var efbs = EFBRegistry()
        efbs.ownPort = ownPort
        efbs.ownAddresses.formUnion(LocalAddresses.ipv4())
        return efbs
    }

    /// EFBs found by discovery and still announcing at `time`.
    package func discovered(at time: Double) -> [EFBRegistry.EFB] {
        efbs?.withLock { $0.registry.active(at: time) } ?? []
    }

    package func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        for a in outputs.announcements { announce(a, at: time) }
        guard !outputs.rebroadcast.isEmpty else { return }
        var senders = targets
        if let efbs {
            senders += efbs.withLock { e in
                let live = Set(e.registry.active(at: time))
                e.senders = e.senders.filter { live.contains($0.key) }
                return e.senders.sorted { $0.key.host < $1.key.host }.map(\.value)
            }
        }
        var sent = 0, failed = 0
        for sender in senders {
            for d in outputs.rebroadcast {
                if sender.send(d) { sent += 1 } else { failed += 1 }
            }
        }
        hub?.countForward(sent: sent, failed: failed)
    }

    /// An EFB's announcement: a sender for it when it is new.
    private func announce(_ a: EFBAnnouncement, at time: Double) {
        efbs?.withLock { e in
            if let efb = e.registry.announce(from: a.host, payload: a.payload, at: time), e.senders[efb] == nil,
               let sender = try? UDPSender(host: efb.host, port: efb.port) {
                e.senders[efb] = sender
            }
        }
    }
}
