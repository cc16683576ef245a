import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayRecords
@testable import GatewayRuntime

@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct ConfigTests {
    @Test func goodFileSetsEverything() throws {
        let c = try GatewayConfig.parse("""
            # comment
            [input]
            udp_port = 4001   # after a value is fine in TOML
            bind = "127.0.0.1"
            gpsd = "127.0.0.1:2947"
            [feeds]
            http_port = 0
            forward = ["192.168.10.20:4000", "auto"]
            [notams]
            source = "faa-api"
            locations = ["KSLE", "KPDX"]
            refresh_hours = 0.5
            client_secret = "hush"
            """, file: "t.toml")
        #expect(c.udpPort == 4001 && c.bind == "127.0.0.1" && c.gpsd == HostPort(host: "127.0.0.1", port: 2947))
        #expect(c.httpPort == 0 && c.forward == [.host(HostPort(host: "192.168.10.20", port: 4000)), .auto])
        #expect(c.notamSource == .faaAPI && c.notamLocations == ["KSLE", "KPDX"] && c.notamRefreshHours == 0.5)
        #expect(c.nmeaPort == 2000)  // untouched default
        #expect(c.toml.contains("client_secret = \"****\"") && !c.toml.contains("hush"))
        // The effective configuration reads back as itself.
        var back = try GatewayConfig.parse(c.toml, file: "show")
        back.clientSecret = c.clientSecret
        #expect(back == c)
    }

    @Test func errorsNameLineAndKey() {
        func error(_ text: String) -> String {
            do { _ = try GatewayConfig.parse(text, file: "g.toml"); return "no error" } catch { return error.description }
        }
        #expect(error("[feeds]\nhttp_port = 8090\nhttpport = 1\n") == "g.toml:3: unknown key 'httpport' in [feeds] (known: ack_token, forward, http_bind, http_port, nmea_port, token)")
        #expect(error("[input]\nudp_port = \"4000\"\n") == "g.toml:2: 'udp_port' in [input] must be integer 0–65535")
        #expect(error("[input]\nudp_port = 70000\n") == "g.toml:2: 'udp_port' in [input] must be integer 0–65535")
        #expect(error("[input]\nbind = \"0.0.0\"\n") == "g.toml:2: 'bind' in [input] must be IPv4 address")
        #expect(error("[notams]\nlocations = [\"SLE\"]\n") == "g.toml:2: 'locations' in [notams] must be array of ICAO locations")
        #expect(error("[input\n") == "g.toml:1: a section is written [name]")
        #expect(error("udp_port 4000\n") == "g.toml:1: expected key = value, found 'udp_port 4000'")
        #expect(error("[input]\nbind = \"0.0.0.0\nx") .hasPrefix("g.toml:2: unterminated string"))
        #expect(error("[input]\nudp_port = 1\nudp_port = 2\n") == "g.toml:3: 'udp_port' is set twice in [input]")
    }

    @Test func missingFilesAndTheShippedExample() throws {
        #expect(try GatewayConfig.load(path: "/nonexistent/gatewayd.toml", required: false) == GatewayConfig())
        #expect(throws: ConfigError.self) { try GatewayConfig.load(path: "/nonexistent/gatewayd.toml", required: true) }
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("deploy/gatewayd.toml")
        let c = try GatewayConfig.load(path: example.path, required: true)
        #expect(c.database == "/var/lib/gatewayd/gateway.sqlite" && c.statusInterval == 300)
    }

    @Test func notamURLAndCredentialsFromTheFile() throws {
        let c = try GatewayConfig.parse("""
            [notams]
            source = "faa-api"
            locations = ["KSLE"]
            url = "https://staging.example/notamapi/v1"
            client_id = "id-in-file"
            client_secret = "secret-in-file"
            """, file: "n.toml")
        #expect(c.notamURL == "https://staging.example/notamapi/v1")
        // Masked in `config show`, both halves of the pair.
        #expect(c.toml.contains("client_id = \"****\"") && !c.toml.contains("id-in-file") && !c.toml.contains("secret-in-file"))
        #expect(c.toml.contains("url = \"https://staging.example/notamapi/v1\""))
        // The environment (the service's /etc/gatewayd/environment) beats the file.
        let fromEnvironment = try c.notamCredentials(environment: ["FAA_CLIENT_ID": "env-id", "FAA_CLIENT_SECRET": "env-secret"])
        #expect(fromEnvironment.id == "env-id" && fromEnvironment.secret == "env-secret")
        let fromFile = try c.notamCredentials(environment: [:])
        #expect(fromFile.id == "id-in-file" && fromFile.secret == "secret-in-file")
        // Half a pair is an error that says so.
        var half = c
        half.clientID = nil
        #expect(throws: FetchError.self) { try half.notamCredentials(environment: [:]) }
        // Nothing anywhere: the error names what to set.
        do {
            _ = try GatewayConfig().notamCredentials(environment: [:])
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("FAA_CLIENT_ID"))
        }
    }

    @Test func credentialsFileFromTheConfiguration() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("faa-\(UUID())")
        try "client_id=f-id\nclient_secret=f-secret\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let c = try GatewayConfig.parse("[notams]\ncredentials_file = \"\(file.path)\"\n", file: "c.toml")
        let credentials = try c.notamCredentials(environment: [:])
        #expect(credentials.id == "f-id" && credentials.secret == "f-secret")
    }

    @Test func badNotamKeysNameLineAndKey() {
        func error(_ text: String) -> String {
            do { _ = try GatewayConfig.parse(text, file: "g.toml"); return "no error" } catch { return error.description }
        }
        #expect(error("[notams]\nurl = \"ftp://x\"\n") == "g.toml:2: 'url' in [notams] must be an http:// or https:// URL")
        #expect(error("[notams]\nrefresh_hours = 6\nclient_id = 12\n") == "g.toml:3: 'client_id' in [notams] must be string")
        #expect(error("[notams]\nsecret = \"x\"\n").hasPrefix("g.toml:2: unknown key 'secret' in [notams] (known: client_id, client_secret,"))
    }

    /// `config check` warns when a secret sits in a file others can read.
    @Test func secretInAReadableFileIsFlagged() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-\(UUID()).toml")
        try "[notams]\nclient_id = \"a\"\nclient_secret = \"b\"\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let c = try GatewayConfig.load(path: file.path, required: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        #expect(c.secretExposure(path: file.path)?.contains("/etc/gatewayd/environment") == true)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        #expect(c.secretExposure(path: file.path) == nil)
        #expect(GatewayConfig().secretExposure(path: file.path) == nil)
    }

    @Test func alertThresholdsReachTheCore() throws {
        let c = try GatewayConfig.parse("""
            [alerts]
            warning_time_sec = 25
            caution_time_sec = 50.5
            advisory_range_nm = 3
            airspace_look_ahead_sec = 0
            """, file: "a.toml")
        #expect(c.coreConfiguration.traffic.warningTimeSec == 25 && c.coreConfiguration.traffic.cautionTimeSec == 50.5)
        #expect(c.coreConfiguration.traffic.advisoryRangeNM == 3 && c.coreConfiguration.airspace.lookAheadSec == 0)
        #expect(c.coreConfiguration.traffic.warningMissNM == TrafficAlertThresholds().warningMissNM)  // untouched default
        #expect(c.toml.contains("[alerts]\nwarning_time_sec = 25\n") && c.toml.contains("caution_time_sec = 50.5"))
        #expect(try GatewayConfig.parse(c.toml, file: "show") == c)
        // The shipped example spells out the defaults.
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("deploy/gatewayd.toml")
        let shipped = try GatewayConfig.load(path: example.path, required: true)
        #expect(shipped.traffic == TrafficAlertThresholds() && shipped.airspace == AirspaceAlertThresholds())
    }

    @Test func badAlertThresholdsNameLineAndKey() {
        func error(_ text: String) -> String {
            do { _ = try GatewayConfig.parse(text, file: "g.toml"); return "no error" } catch { return error.description }
        }
        #expect(error("[alerts]\nwarning_miss_nm = 0\n") == "g.toml:2: 'warning_miss_nm' in [alerts] must be a number from 0.01 to 20")
        #expect(error("[alerts]\ncaution_time_sec = \"40\"\n") == "g.toml:2: 'caution_time_sec' in [alerts] must be a number from 1 to 600")
        #expect(error("[alerts]\n# tighter?\nwarning_time_sec = 45\n") == "g.toml:3: 'warning_time_sec' in [alerts] must not exceed 'caution_time_sec' (a warning is the tighter level)")
        #expect(error("[alerts]\nwarning_time_sec = 20\nwarn_time = 1\n").hasPrefix("g.toml:3: unknown key 'warn_time' in [alerts] (known: advisory_range_nm,"))
    }

    /// `gatewayd config check`: exit 0 with a summary, exit 1 with `file:line: …`; `config show` masks.
    @Test func checkAndShowCommands() throws {
        let executable = try #require(gatewaydExecutable())
        func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
            let r = try runCommand(executable, arguments)
            return (r.status, r.stdout, r.stderr)
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cfgcmd-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("good.toml"), bad = dir.appendingPathComponent("bad.toml")
        try "[input]\nudp_port = 4001\n[notams]\nclient_id = \"i\"\nclient_secret = \"hush\"\n".write(to: good, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: good.path)
        try "[feeds]\nhttp_port = 8090\nhttpport = 1\n".write(to: bad, atomically: true, encoding: .utf8)

        let ok = try run(["config", "check", "--config", good.path])
        #expect(ok.status == 0 && ok.out.contains("ok (GDL90 on UDP 0.0.0.0:4001") && ok.err.isEmpty)
        let failed = try run(["config", "check", "--config", bad.path])
        #expect(failed.status == 1 && failed.err.contains("\(bad.path):3: unknown key 'httpport' in [feeds]"))
        let shown = try run(["config", "show", "--config", good.path])
        #expect(shown.status == 0 && shown.out.contains("udp_port = 4001") && shown.out.contains("client_secret = \"****\"") && !shown.out.contains("hush"))
    }

    /// Flags beat the file, the file beats the defaults (through the real executable).
    @Test func flagsOverrideTheFile() throws {
        let executable = try #require(gatewaydExecutable())
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-\(UUID()).toml")
        try "[input]\nudp_port = 4777\n[feeds]\nhttp_port = 0\nnmea_port = 0\n[database]\nenabled = false\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        func listening(_ extra: [String]) throws -> String {
            let p = Process()
            p.executableURL = executable
            p.arguments = ["run", "--config", file.path, "--bind", "127.0.0.1", "--status-interval", "0"] + extra
            let err = Pipe()
            p.standardError = err
            p.standardOutput = Pipe()
            try p.run()
            var text = ""
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline && !text.contains("listening") {
                text += String(decoding: err.fileHandleForReading.availableData, as: UTF8.self)
            }
            p.terminate()
            p.waitUntilExit()
            return text
        }
        #expect(try listening([]).contains("UDP 127.0.0.1:4777"))
        #expect(try listening(["--udp-port", "4778"]).contains("UDP 127.0.0.1:4778"))
    }

    /// deploy/install.sh twice into a temporary root, the unit through systemd-analyze, and the
    /// uninstall keeping the data (deploy/test-install.sh).
    @Test func installScriptIsIdempotent() throws {
        let executable = try #require(gatewaydExecutable())
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [root.appendingPathComponent("deploy/test-install.sh").path, executable.path]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        p.waitUntilExit()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationStatus == 0, "\(text)")
        #expect(text.contains("test-install: ok"))
    }
}
