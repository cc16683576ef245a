import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GatewayRuntime
import GatewayFleet
import GatewaySupport

/// `gatewayd config check|show`.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check the configuration file, or print the effective configuration.",
        discussion: """
            gatewayd run reads /etc/gatewayd/gatewayd.toml when it exists (or --config FILE); flags
            override it. deploy/gatewayd.toml is a commented example with every key.

            Examples:
              gatewayd config check --config /etc/gatewayd/gatewayd.toml
              gatewayd config show
            """,
        subcommands: [ConfigCheck.self, ConfigShow.self])
}

/// `gatewayd config check`.
struct ConfigCheck: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check", abstract: "Validate a configuration file: the first error names its line and key.")

    @Option(help: "The file (default /etc/gatewayd/gatewayd.toml; its absence is fine: the defaults apply).")
    var config: String?

    func run() throws {
        let config = self.config ?? GatewayConfig.defaultPath
        if self.config == nil && !FileManager.default.fileExists(atPath: config) {
            print("\(config): absent: gatewayd run uses the defaults (gatewayd config show prints them)")
            return
        }
        do {
            let c = try GatewayConfig.load(path: config, required: true)
            try RunCommand.validate(c)
            if let warning = c.secretExposure(path: config) { Terminal.error("warning: \(warning)") }
            // The fleet's password file, read as `run` would: a problem there stops only the fleet.
            if let path = c.fleetPasswordFile {
                let environment = ProcessInfo.processInfo.environment
                if path.contains("${CREDENTIALS_DIRECTORY}") && (environment["CREDENTIALS_DIRECTORY"] ?? "").isEmpty {
                    Terminal.error("warning: [fleet] password_file \(path): $CREDENTIALS_DIRECTORY is not set here (systemd sets it for the service, with LoadCredential=); not checked. Without it, gatewayd run goes on without the fleet")
                } else {
                    do throws(GatewayError) {
                        _ = try FleetSettings.readPassword(path: path, environment: environment)
                    } catch {
                        Terminal.error("warning: \(error.reason); gatewayd run would go on without the fleet")
                    }
                }
            }
            print("\(config): ok (GDL90 on UDP \(c.bind):\(c.udpPort), HTTP \(c.httpPort == 0 ? "off" : String(c.httpPort)), NMEA \(c.nmeaPort == 0 ? "off" : String(c.nmeaPort)), \(c.notamSource.map { "NOTAMs from \($0) every \(c.notamRefreshHours) h" } ?? "no NOTAM refresh"))")
        } catch let e as ConfigError {
            throw CommandFailure("\(e)")
        } catch let e as ValidationError {
            throw CommandFailure("\(config): \(e.message)")
        }
    }
}

/// `gatewayd config show`.
struct ConfigShow: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Print the effective configuration (file over defaults) as TOML, secrets masked.")

    @Option(help: "The file (default /etc/gatewayd/gatewayd.toml, if it exists).")
    var config: String?

    func run() throws {
        do {
            print(try GatewayConfig.load(path: config ?? GatewayConfig.defaultPath, required: config != nil).toml, terminator: "")
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}
