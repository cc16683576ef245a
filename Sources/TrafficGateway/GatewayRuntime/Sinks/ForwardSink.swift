import GatewaySupport
import GatewayDomain
import GatewayFeeds
import GDL90
import Dispatch
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
    /// The FIS-B a joining EFB is sent first (issue 57), kept while discovery is on.
    private let hold = Locked(FISBHold())
    private let catchUps = DispatchQueue(label: "gatewayd.forward-catch-up")
    private let said: @Sendable (String) -> Void

    /// Uplinks a second sent to a joining EFB: the 32 uplink slots a second of one UAT ground
    /// station (RTCA DO-282B), the most any EFB takes from a receiver hearing one station, so
    /// the catch-up never comes faster than the air could have delivered it; about 14 kB/s.
    package static let catchUpRate = 32.0

    /// A forwarder to `targets`, and to announcing EFBs when `efbs` is given; `said` hears the
    /// line a catch-up says.
    package init(targets: [UDPSender], efbs: EFBRegistry?, hub: FeedHub?, said: @escaping @Sendable (String) -> Void = { _ in }) {
        self.targets = targets
        self.efbs = efbs.map { Locked(EFBs(registry: $0)) }
        self.hub = hub
        self.said = said
    }

    /// Uplinks held for a joining EFB.
    package var heldUplinks: Int { hold.withLock { $0.count } }

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
        if efbs != nil { keep(outputs.rebroadcast, at: time) }
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

    /// An EFB's announcement: a sender for it when it is new, and the FIS-B held sent to it first.
    private func announce(_ a: EFBAnnouncement, at time: Double) {
        let joined = efbs?.withLock { e -> (EFBRegistry.EFB, UDPSender)? in
            if let efb = e.registry.announce(from: a.host, payload: a.payload, at: time), e.senders[efb] == nil,
               let sender = try? UDPSender(host: efb.host, port: efb.port) {
                e.senders[efb] = sender
                return (efb, sender)
            }
            return nil
        }
        guard let (efb, sender) = joined ?? nil else { return }
        let frames = hold.withLock { h in
            h.prune(at: time)
            return h.current(at: time)
        }
        guard !frames.isEmpty else { return }
        said("\(efb.app) at \(efb.host):\(efb.port) joined: sending it the \(frames.count) FIS-B uplinks held (radar, METARs, TAFs, winds, graphics), \(Int(Self.catchUpRate)) a second")
        catchUp(frames, to: sender, from: 0)
    }

    /// Sends `frames[from...]` to `sender`, `catchUpRate` a second, one a tick, off the core's queue.
    private func catchUp(_ frames: [[UInt8]], to sender: UDPSender, from i: Int) {
        guard i < frames.count else { return }
        let ok = sender.send(frames[i])
        hub?.countForward(sent: ok ? 1 : 0, failed: ok ? 0 : 1)
        // concurrency: a one-off burst paced for one joining EFB on its own serial queue, over when the held uplinks are sent (not a periodic timer of the gateway)
        catchUps.asyncAfter(deadline: .now() + 1 / Self.catchUpRate) { [self] in catchUp(frames, to: sender, from: i + 1) }
    }

    /// The uplinks among `datagrams` (each frame of each datagram read again), held.
    private func keep(_ datagrams: [[UInt8]], at time: Double) {
        var uplinks: [Uplink] = []
        for d in datagrams {
            var deframer = Deframer()
            deframer.feed(d) { event in
                guard case .frame(let f) = event, f.messageID == 7, case .uplink(let u)? = try? Message.decode(f.message) else { return }
                uplinks.append(u)
            }
        }
        guard !uplinks.isEmpty else { return }
        hold.withLock { h in for u in uplinks { h.take(frame: Message.uplink(u).frame(), message: u, at: time) } }
    }
}
