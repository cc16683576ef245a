import GatewaySupport
import GatewayRecords
import GatewayFleet
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ServiceLifecycle
import UnixSignals

/// `gatewayd fleet`: the club's ground station (issue 43) until SIGTERM or SIGINT: subscribed to
/// every gateway's topics, its database (the club logbook and every alert event once) and its
/// HTTP server (the fleet page and API).
package struct FleetStationApp: Sendable {
    package var settings: FleetSettings
    package var database: String
    package var httpBind: String
    package var httpPort: Int
    /// When set, every request to the station's server (but the page's files) must carry it.
    package var httpToken: String?
    package let console: GatewayConsole

    /// The default database: `$XDG_DATA_HOME/gatewayd/fleet.sqlite`, beside a gateway's.
    package static func defaultDatabase(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let gateway = GatewayDatabase.defaultPath(environment: environment)
        return String(gateway[..<(gateway.lastIndex(of: "/") ?? gateway.endIndex)]) + "/fleet.sqlite"
    }

    package init(settings: FleetSettings, database: String, httpBind: String, httpPort: Int, httpToken: String? = nil, console: GatewayConsole) {
        self.settings = settings
        self.httpToken = httpToken
        self.database = database
        self.httpBind = httpBind
        self.httpPort = httpPort
        self.console = console
    }

    package func run() async throws {
        let console = self.console
        let signals = await SignalService(stop: GatewayApp.stopSignals, ignored: GatewayApp.ignoredSignals) { signal in
            console.warning("gatewayd fleet: \(signal) ignored")
        }
        let password = try settings.passwordFile.map { path throws(GatewayError) in
            try FleetSettings.readPassword(path: path, environment: ProcessInfo.processInfo.environment)
        }
        let db = try GatewayDatabase(path: database)
        let host = (try? String(contentsOfFile: "/etc/hostname", encoding: .utf8))?.trimmingWhitespaceAndNewlines() ?? "station"
        let station = FleetStation(settings: settings, password: password, database: db, clientID: "skygate-station-" + (host.isEmpty ? "station" : host),
                                   clock: { Date().timeIntervalSince1970 }) { console.info($0) }
        let server = FleetServer(station: station, token: httpToken)
        try server.start(host: httpBind, port: httpPort)
        try station.start()
        // Quiet alert streams stay open through proxies and phones' networks.
        let keepAlive = PeriodicService("fleet keep-alive", delay: .seconds(FleetStation.keepAliveSeconds), every: .seconds(FleetStation.keepAliveSeconds)) { station.keepAlive() }
        console.info("gatewayd fleet: station for \(settings.broker) (\(FleetTopic.everything)); page and API on http://\(httpBind):\(server.port)/\(httpToken == nil ? "" : " (token required)"); database \(database)")
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: signals, successTerminationBehavior: .gracefullyShutdownGroup), .init(service: server), .init(service: keepAlive)] + (station.service.map { [.init(service: $0)] } ?? []),
            logger: Logger(label: "gatewayd.fleet") { _ in SwiftLogNoOpLogHandler() })
        configuration.gracefulShutdownSignals = []
        try await ServiceGroup(configuration: configuration).run()
        station.stop()
        try? db.close()
        console.info("gatewayd fleet: stopped\(signals.received.map { " on \($0)" } ?? "")")
    }
}
