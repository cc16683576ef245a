import GatewaySupport
import GatewayCaptures
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A capture played as the live gateway's input (`gatewayd run --replay`): its datagrams, and the
/// gpsd fixes and session events a recording kept beside it, are handed to the gateway at their
/// capture times, paced against the wall clock by `speed`; the gateway's clock is the capture's
/// (`now`). The page, the API, the feeds and the alert log then show the flight as it happened
/// (its NOTAMs active, its FIS-B weather fresh), with nothing re-dated. With `loop` the captures
/// play again, each round later by the length of the last, so time never runs backwards.
package final class CaptureSource: GatewaySource {
    /// What was played, for the status line and the end notice.
    package struct Progress: Sendable, Equatable {
        /// Datagrams handed to the gateway.
        package var datagrams = 0
        /// Rounds completed (with `loop`).
        package var rounds = 0
    }

    /// The sessions played, in order.
    package let sessions: [ReplaySession]
    /// Capture seconds a wall second.
    package let speed: Double
    /// Play again from the start after the end.
    package let loop: Bool
    /// Capture time at which playing starts (the first datagram's).
    package let start: Double
    private let anchor = Locked<(capture: Double, wall: Double)?>(nil)
    /// Set by `stop`; the playing thread waits on it between datagrams (woken at once by a stop).
    private let stopping = Locked(false)
    private let progressState = Locked(Progress())
    private let date: CaptureDate?
    private let onEnd = Locked<@Sendable (String) -> Void>({ _ in })

    /// Opens the sessions' first capture to learn where playing starts; an error names the file.
    /// `date` dates raw GDL 90 streams (else each is dated as `replay` dates it).
    package init(sessions: [ReplaySession], speed: Double = 1, loop: Bool = false, date: CaptureDate? = nil) throws {
        guard speed > 0, speed.isFinite else { throw GatewayError.setting(name: "--speed", message: "--speed \(speed): give a pace such as 1 (real time) or 10") }
        self.sessions = sessions
        self.speed = speed
        self.loop = loop
        self.date = date
        guard let first = sessions.lazy.compactMap({ $0.captures.first ?? $0.aprsLogs.first }).first else {
            throw GatewayError.setting(name: "--replay", message: "--replay needs a capture, a recording folder or a recorded hour's stem")
        }
        // Opened once here so that a missing or unreadable capture is an error before the start.
        for path in sessions.flatMap(\.captures) { _ = try CaptureStream(path: path, port: 4000) }
        var cursors = sessions.map { Cursor(session: $0, date: date) }
        // Where playing starts: the first datagram, or the first fix or event kept (an OGN APRS log
        // is its beacons alone).
        let kept = sessions.compactMap { try? $0.recorded() }.compactMap { r in [r.fixes.first?.time, r.events.first?.time].compactMap { $0 }.min() }
        let start = (cursors.indices.compactMap { cursors[$0].peek()?.time } + kept).min()
        guard let start else { throw GatewayError.file(path: first, reason: "no timed datagram, fix or OGN beacon in the captures (nothing to play)") }
        self.start = start
    }

    /// The capture's time now: where playing has got to, moving on between datagrams at `speed`.
    package func now() -> Double {
        let wall = Date().timeIntervalSince1970
        guard let a = anchor.withLock({ $0 }) else { return start }
        return a.capture + (wall - a.wall) * speed
    }

    /// What has been played so far.
    package var progress: Progress { progressState.withLock { $0 } }

    /// Calls `action` with a line to log when the capture has been played (never with `loop`).
    package func whenPlayed(_ action: @escaping @Sendable (String) -> Void) { onEnd.set(action) }

    /// Plays into `inlet` on a thread of its own until the end (or forever with `loop`), then
    /// says so (`whenPlayed`). The gateway's clock should be `now`.
    package func start(_ inlet: GatewayInlet) {
        anchor.withLock { $0 = (start, Date().timeIntervalSince1970) }
        // A thread of its own: the pacing waits there, never on the cooperative pool or the core's queue.
        DedicatedThread.start { [self] in
            var offset = 0.0
            repeat {
                let last = playOnce(into: inlet, offset: offset)
                guard !stopping.value else { return }
                progressState.withLock { $0.rounds += 1 }
                offset += (last ?? start) - start + 1
            } while loop && !stopping.value
            let p = progress
            onEnd.value("the capture has been played (\(p.datagrams) datagrams); the gateway goes on at its clock with no new input")
        }
    }

    /// Stops playing at the next datagram.
    package func stop() { stopping.setWaking(true) }

    /// One round of every session, their datagrams interleaved by time (several captures given
    /// together play as one sky); returns the last capture time played (before `offset`).
    private func playOnce(into inlet: GatewayInlet, offset: Double) -> Double? {
        var cursors = sessions.map { Cursor(session: $0, date: date) }
        // The fixes and events the recording kept, in the one order `CaptureReplay` uses too.
        var recorded = RecordedInputs(fixes: sessions.flatMap { (try? $0.gpsFixes()) ?? [] },
                                      events: sessions.flatMap { (try? $0.events()) ?? [] })
        var last: Double?
        func due(through t: Double) -> Bool {
            while let (time, input) = recorded.next(through: t) {
                guard wait(until: time + offset) else { return false }
                inlet.deliver(input, at: time + offset)
                last = max(last ?? time, time)
            }
            return true
        }
        while true {
            // The session whose next datagram is earliest.
            var best: Int?
            for i in cursors.indices where cursors[i].peek() != nil {
                if best == nil || cursors[i].peek()!.time < cursors[best!].peek()!.time { best = i }
            }
            guard let b = best, let (t, bytes) = cursors[b].take() else { break }
            guard due(through: t), wait(until: t + offset) else { return last }
            inlet.deliver(.datagram(bytes), at: t + offset)
            progressState.withLock { $0.datagrams += 1 }
            last = t
        }
        _ = due(through: .infinity)
        return last
    }

    /// A session's datagrams with their times, its captures one after another.
    struct Cursor {
        var paths: ArraySlice<String>
        var stream: CaptureStream?
        var timing = Timing()
        var pending: (time: Double, bytes: [UInt8])?
        let date: CaptureDate?

        init(session: ReplaySession, date: CaptureDate?) {
            paths = session.captures[...]
            self.date = date
        }

        mutating func peek() -> (time: Double, bytes: [UInt8])? {
            while pending == nil {
                if stream == nil {
                    // The next capture (one that will not open is skipped: the others still play).
                    guard let path = paths.popFirst() else { return nil }
                    guard let s = try? CaptureStream(path: path, port: 4000), let t = try? CaptureSource.timing(for: s, date: date) else { continue }
                    stream = s
                    timing = t
                }
                guard let d = stream!.next() else { stream = nil; continue }
                if let t = timing.time(of: d) { pending = (t, d.bytes) }
            }
            return pending
        }

        mutating func take() -> (time: Double, bytes: [UInt8])? {
            defer { pending = nil }
            return peek()
        }
    }

    /// Waits until capture time `t` is due on the wall clock; false when stopped meanwhile (the
    /// wait is on the stop's condition, so a stop ends it at once).
    private func wait(until t: Double) -> Bool {
        guard let a = anchor.withLock({ $0 }) else { return false }
        while true {
            let left = a.wall + (t - a.capture) / speed - Date().timeIntervalSince1970
            if left <= 0 { return !stopping.value }
            if stopping.wait(until: { $0 }, timeout: left) { return false }
        }
    }

    /// Times of a capture's datagrams: their timestamps, or for a raw stream its heartbeat clock
    /// on its date (given, else from its products or the file, as `replay` dates it); a datagram
    /// without either takes the time before it.
    struct Timing {
        var midnight: Double?
        var clock = RawStreamClock()
        var lastTime: Double?

        mutating func time(of d: CapturedDatagram) -> Double? {
            if let t = d.timestamp { lastTime = t; return t }
            if let midnight, let t = clock.time(of: d.bytes, midnight: midnight) { lastTime = t }
            return lastTime
        }
    }

    static func timing(for stream: CaptureStream, date: CaptureDate?) throws -> Timing {
        guard stream.format == .raw else { return Timing() }
        return Timing(midnight: try date?.midnight ?? CaptureDate.ofRawStream(at: stream.path)?.midnight)
    }
}
