import Foundation
import Testing
import GatewayTestSupport
@testable import GatewayRecords

@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct ShutdownTests {
    /// `gatewayd run` stops on SIGTERM and SIGINT, exits 0, and leaves a database that opens again
    /// with what it logged (WAL checkpointed: no -wal file left behind). How fast it stops (< 2 s)
    /// is measured by `gatewayd bench --only hostile`; the 10 s bound here only catches a hang.
    @Test(arguments: [SIGTERM, SIGINT])
    func signalStopsRunCleanly(signal: Int32) throws {
        let executable = try #require(gatewaydExecutable(), "build gatewayd first (swift build)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-stop-\(UUID())")
        let path = directory.appendingPathComponent("gateway.sqlite").path
        let process = Process()
        process.executableURL = executable
        process.arguments = ["run", "--bind", "127.0.0.1", "--udp-port", "0", "--database", path, "--status-interval", "0"]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = Pipe()
        try process.run()
        // Wait for the "listening" line, so the signal arrives once the handlers are installed.
        var seen = Data()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !(String(decoding: seen, as: UTF8.self).contains("listening")) {
            seen.append(stderr.fileHandleForReading.availableData)
        }
        #expect(String(decoding: seen, as: UTF8.self).contains("listening for GDL90 on UDP 127.0.0.1:"))
        let sent = Date()
        kill(process.processIdentifier, signal)
        _ = waitForExit(process, timeout: 10)
        let took = Date().timeIntervalSince(sent)
        let hung = process.isRunning
        if hung { process.terminate() }
        process.waitUntilExit()
        #expect(!hung, "still running \(took) s after the signal")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal") || (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) == 0)
        _ = try AlertLog(database: GatewayDatabase(path: path)).events()
        try? FileManager.default.removeItem(at: directory)
    }

    /// SIGHUP, SIGUSR1, SIGUSR2 and SIGALRM are reported and ignored (a reload needs a restart);
    /// the gateway goes on, and the SIGTERM after them stops it with a line naming the signal.
    @Test func ignoredSignalsAreReportedAndRunGoesOn() throws {
        let executable = try #require(gatewaydExecutable(), "build gatewayd first (swift build)")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["run", "--bind", "127.0.0.1", "--udp-port", "0", "--no-database", "--http-port", "0", "--nmea-port", "0",
                             "--status-interval", "0"]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = Pipe()
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var seen = Data()
        func read(until text: String) {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, !String(decoding: seen, as: UTF8.self).contains(text) { seen.append(stderr.fileHandleForReading.availableData) }
        }
        read(until: "listening")
        // One at a time: each is reported before the next is sent.
        for (sig, name) in [(SIGHUP, "SIGHUP"), (SIGUSR1, "SIGUSR1"), (SIGUSR2, "SIGUSR2"), (SIGALRM, "SIGALRM")] {
            kill(process.processIdentifier, sig)
            read(until: "\(name) ignored")
        }
        #expect(process.isRunning)
        kill(process.processIdentifier, SIGTERM)
        read(until: "stopping on")
        process.waitUntilExit()
        let text = String(decoding: seen, as: UTF8.self)
        #expect(text.contains("gatewayd: SIGHUP ignored (a configuration change needs a restart: systemctl restart gatewayd)\n"))
        #expect(text.contains("gatewayd: SIGUSR1 ignored\n") && text.contains("gatewayd: SIGUSR2 ignored\n") && text.contains("gatewayd: SIGALRM ignored\n"))
        #expect(text.contains("gatewayd: stopping on SIGTERM (datagrams 0,"))
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }
}
