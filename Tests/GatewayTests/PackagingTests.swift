import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySupport

/// What the Debian package ships besides the binary, made from the commands' own help: the man
/// page (scripts/manpage.py) and the shell completions (swift-argument-parser's), and the version
/// `gatewayd --version` prints, which the package takes as its own (issue 41).
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct PackagingTests {
    /// Every command and subcommand, as `gatewayd --experimental-dump-help` lists them
    /// (`help` aside), as paths like "gatewayd notams fetch".
    static func commandPaths() throws -> [String] {
        let dump = try runGatewayd(["--experimental-dump-help"])
        #expect(dump.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [String: Any])
        var paths: [String] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            for case let sub as [String: Any] in command["subcommands"] as? [Any] ?? [] {
                guard let name = sub["commandName"] as? String, name != "help" else { continue }
                paths.append((path + [name]).joined(separator: " "))
                walk(sub, path + [name])
            }
        }
        walk(try #require(json["command"] as? [String: Any]), ["gatewayd"])
        return paths
    }

    static var repository: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }

    /// `gatewayd --version` prints the one version, and nothing else.
    @Test func versionIsTheOneSourceOfTruth() throws {
        let r = try runGatewayd(["--version"])
        #expect(r.status == 0)
        #expect(r.output == GatewayVersion.current + "\n")
        // A Debian version: the package takes it as its own.
        #expect(GatewayVersion.current.wholeMatch(of: /[0-9][A-Za-z0-9.+~]*/) != nil)
    }

    /// The man page holds a section for every subcommand, and `man -l` renders it without a
    /// warning from groff.
    @Test func manPageHasEveryCommandAndRenders() throws {
        let gatewayd = try #require(gatewaydExecutable()).path
        let page = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [Self.repository.appendingPathComponent("scripts/manpage.py").path, gatewayd, "--version", GatewayVersion.current])
        #expect(page.status == 0, "\(page.errors)")
        let paths = try Self.commandPaths()
        #expect(paths.count >= 25)
        for path in paths {
            #expect(page.output.contains(".SS \"\(path)\""), "no section for \(path)")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-\(getpid()).1")
        try page.output.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man") else {
            Issue.record("man is not installed (scripts/setup.sh installs man-db)")
            return
        }
        let shown = try runProcess(URL(fileURLWithPath: "/usr/bin/man"), ["--warnings", "-P", "cat", "-l", file.path], environment: ["MANWIDTH": "80"])
        #expect(shown.status == 0)
        #expect(shown.errors.isEmpty, "groff warned: \(shown.errors)")
        #expect(shown.output.contains("gatewayd flights export"))
        #expect(shown.output.contains("--notam-location"))
    }

    /// A `gatewayd` copied away from its airport table (issue 44) says once where it looked and how
    /// to install it, when it keeps flights; the one beside its table finds the departure.
    @Test func aBinaryWithoutItsAirportTableSaysWhereItLooked() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-alone-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let alone = folder.appendingPathComponent("gatewayd").path
        try FileManager.default.copyItem(atPath: try #require(gatewaydExecutable()).path, toPath: alone)
        let capture = Self.repository.appendingPathComponent("fixtures/demo-flight.pcap").path
        let imported = try runProcess(URL(fileURLWithPath: alone), ["flights", "import", capture, "--database", folder.appendingPathComponent("g.sqlite").path], in: folder)
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.errors.contains("no airport table found (looked for \(folder.path)/airports.bin, \(folder.path)/../share/gatewayd/airports.bin, data/airports.bin)"), "\(imported.errors)")
        #expect(imported.errors.contains("put airports.bin beside gatewayd or in /usr/share/gatewayd"))
        #expect(imported.errors.contains("flight 1 kept: ? → (in the air)"))
        let replayed = try runProcess(URL(fileURLWithPath: alone), ["replay", capture, "--database", folder.appendingPathComponent("r.sqlite").path], in: folder)
        #expect(replayed.errors.components(separatedBy: "no airport table found").count == 2, "said once: \(replayed.errors)")
        // Beside its table (the repository's data/), the same flight has its departure.
        let found = try runGatewayd(["flights", "import", capture, "--database", folder.appendingPathComponent("h.sqlite").path])
        #expect(!found.errors.contains("no airport table found"))
        #expect(found.errors.contains("flight 1 kept: KSLE → (in the air)"), "\(found.errors)")
    }

    /// The bash, zsh and fish completions name every subcommand.
    @Test func completionsNameEveryCommand() throws {
        let paths = try Self.commandPaths()
        for shell in ["bash", "zsh", "fish"] {
            let script = try runGatewayd(["--generate-completion-script", shell])
            #expect(script.status == 0)
            for path in paths {
                let name = String(path.split(separator: " ").last!)
                #expect(script.output.contains(name), "\(shell) completion has no \(path)")
            }
        }
    }
}
