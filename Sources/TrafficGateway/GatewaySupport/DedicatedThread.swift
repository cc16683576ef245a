#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A long-lived worker thread of its own, for work that blocks in system calls for as long as it
/// runs (ALSA playback, a replay paced on the wall clock), off Dispatch's and Swift's shared
/// pools, whose few threads such work would hold from the rest of the process. It waits on a
/// `Locked` value's condition (`withLock(when:timeout:_:)`), never by polling.
public enum DedicatedThread {
    /// Runs `body` on a new detached thread (on the caller's thread when none can be made).
    public static func start(_ body: @escaping @Sendable () -> Void) {
        final class Box: Sendable { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
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

    /// Seconds on the monotonic clock (the clock `Locked`'s timed waits run on).
    public static var monotonicSeconds: Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
