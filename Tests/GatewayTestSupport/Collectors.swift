import Foundation
import Synchronization
import GatewayDomain

/// The alert changes a live gateway handed its sink, as they came.
package final class Collected: Sendable {
    package let alerts = Mutex<[AlertEvent]>([])
    package init() {}
}

/// Delays a test client was asked to sleep.
package final class Delays: Sendable {
    private let m = Mutex<[Double]>([])
    package init() {}
    package func add(_ d: Double) { m.withLock { $0.append(d) } }
    package var values: [Double] { m.withLock { $0 } }
}

/// Runs CPU-heavy test work on a thread of its own, not the cooperative pool the suite's other
/// tests (the systemd watchdog's timing among them) need to make progress.
package func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
