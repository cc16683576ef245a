import Foundation

/// A test peer written in Python (`scripts/<name>`: the loopback NOMADS, the notification
/// receivers) started as a child process that prints one line when it listens (its port, or its
/// ports as JSON) and serves until stopped.
package final class ScriptPeer {
    /// The child.
    package let process = Process()
    /// The first line it printed, without its newline (empty when it ended first).
    package let firstLine: String
    private let errors = Pipe()

    /// Starts `python3 scripts/<script> arguments…` and waits for its first line.
    package init(script: String, _ arguments: [String]) throws {
        let repository = fixtures.deletingLastPathComponent()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repository.appendingPathComponent("scripts/" + script).path] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        firstLine = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What it wrote on standard error, once it has ended (why it did not start).
    package var errorText: String { String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }

    /// Stops it and waits for it to end.
    package func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
