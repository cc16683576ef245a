#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex with its condition variable: the voice's playback queue waits on it (in place
/// of Foundation's `NSCondition`). Lock, test, wait, unlock, as with any condition variable.
package final class ThreadCondition: @unchecked Sendable {  // owns its pthread objects, used only under their own lock
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
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
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
    package func signal() { pthread_cond_signal(condition) }
    package func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits for a signal (the lock held).
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits for a signal at most `seconds` (the lock held); false when the time ran out.
    @discardableResult
    package func wait(seconds: Double) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let whole = Int(max(0, seconds))
        var deadline = timespec(tv_sec: now.tv_sec + whole, tv_nsec: now.tv_nsec + Int((max(0, seconds) - Double(whole)) * 1e9))
        if deadline.tv_nsec >= 1_000_000_000 { deadline.tv_sec += 1; deadline.tv_nsec -= 1_000_000_000 }
        return pthread_cond_timedwait(condition, mutex, &deadline) == 0
    }

    /// Seconds on the monotonic clock.
    package static var monotonicSeconds: Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Runs `body` on a new detached thread (a long-lived worker that blocks in
    /// system calls, such as ALSA playback, off Dispatch's and Swift's shared pools).
    package static func detach(_ body: @escaping @Sendable () -> Void) {
        final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, context)
        if rc == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Box>.fromOpaque(context).release()
            body()
        }
    }
}
