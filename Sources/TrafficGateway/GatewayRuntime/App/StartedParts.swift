import GatewaySupport
import GatewayRecords
import GatewayFeeds
import Dispatch
import ServiceLifecycle

// The long-lived parts of the gateway as the `Service`s of its group (issue 53: they were wrapped
// by seven `EdgeService` adapters). Each part is started by `GatewayApp.start()` before the group
// runs, so that what can fail at start (a port in use, an unreadable file) fails before the
// "listening" line and the start can close what it had opened; its `run()` waits for the graceful
// shutdown and stops it, returning once it has stopped. The group stops them in reverse order,
// so what others write into is listed first.

extension LiveGateway: Service, CustomStringConvertible {
    /// Waits for the graceful shutdown (or cancellation), then stops the ingest and its core.
    package func run() async throws {
        try? await gracefulShutdown()
        stop()
    }

    /// `GDL90 ingest`.
    package var description: String { "GDL90 ingest" }
}

extension FlightRecorder: Service, CustomStringConvertible {
    /// Waits for the graceful shutdown, then closes the recording (its last bytes synced).
    package func run() async throws {
        try? await gracefulShutdown()
        close()
    }

    /// `flight recorder`.
    package var description: String { "flight recorder" }
}

extension NMEAServer: Service, CustomStringConvertible {
    /// Waits for the graceful shutdown, then closes the listener and every client.
    package func run() async throws {
        try? await gracefulShutdown()
        stop()
    }

    /// `FLARM NMEA`.
    package var description: String { "FLARM NMEA" }
}

/// The terminal's alert lines: on shutdown, the lines still waiting are printed before the
/// process ends.
package struct TerminalLines: Service, CustomStringConvertible {
    let consumer: BoundedConsumer<[String]>

    package func run() async throws {
        try? await gracefulShutdown()
        consumer.drain()
    }

    package var description: String { "terminal" }
}

/// The database (the alert log, the logbook, the NOTAMs), closed last: the writes queued from
/// FIS-B are finished first; a degraded (in-memory) database gets a last try to reach its file,
/// else what is lost is said.
package struct AlertLogDatabase: Service, CustomStringConvertible {
    let log: AlertLog
    /// The queue FIS-B NOTAMs are written from.
    let writes: DispatchQueue
    let console: GatewayConsole

    package func run() async throws {
        try? await gracefulShutdown()
        close()
    }

    /// Closes the database (also when a start fails half-way).
    func close() {
        writes.sync {}
        if log.database.degradedReason != nil {
            console.warning("gatewayd: " + (log.database.retry() ?? "database \(log.database.path) still not usable: the alert log and logbook of this run, kept in memory, are lost (the alerts were printed)"))
        }
        do { try log.database.close() } catch { console.error("warning: \(error)") }
    }

    package var description: String { "alert log" }
}

/// The line that says why the gateway stops, and systemd's STOPPING=1: the first to stop. Input
/// stops first, as the status it says waits for the core's queue, which a flood keeps busy.
package struct StoppingLine: Service, CustomStringConvertible {
    let gateway: LiveGateway
    let signals: SignalService?
    let console: GatewayConsole
    let systemd: SystemdNotifier

    package func run() async throws {
        try? await gracefulShutdown()
        gateway.stopReading()
        let status = gateway.status().line
        console.info(signals?.received.map { "gatewayd: stopping on \($0) (\(status))" } ?? "gatewayd: stopping (\(status))")
        systemd.notify("STOPPING=1")
    }

    package var description: String { "stopping line" }
}
