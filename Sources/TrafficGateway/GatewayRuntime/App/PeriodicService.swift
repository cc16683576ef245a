import ServiceLifecycle

/// A job run every `interval` after a first `delay`, as a `Service` that ends on graceful
/// shutdown: the NOTAM refresh, the acknowledgement poll, the airspace reload, the status line,
/// the systemd watchdog, the sources' ticks and polls, the recorder's flush. Time comes from the
/// injected `clock`, so a test can drive it. Every timer of the gateway is one of these, a service
/// of the app's group: none is a task of its own.
package struct PeriodicService: Service, CustomStringConvertible {
    /// The job's name in logs.
    package let name: String
    /// Before the first run.
    package let delay: Duration
    /// Between the end of one run and the start of the next.
    package let interval: Duration
    private let clock: any Clock<Duration>
    private let job: @Sendable () async -> Void

    /// A job run after `delay`, then every `interval`, on `clock`. A job that blocks (SQLite,
    /// libcurl, the core's queue) should hand its work to `Offload.run`, which a shutdown does not wait for.
    package init(_ name: String, delay: Duration, every interval: Duration, clock: any Clock<Duration> = ContinuousClock(),
                job: @escaping @Sendable () async -> Void) {
        self.name = name
        self.delay = delay
        self.interval = interval
        self.clock = clock
        self.job = job
    }

    /// The job's name.
    package var description: String { name }

    /// Runs the job on schedule until graceful shutdown (or cancellation).
    package func run() async throws {
        let clock = self.clock, delay = self.delay, interval = self.interval, job = self.job
        // The sleep throws CancellationError when the shutdown cancels it: that is the normal end.
        try? await cancelWhenGracefulShutdown {
            try await clock.sleep(for: delay)  // concurrency: the one timer: a PeriodicService sleeps on the injected clock
            while !Task.isCancelled {
                await job()
                try await clock.sleep(for: interval)  // concurrency: the one timer: a PeriodicService sleeps on the injected clock
            }
        }
    }
}
