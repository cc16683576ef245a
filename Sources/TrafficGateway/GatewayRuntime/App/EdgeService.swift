import ServiceLifecycle

/// One running edge of the gateway (the UDP ingest and its core, the HTTP or NMEA feeds, the
/// flight recorder, the database) as a `Service`: the part is started before the group runs, so
/// its errors (a port in use) come before the "listening" line; `run()` waits for the graceful
/// shutdown and then calls `stop`, which returns once the part is stopped (a short wait: a queue
/// drained, a socket closed). The group stops its
/// services in reverse order, so list what others write into first.
package struct EdgeService: Service, CustomStringConvertible {
    /// The part's name in logs.
    package let name: String
    private let stop: @Sendable () -> Void

    /// A service that calls `stop` on graceful shutdown (or cancellation).
    package init(_ name: String, stop: @escaping @Sendable () -> Void) {
        self.name = name
        self.stop = stop
    }

    /// The part's name.
    package var description: String { name }

    /// Waits for the graceful shutdown, then stops the part.
    package func run() async throws {
        // Cancellation ends the wait too: the part is stopped either way.
        try? await gracefulShutdown()
        stop()
    }

    /// Stops the part without waiting for a shutdown (a start that failed half-way).
    func stopNow() { stop() }
}
