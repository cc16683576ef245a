import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayRuntime

/// Command-line flags go through the file's table of keys: one parser and range check each, the
/// flag named in the error, flag over file over default.
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct ConfigOverrideTests {
    @Test func flagsSetTheTablesKeys() throws {
        var c = try GatewayConfig.parse("[feeds]\nhttp_port = 9000\nnmea_port = 2001\n", file: "g.toml")
        try c.apply([
            .init("--http-port", "feeds.http_port", .integer(8091)),
            .init("--nmea-port", "feeds.nmea_port", nil),
            .init("--gpsd", "input.gpsd", .string("[fe80::1]:2948")),
            .init("--forward", "feeds.forward", .array([.string("auto"), .string("10.0.0.2:4000")])),
            .init("--notam-refresh-hours", "notams.refresh_hours", .float(0.5)),
            .init("--log-level", "log.level", .string("warning")),
            .init("--no-database", "database.enabled", .bool(false)),
        ])
        #expect(c.httpPort == 8091, "the flag wins over the file")
        #expect(c.nmeaPort == 2001, "a flag not given leaves the file's value")
        #expect(c.gpsd?.description == "[fe80::1]:2948")
        #expect(c.forward.map(\.description) == ["auto", "10.0.0.2:4000"])
        #expect(c.notamRefreshHours == 0.5)
        #expect(c.logLevel == .warning)
        #expect(c.databaseEnabled == false)
    }

    @Test func aBadFlagIsNamedWithWhatItMustBe() throws {
        var c = GatewayConfig()
        let before = c.httpPort
        #expect(throws: GatewayError.setting(name: "--http-port", message: "--http-port must be integer 0–65535")) {
            try c.apply([.init("--http-port", "feeds.http_port", .integer(70_000))])
        }
        #expect(c.httpPort == before, "nothing changed")
        #expect(throws: GatewayError.setting(name: "--log-level", message: "--log-level must be \(LogLevel.choices)")) {
            try c.apply([.init("--log-level", "log.level", .string("loud"))])
        }
        #expect(throws: GatewayError.setting(name: "--notam-location", message: "--notam-location must be array of ICAO locations")) {
            try c.apply([.init("--notam-location", "notams.locations", .array([.string("K1")]))])
        }
    }
}

/// `run`'s flags and the key table (issue 21): every flag of `GatewayConfig.runFlags` names a key
/// of the table and is an option of `gatewayd run`; every option of `run` is in `runFlags` or is
/// one of run's own (no key: the configuration file, the replayed capture).
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct RunFlagsTests {
    static let runOnly: Set<String> = ["--config", "--replay", "--speed", "--loop", "--date", "--help", "--version"]

    @Test func runFlagsAndTheKeyTableAgree() throws {
        let paths = Set(GatewayConfig.keys.map(\.path))
        for (flag, key) in GatewayConfig.runFlags { #expect(paths.contains(key), "\(flag) names \(key), which is not in GatewayConfig.keys") }
        #expect(Set(GatewayConfig.runFlags.map(\.flag)).count == GatewayConfig.runFlags.count, "a flag listed twice")

        let executable = try #require(gatewaydExecutable())
        let help = try runCommand(executable, ["run", "--help"]).stdout
        // Options as the help lists them: "  --udp-port <udp-port>", "  --json".
        let options = Set(help.split(separator: "\n").compactMap { line -> String? in
            let t = line.drop { $0 == " " }
            guard line.hasPrefix("  "), t.hasPrefix("--") else { return nil }
            return String(t.prefix { $0 != " " && $0 != "," })
        })
        #expect(options.count > 20)
        for (flag, _) in GatewayConfig.runFlags { #expect(options.contains(flag), "\(flag) is in runFlags but not an option of run") }
        for option in options where !Self.runOnly.contains(option) {
            #expect(GatewayConfig.runFlags.contains { $0.flag == option }, "run's \(option) sets no key (add it to GatewayConfig.runFlags)")
        }
    }

    @Test func anUnknownFlagIsAnErrorNotATrap() {
        var c = GatewayConfig()
        #expect(throws: GatewayError.self) { try c.apply(flags: ["--udp-prot": .integer(4000)]) }
        #expect(throws: GatewayError.self) { try c.apply([.init("--x", "feeds.no_such_key", .integer(1))]) }
        #expect((try? c.apply(flags: ["--udp-port": .integer(4001), "--json": nil])) != nil && c.udpPort == 4001)
    }
}
