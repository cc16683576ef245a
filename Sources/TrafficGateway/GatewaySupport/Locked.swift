#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a pthread mutex, with a condition variable to wait on it: the lock of every
/// piece of shared state in the gateway, and what its threads wait on (a hand-off's room, the
/// voice's queue, a replay's next datagram) instead of polling or semaphores.
///
/// In place of `Synchronization.Mutex`, whose futex ThreadSanitizer cannot see on Linux: under
/// `swift test --sanitize=thread` a `Mutex` shared by a few threads is reported as racing and
/// even loses updates, while a pthread mutex is understood. `Mutex` has no condition either. One
/// lock type, so the gateway can be checked by TSan at all.
///
/// Like `Mutex`, it is `Sendable` whatever it holds: the value is reached only inside `withLock`,
/// under the mutex, which is what makes a class holding only `let`s of it checked `Sendable`
/// by the compiler (the state it confines can be touched no other way).
public final class Locked<Value>: @unchecked Sendable {  // the value is touched under its own mutex only
    private var protected: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// A lock holding `value`.
    public init(_ value: Value) {
        protected = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if canImport(Glibc)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    @inline(__always)
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&protected)
    }

    /// Runs `body` with the value, holding the lock, then wakes every thread waiting in
    /// `withLock(when:timeout:_:)` to look at the value again.
    public func withLockWaking<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&protected)
    }

    /// Waits until `ready` holds for the value, or `timeout` seconds have passed (nil: no limit),
    /// the lock released while waiting; then runs `body` with the value and whether `ready`
    /// held, holding the lock (and, `waking`, wakes the other waiters after it). Woken by
    /// `withLockWaking` on another thread, not by polling.
    public func withLock<R>(when ready: (Value) -> Bool, timeout: Double? = nil, waking: Bool = false,
                             _ body: (inout Value, _ ready: Bool) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer {
            if waking { pthread_cond_broadcast(condition) }
            pthread_mutex_unlock(mutex)
        }
        guard let timeout else {
            while !ready(protected) { pthread_cond_wait(condition, mutex) }
            return try body(&protected, true)
        }
        var deadline = Self.deadline(after: timeout)
        while !ready(protected) {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT {
                return try body(&protected, ready(protected))
            }
        }
        return try body(&protected, true)
    }

    /// Waits until `ready` holds (true) or `timeout` seconds have passed (false).
    @discardableResult
    public func wait(until ready: (Value) -> Bool, timeout: Double? = nil) -> Bool {
        withLock(when: ready, timeout: timeout) { _, ready in ready }
    }

    /// The value now (a copy, taken under the lock).
    public var value: Value { withLock { $0 } }

    /// Replaces the value.
    public func set(_ newValue: Value) { withLock { $0 = newValue } }

    /// Replaces the value and wakes the threads waiting on it.
    public func setWaking(_ newValue: Value) { withLockWaking { $0 = newValue } }

    private static func deadline(after seconds: Double) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let s = min(max(0, seconds), 1e9)
        let whole = Int(s)
        var deadline = timespec(tv_sec: now.tv_sec + whole, tv_nsec: now.tv_nsec + Int((s - Double(whole)) * 1e9))
        if deadline.tv_nsec >= 1_000_000_000 { deadline.tv_sec += 1; deadline.tv_nsec -= 1_000_000_000 }
        return deadline
    }
}
