// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "skygate",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "GDL90", targets: ["GDL90"]),
        // The gateway's modules (Sources/TrafficGateway/<Module>, one level): `package` access
        // for this package's own targets. The public faces are GDL90 (the codec), GatewaySimulation's
        // `BenchmarkWorkloads` (what the Benchmarks/ package measures) and GatewaySupport, whose
        // small hot helpers the default cross-module optimisation inlines only when public
        // (package access made decode 12-20 % slower: docs/architecture.md).
        .library(name: "TrafficGateway", targets: ["GatewaySupport", "GatewayDomain", "GatewayHTTP", "GatewayCaptures", "GatewayRecords", "GatewayNotams", "GatewayWeather", "GatewayNotify", "GatewayForecast", "GatewayFeeds", "GatewayVoice", "GatewayFleet", "GatewayRuntime"]),
        .library(name: "GatewaySimulation", targets: ["GatewaySimulation"]),
        .executable(name: "gatewayd", targets: ["gatewayd"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Hummingbird without its default traits: FullFoundation would link full Foundation and
        // ICU into the daemon (issue 24), ConfigurationSupport swift-configuration, unused here.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
    ],
    targets: [
        // The codec: standard library only, no Foundation, no I/O.
        .target(name: "GDL90"),
        // libcurl (system library) with typed wrappers for its variadic calls.
        .target(name: "CCurl"),
        // ecCodes (Debian's libeccodes0), loaded on first use: the forecast radar's GRIB2.
        .target(name: "CEccodes"),
        // zlib (Debian's zlib1g), loaded on first use: gzip-compressed captures (Stratux's replay logs).
        .target(name: "CZlib"),
        // espeak-ng (system library, Debian's libespeak-ng-dev): the voice's vocabulary rendered to PCM.
        .target(name: "CEspeak"),
        // ALSA (system library, Debian's libasound2-dev): the voice's playback, and a PCM opened from
        // configuration text (tests play into a file PCM: no sound card needed).
        .target(name: "CALSA"),
        // libmosquitto (Debian's libmosquitto1, MQTT), loaded on first use: only a gateway with a fleet loads it.
        .target(name: "CMosquitto"),
        // SQLite (system library, Debian's libsqlite3-dev): the alert log, the NOTAMs, the logbook,
        // through the small layer in Storage/SQLiteConnection.swift.
        .target(name: "CSQLite"),
        // The gateway, in nine modules under Sources/TrafficGateway, lowest first; a module imports
        // only those below it, and the compiler holds it (docs/modules-plan.md, scripts/modules.py).
        // Support: buffers, JSON, text patterns, time, geodesy, sockets' addresses, errors.
        .target(name: "GatewaySupport", dependencies: ["GDL90"], path: "Sources/TrafficGateway/GatewaySupport"),
        // The domain, pure: traffic, alert engines, airspace, flight state, FIS-B products, the core and its pipeline.
        .target(name: "GatewayDomain", dependencies: ["GDL90", "GatewaySupport"], path: "Sources/TrafficGateway/GatewayDomain"),
        // Captures: readers, writers, the recorder's file format, dating, output lines.
        .target(name: "GatewayCaptures", dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "CZlib"], path: "Sources/TrafficGateway/GatewayCaptures"),
        // Records: SQLite, the NOTAM store, parser, English and fetching, the logbook.
        .target(name: "GatewayRecords", dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "GatewayCaptures", "CCurl", "CSQLite"],
                path: "Sources/TrafficGateway/GatewayRecords"),
        // Weather: the gridded FIS-B products assembled into composites and drawn (PNG, world file,
        // JSON) off the core's queue; METAR, TAF, PIREP and winds decoded; weather fetched from
        // aviationweather.gov before the flight and kept in the database.
        // NOTAMs (issue 53: out of Records, where they were 3,579 of 6,492 lines): the model, the
        // parser, the plain English, the FAA sources and the store; Records keeps SQLite, the
        // logbook and the HTTP client every fetcher uses.
        .target(name: "GatewayNotams", dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "GatewayRecords"],
                path: "Sources/TrafficGateway/GatewayNotams"),
        .target(name: "GatewayWeather", dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "GatewayRecords", "CZlib"],
                path: "Sources/TrafficGateway/GatewayWeather"),
        // Notifications (issue 54): ntfy, e-mail and webhooks, told of NOTAM changes, weather on
        // the route, the gateway itself, the fleet and flights, through an outbox in the database.
        .target(name: "GatewayNotify", dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "GatewayRecords", "GatewayNotams", "GatewayWeather", "CCurl"],
                path: "Sources/TrafficGateway/GatewayNotify"),
        // The forecast radar (issue 55): HRRR and NAM-nest reflectivity fetched from NOMADS,
        // decoded with ecCodes, drawn like the radar, kept complete.
        .target(name: "GatewayForecast", dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "GatewayRecords", "GatewayWeather", "CEccodes"],
                path: "Sources/TrafficGateway/GatewayForecast"),
        // The HTTP kit both servers (the cockpit feeds, the fleet station) are made with: the
        // server's lifecycle as a Service (the port from its running signal), connection caps by
        // address, the token check, the one Server-Sent Events writer.
        .target(name: "GatewayHTTP",
                dependencies: ["GatewaySupport",
                               .product(name: "Hummingbird", package: "hummingbird"),
                               .product(name: "HummingbirdCore", package: "hummingbird"),
                               .product(name: "HTTPTypes", package: "swift-http-types"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
                path: "Sources/TrafficGateway/GatewayHTTP"),
        // Feeds: HTTP, SSE, NMEA, forwarding, the cockpit page (its real files embedded by scripts/embed-page.py).
        .target(name: "GatewayFeeds",
                dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "GatewayRecords", "GatewayNotams", "GatewayWeather", "GatewayHTTP",
                               .product(name: "Hummingbird", package: "hummingbird"),
                               .product(name: "HummingbirdCore", package: "hummingbird"),
                               .product(name: "HTTPTypes", package: "swift-http-types"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOPosix", package: "swift-nio"),
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
                path: "Sources/TrafficGateway/GatewayFeeds", exclude: ["Page"]),
        // The voice: callouts scheduled, espeak-ng, ALSA.
        .target(name: "GatewayVoice", dependencies: ["GatewaySupport", "GatewayDomain", "GatewayCaptures", "CEspeak", "CALSA"],
                path: "Sources/TrafficGateway/GatewayVoice"),
        // The fleet (issue 43): a gateway's publisher to a club's MQTT broker (from the alert log and
        // the logbook: nothing lost offline) and the ground station that keeps the club's picture,
        // logbook and page (its files embedded by scripts/embed-page.py).
        .target(name: "GatewayFleet",
                dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "GatewayRecords", "GatewayHTTP", "CMosquitto",
                               .product(name: "Hummingbird", package: "hummingbird"),
                               .product(name: "HummingbirdCore", package: "hummingbird"),
                               .product(name: "HTTPTypes", package: "swift-http-types"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
                path: "Sources/TrafficGateway/GatewayFleet", exclude: ["Page"]),
        // The runtime: sources, sinks, the live gateway, the app and its services, configuration.
        .target(name: "GatewayRuntime",
                dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "GatewayCaptures", "GatewayRecords", "GatewayNotams", "GatewayWeather", "GatewayNotify", "GatewayForecast", "GatewayFeeds", "GatewayVoice", "GatewayFleet",
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOPosix", package: "swift-nio"),
                               .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                               .product(name: "UnixSignals", package: "swift-service-lifecycle")],
                path: "Sources/TrafficGateway/GatewayRuntime"),
        // Simulation and benchmarks: synthetic traffic, scenario captures, the demo flight, the
        // benchmark runners `gatewayd bench` and `gatewayd simulate` use (not in the daemon's path).
        .target(name: "GatewaySimulation", dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "GatewayCaptures", "GatewayRecords", "GatewayNotams", "GatewayWeather", "GatewayNotify", "GatewayForecast", "GatewayFeeds", "GatewayVoice", "GatewayFleet", "GatewayRuntime"]),
        // What the fuzz targets drive (the decoders, the core, an HTTP server on a socket pair).
        .target(name: "GatewayFuzzSupport", dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "GatewayCaptures", "GatewayRecords", "GatewayNotams", "GatewayFeeds", "GatewayRuntime"]),
        // The executable: argument parsing and wiring only.
        .executableTarget(
            name: "gatewayd",
            dependencies: [
                "GDL90",
                "GatewaySupport", "GatewayDomain", "GatewayCaptures", "GatewayRecords", "GatewayNotams", "GatewayWeather", "GatewayNotify", "GatewayForecast", "GatewayFeeds", "GatewayVoice", "GatewayFleet", "GatewayRuntime",
                "GatewaySimulation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Fuzz targets: a libFuzzer binary when built with -sanitize=fuzzer -DFUZZING
        // (scripts/fuzz.sh), else a runner that replays a corpus (regressions, CI).
        .executableTarget(name: "gatewayd-fuzz", dependencies: ["GDL90", "GatewayFuzzSupport"]),
        .testTarget(name: "GDL90Tests", dependencies: ["GDL90"]),
        // The tests (issue 53): one target per module, `<Module>Tests`, holding that module's unit
        // tests (a file goes to the highest module it is about); GatewayTests keeps the end-to-end
        // and process suites (gatewayd run as a person runs it, a real broker, the whole app, the
        // golden replays, packaging, fuzz regressions, benchmarks) and those spanning many modules.
        // GatewayTestSupport is what several of them share: the waits, the `.process` tag, the
        // `.slow` (SKYGATE_FAST=1) and `.ownThread` traits, the fixtures, gatewayd as a process, the
        // loopback servers.
        .target(name: "GatewayTestSupport", dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "GatewaySimulation"],
                path: "Tests/GatewayTestSupport"),
        .testTarget(name: "GatewaySupportTests", dependencies: ["GatewaySupport"]),
        .testTarget(name: "GatewayDomainTests",
                    dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "GatewayCaptures", "GatewayFeeds", "GatewaySimulation", "GatewayTestSupport"]),
        .testTarget(name: "GatewayCapturesTests",
                    dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "GatewayCaptures", "GatewaySimulation", "GatewayTestSupport"]),
        .testTarget(name: "GatewayRecordsTests",
                    dependencies: ["GatewaySupport", "GatewayCaptures", "GatewayRecords", "GatewayNotams", "GatewayTestSupport"]),
        .testTarget(name: "GatewayNotamsTests",
                    dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "GatewayCaptures", "GatewayRecords", "GatewayNotams", "GatewayRuntime",
                                   "GatewaySimulation", "GatewayTestSupport"]),
        .testTarget(name: "GatewayWeatherTests",
                    dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "GatewayRecords", "GatewayWeather", "GatewayFeeds", "GatewaySimulation",
                                   "GatewayTestSupport"]),
        .testTarget(name: "GatewayFeedsTests",
                    dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "GatewayCaptures", "GatewayRecords", "GatewayNotams", "GatewayWeather",
                                   "GatewayFeeds", "GatewaySimulation", "GatewayTestSupport"]),
        .testTarget(name: "GatewayVoiceTests",
                    dependencies: ["GatewaySupport", "GatewayDomain", "GatewayCaptures", "GatewayRecords", "GatewayNotams", "GatewayVoice", "GatewayRuntime",
                                   "GatewayTestSupport"]),
        .testTarget(name: "GatewayFleetTests",
                    dependencies: ["GatewaySupport", "GatewayHTTP", "GatewayRecords", "GatewayFeeds", "GatewayFleet", "GatewayTestSupport"]),
        .testTarget(name: "GatewayForecastTests",
                    dependencies: ["GatewaySupport", "GatewayRecords", "GatewayWeather", "GatewayForecast", "GatewayTestSupport"]),
        .testTarget(name: "GatewayNotifyTests",
                    dependencies: ["GatewaySupport", "GatewayDomain", "GatewayRecords", "GatewayNotams", "GatewayWeather", "GatewayNotify", "GatewayFleet", "GatewayRuntime", "GatewayTestSupport"]),
        .testTarget(name: "GatewayRuntimeTests",
                    dependencies: ["GDL90", "GatewaySupport", "GatewayDomain", "GatewayCaptures", "GatewayRecords", "GatewayNotams", "GatewayNotify", "GatewayForecast", "GatewayFeeds", "GatewayRuntime",
                                   "GatewayTestSupport",
                                   .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle")]),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "GatewaySupport", "GatewayDomain", "GatewayHTTP", "GatewayCaptures", "GatewayRecords", "GatewayNotams", "GatewayWeather", "GatewayNotify", "GatewayForecast", "GatewayFeeds", "GatewayFleet", "GatewayRuntime", "GDL90", "GatewaySimulation", "GatewayFuzzSupport",
                "GatewayTestSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
