import Dispatch

/// A task executor on one serial dispatch queue, for work that must not wait for the cooperative
/// pool (2 threads on a Pi, which a caller blocking in a test or at start may hold): each HTTP
/// server's tasks (`HTTPService`), each MQTT session's supervision (`MQTTSession`); the tests'
/// own harness uses `shared`.
public final class QueueExecutor: TaskExecutor {  // concurrency: a serial executor of its own (see the type)
    /// One for harnesses outside a server (the tests' own tasks that must not wait for the pool).
    public static let shared = QueueExecutor(label: "gatewayd.harness")
    private let queue: DispatchQueue

    public init(label: String) { queue = DispatchQueue(label: label) }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let executor = asUnownedTaskExecutor()  // concurrency: a serial executor of its own (see the type)
        queue.async { unowned.runSynchronously(on: executor) }
    }
}
