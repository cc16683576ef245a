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
public final class ALSAPlayer: @unchecked Sendable {  // its state is guarded by `condition`
    /// Samples to play and who wants to know when the first frames reached ALSA.
    struct Item {
        var samples: [Int16]
        var started: (@Sendable () -> Void)?
    }

    /// The device name.
    public let device: String
    /// Samples per second.
    public let sampleRate: Int
    /// Seconds between attempts to open a device that failed.
    public let retrySec: Double
    private let configuration: String?
    private let log: @Sendable (String) -> Void
    private let condition = ThreadCondition()
    private var items: [Item] = []
    private var stopping = false
    private var started = false
    private var finished = false
    private var playedCount = 0
    private var droppedCount = 0
    private var isOpen = false

    /// A player for `device` (not started); `configuration` is asoundrc text to look it up in
    /// instead of the system's files (tests).
    public init(device: String, sampleRate: Int, configuration: String? = nil, retrySec: Double = 30,
                log: @escaping @Sendable (String) -> Void) {
        self.device = device
        self.sampleRate = sampleRate
        self.configuration = configuration
        self.retrySec = retrySec
        self.log = log
    }

    /// Starts the playback thread (it opens the device at once).
    public func start() {
        condition.lock()
        started = true
        condition.unlock()
        ThreadCondition.detach { [self] in
            self.loop()
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Queues a callout's samples; never blocks. At most 8 wait (more are dropped and counted).
    public func play(_ samples: [Int16], started: (@Sendable () -> Void)? = nil) {
        condition.lock()
        if items.count < 8 { items.append(Item(samples: samples, started: started)) } else { droppedCount += 1 }
        condition.signal()
        condition.unlock()
    }

    /// Callouts played to the end, and dropped (device missing or queue full).
    public var counts: (played: Int, dropped: Int, deviceOpen: Bool) {
        condition.lock()
        defer { condition.unlock() }
        return (playedCount, droppedCount, isOpen)
    }

    /// Stops the thread once what is playing has finished (waiting at most 3 s: a device stuck
    /// mid-callout never holds up the shutdown); callouts still queued are dropped.
    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        let end = ThreadCondition.monotonicSeconds + 3
        while started && !finished {
            let left = end - ThreadCondition.monotonicSeconds
            if left <= 0 { break }
            condition.wait(seconds: left)
        }
        condition.unlock()
    }

    /// Waits until every queued callout was played or dropped (tests, `voice test`).
    public func waitUntilIdle(timeout: Double = 30) {
        let end = ThreadCondition.monotonicSeconds + timeout
        while ThreadCondition.monotonicSeconds < end {
            condition.lock()
            let idle = items.isEmpty && !busy
            condition.unlock()
            if idle { return }
            usleep(5_000)
        }
    }

    private var busy = false

    private func loop() {
        var output: ALSAOutput?
        var lastAttempt = -Double.infinity
        var failing = false
        func open() {
            lastAttempt = ThreadCondition.monotonicSeconds
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
            condition.lock()
            while items.isEmpty && !stopping {
                if output == nil {
                    let due = lastAttempt + retrySec - ThreadCondition.monotonicSeconds
                    if due <= 0 { break }
                    condition.wait(seconds: due)
                } else {
                    condition.wait()
                }
            }
            if stopping { condition.unlock(); break }
            let item = items.isEmpty ? nil : items.removeFirst()
            busy = item != nil
            condition.unlock()
            if output == nil && ThreadCondition.monotonicSeconds - lastAttempt >= retrySec { open() }
            guard let item else { continue }
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
                lastAttempt = ThreadCondition.monotonicSeconds
                setOpen(false)
                count(played: false)
            }
        }
        output = nil
    }

    private func count(played: Bool) {
        condition.lock()
        if played { playedCount += 1 } else { droppedCount += 1 }
        busy = false
        condition.unlock()
    }

    private func setOpen(_ open: Bool) {
        condition.lock()
        isOpen = open
        condition.unlock()
    }
}
