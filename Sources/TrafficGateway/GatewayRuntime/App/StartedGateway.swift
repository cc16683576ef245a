import GatewayRecords
import GatewayFeeds
import ServiceLifecycle

/// The gateway once `GatewayApp.start()` has opened and bound everything: what it listens on,
/// and the services that keep it running until a graceful shutdown stops them.
package struct StartedGateway: Sendable {
    /// The ingest and its core.
    package let gateway: LiveGateway
    /// What the HTTP and NMEA feeds read.
    package let hub: FeedHub
    /// The UDP port GDL90 is read from (the one bound when the configuration says 0).
    package let udpPort: UInt16
    /// The HTTP port bound, nil when the feeds are off.
    package let httpPort: Int?
    /// The alert log, nil without a database.
    package let log: AlertLog?
    /// Every running part, in start order: a `ServiceGroup` stops them in reverse (timers first,
    /// then the feeds, the ingest, the recorder, and the database last).
    package let services: [any Service]
    /// Stops the started parts in reverse order without a group (a caller that never runs one).
    let stopParts: @Sendable () -> Void

    /// Stops what `start()` started, without running the services (tests, tools).
    package func stop() { stopParts() }
}
