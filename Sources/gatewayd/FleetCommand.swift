import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewaySupport
import GatewayDomain
import GatewayFeeds
import GatewayFleet
import GatewayRecords
import GatewayRuntime

/// `gatewayd fleet`: a club's ground station, and `fleet tail`.
struct FleetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Run a club's ground station: every gateway's picture, alerts and flights from the club's MQTT broker.",
        discussion: """
            Each aircraft's gateway publishes to the broker (gatewayd run --fleet mqtt://HOST --fleet-id NAME); the station subscribes to skygate/+/#, keeps the club logbook and every alert event once in its own database, and serves the fleet page and API (default port 8091, so a gateway's 8090 can run on the same host).

            Examples:
              gatewayd fleet --broker mqtt://127.0.0.1 --fleet-user station --fleet-password-file /etc/gatewayd/station-password
              gatewayd fleet --broker mqtt://127.0.0.1 --ogn aprs.glidernet.org
                                             with [fleet] ogn_ids: the club's gliders too
              gatewayd fleet tail                        follow every gateway's alerts
              gatewayd flights list --database ~/.local/share/gatewayd/fleet.sqlite
            """,
        subcommands: [FleetStationCommand.self, FleetTailCommand.self],
        defaultSubcommand: FleetStationCommand.self
    )
}

struct FleetStationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "station",
        abstract: "Run the ground station (the default of 'gatewayd fleet')."
    )

    @Option(help: ArgumentHelp("The club's broker: mqtt://HOST[:PORT] (1883) or mqtts://HOST[:PORT] (8883) (default: [fleet] broker).", valueName: "url"))
    var broker: String?

    @Option(help: ArgumentHelp("The broker's user name (default: [fleet] username).", valueName: "user"))
    var fleetUser: String?

    @Option(help: ArgumentHelp("A root-only file holding the broker's password (default: [fleet] password_file).", valueName: "file"))
    var fleetPasswordFile: String?

    @Option(help: ArgumentHelp("The CA file (PEM) for mqtts:// (default: [fleet] ca_file, else the system's).", valueName: "file"))
    var fleetCa: String?

    @Option(help: ArgumentHelp("The Open Glider Network's APRS as host:port (port 14580 if omitted): the club's aircraft without a gateway, named by [fleet] ogn_ids (\"DD1234=D-KABC\"), join the fleet from their FLARM beacons. An APRS-IS server is asked for [ogn] range_km around [ogn] near; a club receiver's ogn-decode (127.0.0.1:50001) sends all it hears (default: [ogn] address).", valueName: "host:port"),
            transform: { try HostPort.argument($0, defaultPort: 14580) })
    var ogn: HostPort?

    @Option(help: "HTTP port of the fleet page and API (default 8091; 0: any free port, said in the log).")
    var httpPort = 8091

    @Option(help: "Address the HTTP server binds (default 0.0.0.0).")
    var httpBind = "0.0.0.0"

    @Option(help: ArgumentHelp("A token every request to the page and API must carry (Authorization: Bearer, or ?token=; the page asks for it) (default: [fleet] station_token; none).", valueName: "token"))
    var httpToken: String?

    @Option(help: ArgumentHelp("The station's database: the club logbook and every alert event (default $XDG_DATA_HOME/gatewayd/fleet.sqlite).", valueName: "path"))
    var database: String?

    @Option(help: "Configuration file for the [fleet] keys (default /etc/gatewayd/gatewayd.toml when it exists); flags override it.")
    var config: String?

    func run() async throws {
        var c: GatewayConfig
        do {
            c = try GatewayConfig.load(path: config ?? GatewayConfig.defaultPath, required: config != nil)
            try c.apply([GatewayConfig.Override("--broker", "fleet.broker", broker.map(TOMLValue.string)),
                         GatewayConfig.Override("--fleet-user", "fleet.username", fleetUser.map(TOMLValue.string)),
                         GatewayConfig.Override("--fleet-password-file", "fleet.password_file", fleetPasswordFile.map(TOMLValue.string)),
                         GatewayConfig.Override("--fleet-ca", "fleet.ca_file", fleetCa.map(TOMLValue.string)),
                         GatewayConfig.Override("--http-token", "fleet.station_token", httpToken.map(TOMLValue.string)),
                         GatewayConfig.Override("--ogn", "ogn.address", ogn.map { TOMLValue.string($0.description) })])
        } catch {
            throw ValidationError("\(error)")
        }
        guard let broker = c.fleetBroker else {
            throw ValidationError("no broker: give --broker mqtt://HOST[:PORT] (or [fleet] broker in the configuration)")
        }
        let settings = FleetSettings(broker: broker, id: nil, username: c.fleetUsername, passwordFile: c.fleetPasswordFile, caFile: c.fleetCA)
        do {
            var app = FleetStationApp(settings: settings, database: database ?? FleetStationApp.defaultDatabase(), httpBind: httpBind, httpPort: httpPort,
                                      httpToken: c.fleetStationToken, console: Terminal.console)
            app.notify = c.notify
            app.ognAddress = c.ogn
            app.ognRangeKm = c.ognRangeKm
            app.ognNear = c.ognNear.flatMap(AirportTable.place)
            app.clubGliders = c.fleetOGNGliders
            try await app.run()
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}

/// `gatewayd fleet tail`: every gateway's alerts as they change, each line led by its gateway.
struct FleetTailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail",
        abstract: "Follow the fleet's alerts (the station's /alerts), each line led by its gateway.",
        discussion: "Reconnects by itself and resumes after the last event printed, like 'gatewayd tail'."
    )

    @Argument(help: "The station's base URL (with ?token=… when the station has one).")
    var url = "http://127.0.0.1:8091"

    @Flag(help: "Print the JSON Lines (each alert with its \"gateway\") instead of the human lines.")
    var json = false

    @Option(help: "Stop after this many alert lines (0: never; for scripts and tests).")
    var count = 0

    func run() throws {
        // A token rides as ?token=… after the path: the stream's path goes before it.
        let query = url.firstIndex(of: "?").map { String(url[$0...]) } ?? ""
        var base = String(url.prefix(url.count - query.count))
        while base.hasSuffix("/") { base.removeLast() }
        guard let target = HTTPConnection.Target((base.hasSuffix("/alerts") ? base : base + "/alerts") + query) else {
            throw ValidationError("\(url) is not an http:// URL like http://127.0.0.1:8091")
        }
        var printed = 0
        SSEFollower(name: "fleet tail", target: target, shown: SecretMasking.url(url), peer: "the station").follow { event in
            Terminal.out([json ? event : Self.line(event)])
            printed += 1
            return count == 0 || printed < count
        }
    }

    /// `NAME  <tail's line>`.
    static func line(_ json: String) -> String {
        guard let o = JSONReader.object(Array(json.utf8)) else { return json }
        let gateway = o["gateway"] as? String ?? "?"
        let time = (o["time"] as? String).flatMap { Timestamp.parse($0) } ?? 0
        let text = AlertFormatter.humanLine(time: time, level: o["level"] as? String ?? "", change: o["event"] as? String ?? "",
                                            message: o["message"] as? String ?? "", colour: false)
        return gateway.escapingControlCharacters + "  " + text
    }
}
