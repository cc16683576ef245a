#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewaySupport
#if canImport(Glibc)
import Glibc
#endif

/// Debian's `mosquitto`, started on a free loopback port with a password file and persistence
/// in a folder of its own: the real broker the fleet's tests and benchmark run against (never a
/// mock). `stop` and `restart` keep the port, the users and the persisted sessions.
package final class MosquittoBroker: @unchecked Sendable {  // concurrency: its process is touched by one thread (a test's, the benchmark's)
    package let port: Int
    package let folder: URL
    private var process: ChildProcess?

    /// The broker binary, when installed.
    package static var executable: String? {
        ["/usr/sbin/mosquitto", "/usr/bin/mosquitto", "/usr/local/sbin/mosquitto"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts a broker with `users` (name → password; none: anonymous allowed) and `extra`
    /// configuration lines; nil when mosquitto is not installed.
    package static func start(users: [String: String] = [:], extra: [String] = []) throws -> MosquittoBroker? {
        guard let executable else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-mosquitto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var conf = ["listener PORT 127.0.0.1", "persistence true", "persistence_location \(folder.path)/", "log_dest file \(folder.path)/broker.log",
                    "log_type all", "max_queued_messages 100000"]
        if users.isEmpty {
            conf.append("allow_anonymous true")
        } else {
            let passwd = folder.appendingPathComponent("passwd").path
            for (i, (user, password)) in users.sorted(by: { $0.key < $1.key }).enumerated() {
                let made = try Self.run("/usr/bin/mosquitto_passwd", ["-b"] + (i == 0 ? ["-c"] : []) + [passwd, user, password])
                guard made == 0 else { throw GatewayError.subprocess(name: "mosquitto_passwd", status: made) }
            }
            conf += ["allow_anonymous false", "password_file \(passwd)"]
        }
        conf += extra
        // As root, mosquitto 2 drops to the mosquitto user before reading its files.
        if getuid() == 0 { conf.append("user root") }
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = Int(HostileBenchmark.freePort(Int32(SOCK_STREAM.rawValue)))
            let text = conf.map { $0.replacingAll("PORT", with: "\(port)") }.joined(separator: "\n") + "\n"
            try FileOutput.write(Array(text.utf8), to: folder.appendingPathComponent("mosquitto.conf").path)
            let broker = MosquittoBroker(port: port, folder: folder)
            do {
                try broker.launch(executable)
                return broker
            } catch {
                lastError = error
            }
        }
        throw lastError ?? GatewayError.socket(what: "mosquitto", reason: "did not start")
    }

    private init(port: Int, folder: URL) {
        self.port = port
        self.folder = folder
    }

    /// `mqtt://127.0.0.1:PORT`.
    package var url: String { "mqtt://127.0.0.1:\(port)" }

    /// The broker's process id (its CPU and memory, for the benchmark).
    package var pid: Int32? { process?.processIdentifier }

    private func launch(_ executable: String) throws {
        let p = try ChildProcess(executable, ["-c", folder.appendingPathComponent("mosquitto.conf").path])
        process = p
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if !p.isRunning { break }
            if Self.accepts(port) { return }
            usleep(50_000)  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
        }
        p.terminate()
        p.waitUntilExit()
        process = nil
        throw GatewayError.socket(what: "mosquitto on 127.0.0.1:\(port)", reason: "did not start (see \(folder.path)/broker.log)")
    }

    /// Stops the broker (SIGTERM; it saves its sessions).
    package func stop() {
        guard let p = process else { return }
        if p.isRunning { p.terminate() }
        p.waitUntilExit()
        process = nil
    }

    /// Starts it again on the same port with the same users and sessions.
    package func restart() throws {
        guard let executable = Self.executable else { return }
        var lastError: (any Error)?
        for _ in 0..<20 {
            do { try launch(executable); return } catch { lastError = error; usleep(250_000) }  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
        }
        throw lastError!
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The broker's log so far.
    package var log: String {
        guard let f = OpenFile.reading(folder.appendingPathComponent("broker.log").path) else { return "" }
        defer { f.close() }
        var bytes: [UInt8] = []
        while case let piece = f.read(upTo: 1 << 16), !piece.isEmpty { bytes += piece }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = UInt16(port).bigEndian
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } } == 0
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let p = try ChildProcess(executable, arguments)
        return p.waitWithUsage().status
    }
}
