import GatewaySupport
import GatewayDomain
import GatewayRecords
import GatewayNotams
import GatewayFeeds
import GatewayFleet
import GatewayWeather
import GatewayNotify
import GatewayForecast
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ServiceLifecycle
import UnixSignals

/// The live gateway (`gatewayd run`) put together from a `GatewayConfig`: the alert log, the
/// ingest and its core, the flight recorder, forwarding, the NOTAM files and store, the feeds,
/// systemd, the timers, and one `ServiceGroup` that runs them all and stops them all on SIGTERM
/// or SIGINT. The executable parses flags into the configuration and calls `run()`.
package struct GatewayApp: Sendable {
    /// The merged settings (defaults, file, flags), already validated.
    package let config: GatewayConfig
    /// Where alerts and log lines go.
    package let console: GatewayConsole
    /// systemd's notification socket and watchdog (does nothing outside systemd).
    package let systemd: SystemdNotifier
    private let clock: any Clock<Duration>
    /// A capture played as the input instead of the UDP socket (`run --replay`), nil for live.
    package let replay: CaptureSource?

    /// An app for `config`, writing to `console`; the timers run on `clock`. With `replay`, the
    /// capture is the input and its time the gateway's clock (no UDP socket is bound).
    package init(config: GatewayConfig, console: GatewayConsole, systemd: SystemdNotifier = SystemdNotifier(),
                clock: any Clock<Duration> = ContinuousClock(), replay: CaptureSource? = nil) {
        self.config = config
        self.console = console
        self.systemd = systemd
        self.clock = clock
        self.replay = replay
    }

    /// The signals that stop the gateway gracefully.
    package static let stopSignals: [UnixSignal] = [.sigterm, .sigint]
    /// Signals whose default action would kill the daemon with no log line and no WAL checkpoint:
    /// reported and ignored (a reload needs a restart; the others mean nothing here).
    package static let ignoredSignals: [UnixSignal] = [.sighup, .sigusr1, .sigusr2, .sigalrm]

    /// Starts everything, runs until SIGTERM or SIGINT, stops everything (the database last) and
    /// returns. Errors while starting (a port in use, an unreadable file) are thrown before any
    /// "listening" line.
    package func run() async throws {
        // Trapped first: a signal that comes while starting waits for the group instead of killing us.
        let console = self.console
        let signals = await SignalService(stop: Self.stopSignals, ignored: Self.ignoredSignals) { signal in
            console.warning("gatewayd: \(signal) ignored\(signal == .sighup ? " (a configuration change needs a restart: systemctl restart gatewayd)" : "")")
        }
        let started = try start(signals: signals)
        // The signals are the group's first service: the first stop signal ends it, and the group
        // then stops the others gracefully, in reverse order. The group's own lines are not for the user.
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: signals, successTerminationBehavior: .gracefullyShutdownGroup)] + started.services.map { .init(service: $0) },
            logger: Logger(label: "gatewayd.services") { _ in SwiftLogNoOpLogHandler() })
        configuration.gracefulShutdownSignals = []
        try await ServiceGroup(configuration: configuration).run()
    }

    /// Opens the alert log, binds every socket, loads the airspace, prints the "listening" lines
    /// and tells systemd READY=1; returns the services to run. On an error whatever was opened is
    /// closed again. `signals`, when given, names the stop signal in the stopping line.
    package func start(signals: SignalService? = nil) throws(GatewayError) -> StartedGateway {
        let c = config, console = self.console, clock = self.clock, systemd = self.systemd
        let descriptors = DescriptorLimit.raiseSoftLimit()
        // A storage fault (a full or read-only card, a corrupt or newer database) never stops the
        // alerts: the database is then kept in memory, said once here, on /healthz, the status line
        // and the page, and tried again every minute.
        let log = c.databaseEnabled ? AlertLog(database: openDatabase(c.database ?? GatewayDatabase.defaultPath())) : nil
        let store = log.map { NotamStore(database: $0.database) }
        let gpsd = c.gpsd.map { GPSDSource(host: $0.host, port: $0.port) }
        let sbs = c.sbs.map { SBSSource(host: $0.host, port: $0.port) { console.info("gatewayd: " + $0) } }
        let now: @Sendable () -> Double
        if let replay { now = { replay.now() } } else { now = { Date().timeIntervalSince1970 } }
        let hub = FeedHub(now: now())
        let near = c.ognNear.flatMap(AirportTable.place)
        let ogn = c.ogn.map { a in
            OGNSource(host: a.host, port: a.port, rangeKm: c.ognRangeKm, position: { near ?? hub.snapshot.ownship?.position }) { console.info("gatewayd: " + $0) }
        }
        // The terminal is a bounded consumer off the core's queue: a paused terminal (Ctrl-S, a full
        // pipe) costs dropped lines, counted and said, never a stalled core.
        let terminal = BoundedConsumer(label: "gatewayd.terminal", limit: 1_024) { (lines: [String]) in console.alerts(lines) }
        // FIS-B NOTAMs heard in flight are written from their own queue, drained before the database closes.
        let fisbWrites = DispatchQueue(label: "gatewayd.fisb-notams")
        // The radar pictures (issue 42): the gridded FIS-B blocks assembled off the core's queue.
        let radar = RadarStore()
        // The fleet (issue 43): published from the alert log and the logbook (at least once, in order).
        let publisher = try fleetPublisher(database: log?.database, clock: now)
        // Notifications (issue 54): an outbox in the database, delivered from this process.
        let notifier = log.flatMap { log in c.notifier(database: log.database, clock: now) { console.warning($0) } }
        if let notifier { console.info("gatewayd: notifications to " + notifier.settings.targets.map(\.description).joined(separator: ", ") + " (at or above \(c.notify.minSeverity))") }
        var sinks = self.sinks(log: log, store: store, terminal: terminal, fisbWrites: fisbWrites, notifier: notifier) + [RadarSink(store: radar)]
        if let publisher {
            sinks.lazy.compactMap { $0 as? AlertLogSink }.first?.whenWritten { publisher.nudge() }
            // After the logbook's sink: the flight closed at shutdown is kept before this one finishes.
            sinks.append(FleetSink(publisher: publisher, trafficEverySec: c.fleetTrafficEverySec))
        }
        // The running parts (StartedParts.swift), in the order they stop last (the group stops
        // them in reverse); `undo` stops them when the start fails half-way.
        var edges: [any Service] = []
        var undo: [@Sendable () -> Void] = []
        // Alert lines still waiting for the terminal are printed before the process ends.
        edges.append(TerminalLines(consumer: terminal))
        undo.append { terminal.drain() }
        if let log {
            let database = AlertLogDatabase(log: log, writes: fisbWrites, console: console)
            edges.append(database)
            undo.append { database.close() }
        }
        if let publisher {
            // The fleet's MQTT session: its shutdown stops the publisher (a last status, the cursor
            // written), before the alert log's edge closes the database (edges stop in reverse).
            if let session = publisher.service { edges.append(session) }
            undo.append { publisher.stop() }
        }
        var feeds: [String] = []
        var httpPort: Int?
        let gateway: LiveGateway
        // The timers: the sources' (tick, polls, reloads), the recorder's flush, then the app's own.
        var timers: [any Service] = []
        do {
            let recorder = try c.recordDirectory.map { dir throws(GatewayError) in
                try FlightRecorder(directory: dir, maximumBytes: Int64(c.recordMaxMB) << 20, clock: clock) { console.warning("warning: \($0)") }
            }
            if let recorder {
                edges.append(recorder)
                undo.append { recorder.close() }
            }
            let (forwarder, discovery) = try forwarding(hub: hub)
            // Every alert event gets a stable id, "<boot>-<seq>" (the SSE stream's id, the fleet's
            // deduplication key): the boot a row of the database, else this start's time in ms.
            let started = Date().timeIntervalSince1970
            let boot = log?.database.startBoot(time: started, version: GatewayVersion.current) ?? Int64(started * 1000)
            gateway = LiveGateway(core: GatewayCore(configuration: c.coreConfiguration), hub: hub, sinks: sinks + (forwarder.map { [$0] } ?? []),
                                  forwarding: forwarder != nil, recorder: recorder, eventIDs: AlertEventIDs(boot: boot), clock: now)
            // The sources, in the order they start: the airspace in place before the first datagram.
            let acknowledgements = AcknowledgementSource(log: log, clock: clock) { id, fromPage in
                console.info("gatewayd: \(id) acknowledged\(fromPage ? " from the cockpit page" : "")")
            }
            gateway.add(airspaceSource(store: store, notifier: notifier, clock: now))
            gateway.add(acknowledgements)
            if let discovery { gateway.add(discovery) }
            if let gpsd { gateway.add(gpsd) }
            if let sbs { gateway.add(sbs) }
            if let ogn { gateway.add(ogn) }
            gateway.add(replay ?? UDPSource(address: c.bind, port: UInt16(c.udpPort), acceptFrom: c.acceptFrom))
            gateway.add(TickSource(every: replay.map { .seconds(max(0.05, 1 / $0.speed)) } ?? .seconds(1), clock: clock))
            replay?.whenPlayed { console.info("gatewayd: " + $0) }
            try gateway.start()
            edges.append(gateway)
            undo.append { gateway.stop() }
            timers = gateway.services + (recorder?.services ?? [])
            (feeds, httpPort) = try self.feeds(hub: hub, store: store, log: log, radar: radar, acknowledgements: acknowledgements,
                                                fleet: publisher.map { p in { @Sendable in Self.fleetLine(p.status) } }, into: &edges, undo: &undo)
            if !c.forward.isEmpty { feeds.append("GDL90 forward to " + c.forward.map(\.description).joined(separator: ", ")) }
            if let publisher { feeds.append("fleet \(publisher.settings.broker) as \(publisher.settings.id ?? "")") }
        } catch {
            for stop in undo.reversed() { stop() }
            throw error
        }
        if descriptors < 1_100 { console.warning("gatewayd: only \(descriptors) open files allowed: raise LimitNOFILE (the HTTP and NMEA caps need about 600)") }
        if let replay {
            let names = replay.sessions.flatMap { $0.captures + $0.aprsLogs }
            console.info("gatewayd: playing \(names.count == 1 ? names[0] : "\(names.count) captures") at \(JSONWriter.format(replay.speed, decimals: 1))× real time\(replay.loop ? ", looping" : ""); the clock is the capture's, from \(Timestamp.iso8601(replay.start))\(log.map { ", alert log \($0.database.path)\($0.database.degradedReason == nil ? "" : " (in memory: storage degraded)")" } ?? "")")
        } else {
            console.info("gatewayd: listening for GDL90 on UDP \(c.bind):\(gateway.port)\(log.map { ", alert log \($0.database.path)\($0.database.degradedReason == nil ? "" : " (in memory: storage degraded)")" } ?? "")")
        }
        if !feeds.isEmpty { console.info("gatewayd: feeds: " + feeds.joined(separator: "; ")) }
        if let dir = c.recordDirectory { console.info("gatewayd: recording to \(dir) (at most \(c.recordMaxMB) MB)") }
        // systemd (Type=notify): started; the watchdog is petted from the core's queue, so a
        // stalled core (not a quiet receiver) is what systemd restarts.
        systemd.notify("READY=1\nSTATUS=listening for GDL90 on UDP \(c.bind):\(gateway.port)")
        if let watchdog = systemd.watchdog(petting: gateway.queue, clock: clock) { timers.append(watchdog) }
        if c.statusInterval > 0 { timers.append(statusLine(gateway, gpsd: gpsd, sbs: sbs, ogn: ogn, database: log?.database, fleet: publisher)) }
        if let database = log?.database, database.degradedReason != nil { timers.append(databaseRetry(database)) }
        if let database = log?.database, let area = WeatherArea.of(near: c.weatherNear, radiusNM: c.weatherRadiusNM, route: c.weatherRoute) {
            timers.append(weatherRefresh(area, database: database, notifier: notifier))
        }
        if let forecast = forecastRefresh(database: log?.database.path ?? c.database ?? GatewayDatabase.defaultPath()) { timers.append(forecast) }
        if let notifier, let database = log?.database {
            // Every 30 s: the gateway's own episodes, then what waits in the outbox (past its backoff).
            let watch = GatewayWatch(episodes: GatewayEpisodes(settings: notifier.settings, outbox: notifier.outbox, name: c.fleetID.map { "gateway \($0)" } ?? "skygate"),
                                     messages: { gateway.status().counters.messages }, storage: { database.degradedReason },
                                     broker: { publisher.flatMap { p in p.status.connected ? nil : p.status.problem.flatMap { $0.contains("refused") || $0.contains("authori") ? "The fleet broker \(p.settings.broker) refuses the gateway: \($0)" : nil } } },
                                     clock: now)
            timers.append(PeriodicService("notifications", delay: .seconds(5), every: .seconds(30), clock: clock) {
                _ = await Offload.run(on: .global()) { watch.check() }
                await notifier.deliver(ignoringBackoff: false)
            })
        }
        if let alertLog = sinks.lazy.compactMap({ $0 as? AlertLogSink }).first {
            // Alert changes a locked or full database did not take are tried again every 5 s.
            timers.append(PeriodicService("alert log retry", delay: .seconds(5), every: .seconds(5), clock: clock) { alertLog.retryUnwritten() })
        }
        // Stopped first: the line that says why, and systemd's STOPPING=1.
        let stoppingLine = StoppingLine(gateway: gateway, signals: signals, console: console, systemd: systemd)
        let stops = undo
        return StartedGateway(gateway: gateway, hub: hub, udpPort: gateway.port, httpPort: httpPort, log: log,
                              services: edges + timers + [stoppingLine], stopParts: { for stop in stops.reversed() { stop() } })
    }

    /// The sinks, in the order they are handed outputs (the feeds' hub comes first, with the
    /// gateway; the forwarder is added with its discovery source): the terminal, notices, heap
    /// trim, the alert log and the logbook, the NOTAM store, the voice.
    private func sinks(log: AlertLog?, store: NotamStore?, terminal: BoundedConsumer<[String]>, fisbWrites: DispatchQueue, notifier: Notifier?) -> [any GatewaySink] {
        let c = config, console = self.console
        let formatter = AlertFormatter(style: c.json ? .json : .human(colour: console.colour))
        var sinks: [any GatewaySink] = [AlertHandlerSink { alerts in
            if !terminal.submit(alerts.map(formatter.format)), terminal.dropped == 1 || terminal.dropped % 1_000 == 0 {
                console.warning("warning: stdout is not keeping up: \(terminal.dropped) batch(es) of alert lines not printed (the feeds and the alert log have them)")
            }
        }, NoticeSink { console.warning("note: \($0)") }, HeapTrimSink()]
        if let log {
            // Its words name the cause (a lock held by another process, a full disk); what was not
            // written waits and is written when it can be.
            sinks.append(AlertLogSink(log: log) { console.warning("warning: \($0)") })
            // The logbook (issue 23): flights kept in the same database as they end.
            let airports = AirportTable.located()
            if airports == nil { console.warning("gatewayd: " + AirportTable.notFound()) }
            let logbook = Logbook(store: LogbookStore(database: log.database), airports: airports, source: replay == nil ? "live" : "run --replay")
            // Takeoff and landing told (`[notify] flight_events`), from the logbook's detector.
            let flights = notifier.flatMap { $0.settings.flightEvents ? $0 : nil }
            let name = c.fleetID ?? "skygate"
            sinks.append(LogbookSink(logbook: logbook, onTakeoff: { sample in
                guard let flights else { return }
                let airport = sample.position.flatMap { airports?.nearest(to: $0, withinNM: 3)?.airport.spoken }
                let n = FlightNotices.notification("takeoff", airport: airport, at: sample.time, name: name, settings: flights.settings)
                Task { await flights.notify([n]) }  // concurrency: a notification handed to the notifier's own delivery, off the logbook's queue
            }, onFlight: { f in
                console.info("gatewayd: logbook: \(FlightImport.line(f, nil))")
                guard let flights, let landing = f.landing else { return }
                let n = FlightNotices.notification("landing", airport: f.arrival, at: landing, from: f.departure, since: f.takeoff, name: name, settings: flights.settings)
                Task { await flights.notify([n]) }  // concurrency: as above
            }, onError: { console.warning("warning: logbook: \($0)") }))
        }
        if let store { sinks.append(storeFISBNotams(in: store, on: fisbWrites)) }
        // The voice (issue 22): spoken callouts, a sink with its own queue and playback thread (the
        // vocabulary renders and the device opens there); finished when the ingest stops.
        if c.voiceEnabled {
            let voice = VoiceSink(settings: c.voiceSettings, log: { console.warning($0) })
            voice.start()
            sinks.append(voice)
            console.info("gatewayd: voice callouts on ALSA device '\(c.voiceDevice)'")
        }
        return sinks
    }

    /// The feeds' servers (HTTP with the cockpit page, FLARM NMEA), bound and added to `edges`;
    /// returns their lines for the log and the HTTP port.
    private func feeds(hub: FeedHub, store: NotamStore?, log: AlertLog?, radar: RadarStore, acknowledgements: AcknowledgementSource,
                       fleet: (@Sendable () -> String)?, into edges: inout [any Service], undo: inout [@Sendable () -> Void]) throws(GatewayError) -> ([String], Int?) {
        let c = config
        var feeds: [String] = []
        var httpPort: Int?
        // The cockpit page: the stored NOTAMs and those of the NOTAM file, and the one write it may do.
        // The file (checked when the airspace source started) is read off the start path (issue 40).
        let fileNotams = LaterNotams()
        if let path = c.notamsFile {
            // A queue of its own: a long read must not hold a thread of the global pool.
            DispatchQueue(label: "gatewayd.notam-file").async { fileNotams.set((try? NotamFile.read(path: path)) ?? []) }
        }
        var cockpit = CockpitSources(notams: store, acknowledge: { acknowledgements.acknowledge($0) },
                                     ackToken: c.ackToken, logbook: log.map { LogbookStore(database: $0.database) })
        cockpit.laterFileNotams = fileNotams
        cockpit.radar = radar
        cockpit.fleet = fleet
        cockpit.weather = log.map { WeatherStore(database: $0.database) }
        // The forecast runs where the refresh keeps them (and `weather forecast fetch` with the
        // same database), served whether or not this run refreshes them.
        let forecast = ForecastStore(database: log?.database.path ?? c.database ?? GatewayDatabase.defaultPath())
        let preferred = ForecastModel(rawValue: c.forecastModel)
        cockpit.forecast = ForecastFiles(index: { forecast.indexJSON(preferred: preferred) },
                                         path: { forecast.servedFile(model: $0, run: $1, name: $2) })
        if let near = c.weatherNear, let position = AirportTable.place(near) { cockpit.home = (near, position) }
        let http = FeedServer(hub: hub, token: c.httpToken, cockpit: cockpit)
        if c.httpPort > 0 {
            // Hummingbird's application, a service of the group like every other part.
            try http.bind(host: c.httpBind, port: c.httpPort)
            try http.listen()
            edges.append(http)
            undo.append { http.stop() }
            feeds.append("HTTP http://\(c.httpBind):\(http.port)/")
            httpPort = http.port
        }
        if c.nmeaPort > 0 {
            let nmea = try NMEAServer(address: c.httpBind, port: UInt16(c.nmeaPort), hub: hub)
            edges.append(nmea)
            undo.append { nmea.stop() }
            feeds.append("FLARM NMEA tcp \(c.httpBind):\(c.nmeaPort)")
        }
        return (feeds, httpPort)
    }

    /// Forwarding: a sink sending to the `host:port` targets (never this gateway itself) and, for
    /// `auto`, to the EFBs the discovery source hears; nil when nothing is forwarded.
    private func forwarding(hub: FeedHub) throws(GatewayError) -> (ForwardSink?, DiscoverySource?) {
        let local = LocalAddresses.ipv4()
        var senders: [UDPSender] = []
        for case .host(let target) in config.forward {
            try Self.refuseSelfForward(target, ownPort: config.udpPort, localAddresses: local)
            senders.append(try UDPSender(host: target.host, port: target.port))
        }
        let auto = config.forward.contains(.auto)
        guard !senders.isEmpty || auto else { return (nil, nil) }
        let console = self.console
        return (ForwardSink(targets: senders, efbs: auto ? ForwardSink.registry(ownPort: UInt16(config.udpPort)) : nil, hub: hub,
                            said: { console.info("gatewayd: " + $0) }),
                auto ? DiscoverySource() : nil)
    }

    /// The airspace source: the files, then the stored NOTAMs in force at the gateway's clock (one
    /// merge rule, `AirspaceSet`), re-read every minute and after each NOTAM refresh. Live, the
    /// first load runs off the start path (issue 40: the sockets never wait for NOTAM texts to be
    /// read); the files are checked at start, so a bad one is still an error there: the airspace
    /// file read (GeoJSON, no texts), the NOTAM file's shape (every item a JSON object, some
    /// NOTAM in it) without parsing the texts. Replayed, the first load is part of the start, so
    /// the alerts do not depend on when it ends.
    private func airspaceSource(store: NotamStore?, notifier: Notifier?, clock now: @escaping @Sendable () -> Double) -> AirspaceSource {
        let notamFiles = config.notamsFile.map { [$0] } ?? [], airspaceFiles = config.airspaceFile.map { [$0] } ?? []
        let levels = config.airspaceLevels
        var refresh: (job: AirspaceSource.Refresh, every: Duration)?
        if let source = config.notamSource, let store {
            var job = NotamRefresh(source: source, config: config, store: store)
            job.notices = notifier == nil ? nil : config.notamNotices()
            refresh = (notamRefresh(job, notifier: notifier), .seconds(config.notamRefreshHours * 3600))
        }
        let console = self.console
        return AirspaceSource(load: { (time: Double) throws(GatewayError) in
            try AirspaceSet.load(database: store?.database, notamFiles: notamFiles, airspaceFiles: airspaceFiles, activeAt: time, levels: levels)
        }, check: { () throws(GatewayError) in
            for path in airspaceFiles { _ = try AirspaceFile.read(path: path) }
            for path in notamFiles { try NotamFile.check(path: path) }
        }, firstInBackground: replay == nil, failed: { console.error("error: airspace not loaded (alerting without it; retried every minute): \($0)") },
        refresh: refresh, clock: clock)
    }

    /// FIS-B NOTAMs heard in flight go into the store too (merged with fetched copies), written on
    /// `queue`: latest set wins, each report parsed once (`FISBNotamWriter`).
    private func storeFISBNotams(in store: NotamStore, on queue: DispatchQueue) -> FISBNotamSink {
        let console = self.console
        let writer = FISBNotamWriter(store: store, queue: queue) { error in
            console.warning("notams: FIS-B NOTAMs not stored: \(error)")
        }
        return FISBNotamSink { reports in
            if !writer.submit(reports), writer.superseded == 1 || writer.superseded % 1_000 == 0 {
                console.info("notams: \(writer.superseded) FIS-B NOTAM set(s) replaced by a newer one before they were stored (the latest is kept)")
            }
        }
    }

    /// The fleet's state in a few words: "connected, 3 alert event(s) and 1 flight(s) to send".
    static func fleetLine(_ s: FleetPublisher.Status) -> String {
        let queued = s.queuedAlerts + s.queuedFlights == 0 ? "" : ", \(s.queuedAlerts) alert event(s) and \(s.queuedFlights) flight(s) to send"
        return (s.connected ? "connected" : s.problem ?? "not connected") + queued
    }

    /// The fleet's publisher, started (it connects on its own thread), when `[fleet] broker` is
    /// set: a bad setting or an unreadable password file is an error here, before any
    /// "listening" line; a missing libmosquitto is said and the gateway goes on without a fleet.
    private func fleetPublisher(database: GatewayDatabase?, clock: @escaping @Sendable () -> Double) throws(GatewayError) -> FleetPublisher? {
        guard let settings = try config.fleet(), let database else { return nil }
        let console = self.console
        // The fleet is optional equipment: a password file that cannot be used (missing, empty,
        // a folder, $CREDENTIALS_DIRECTORY unset) is one line, and every alert goes on.
        let password: String?
        do throws(GatewayError) {
            password = try settings.passwordFile.map { path throws(GatewayError) in
                try FleetSettings.readPassword(path: path, environment: ProcessInfo.processInfo.environment)
            }
        } catch {
            console.warning("\(error.reason); not publishing to the fleet (alerts and every other feed go on)")
            return nil
        }
        let publisher = FleetPublisher(settings: settings, password: password, database: database, version: GatewayVersion.current,
                                       clock: clock, timers: self.clock) { line in
            if line.contains(": connected to ") { console.info(line) } else { console.warning(line) }
        }
        do throws(GatewayError) {
            try publisher.start()
        } catch {
            console.warning("\(error.reason); not publishing to the fleet (alerts and every other feed go on)")
            return nil
        }
        return publisher
    }

    /// The database at `path` as `run` uses it (`GatewayDatabase.openForRun`): what happened to a
    /// file that could not be used is said once.
    private func openDatabase(_ path: String) -> GatewayDatabase {
        let (database, notes) = GatewayDatabase.openForRun(path: path)
        for note in notes { console.warning("warning: \(note)") }
        return database
    }

    /// The weather refresh (`[weather]`, issue 42): every product for the area from the Data API,
    /// stored as `weather fetch` stores it; one line a refresh: what came, and what failed (what
    /// is stored stays: the page flies on it).
    private func weatherRefresh(_ area: WeatherArea, database: GatewayDatabase, notifier: Notifier?) -> PeriodicService {
        let console = self.console, c = config
        let client = AviationWeatherClient(baseURL: c.weatherURL ?? AviationWeatherClient.defaultURL)
        let fetch = WeatherFetch(client: client, store: WeatherStore(database: database), area: area)
        console.info("gatewayd: weather from \(SecretMasking.url(client.baseURL)) every \(JSONWriter.format(c.weatherRefreshMin, decimals: 1)) min for \(area.centreStation) and \(Int(area.radiusNM)) NM around")
        return PeriodicService("weather refresh", delay: .seconds(3), every: .seconds(Int64(c.weatherRefreshMin * 60)), clock: clock) {
            let outcomes = await fetch.run(at: Date().timeIntervalSince1970)
            let stored = outcomes.reduce(0) { $0 + $1.fetched }, failed = outcomes.filter { $0.error != nil }
            var line = "gatewayd: weather: \(stored) reports from \(AviationWeatherClient.sourceName)"
            if !failed.isEmpty {
                line += "; failed: " + failed.map { "\($0.product.rawValue) (\($0.error ?? ""))" }.joined(separator: "; ")
                console.warning(line)
            } else {
                console.info(line)
            }
            // A SIGMET or CWA new on the area or route, told once (issue 54).
            guard let notifier else { return }
            let notices = WeatherNotices(settings: notifier.settings, area: c.weatherRoute.count > 1 ? "route " + c.weatherRoute.joined(separator: "–") : "\(area.centreStation) and \(Int(area.radiusNM)) NM around")
            let now = Date().timeIntervalSince1970
            let added = await Offload.run(on: .global()) { () -> Int in
                guard let records = try? WeatherStore(database: database).all(at: now) else { return 0 }
                return (try? database.write { db in try notices.addToOutbox(records, in: db, now: now).count }) ?? 0
            }
            if (added ?? 0) > 0 { Task { await notifier.deliver(ignoringBackoff: false) } }  // concurrency: the notifications' delivery round, off the refresh's path
        }
    }

    /// The forecast radar's refresh (`[forecast]`, issue 55): the newest complete run of the
    /// model for the place or route every `refresh_min` while a network is there, one line a run
    /// fetched; what is kept stays when a fetch fails.
    private func forecastRefresh(database: String) -> PeriodicService? {
        let c = config, console = self.console
        let places = (c.forecastNear.map { [$0] } ?? c.forecastRoute).compactMap(AirportTable.place).map { ($0.latitude, $0.longitude) }
        guard let model = ForecastModel(rawValue: c.forecastModel), let box = ForecastFetch.box(points: places, radiusNM: c.forecastRadiusNM) else { return nil }
        var fetch = ForecastFetch(model: model, west: box.west, south: box.south, east: box.east, north: box.north, store: ForecastStore(database: database))
        if let url = c.forecastURL { fetch.base = url }
        fetch.lastHour = c.forecastHours > 0 ? c.forecastHours : nil
        fetch.keepRuns = c.forecastKeepRuns
        fetch.maxMB = c.forecastMaxMB
        let job = fetch
        console.info("gatewayd: forecast radar (\(model.label)) every \(JSONWriter.format(c.forecastRefreshMin, decimals: 0)) min for \(c.forecastNear ?? c.forecastRoute.joined(separator: "–")) and \(Int(c.forecastRadiusNM)) NM around, into \(job.store.root)")
        return PeriodicService("forecast refresh", delay: .seconds(20), every: .seconds(Int64(c.forecastRefreshMin * 60)), clock: clock) {
            guard let run = await job.newestRun(now: Date().timeIntervalSince1970) else {
                console.warning("gatewayd: forecast: no complete \(model.label) run on the server (no network?); flying on \(job.store.current(model).map { ForecastStore.runName($0.run) } ?? "none kept")")
                return
            }
            if let current = job.store.current(model), current.run >= run { return }
            let outcome = await job.fetch(run: run)
            let r = outcome.run
            let line = "gatewayd: forecast: \(model.label) \(ForecastStore.runName(r.run)): \(r.fetched.count) of \(r.hours.count) hours drawn" + (r.complete ? ", current" : ", partial (missing " + r.missing.map(ForecastStore.stem).joined(separator: " ") + "), completed at the next refresh")
            if r.complete { console.info(line) } else { console.warning(line) }
            for removed in outcome.removed { console.info("gatewayd: forecast: removed \(removed)") }
        }
    }

    /// While the database runs in memory: the file tried again every minute (`retry`), said when
    /// it is usable again.
    private func databaseRetry(_ database: GatewayDatabase) -> PeriodicService {
        let console = self.console
        return PeriodicService("database retry", delay: .seconds(60), every: .seconds(60), clock: clock) {
            guard database.degradedReason != nil, let said = await Offload.run(on: .global(), { database.retry() }), let line = said else { return }
            console.warning("gatewayd: " + line)
        }
    }

    /// The status line on stderr (and systemd's STATUS=) every `statusInterval` seconds.
    private func statusLine(_ gateway: LiveGateway, gpsd: GPSDSource?, sbs: SBSSource?, ogn: OGNSource?, database: GatewayDatabase?, fleet: FleetPublisher?) -> PeriodicService {
        let console = self.console, systemd = self.systemd, interval = Duration.seconds(config.statusInterval)
        return PeriodicService("status line", delay: interval, every: interval, clock: clock) {
            guard let line = await Offload.run(on: .global(), { () -> String in
                var status = gateway.status(gpsd: gpsd?.status)
                status.sbs = sbs?.status
                status.ogn = ogn?.status
                status.storage = database?.degradedReason
                return status.line + (fleet.map { "; fleet: " + Self.fleetLine($0.status) } ?? "")
            }) else { return }
            console.info("status: \(line)")
            systemd.notify("STATUS=\(line)")
        }
    }

    /// The NOTAM fetch (the airspace source runs it 2 s after start and every
    /// `notams.refresh_hours`): a failure is reported and the stored set kept. A shutdown does not
    /// wait for a fetch under way. True when the store changed.
    private func notamRefresh(_ refresh: NotamRefresh, notifier: Notifier?) -> AirspaceSource.Refresh {
        let console = self.console
        return {
            do {
                let notams = try await refresh.fetch { attempt, reason in console.error("notams: \(reason); retry \(attempt) of 3") }
                guard !Task.isCancelled else { return false }
                let stored = await Offload.run(on: .global()) {
                    Result { () throws(GatewayError) in try refresh.store(notams, at: Date().timeIntervalSince1970) }
                }
                guard let stored else { return false }
                console.error(try stored.get())
                // What the refresh put in the outbox, delivered now, beside the airspace's reload:
                // a target that hangs (10 s a try) never holds the refresh up.
                if let notifier { Task { await notifier.deliver(ignoringBackoff: false) } }  // concurrency: the notifications' delivery round, off the refresh's path
                return true
            } catch {
                console.warning(refresh.failure(error))
                return false
            }
        }
    }

    /// Refuses a `--forward` target that names this gateway's own GDL90 port on this machine (the
    /// stream would come back to itself, endlessly).
    package static func refuseSelfForward(_ target: HostPort, ownPort: Int, localAddresses: Set<String>) throws(GatewayError) {
        if Int(target.port) == ownPort, target.host == "localhost" || localAddresses.contains(target.host) {
            throw .setting(name: "--forward", message: "--forward \(target) names this gateway's own GDL90 port: it would forward the stream to itself, endlessly")
        }
    }
}
