import ArgumentParser
import GatewaySupport
import GatewayCaptures
import GatewayRecords
import GatewayNotams
import GatewayRuntime

/// `gatewayd run`: the live gateway.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Listen for GDL90 on UDP and print traffic alerts live.",
        discussion: """
            Stratux sends GDL90 to UDP port 4000 of each Wi-Fi client that holds a DHCP lease and answers ping with that port open. Alerts go to stdout (and the alert log); a status line goes to stderr every --status-interval seconds. SIGINT/SIGTERM stop it cleanly.

            Try it without a receiver: a capture played as the input, its time the gateway's clock
            (the page at http://localhost:8090/ shows the flight as it happened):
              gatewayd run --replay fixtures/demo-flight.pcap \\
                --notams fixtures/notams-demo.json

            Or in two terminals, over UDP as a Stratux sends it:
              gatewayd run --udp-port 4000
              gatewayd send fixtures/demo-flight.pcap --to 127.0.0.1:4000 --speed 10
            """
    )

    @Option(help: ArgumentHelp(
        "Play a capture as the input instead of listening on UDP (repeatable; a file, a recording folder or an hour's stem, as replay takes). The gateway's clock is the capture's: the page, API, feeds and alert log show the flight at its own time.",
        valueName: "capture"))
    var replay: [String] = []

    @Option(help: "With --replay: capture seconds per second (1: real time, 10: ten times faster).")
    var speed: Double = 1

    @Flag(help: "With --replay: play the captures again after the end, each round later by the length of the last.")
    var loop = false

    @Option(help: "With --replay: UTC date (YYYY-MM-DD) of raw GDL90 streams (default: from their FIS-B products, else the file).")
    var date: String?

    @Option(help: "UDP port to listen on (default 4000).")
    var udpPort: UInt16?

    @Option(help: "IPv4 address to bind (default 0.0.0.0: every interface).")
    var bind: String?

    @Option(help: "gpsd as host:port (port 2947 if omitted), used when GDL90 ownship has no fix.",
            transform: { try HostPort.argument($0, defaultPort: 2947) })
    var gpsd: HostPort?

    @Option(help: ArgumentHelp(
        "A 1090 MHz receiver's SBS BaseStation output as host:port (port 30003 if omitted): dump1090 or readsb on this Pi or another. Its aircraft are traffic beside GDL90's (one target when heard both ways); ownship then comes from --gpsd. Reconnects with backoff; the status line counts its positions and wrong lines.",
        valueName: "host:port"), transform: { try HostPort.argument($0, defaultPort: 30003) })
    var sbs: HostPort?

    @Option(help: ArgumentHelp(
        "The Open Glider Network's APRS as host:port (port 14580 if omitted): an APRS-IS server (aprs.glidernet.org:14580, logged in read-only with a range filter of [ogn] range_km around [ogn] near or ownship) or a local ogn-decode's APRS output (127.0.0.1:50001). FLARM, OGN trackers, FANET, PilotAware, SafeSky… become traffic beside GDL90's (one target with 1090 when the address is ICAO). No-tracking senders alert only; stealth ones show without identity. Reconnects with backoff.",
        valueName: "host:port"), transform: { try HostPort.argument($0, defaultPort: 14580) })
    var ogn: HostPort?

    @Option(help: ArgumentHelp(
        "Flight recorder: keep every datagram, gpsd fix, airspace set and acknowledgement in this folder, one pcapng file an hour (gdl90-2026-05-16-14.pcapng: interface 0 the GDL90 datagrams, 1 the gpsd fixes, 2 the events; Wireshark opens it). Replay with: gatewayd replay DIR (every hour), DIR/gdl90-2026-05-16-14 or its .pcapng (one hour); recordings of the older three-file form replay the same way. The folder is capped by [recorder] max_mb (200 MB by default): the oldest hour goes first."))
    var record: String?

    @Option(name: .customLong("accept-from"), help: ArgumentHelp(
        "Accept GDL90 only from this IPv4 address (repeatable; default: from anyone). On a Stratux Wi-Fi network every passenger's phone can send to UDP 4000: --accept-from 192.168.10.1 takes the Stratux's stream only."))
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
        "Re-broadcast GDL90 to host:port (repeatable), with the alert bit set from our alerts; 'auto': to EFBs that announce themselves on UDP 63093. Do not forward to EFBs on the Stratux Wi-Fi: they already get its stream and would show every aircraft twice."))
    var forward: [ForwardTarget] = []

    @Option(help: "TCP port for FLARM NMEA ($PFLAU/$PFLAA/$GPRMC/$GPGGA) for XCSoar-family apps (default 2000; 0: none).")
    var nmeaPort: Int?

    @Option(help: "Airspace to watch: a GeoJSON file of areas (what /airspace.geojson serves), e.g. fixtures/demo-airspace.geojson.")
    var airspace: String?

    @Option(help: "NOTAMs to watch from a file in the FAA NOTAM API's JSON shape (besides those stored by `notams fetch`).")
    var notams: String?

    @Option(help: "Refresh NOTAMs from this source while running: faa-api, faa-nms or faa-search (see `gatewayd notams fetch`).")
    var notamSource: NotamSourceKind?

    @Option(help: "ICAO locations to refresh NOTAMs for (repeatable; with --notam-source).")
    var notamLocation: [String] = []

    @Option(help: "Hours between NOTAM refreshes (default 6).")
    var notamRefreshHours: Double?

    @Option(help: "Seconds between status lines on stderr (default 60; 0: none).")
    var statusInterval: Int?

    @Flag(help: ArgumentHelp("Speak traffic and airspace callouts through ALSA ([voice] enabled). Check the wiring first: gatewayd voice test --device plughw:1,0"))
    var voice = false

    @Option(help: "ALSA device for the callouts (default 'default'; see 'gatewayd voice list').")
    var voiceDevice: String?

    @Option(help: "Callout volume, percent of normal, 0-200 (default 100).")
    var voiceVolume: Int?

    @Flag(help: "Speak advisories too (default: cautions and warnings only).")
    var voiceAdvisories = false

    @Option(help: ArgumentHelp("Publish to a club's MQTT broker: mqtt://HOST[:PORT] (1883) or mqtts://HOST[:PORT] (TLS, 8883) ([fleet] broker). Needs --fleet-id and the database; nothing is lost offline (see README, Fleet).", valueName: "url"))
    var fleet: String?

    @Option(help: ArgumentHelp("This gateway's name in the fleet, the NAME of skygate/NAME/… (1-64 bytes without / + # or spaces).", valueName: "name"))
    var fleetId: String?

    @Option(help: ArgumentHelp("The broker's user name.", valueName: "user"))
    var fleetUser: String?

    @Option(help: ArgumentHelp("A root-only file holding the broker's password (its trailing newline is not part of it).", valueName: "file"))
    var fleetPasswordFile: String?

    @Option(help: ArgumentHelp("The CA file (PEM) the broker's certificate is checked against, for mqtts:// (default: the system's).", valueName: "file"))
    var fleetCa: String?

    @Option(help: "Configuration file (default /etc/gatewayd/gatewayd.toml when it exists); flags override it.")
    var config: String?

    @Option(help: "Log level on stderr: error, warning or info (default info).")
    var logLevel: LogLevel?

    /// Defaults, then the configuration file, then the flags given.
    func effective() throws -> GatewayConfig {
        var c: GatewayConfig
        do {
            c = try GatewayConfig.load(path: config ?? GatewayConfig.defaultPath, required: config != nil)
        } catch {
            throw CommandFailure("\(error)")
        }
        // Every flag sets a key of the file's table (one parser and range check for both), by
        // its name in GatewayConfig.runFlags.
        let given: [String: TOMLValue?] = [
            "--udp-port": udpPort.map { .integer(Int($0)) },
            "--bind": bind.map(TOMLValue.string),
            "--gpsd": gpsd.map { .string($0.description) },
            "--sbs": sbs.map { .string($0.description) },
            "--ogn": ogn.map { .string($0.description) },
            "--accept-from": acceptFrom.isEmpty ? nil : .array(acceptFrom.map(TOMLValue.string)),
            "--record": record.map(TOMLValue.string),
            "--json": json ? .bool(true) : nil,
            "--database": database.map(TOMLValue.string),
            "--no-database": noDatabase ? .bool(false) : nil,
            "--http-port": httpPort.map(TOMLValue.integer),
            "--http-bind": httpBind.map(TOMLValue.string),
            "--forward": forward.isEmpty ? nil : .array(forward.map { .string($0.description) }),
            "--nmea-port": nmeaPort.map(TOMLValue.integer),
            "--airspace": airspace.map(TOMLValue.string),
            "--notams": notams.map(TOMLValue.string),
            "--notam-source": notamSource.map { .string($0.rawValue) },
            "--notam-location": notamLocation.isEmpty ? nil : .array(notamLocation.map(TOMLValue.string)),
            "--notam-refresh-hours": notamRefreshHours.map(TOMLValue.float),
            "--status-interval": statusInterval.map(TOMLValue.integer),
            "--log-level": logLevel.map { .string($0.rawValue) },
            "--voice": voice ? .bool(true) : nil,
            "--voice-device": voiceDevice.map(TOMLValue.string),
            "--voice-volume": voiceVolume.map(TOMLValue.integer),
            "--voice-advisories": voiceAdvisories ? .bool(true) : nil,
            "--fleet": fleet.map(TOMLValue.string),
            "--fleet-id": fleetId.map(TOMLValue.string),
            "--fleet-user": fleetUser.map(TOMLValue.string),
            "--fleet-password-file": fleetPasswordFile.map(TOMLValue.string),
            "--fleet-ca": fleetCa.map(TOMLValue.string),
        ]
        do {
            try c.apply(flags: given)
        } catch {
            throw ValidationError("\(error)")
        }
        try Self.validate(c)
        return c
    }

    /// Checks what no single key can: settings that need each other.
    static func validate(_ c: GatewayConfig) throws {
        if c.notamSource != nil && c.notamLocations.isEmpty { throw ValidationError("--notam-source needs --notam-location ICAO (repeatable)") }
        do { _ = try c.fleet() } catch { throw ValidationError("\(error)") }
    }

    func validate() throws {
        if replay.isEmpty && (loop || speed != 1 || date != nil) { throw ValidationError("--speed, --loop and --date go with --replay CAPTURE") }
        if !(speed >= 0.1 && speed <= 1_000) { throw ValidationError("--speed \(speed): give a pace from 0.1 to 1000 (1: real time)") }
        if let date, CaptureDate.resolve(given: date, path: "", firstHeartbeatSeconds: nil) == nil {
            throw ValidationError("--date \(date) is not a date like 2026-05-16")
        }
    }

    func run() async throws {
        Terminal.onStdoutClosed = { code in
            Terminal.warning("gatewayd: stdout cannot be written (\(Terminal.describe(errno: code))); alerts go on to the feeds and the alert log")
        }
        let config = try effective()
        Terminal.level = config.logLevel
        do {
            let sessions = try replay.map { try ReplaySession.resolve($0).readable() }
            for skipped in sessions.flatMap(\.skipped) { Terminal.error("warning: \(skipped): skipped") }
            if let folder = config.recordDirectory, let replayed = ReplaySession.first(of: sessions.flatMap(\.captures), inFolder: folder) {
                throw CommandFailure("--record \(folder) is where the replayed recording \(replayed) lies: the replay would be recorded into the recording it plays (and with --loop grow without end); record into another folder")
            }
            let source = try replay.isEmpty ? nil : CaptureSource(
                sessions: sessions, speed: speed, loop: loop,
                date: date.flatMap { CaptureDate.resolve(given: $0, path: "", firstHeartbeatSeconds: nil) })
            try await GatewayApp(config: config, console: Terminal.console, replay: source).run()
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}
