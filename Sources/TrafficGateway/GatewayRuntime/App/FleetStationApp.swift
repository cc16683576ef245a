import GatewaySupport
import GatewayRecords
import GDL90
import GatewayFleet
import GatewayNotify
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
    /// `[notify]` at the station (issue 54): a gateway offline unexpectedly, and with
    /// `fleet_alerts` every aircraft's alert at that level or above.
    package var notify = NotifySettings()
    /// The Open Glider Network's APRS (`--ogn`, `[ogn] address`), followed for the club's
    /// aircraft without a gateway (`clubGliders`, `[fleet] ogn_ids`); nil: not followed.
    package var ognAddress: HostPort?
    /// The range asked of an APRS-IS server, km, around `ognNear` (`[ogn] range_km`, `near`).
    package var ognRangeKm = 50.0
    /// Where the range is centred (`[ogn] near`: the club's field); without it an APRS-IS server
    /// is asked for no range (a club receiver's ogn-decode sends all it hears anyway).
    package var ognNear: Position?
    /// The club's aircraft followed through OGN.
    package var clubGliders: [ClubGlider] = []

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
        var timers: [any Service] = []
        if let notifier = notify.enabled ? Notifier(settings: notify, outbox: Outbox(database: db), clock: { Date().timeIntervalSince1970 }, log: { console.warning($0) }) : nil {
            let settings = notify
            let episodes = GatewayEpisodes(settings: settings, outbox: notifier.outbox, name: "fleet")
            station.notices.set { notice in
                Self.notice(notice, settings: settings, episodes: episodes, notifier: notifier, console: console)
                Task { await notifier.deliver(ignoringBackoff: false) }  // concurrency: the delivery off libmosquitto's thread
            }
            timers.append(PeriodicService("notifications", delay: .seconds(30), every: .seconds(30)) { await notifier.deliver(ignoringBackoff: false) })
            console.info("gatewayd fleet: notifications to " + settings.targets.map(\.description).joined(separator: ", "))
        }
        let server = FleetServer(station: station, token: httpToken)
        try server.start(host: httpBind, port: httpPort)
        try station.start()
        // The club's aircraft without a gateway, from the OGN network (the gateway's own client).
        var ogn: OGNClient?
        if let address = ognAddress {
            let gliders = Dictionary(clubGliders.map { ($0.id, $0) }) { first, _ in first }
            let near = ognNear
            let client = OGNClient(host: address.host, port: address.port, rangeKm: ognRangeKm, position: { near },
                                   clock: { Date().timeIntervalSince1970 },
                                   onBeacons: { beacons, time in station.receive(ogn: beacons, gliders: gliders, at: time) },
                                   onStatus: { status, said in
                                       guard said else { return }
                                       console.info("gatewayd fleet: " + (status.connected ? "OGN \(address) connected" : "\(status.reason ?? "OGN \(address) disconnected"); retrying quietly with backoff"))
                                   })
            client.start()
            ogn = client
            console.info("gatewayd fleet: following \(gliders.count) club aircraft through OGN \(address)" + (gliders.isEmpty ? " (none named: give [fleet] ogn_ids = [\"DD1234=D-KABC\"])" : ""))
        }
        // Quiet alert streams stay open through proxies and phones' networks.
        let keepAlive = PeriodicService("fleet keep-alive", delay: .seconds(FleetStation.keepAliveSeconds), every: .seconds(FleetStation.keepAliveSeconds)) { station.keepAlive() }
        console.info("gatewayd fleet: station for \(settings.broker) (\(FleetTopic.everything)); page and API on http://\(httpBind):\(server.port)/\(httpToken == nil ? "" : " (token required)"); database \(database)")
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: signals, successTerminationBehavior: .gracefullyShutdownGroup), .init(service: server), .init(service: keepAlive)] + timers.map { .init(service: $0) } + (station.service.map { [.init(service: $0)] } ?? []),
            logger: Logger(label: "gatewayd.fleet") { _ in SwiftLogNoOpLogHandler() })
        configuration.gracefulShutdownSignals = []
        try await ServiceGroup(configuration: configuration).run()
        ogn?.stop()
        station.stop()
        try? db.close()
        console.info("gatewayd fleet: stopped\(signals.received.map { " on \($0)" } ?? "")")
    }

    /// A station's notice into the outbox: a gateway offline unexpectedly (its will) and back, as
    /// an episode of that gateway (said once each way, across the station's restarts); an alert
    /// at or above `fleet_alerts`, raised or escalated, once per event.
    static func notice(_ notice: FleetStation.FleetNotice, settings: NotifySettings, episodes: GatewayEpisodes, notifier: Notifier, console: GatewayConsole) {
        let now = Date().timeIntervalSince1970
        do throws(GatewayError) {
            switch notice {
            case .offline(let gateway, let reason, let unexpected):
                guard unexpected else { return }
                try GatewayEpisodes(settings: settings, outbox: episodes.outbox, name: "gateway \(gateway)").update(
                    "fleet:" + gateway, problem: "Gateway \(gateway) went offline unexpectedly (\(reason)): a power cut, the network gone, or a crash.",
                    began: "offline", ended: "online again", now: now)
            case .online(let gateway):
                try GatewayEpisodes(settings: settings, outbox: episodes.outbox, name: "gateway \(gateway)").update(
                    "fleet:" + gateway, problem: nil, began: "offline", ended: "online again", now: now)
            case .alert(let gateway, let eventId, let level, let event, let message):
                let rank = ["advisory": 1, "caution": 2, "warning": 3]
                guard let least = settings.fleetAlerts, event != "cleared", (rank[level] ?? 0) >= (rank[least] ?? 4) else { return }
                let n = Notification(id: Notification.id(kind: .fleet, identity: gateway + "|" + eventId), kind: .fleet,
                                     title: "\(gateway): \(level.uppercased()) \(message)", message: "\(gateway) \(event) a \(level): \(message)",
                                     severity: level == "advisory" ? "info" : level, url: settings.link(alert: eventId), time: now, place: gateway)
                try notifier.outbox.add(n, targets: settings.targets, now: now)
            }
        } catch {
            console.warning("gatewayd fleet: notification not kept: \(error)")
        }
    }
}
