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
            Stratux sends GDL90 to UDP port 4000 of each Wi-Fi client that holds a DHCP lease and answers ping with that port open. Alerts go to stdout (and the alert log); a status line goes to stderr every --status-interval seconds. SIGINT/SIGTERM stop it cleanly.

            Try it without a receiver, in two terminals:
              gatewayd run --udp-port 4000
              gatewayd send fixtures/demo-flight.pcap --to 127.0.0.1:4000 --speed 10
            """
    )

    @Option(help: "UDP port to listen on (default 4000).")
    var udpPort: UInt16?

    @Option(help: "IPv4 address to bind (default 0.0.0.0: every interface).")
    var bind: String?

    @Option(help: "gpsd as host:port (port 2947 if omitted), used when GDL90 ownship has no fix.")
    var gpsd: String?

    @Option(help: ArgumentHelp(
        "Flight recorder: keep every datagram and gpsd fix received in this folder (pcapng and gpspipe JSON, one pair an hour).",
        discussion: "Replay a recording with: gatewayd replay DIR/gdl90-….pcapng --gps DIR/gdl90-….gps.jsonl. The folder is capped by [recorder] max_mb (200 MB by default): the oldest hour goes first."))
    var record: String?

    @Option(name: .customLong("accept-from"), help: ArgumentHelp(
        "Accept GDL90 only from this IPv4 address (repeatable; default: from anyone).",
        discussion: "On a Stratux Wi-Fi network every passenger's phone can send to UDP 4000: --accept-from 192.168.10.1 takes the Stratux's stream only."))
    var acceptFrom: [String] = []

    @Flag(help: "Print alerts as JSON Lines.")
    var json = false

    @Option(help: "SQLite database for the alert log (default: $XDG_DATA_HOME/gatewayd/gateway.sqlite).")
    var database: String?

    @Flag(help: "Do not keep an alert log.")
    var noDatabase = false

    @Option(help: "HTTP port for the feeds (/data/aircraft.json, /traffic.geojson, /alerts SSE, /healthz, /metrics; default 8090; 0: none).")
    var httpPort: Int?

    @Option(help: "IPv4 address the HTTP and NMEA feeds bind (default 0.0.0.0).")
    var httpBind: String?

    @Option(help: ArgumentHelp(
        "Re-broadcast GDL90 to host:port (repeatable), with the alert bit set from our alerts; 'auto': to EFBs that announce themselves on UDP 63093.",
        discussion: "Do not forward to EFBs on the Stratux Wi-Fi: they already get its stream and would show every aircraft twice."))
    var forward: [String] = []

    @Option(help: "TCP port for FLARM NMEA ($PFLAU/$PFLAA/$GPRMC/$GPGGA) for XCSoar-family apps (default 2000; 0: none).")
    var nmeaPort: Int?

    @Option(help: "Airspace to watch: a GeoJSON file of areas (what /airspace.geojson serves), e.g. fixtures/demo-airspace.geojson.")
    var airspace: String?

    @Option(help: "NOTAMs to watch from a file in the FAA NOTAM API's JSON shape (besides those stored by `notams fetch`).")
    var notams: String?

    @Option(help: "Refresh NOTAMs from this source while running: faa-api, faa-nms or faa-search (see `gatewayd notams fetch`).")
    var notamSource: String?

    @Option(help: "ICAO locations to refresh NOTAMs for (repeatable; with --notam-source).")
    var notamLocation: [String] = []

    @Option(help: "Hours between NOTAM refreshes (default 6).")
    var notamRefreshHours: Double?

    @Option(help: "Seconds between status lines on stderr (default 60; 0: none).")
    var statusInterval: Int?

    @Option(help: "Configuration file (default /etc/gatewayd/gatewayd.toml when it exists); flags override it.")
    var config: String?

    @Option(help: "Log level on stderr: error, warning or info (default info).")
    var logLevel: String?

    /// Defaults, then the configuration file, then the flags given.
    func effective() throws -> GatewayConfig {
        var c: GatewayConfig
        do {
            c = try GatewayConfig.load(path: config ?? GatewayConfig.defaultPath, required: config != nil)
        } catch {
            throw CommandFailure("\(error)")
        }
        if let v = udpPort { c.udpPort = Int(v) }
        if let v = bind { c.bind = v }
        if let v = gpsd { c.gpsd = v }
        if !acceptFrom.isEmpty { c.acceptFrom = acceptFrom }
        if let record { c.recordDirectory = record }
        if json { c.json = true }
        if let v = database { c.database = v }
        if noDatabase { c.databaseEnabled = false }
        if let v = httpPort { c.httpPort = v }
        if let v = httpBind { c.httpBind = v }
        if !forward.isEmpty { c.forward = forward }
        if let v = nmeaPort { c.nmeaPort = v }
        if let v = airspace { c.airspaceFile = v }
        if let v = notams { c.notamsFile = v }
        if let v = notamSource { c.notamSource = v }
        if !notamLocation.isEmpty { c.notamLocations = notamLocation }
        if let v = notamRefreshHours { c.notamRefreshHours = v }
        if let v = statusInterval { c.statusInterval = v }
        if let v = logLevel { c.logLevel = v }
        try Self.validate(c)
        return c
    }

    /// Checks the merged settings; errors name the setting.
    static func validate(_ c: GatewayConfig) throws {
        if let g = c.gpsd, GPSDClient.parse(g) == nil { throw ValidationError("gpsd \(g) is not host or host:port") }
        if c.statusInterval < 0 { throw ValidationError("--status-interval must be 0 or more") }
        if !(0...65535).contains(c.udpPort) { throw ValidationError("--udp-port must be 0...65535 (0: any free port)") }
        if !(0...65535).contains(c.httpPort) { throw ValidationError("--http-port must be 0...65535") }
        if !(0...65535).contains(c.nmeaPort) { throw ValidationError("--nmea-port must be 0...65535") }
        if !["error", "warning", "info"].contains(c.logLevel) { throw ValidationError("--log-level must be error, warning or info") }
        if let s = c.notamSource, !["faa-api", "faa-nms", "faa-search"].contains(s) { throw ValidationError("--notam-source must be faa-api, faa-nms or faa-search") }
        if c.notamSource != nil && c.notamLocations.isEmpty { throw ValidationError("--notam-source needs --notam-location ICAO (repeatable)") }
        if !(0.05...720).contains(c.notamRefreshHours) {
            throw ValidationError("--notam-refresh-hours must be from 0.05 (production limits allow a pull every few minutes) to 720 (30 days)")
        }
        for f in c.forward where f != "auto" && hostPort(f) == nil {
            throw ValidationError("--forward \(f) is not host:port or auto")
        }
    }

    func run() throws {
        let descriptors = DescriptorLimit.raiseSoftLimit()
        Terminal.onStdoutClosed = { Terminal.warning("gatewayd: stdout was closed; alerts go on to the feeds and the alert log") }
        let c = try effective()
        Terminal.level = c.logLevel
        // SIGINT/SIGTERM: a handler installed first thing writes the signal number to a pipe
        // (async-signal-safe); one thread waits on the pipe and stops everything. A signal that
        // arrives while starting up waits in the pipe instead of being lost.
        let stop = try StopSignal.install()
        let systemd = SystemdNotifier()
        let log = !c.databaseEnabled ? nil : try AlertLog(database: GatewayDatabase(path: c.database ?? GatewayDatabase.defaultPath()))
        let formatter = AlertFormatter(style: c.json ? .json : .human(colour: Terminal.colourOnStdout))
        let hub = FeedHub(now: Date().timeIntervalSince1970)
        let gateway = LiveGateway(core: GatewayCore(configuration: c.coreConfiguration), log: log, hub: hub, onAlerts: { alerts in
            Terminal.out(alerts.map(formatter.format))
        }, onLogError: { error in
            Terminal.warning("warning: \(error) — alerts are still printed; free space or fix permissions to resume logging")
        })
        gateway.onNotice = { Terminal.warning("note: \($0)") }
        if let dir = c.recordDirectory {
            do {
                gateway.recorder = try FlightRecorder(directory: dir, maximumBytes: Int64(c.recordMaxMB) << 20) { Terminal.warning("warning: \($0)") }
            } catch { throw CommandFailure("\(error)") }
        }
        let signalQueue = DispatchQueue(label: "gatewayd.signals")
        var sources: [any DispatchSourceProtocol] = []
        var feeds: [String] = []
        var notamTimers: [any DispatchSourceProtocol] = []
        var nmea: NMEAServer? = nil
        var http = FeedServer(hub: hub, token: c.httpToken)
        do {
            let senders = try c.forward.filter { $0 != "auto" }.map { f throws(GatewayError) in
                let (host, port) = Self.hostPort(f)!
                if port == c.udpPort, host == "localhost" || LocalAddresses.ipv4().contains(host) {
                    throw GatewayError.invalidInput("--forward \(f) names this gateway's own GDL90 port: it would forward the stream to itself, endlessly")
                }
                return try UDPSender(host: host, port: port)
            }
            try gateway.forward(to: senders, auto: c.forward.contains("auto"), ownPort: UInt16(c.udpPort))
            let store = log.map { NotamStore(database: $0.database) }
            // The cockpit page: the stored NOTAMs and those of --notams files, and the one write it may do.
            var fileNotams: [Notam] = []
            for path in c.notamsFile.map({ [$0] }) ?? [] { try NotamFile.read(path: path) { fileNotams.append($0) } }
            http = FeedServer(hub: hub, token: c.httpToken, cockpit: CockpitSources(
                notams: store, fileNotams: fileNotams, acknowledge: { id in
                    gateway.acknowledge(id)
                    Terminal.info("gatewayd: \(id) acknowledged from the cockpit page")
                }, ackToken: c.ackToken))
            // Files, then the stored NOTAMs in force, one merge rule (AirspaceSet); files checked now.
            let areaSources = (notams: c.notamsFile.map { [$0] } ?? [], airspace: c.airspaceFile.map { [$0] } ?? [], levels: c.airspaceLevels)
            let loadAreas: @Sendable () -> Void = {
                if let areas = try? AirspaceSet.load(database: store?.database, notamFiles: areaSources.notams, airspaceFiles: areaSources.airspace,
                                                     activeAt: Date().timeIntervalSince1970, levels: areaSources.levels) { gateway.setAirspace(areas) }
            }
            gateway.setAirspace(try AirspaceSet.load(database: store?.database, notamFiles: areaSources.notams, airspaceFiles: areaSources.airspace,
                                                     activeAt: Date().timeIntervalSince1970, levels: areaSources.levels))
            if let store {
                // FIS-B NOTAMs heard in flight go into the store too (merged with fetched copies).
                let writes = DispatchQueue(label: "gatewayd.fisb-notams")
                gateway.onFISBNotams = { reports in
                    writes.async {
                        let notams = reports.compactMap(Notam.init(fisb:))
                        guard !notams.isEmpty else { return }
                        do {
                            try store.refresh(source: "fisb", notams: notams, at: Date().timeIntervalSince1970) { $0.source == "fisb" }
                        } catch {
                            Terminal.warning("notams: FIS-B NOTAMs not stored: \(error)")
                        }
                    }
                }
            }
            // Activity windows move and `notams fetch` may have run: re-read the stored set each minute.
            let areaTimer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "gatewayd.notams"))
            areaTimer.schedule(deadline: .now() + 60, repeating: 60)
            areaTimer.setEventHandler(handler: loadAreas)
            areaTimer.resume()
            notamTimers.append(areaTimer)
            if let log {
                // `gatewayd alerts ack ID` writes to the database; pass new acknowledgements on.
                let seen = LockedCounter(value: (try? log.acknowledgements(after: 0).last?.0) ?? 0)
                let ackTimer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "gatewayd.acks"))
                ackTimer.schedule(deadline: .now() + 5, repeating: 5)
                ackTimer.setEventHandler {
                    for (rowid, target) in (try? log.acknowledgements(after: seen.value)) ?? [] {
                        gateway.acknowledge(target)
                        seen.value = rowid
                        Terminal.info("gatewayd: \(target) acknowledged")
                    }
                }
                ackTimer.resume()
                notamTimers.append(ackTimer)
            }
            if let source = c.notamSource, let store {
                notamTimers.append(Self.scheduleRefresh(source: source, config: c, store: store, then: loadAreas))
            }
            try gateway.start(bind: c.bind, port: UInt16(c.udpPort), gpsd: c.gpsd.flatMap(GPSDClient.parse), acceptFrom: c.acceptFrom)
            if c.httpPort > 0 {
                try http.start(host: c.httpBind, port: c.httpPort)
                feeds.append("HTTP http://\(c.httpBind):\(http.port)/")
            }
            if c.nmeaPort > 0 {
                nmea = try NMEAServer(address: c.httpBind, port: UInt16(c.nmeaPort), hub: hub)
                feeds.append("FLARM NMEA tcp \(c.httpBind):\(c.nmeaPort)")
            }
            if !c.forward.isEmpty { feeds.append("GDL90 forward to " + c.forward.joined(separator: ", ")) }
        } catch {
            throw CommandFailure("\(error)")
        }
        // Stop on SIGINT/SIGTERM (one that came during start-up is waiting in the pipe already).
        let nmeaServer = nmea
        let httpServer = http
        let waiter = Thread {
            let received = stop.wait { sig in
                Terminal.warning("gatewayd: \(StopSignal.name(sig)) ignored\(sig == SIGHUP ? " (a configuration change needs a restart: systemctl restart gatewayd)" : "")")
            }
            Terminal.info("gatewayd: stopping on \(StopSignal.name(received)) (\(gateway.status().line))")
            systemd.notify("STOPPING=1")
            gateway.stop()
            httpServer.stop()
            nmeaServer?.stop()
            do {
                try log?.database.close()
            } catch {
                Terminal.error("warning: \(error)")
            }
            Foundation.exit(0)
        }
        waiter.start()
        Terminal.info("gatewayd: listening for GDL90 on UDP \(c.bind):\(gateway.port)\(log.map { ", alert log \($0.database.path)" } ?? "")")
        if !feeds.isEmpty { Terminal.info("gatewayd: feeds: " + feeds.joined(separator: "; ")) }
        if let dir = c.recordDirectory { Terminal.info("gatewayd: recording to \(dir) (at most \(c.recordMaxMB) MB)") }
        if descriptors < 1_100 { Terminal.warning("gatewayd: only \(descriptors) open files allowed: raise LimitNOFILE (the HTTP and NMEA caps need about 600)") }
        // systemd (Type=notify): started; the watchdog is petted from the core's queue.
        systemd.notify("READY=1\nSTATUS=listening for GDL90 on UDP \(c.bind):\(gateway.port)")
        if let watchdog = systemd.startWatchdog(on: gateway.queue) { sources.append(watchdog) }
        if c.statusInterval > 0 {
            let timer = DispatchSource.makeTimerSource(queue: signalQueue)
            timer.schedule(deadline: .now() + .seconds(c.statusInterval), repeating: .seconds(c.statusInterval))
            timer.setEventHandler {
                let line = gateway.status().line
                Terminal.info("status: \(line)")
                systemd.notify("STATUS=\(line)")
            }
            timer.resume()
            sources.append(timer)
        }
        withExtendedLifetime((sources, notamTimers)) { dispatchMain() }
    }

    /// "host:port" split, or nil.
    static func hostPort(_ text: String) -> (String, UInt16)? {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]), port > 0 else { return nil }
        let host = String(text[..<colon])
        return host.isEmpty ? nil : (host, port)
    }

    /// Fetches NOTAMs now and every `hours`; a failure is reported and the stored set kept.
    /// Credentials and base URL come from `config` (`notams.*`), read again at each refresh.
    static func scheduleRefresh(source: String, config: GatewayConfig, store: NotamStore,
                                then reload: @escaping @Sendable () -> Void) -> any DispatchSourceProtocol {
        let locations = config.notamLocations, hours = config.notamRefreshHours
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "gatewayd.notam-refresh"))
        timer.schedule(deadline: .now() + 2, repeating: hours * 3600)
        timer.setEventHandler {
            var http = HTTPClient()
            http.onRetry = { attempt, reason in Terminal.error("notams: \(reason); retry \(attempt) of 3") }
            let query = NotamQuery(locations: locations)
            do {
                let notams: [Notam]
                if source == "faa-api" {
                    let credentials = try config.notamCredentials()
                    let api = config.notamURL.map { FAANotamAPI(baseURL: $0, credentials: credentials, http: http) }
                    notams = try (api ?? FAANotamAPI(credentials: credentials, http: http)).fetch(query)
                } else if source == "faa-nms" {
                    let credentials = try config.notamCredentials()
                    let nms = config.notamURL.map { FAANotamNMS(baseURL: $0, credentials: credentials, http: http) }
                    notams = try (nms ?? FAANotamNMS(credentials: credentials, http: http)).fetch(query)
                } else {
                    let search = config.notamURL.map { FAANotamSearch(baseURL: $0, http: http) }
                    notams = try (search ?? FAANotamSearch(http: http)).fetch(query)
                }
                let wanted = Set(locations)
                let changes = try store.refresh(source: source, notams: notams, at: Date().timeIntervalSince1970) { n in
                    n.location.map(wanted.contains) ?? false
                }
                reportChanges(changes, source: source, count: notams.count)
                reload()
            } catch {
                Terminal.warning("notams: refresh from \(source) failed: \(error) — flying on the \((try? store.count()) ?? 0) stored NOTAMs")
            }
        }
        timer.resume()
        return timer
    }
}

/// A value touched only from one serial timer queue.
final class LockedCounter: @unchecked Sendable {
    var value: Int64
    init(value: Int64) { self.value = value }
}
