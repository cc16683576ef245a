import ArgumentParser
import Dispatch
import Foundation
import TrafficGateway
#if canImport(Glibc)
import Glibc
#endif

/// `gatewayd run`: the live gateway.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Listen for GDL90 on UDP and print traffic alerts live.",
        discussion: """
            Stratux sends GDL90 to UDP port 4000 of each Wi-Fi client that holds a DHCP lease and answers
            ping with that port open. Alerts go to stdout (and the alert log); a status line goes to
            stderr every --status-interval seconds. SIGINT/SIGTERM stop it cleanly.

            Try it without a receiver, in two terminals:
              gatewayd run --udp-port 4000
              gatewayd send fixtures/demo-flight.pcap --to 127.0.0.1:4000 --speed 10
            """
    )

    @Option(help: "UDP port to listen on.")
    var udpPort: UInt16 = 4000

    @Option(help: "IPv4 address to bind (0.0.0.0: every interface).")
    var bind = "0.0.0.0"

    @Option(help: "gpsd as host:port (port 2947 if omitted), used when GDL90 ownship has no fix.")
    var gpsd: String?

    @Flag(help: "Print alerts as JSON Lines.")
    var json = false

    @Option(help: "SQLite database for the alert log (default: $XDG_DATA_HOME/gatewayd/gateway.sqlite).")
    var database: String?

    @Flag(help: "Do not keep an alert log.")
    var noDatabase = false

    @Option(help: "HTTP port for the feeds (/data/aircraft.json, /traffic.geojson, /alerts SSE, /healthz, /metrics; 0: none).")
    var httpPort: Int = 8090

    @Option(help: "IPv4 address the HTTP and NMEA feeds bind.")
    var httpBind = "0.0.0.0"

    @Option(help: ArgumentHelp(
        "Re-broadcast GDL90 to host:port (repeatable), with the alert bit set from our alerts; 'auto': to EFBs that announce themselves on UDP 63093.",
        discussion: "Do not forward to EFBs on the Stratux Wi-Fi: they already get its stream and would show every aircraft twice."))
    var forward: [String] = []

    @Option(help: "TCP port for FLARM NMEA ($PFLAU/$PFLAA/$GPRMC/$GPGGA) for XCSoar-family apps (0: none).")
    var nmeaPort: Int = 2000

    @Option(help: "Airspace to watch: a GeoJSON file of areas (what /airspace.geojson serves), e.g. fixtures/demo-airspace.geojson.")
    var airspace: String?

    @Option(help: "Seconds between status lines on stderr (0: none).")
    var statusInterval: Int = 60

    func validate() throws {
        if let gpsd, GPSDClient.parse(gpsd) == nil { throw ValidationError("--gpsd \(gpsd) is not host or host:port") }
        if statusInterval < 0 { throw ValidationError("--status-interval must be 0 or more") }
        if !(0...65535).contains(httpPort) { throw ValidationError("--http-port must be 0...65535") }
        if !(0...65535).contains(nmeaPort) { throw ValidationError("--nmea-port must be 0...65535") }
        for f in forward where f != "auto" && Self.hostPort(f) == nil {
            throw ValidationError("--forward \(f) is not host:port or auto")
        }
    }

    func run() throws {
        // SIGINT/SIGTERM: a handler installed first thing writes the signal number to a pipe
        // (async-signal-safe); one thread waits on the pipe and stops everything. A signal that
        // arrives while starting up waits in the pipe instead of being lost.
        let stop = try StopSignal.install()
        let log = noDatabase ? nil : try AlertLog(database: GatewayDatabase(path: database ?? GatewayDatabase.defaultPath()))
        let formatter = AlertFormatter(style: json ? .json : .human(colour: Terminal.colourOnStdout))
        let hub = FeedHub(now: Date().timeIntervalSince1970)
        let gateway = LiveGateway(log: log, hub: hub, onAlerts: { alerts in
            Terminal.out(alerts.map(formatter.format))
        }, onLogError: { error in
            Terminal.error("warning: \(error) — alerts are still printed; free space or fix permissions to resume logging")
        })
        let signalQueue = DispatchQueue(label: "gatewayd.signals")
        var sources: [any DispatchSourceProtocol] = []
        var feeds: [String] = []
        let http = FeedServer(hub: hub)
        var nmea: NMEAServer? = nil
        do {
            let senders = try forward.filter { $0 != "auto" }.map { f throws(GatewayError) in
                let (host, port) = Self.hostPort(f)!
                return try UDPSender(host: host, port: port)
            }
            try gateway.forward(to: senders, auto: forward.contains("auto"))
            if let airspace { gateway.setAirspace(try AirspaceFile.read(path: airspace)) }
            try gateway.start(bind: bind, port: udpPort, gpsd: gpsd.flatMap(GPSDClient.parse))
            if httpPort > 0 {
                try http.start(host: httpBind, port: httpPort)
                feeds.append("HTTP http://\(httpBind):\(http.port)/")
            }
            if nmeaPort > 0 {
                nmea = try NMEAServer(address: httpBind, port: UInt16(nmeaPort), hub: hub)
                feeds.append("FLARM NMEA tcp \(httpBind):\(nmeaPort)")
            }
            if !forward.isEmpty { feeds.append("GDL90 forward to " + forward.joined(separator: ", ")) }
        } catch {
            throw CommandFailure("\(error)")
        }
        // Stop on SIGINT/SIGTERM (one that came during start-up is waiting in the pipe already).
        let nmeaServer = nmea
        let waiter = Thread {
            let received = stop.wait()
            Terminal.error("gatewayd: stopping on \(received == SIGINT ? "SIGINT" : "SIGTERM") (\(gateway.status().line))")
            gateway.stop()
            http.stop()
            nmeaServer?.stop()
            do {
                try log?.database.close()
            } catch {
                Terminal.error("warning: \(error)")
            }
            Foundation.exit(0)
        }
        waiter.start()
        Terminal.error("gatewayd: listening for GDL90 on UDP \(bind):\(gateway.port)\(log.map { ", alert log \($0.database.path)" } ?? "")")
        if !feeds.isEmpty { Terminal.error("gatewayd: feeds: " + feeds.joined(separator: "; ")) }
        if statusInterval > 0 {
            let timer = DispatchSource.makeTimerSource(queue: signalQueue)
            timer.schedule(deadline: .now() + .seconds(statusInterval), repeating: .seconds(statusInterval))
            timer.setEventHandler { Terminal.error("status: \(gateway.status().line)") }
            timer.resume()
            sources.append(timer)
        }
        withExtendedLifetime(sources) { dispatchMain() }
    }

    /// "host:port" split, or nil.
    static func hostPort(_ text: String) -> (String, UInt16)? {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]), port > 0 else { return nil }
        let host = String(text[..<colon])
        return host.isEmpty ? nil : (host, port)
    }
}
