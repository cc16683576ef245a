import GatewaySupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plays callouts through ALSA on a thread of its own: `play` only queues the samples and
/// returns. One callout after another, never two at once. A device that cannot be opened (no
/// card, busy, unplugged) is one log line naming it and what to do, then tried again every
/// `retrySec`; callouts meanwhile are dropped (stale speech is worse than none).
package final class ALSAPlayer: Sendable {
    /// Samples to play and who wants to know when the first frames reached ALSA.
    struct Item {
        var samples: [Int16]
        var started: (@Sendable () -> Void)?
    }

    /// What the caller's threads and the playback thread share, behind one lock that the
    /// playback thread waits on.
    struct State {
        var items: [Item] = []
        var stopping = false
        var started = false
        var finished = false
        var busy = false
        var playedCount = 0
        var droppedCount = 0
        var isOpen = false
    }

    /// The device name.
    package let device: String
    /// Samples per second.
    package let sampleRate: Int
    /// Seconds between attempts to open a device that failed.
    package let retrySec: Double
    private let configuration: String?
    private let log: @Sendable (String) -> Void
    private let state = Locked(State())

    /// A player for `device` (not started); `configuration` is asoundrc text to look it up in
    /// instead of the system's files (tests).
    package init(device: String, sampleRate: Int, configuration: String? = nil, retrySec: Double = 30,
                log: @escaping @Sendable (String) -> Void) {
        self.device = device
        self.sampleRate = sampleRate
        self.configuration = configuration
        self.retrySec = retrySec
        self.log = log
    }

    /// Starts the playback thread (it opens the device at once).
    package func start() {
        state.withLock { $0.started = true }
        DedicatedThread.start { [self] in
            self.loop()
            state.withLockWaking { $0.finished = true }
        }
    }

    /// Queues a callout's samples; never blocks. At most 8 wait (more are dropped and counted).
    package func play(_ samples: [Int16], started: (@Sendable () -> Void)? = nil) {
        state.withLockWaking { s in
            if s.items.count < 8 { s.items.append(Item(samples: samples, started: started)) } else { s.droppedCount += 1 }
        }
    }

    /// Callouts played to the end, and dropped (device missing or queue full).
    package var counts: (played: Int, dropped: Int, deviceOpen: Bool) {
        state.withLock { ($0.playedCount, $0.droppedCount, $0.isOpen) }
    }

    /// Stops the thread once what is playing has finished (waiting at most 3 s: a device stuck
    /// mid-callout never holds up the shutdown); callouts still queued are dropped.
    package func stop() {
        state.withLockWaking { $0.stopping = true }
        state.wait(until: { !$0.started || $0.finished }, timeout: 3)
    }

    /// Waits until every queued callout was played or dropped (tests, `voice test`).
    package func waitUntilIdle(timeout: Double = 30) {
        state.wait(until: { $0.items.isEmpty && !$0.busy }, timeout: timeout)
    }

    private func loop() {
        var output: ALSAOutput?
        var lastAttempt = -Double.infinity
        var failing = false
        func open() {
            lastAttempt = DedicatedThread.monotonicSeconds
            do {
                output = try ALSAOutput(device: device, sampleRate: sampleRate, configuration: configuration)
                if failing { log("voice: ALSA device '\(device)' is back: callouts resume") }
                failing = false
            } catch {
                if !failing { log("voice: \(error); callouts are not spoken, the device is tried again every \(Int(retrySec)) s") }
                failing = true
            }
            setOpen(output != nil)
        }
        open()
        while true {
            // Wait for a callout or the stop; with no device, at most until it is due to be tried again.
            let retryDue = output == nil ? max(0, lastAttempt + retrySec - DedicatedThread.monotonicSeconds) : nil
            let next: Item?? = state.withLock(when: { !$0.items.isEmpty || $0.stopping }, timeout: retryDue) { s, _ in
                if s.stopping { return nil }
                let item = s.items.isEmpty ? nil : s.items.removeFirst()
                s.busy = item != nil
                return .some(item)
            }
            guard let next else { break }
            if output == nil && DedicatedThread.monotonicSeconds - lastAttempt >= retrySec { open() }
            guard let item = next else { continue }
            guard let out = output else {
                count(played: false)
                continue
            }
            do {
                try out.write(item.samples) { item.started?() }
                try out.drain()
                count(played: true)
            } catch {
                log("voice: \(error); tried again every \(Int(retrySec)) s")
                failing = true
                output = nil
                lastAttempt = DedicatedThread.monotonicSeconds
                setOpen(false)
                count(played: false)
            }
        }
        output = nil
    }

    private func count(played: Bool) {
        state.withLockWaking { s in
            if played { s.playedCount += 1 } else { s.droppedCount += 1 }
            s.busy = false
        }
    }

    private func setOpen(_ open: Bool) {
        state.withLock { $0.isOpen = open }
    }
}
