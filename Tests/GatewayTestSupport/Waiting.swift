import Foundation
#if canImport(Glibc)
import Glibc
#endif

// The one place the tests wait (issue 53): a test waits for the very thing it expects (a
// counter, a line, a file, a process's exit, an HTTP answer) through `eventually`, never for a
// fixed time; that something does not happen is `!eventually(seconds) { it happened }`. What
// waits for a socket reads it blocking, with a receive timeout (`receive`). The deadlines are
// on the monotonic clock, so a wall-clock step never shortens or stretches a wait.

/// Waits up to `timeout` seconds for `condition`: whether it held. It is tried at once, then
/// after 5 ms, the pause doubling up to 50 ms (a quick event is seen quickly, a slow one costs
/// little), and once more at the deadline.
package func eventually(_ timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    try poll(timeout, every: nil, condition)
}

/// `eventually`, trying `condition` every `interval` seconds: for a condition with a cost or an
/// effect of its own (an HTTP request, a datagram sent, a process's memory sampled).
package func eventually(_ timeout: Double, every interval: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    try poll(timeout, every: interval, condition)
}

/// Waits (off the thread: the cooperative pool is shared with the rest of the suite) until
/// `done` holds, at most `seconds`.
package func eventually(_ seconds: Double = 10, _ done: () -> Bool) async throws {
    let clock = ContinuousClock()
    let end = clock.now + .seconds(seconds)
    while !done() && clock.now < end {
        try await Task.sleep(for: .milliseconds(10))  // the one wait of the suite (async): the pause between two looks at `done`, so that an async test never blocks a thread of the shared pool
    }
}

/// Waits up to `timeout` seconds for `process` to end: whether it did.
package func waitForExit(_ process: Process, timeout: Double) -> Bool {
    eventually(timeout) { !process.isRunning }
}

/// Waits up to `timeout` seconds for the file at `url` to contain `text` (a line a child
/// process writes to its log): whether it did.
package func fileContains(_ url: URL, _ text: String, within timeout: Double) -> Bool {
    eventually(timeout) { ((try? String(contentsOf: url, encoding: .utf8)) ?? "").contains(text) }
}

/// Reads what the connected socket `fd` receives until `done` holds for all of it, the peer
/// closes, or `timeout` seconds passed: all that was read. Each read blocks (a receive timeout,
/// `SO_RCVTIMEO`, bounded by what is left of `timeout`), so nothing polls.
package func receive(_ fd: Int32, within timeout: Double, until done: (String) -> Bool) -> String {
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(timeout)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !done(String(decoding: bytes, as: UTF8.self)) {
        let left = clock.now.duration(to: deadline)
        guard left > .zero else { break }
        let micros = max(1_000, left.components.seconds * 1_000_000 + left.components.attoseconds / 1_000_000_000_000)
        var limit = timeval(tv_sec: Int(micros / 1_000_000), tv_usec: Int(micros % 1_000_000))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            bytes += buffer[0..<n]
        } else if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            break  // closed, or an error: nothing more will come
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// `eventually`'s loop: `condition` at once, then after each pause (`interval`, or 5 ms doubling
/// up to 50 ms), never past the deadline, and once more at it.
private func poll(_ timeout: Double, every interval: Double?, _ condition: () throws -> Bool) rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(timeout)
    var pause = Duration.seconds(interval ?? 0.005)
    while clock.now < deadline {
        if try condition() { return true }
        let left = clock.now.duration(to: deadline)
        guard left > .zero else { break }
        let step = min(pause, left)
        usleep(useconds_t(step.components.seconds * 1_000_000 + step.components.attoseconds / 1_000_000_000_000))  // the one wait of the suite (sync): the pause between two looks at a condition, for the tests (and their helper threads) that are not async
        if interval == nil { pause = min(pause * 2, .milliseconds(50)) }
    }
    return try condition()
}
