#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a pthread mutex: the lock of every piece of shared state in the gateway.
///
/// In place of `Synchronization.Mutex`, whose futex ThreadSanitizer cannot see on Linux: under
/// `swift test --sanitize=thread` a `Mutex` shared by a few threads is reported as racing and
/// even loses updates, while a pthread mutex is understood. One lock type, so the gateway can be
/// checked by TSan at all.
package final class Locked<Value>: @unchecked Sendable {  // the value is touched under its own mutex only
    private var protected: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A lock holding `value`.
    package init(_ value: Value) {
        protected = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    @inline(__always)
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&protected)
    }

    /// The value now (a copy, taken under the lock).
    package var value: Value { withLock { $0 } }

    /// Replaces the value.
    package func set(_ newValue: Value) { withLock { $0 = newValue } }
}
