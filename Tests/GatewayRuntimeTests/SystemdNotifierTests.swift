import Foundation
import ServiceLifecycleTestKit
import Testing
@testable import GatewaySupport
@testable import GatewayRuntime
#if canImport(Glibc)
import Glibc
#endif

#if os(Linux)
@Suite(.timeLimit(.minutes(5))) struct SystemdNotifierTests {
    @Test func environmentDecidesWhatIsSent() {
        #expect(SystemdNotifier(environment: [:]).socketPath == nil)
        #expect(SystemdNotifier(environment: [:]).notify("READY=1") == false)
        let n = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "42"], pid: 42)
        #expect(n.socketPath == "/run/x" && n.watchdogInterval == 15)
        // Another process's watchdog, or none configured: no pings.
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "7"], pid: 42).watchdogInterval == nil)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": "/run/x"]).watchdogInterval == nil)
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "30000000"]).watchdogInterval == nil)
    }

    /// A datagram socket standing in for systemd's receives exactly what was sent.
    @Test(arguments: [false, true]) func sendsToThePathOrAbstractSocket(abstract: Bool) throws {
        let name = abstract ? "@skygate-test-\(UUID().uuidString.prefix(8))" : NSTemporaryDirectory() + "notify-\(UUID().uuidString.prefix(8))"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(fd >= 0)
        defer {
            close(fd)
            if !abstract { unlink(name) }
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(name.utf8)
        if abstract { path[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count + (abstract ? 0 : 1)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
        }
        try #require(bound == 0)

        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": name])
        #expect(notifier.notify("READY=1\nSTATUS=listening"))
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(count > 0)
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "READY=1\nSTATUS=listening")
    }

    @Test func watchdogPetsFromTheGivenQueue() async throws {
        let name = NSTemporaryDirectory() + "notify-\(UUID().uuidString.prefix(8))"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd); unlink(name) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(name.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        // The suite's CPU-heavy tests can hold both cooperative threads (and Dispatch's global
        // queues, which share them) for a minute on a 2-core machine: the service runs on a queue
        // of its own and each ping is awaited on another, so the test measures the watchdog only.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        // WatchdogSec=0.2 s: a ping every 0.1 s.
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": name, "WATCHDOG_USEC": "200000"])
        let watchdog = try #require(notifier.watchdog(petting: DispatchQueue(label: "test.core")))
        #expect(watchdog.interval == .milliseconds(100))
        let receiver = DispatchQueue(label: "test.notify-socket")
        try await withTaskExecutorPreference(QueueTaskExecutor(label: "test.watchdog")) {
            try await testGracefulShutdown { shutdown in
                async let running: Void = watchdog.run()
                for _ in 0..<2 {
                    let ping = await Offload.run(on: receiver) {
                        var buffer = [UInt8](repeating: 0, count: 64)
                        let count = recv(fd, &buffer, buffer.count, 0)
                        return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
                    }
                    #expect(ping == "WATCHDOG=1")
                }
                shutdown.triggerGracefulShutdown()
                try await running
            }
        }
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": name]).watchdog(petting: .main) == nil)
    }
}

/// Runs a test's tasks on a serial queue of their own (an overcommitting thread), not the
/// cooperative pool the rest of the suite shares.
final class QueueTaskExecutor: TaskExecutor, @unchecked Sendable {  // only a queue, itself thread-safe
    private let queue: DispatchQueue
    init(label: String) { queue = DispatchQueue(label: label) }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { unowned.runSynchronously(on: executor) }
    }
}
#endif
