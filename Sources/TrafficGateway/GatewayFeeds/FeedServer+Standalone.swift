import GatewaySupport
import Dispatch

extension FeedServer {
    /// Binds and serves outside a service group, returning once it accepts connections (tests,
    /// benchmarks, the fuzzer; `gatewayd run` runs the server as a service of its group instead).
    /// The server's tasks run on a serial queue of their own: these callers block threads of the
    /// small cooperative pool while they wait for a reply, which would otherwise starve it.
    package func start(host: String, port: Int) throws(GatewayError) {
        try bind(host: host, port: port)
        standalone.set(Task(executorPreference: HarnessExecutor.shared) { try? await self.run() })  // concurrency: the stand-alone harness (tests, benchmarks, fuzzer): the server on an executor of its own, off the pool its callers block
        // Woken when Hummingbird says it accepts connections.
        guard running.wait(until: { $0 }, timeout: 10) else { throw GatewayError.socket(what: "HTTP \(host):\(port)", reason: "the server did not start within 10 s") }
    }

    /// Stops serving (`start`) and ends every `/alerts` stream.
    package func stop() {
        hub.finishAll()
        standalone.value?.cancel()
    }
}

/// A task executor on one serial dispatch queue, for a server run outside the gateway's group
/// by callers that block cooperative threads (see `FeedServer.start`; the tests run the fleet
/// station's server on it too).
package final class HarnessExecutor: TaskExecutor {  // concurrency: the stand-alone harness's executor (see the type)
    package static let shared = HarnessExecutor()
    private let queue = DispatchQueue(label: "gatewayd.http-harness")

    package func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let executor = asUnownedTaskExecutor()  // concurrency: the stand-alone harness's executor (see the type)
        queue.async { unowned.runSynchronously(on: executor) }
    }
}
