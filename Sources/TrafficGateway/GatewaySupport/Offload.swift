import Dispatch

/// Blocking work (SQLite, libcurl, a `sync` on the core's queue) handed from Swift concurrency to
/// a dispatch queue, so it never holds one of the few cooperative threads.
public enum Offload {
    /// Runs `body` on `queue` and returns its result; when the calling task is cancelled first
    /// (a shutdown during a slow NOTAM fetch), returns nil at once and lets `body` finish on its own.
    @discardableResult
    public static func run<T: Sendable>(on queue: DispatchQueue, _ body: @escaping @Sendable () -> T) async -> T? {
        let result = OneResult<T>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
                guard result.wait(continuation) else { return }
                queue.async { result.finish(body()) }
            }
        } onCancel: {
            result.finish(nil)
        }
    }
}

/// The one result of an offloaded job, delivered once: by the job, or as nil by cancellation.
private final class OneResult<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T?, Never>?
        var finished = false
    }

    private let state = Locked(State())

    /// Keeps `continuation` for the result; false (and resumed with nil) when cancelled already.
    func wait(_ continuation: CheckedContinuation<T?, Never>) -> Bool {
        let cancelled = state.withLock { s in
            if s.finished { return true }
            s.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(returning: nil) }
        return !cancelled
    }

    /// Delivers `value` unless a result was delivered already.
    func finish(_ value: T?) {
        let continuation = state.withLock { s -> CheckedContinuation<T?, Never>? in
            guard !s.finished else { return nil }
            s.finished = true
            defer { s.continuation = nil }
            return s.continuation
        }
        continuation?.resume(returning: value)
    }
}
