// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "skygate",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "GDL90", targets: ["GDL90"]),
        .library(name: "TrafficGateway", targets: ["TrafficGateway"]),
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
        // espeak-ng (system library, Debian's libespeak-ng-dev): the voice's vocabulary rendered to PCM.
        .target(name: "CEspeak"),
        // ALSA (system library, Debian's libasound2-dev): the voice's playback, and a PCM opened from
        // configuration text (tests play into a file PCM: no sound card needed).
        .target(name: "CALSA"),
        // SQLite (system library, Debian's libsqlite3-dev): the alert log, the NOTAMs, the logbook,
        // through the small layer in Storage/SQLiteConnection.swift.
        .target(name: "CSQLite"),
        // Domain and services: captures, core state machine, alerts, storage, listeners.
        .target(
            name: "TrafficGateway",
            dependencies: [
                "GDL90",
                "CCurl",
                "CEspeak",
                "CALSA",
                "CSQLite",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            // The cockpit page's real files: embedded by scripts/embed-page.py (CockpitPageFiles.swift).
            exclude: ["GatewayFeeds/Feeds/Page"]
        ),
        // Simulation and benchmarks: synthetic traffic, scenario captures, the demo flight, the
        // benchmark runners `gatewayd bench` and `gatewayd simulate` use (not in the daemon's path).
        .target(name: "GatewaySimulation", dependencies: ["GDL90", "TrafficGateway"]),
        // What the fuzz targets drive (the decoders, the core, an HTTP server on a socket pair).
        .target(name: "GatewayFuzzSupport", dependencies: ["GDL90", "TrafficGateway"]),
        // The executable: argument parsing and wiring only.
        .executableTarget(
            name: "gatewayd",
            dependencies: [
                "GDL90",
                "TrafficGateway",
                "GatewaySimulation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Fuzz targets: a libFuzzer binary when built with -sanitize=fuzzer -DFUZZING
        // (scripts/fuzz.sh), else a runner that replays a corpus (regressions, CI).
        .executableTarget(name: "gatewayd-fuzz", dependencies: ["GDL90", "TrafficGateway", "GatewayFuzzSupport"]),
        .testTarget(name: "GDL90Tests", dependencies: ["GDL90"]),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "TrafficGateway", "GDL90", "GatewaySimulation", "GatewayFuzzSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
