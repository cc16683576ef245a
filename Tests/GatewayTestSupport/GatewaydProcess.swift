import Foundation
import GatewaySupport

/// The built `gatewayd` executable, next to the test bundle (`swift test` builds every product).
package func gatewaydExecutable() -> URL? {
    let candidates = [
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gatewayd"),
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/gatewayd"),
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

/// Runs the built `gatewayd` with `arguments` to its end, as a person runs it: its exit status,
/// standard output and standard error.
package func runGatewayd(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
    guard let executable = gatewaydExecutable() else { throw CocoaError(.fileNoSuchFile) }
    return try runProcess(executable, arguments)
}

/// Runs `executable` with `arguments` (in `folder`, with `environment` added to this process's)
/// to its end: its exit status, standard output and standard error, both read while it runs, so
/// neither pipe fills.
package func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                        in folder: URL? = nil) throws -> (status: Int32, output: String, errors: String) {
    let p = Process()
    p.executableURL = executable
    p.arguments = arguments
    if !environment.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    if let folder { p.currentDirectoryURL = folder }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let errors = Locked<Data?>(nil)
    let reader = Thread { errors.setWaking(err.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    errors.wait(until: { $0 != nil })
    return (p.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors.value ?? Data(), as: UTF8.self))
}
