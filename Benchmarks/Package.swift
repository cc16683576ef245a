// swift-tools-version:6.1
import PackageDescription

// The ordo-one benchmarks of skygate: a package of its own, so that the root package's
// `swift build` and `swift test` never build the benchmark tool or its dependencies.
// Run with `swift package --package-path Benchmarks benchmark` (see BENCHMARKS.md).
let package = Package(
    name: "skygate-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        // Named, so that the identity does not depend on the folder the repository is cloned into.
        .package(name: "skygate", path: ".."),
        // Only the malloc interposer trait: on Linux with Swift 6.3 the default traits also pull
        // the ARC runtime interposer, a package this machine's package copies do not hold.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The synthetic 500-target stream the benchmarks share, made by GatewaySimulation.
        .target(
            name: "TrafficStream",
            dependencies: [
                .product(name: "GatewaySimulation", package: "skygate"),
            ]
        ),
        .executableTarget(
            name: "Codec",
            dependencies: [
                "TrafficStream",
                .product(name: "GDL90", package: "skygate"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Codec",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Pipeline",
            dependencies: [
                "TrafficStream",
                .product(name: "GatewaySimulation", package: "skygate"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Pipeline",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Formatter",
            dependencies: [
                "TrafficStream",
                .product(name: "GDL90", package: "skygate"),
                .product(name: "GatewaySimulation", package: "skygate"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Formatter",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "FISB",
            dependencies: [
                .product(name: "GatewaySimulation", package: "skygate"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/FISB",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
