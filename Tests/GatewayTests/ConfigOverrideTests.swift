import Testing
@testable import TrafficGateway

/// Command-line flags go through the file's table of keys: one parser and range check each, the
/// flag named in the error, flag over file over default.
@Suite struct ConfigOverrideTests {
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
        #expect(throws: GatewayError.invalidInput("--http-port must be integer 0–65535")) {
            try c.apply([.init("--http-port", "feeds.http_port", .integer(70_000))])
        }
        #expect(c.httpPort == before, "nothing changed")
        #expect(throws: GatewayError.invalidInput("--log-level must be \(LogLevel.choices)")) {
            try c.apply([.init("--log-level", "log.level", .string("loud"))])
        }
        #expect(throws: GatewayError.invalidInput("--notam-location must be array of ICAO locations")) {
            try c.apply([.init("--notam-location", "notams.locations", .array([.string("K1")]))])
        }
    }
}
