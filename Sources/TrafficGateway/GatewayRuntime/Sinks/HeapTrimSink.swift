import GatewaySupport
import GatewayDomain
#if canImport(Glibc)
import Glibc
#endif

/// Gives the freed heap back to the system after a mass expiry (a flood of invented addresses
/// gone quiet: over 200 targets fewer in the picture) and every 30 s of the clock: glibc keeps it
/// otherwise, and systemd's MemoryMax counts it.
package final class HeapTrimSink: GatewaySink {
    private struct State {
        var held = 0
        var trimmedAt = -Double.infinity
    }

    private let state = Locked(State())

    /// A sink reading the feeds' picture (a gateway with a hub).
    package init() {}

    package func carryOut(_ outputs: GatewayOutputs, alerts: [EncodedAlert], at time: Double) {
        guard let snapshot = outputs.snapshot else { return }
        let due = state.withLock { s in
            defer { s.held = snapshot.targets.count }
            guard s.held - snapshot.targets.count > 200 || abs(time - s.trimmedAt) >= 30 else { return false }
            s.trimmedAt = time
            return true
        }
        if due { HeapTrim.trim() }
    }
}

/// glibc's `malloc_trim`, found at run time (absent from other C libraries, where it does nothing):
/// returns freed heap pages to the system.
enum HeapTrim {
    private typealias Trim = @convention(c) (Int) -> Int32
    private static let function: Trim? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
    }()

    static func trim() { _ = function?(0) }
}
