import Foundation
import GDL90
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayRecords
@testable import GatewayFeeds
import GatewayHTTP
@testable import GatewayRuntime
@testable import GatewaySimulation

/// What a `GatewayConsole` was given, for the tests to read.
final class ConsoleLines: Sendable {
    let lines = Mutex<[String]>([])
    let alerts: AsyncStream<String>
    private let alertSink: AsyncStream<String>.Continuation

    init() { (alerts, alertSink) = AsyncStream.makeStream(of: String.self) }

    var console: GatewayConsole {
        GatewayConsole(alerts: { [alertSink] in for line in $0 { alertSink.yield(line) } },
                       info: { [self] in add($0) }, warning: { [self] in add($0) }, error: { [self] in add($0) })
    }

    func add(_ line: String) { lines.withLock { $0.append(line) } }

    var text: String { lines.withLock { $0.joined(separator: "\n") } }
}

@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct GatewayAppTests {
    /// A gateway on loopback with a real database and feeds: it reports the ports it bound,
    /// turns a datagram sent over a real UDP socket into an alert line, and a graceful shutdown
    /// stops every service and closes the database (its write-ahead log checkpointed).
    @Test func startsReceivesAndStopsGracefully() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-app-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var config = GatewayConfig()
        config.bind = "127.0.0.1"
        config.udpPort = 0
        config.httpBind = "127.0.0.1"
        config.nmeaPort = 0
        config.statusInterval = 1
        config.database = directory.appendingPathComponent("gateway.sqlite").path
        config.httpPort = Int(HostileBenchmark.freePort(Int32(SOCK_STREAM.rawValue)))
        let output = ConsoleLines()
        let started = try GatewayApp(config: config, console: output.console).start()
        #expect(started.udpPort > 0 && started.httpPort == config.httpPort)
        #expect(output.text.contains("gatewayd: listening for GDL90 on UDP 127.0.0.1:\(started.udpPort), alert log \(config.database!)"))
        #expect(output.text.contains("gatewayd: feeds: HTTP http://127.0.0.1:\(config.httpPort)/"))
        let names = started.services.map { "\($0)" }
        #expect(names == ["terminal", "alert log", "GDL90 ingest", "HTTP feeds", "airspace reload", "acknowledgement poll", "tick", "status line", "alert log retry", "stopping line"])

        let group = ServiceGroup(services: started.services, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        // The group (and the HTTP server's tasks, its children) on a queue of its own: the other
        // tests running meanwhile block threads of the cooperative pool.
        let running = Task(executorPreference: QueueExecutor.shared) { try await group.run() }
        let sender = try UDPSender(host: "127.0.0.1", port: started.udpPort)
        sender.send(Self.conflict())
        var alerts = output.alerts.makeAsyncIterator()
        let first = await alerts.next()
        #expect(first?.contains("N825V") == true, "alert line: \(first ?? "none")")
        let feed = "http://127.0.0.1:\(config.httpPort)/data/aircraft.json"
        // The server listens once the group runs it: a moment after the "feeds" line.
        let status = await Offload.run(on: .global()) { () -> Int? in
            var status: Int?
            _ = eventually(5) {
                status = (try? HTTPConnection.get(feed, timeout: 2))?.status
                return status != nil
            }
            return status
        }
        #expect(status == 200)
        await group.triggerGracefulShutdown()
        try await running.value

        #expect(output.text.contains("gatewayd: stopping (datagrams 1,"))
        #expect(await Offload.run(on: .global()) { (try? HTTPConnection.get(feed, timeout: 2))?.status } == .some(nil), "the HTTP feeds still answer")
        let wal = (try? FileManager.default.attributesOfItem(atPath: config.database! + "-wal")[.size] as? Int) ?? 0
        #expect(wal == 0, "the database was not closed (WAL not checkpointed)")
        let logged = try AlertLog(database: GatewayDatabase(path: config.database!)).events()
        #expect(logged.first?.subject == "ab4549")
    }

    /// A start that fails half-way (the HTTP port taken) throws a clear error and closes what it had opened.
    @Test func aFailedStartSaysWhyAndClosesWhatItOpened() throws {
        let taken = FeedServer(hub: FeedHub())
        try taken.start(host: "127.0.0.1", port: 0)
        defer { taken.stop() }
        var config = GatewayConfig()
        config.bind = "127.0.0.1"
        config.udpPort = Int(HostileBenchmark.freePort(Int32(SOCK_DGRAM.rawValue)))
        config.httpBind = "127.0.0.1"
        config.httpPort = taken.port
        config.nmeaPort = 0
        config.databaseEnabled = false
        let output = ConsoleLines()
        do {
            _ = try GatewayApp(config: config, console: output.console).start()
            Issue.record("expected the port in use to stop the start")
        } catch {
            #expect(error.description.contains("port \(taken.port) is already in use"))
        }
        #expect(!output.text.contains("listening"))
        // The UDP socket it had bound is free again (closed by its Dispatch source's cancel
        // handler, which a loaded machine may run a moment later).
        let rebound = eventually(5) {
            let again = LiveGateway(log: nil, onAlerts: { _ in })
            defer { again.stop() }
            do { try again.start(bind: "127.0.0.1", port: UInt16(config.udpPort)); return true } catch { return false }
        }
        #expect(rebound, "UDP port \(config.udpPort) still taken 5 s after the failed start")
    }

    /// `--forward` never names this gateway's own GDL 90 port on this machine.
    @Test func forwardTargetsRefuseTheGatewayItself() throws {
        let local: Set<String> = ["127.0.0.1", "192.168.10.50"]
        try GatewayApp.refuseSelfForward(HostPort(host: "192.168.10.20", port: 4000), ownPort: 4000, localAddresses: local)
        try GatewayApp.refuseSelfForward(HostPort(host: "127.0.0.1", port: 4001), ownPort: 4000, localAddresses: local)
        for own in ["127.0.0.1:4000", "localhost:4000", "192.168.10.50:4000"] {
            #expect(throws: GatewayError.setting(name: "--forward", message: "--forward \(own) names this gateway's own GDL90 port: it would forward the stream to itself, endlessly")) {
                try GatewayApp.refuseSelfForward(HostPort(own)!, ownPort: 4000, localAddresses: local)
            }
        }
    }

    /// A periodic job runs after its delay and on schedule, and ends on graceful shutdown
    /// without waiting out its interval.
    @Test func periodicServiceRunsOnScheduleAndEndsOnShutdown() async throws {
        let (runs, sink) = AsyncStream.makeStream(of: Int.self)
        let count = Mutex(0)
        let service = PeriodicService("test", delay: .milliseconds(1), every: .milliseconds(1)) {
            sink.yield(count.withLock { $0 += 1; return $0 })
        }
        try await testGracefulShutdown { shutdown in
            async let running: Void = service.run()
            var iterator = runs.makeAsyncIterator()
            #expect(await iterator.next() == 1)
            #expect(await iterator.next() == 2)
            shutdown.triggerGracefulShutdown()
            try await running
        }
        let slow = PeriodicService("slow", delay: .seconds(3600), every: .seconds(3600)) { Issue.record("ran before its delay") }
        try await testGracefulShutdown { shutdown in
            async let running: Void = slow.run()
            shutdown.triggerGracefulShutdown()
            try await running
        }
    }

    /// On an injected clock: the job waits out its delay, then runs once per interval.
    @Test func periodicServiceFollowsItsClock() async throws {
        let clock = TestClock()
        let (runs, sink) = AsyncStream.makeStream(of: Duration.self)
        let service = PeriodicService("status line", delay: .seconds(60), every: .seconds(30), clock: clock) { sink.yield(clock.now.offset) }
        try await testGracefulShutdown { shutdown in
            async let running: Void = service.run()
            var sleeps = clock.sleeps.makeAsyncIterator(), ran = runs.makeAsyncIterator()
            #expect(await sleeps.next()?.offset == .seconds(60))
            clock.advance(by: .seconds(59))
            clock.advance(by: .seconds(1))
            #expect(await ran.next() == .seconds(60))
            #expect(await sleeps.next()?.offset == .seconds(90))
            clock.advance(by: .seconds(30))
            #expect(await ran.next() == .seconds(90))
            #expect(await sleeps.next()?.offset == .seconds(120))
            shutdown.triggerGracefulShutdown()
            try await running
        }
    }

    /// The app's timers run on the clock it is given: the status line comes when the test clock
    /// passes the status interval, with no wall-clock wait.
    @Test func statusLineComesOnTheInjectedClock() async throws {
        var config = GatewayConfig()
        config.bind = "127.0.0.1"
        config.udpPort = 0
        config.httpPort = 0
        config.nmeaPort = 0
        config.databaseEnabled = false
        config.statusInterval = 60
        let clock = TestClock(), output = ConsoleLines()
        let started = try GatewayApp(config: config, console: output.console, systemd: SystemdNotifier(environment: [:]), clock: clock).start()
        #expect(started.services.map { "\($0)" } == ["terminal", "GDL90 ingest", "airspace reload", "tick", "status line", "stopping line"])
        let group = ServiceGroup(services: started.services, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        async let running: Void = group.run()
        // Every timer asleep on the test clock: the tick (1 s), the airspace source's reload and
        // the status line (60 s each); then a minute passes.
        var sleeps = clock.sleeps.makeAsyncIterator()
        func waitForSleeps(until deadline: Duration, count: Int) async {
            var seen = 0
            while seen < count, let s = await sleeps.next() { if s.offset == deadline { seen += 1 } }
        }
        await waitForSleeps(until: .seconds(60), count: 2)
        #expect(!output.text.contains("status:"))
        clock.advance(by: .seconds(60))
        // The next sleeps begin once both minute jobs have run.
        await waitForSleeps(until: .seconds(120), count: 2)
        #expect(output.text.contains("status: datagrams 0, messages 0, rejected 0, targets 0, alerts 0, position from none"))
        await group.triggerGracefulShutdown()
        try await running
    }

    /// Offloaded work returns its value; cancelled, the caller gets nil at once.
    @Test func offloadReturnsOrLetsGoOnCancellation() async {
        #expect(await Offload.run(on: .global()) { 42 } == 42)
        let gate = DispatchSemaphore(value: 0)
        let task = Task { await Offload.run(on: .global()) { gate.wait(); return 1 } }
        task.cancel()
        #expect(await task.value == nil)
        gate.signal()
    }

    /// gpsd as a service against a fake gpsd on loopback: it asks to watch, turns a TPV line into a
    /// fix, and ends on graceful shutdown while connected.
    @Test func gpsdClientReadsFixesAndStopsOnShutdown() async throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = HostileBenchmark.address("127.0.0.1", 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try #require(withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } } == 0)
        try #require(listen(listener, 1) == 0)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        let (fixes, fixSink) = AsyncStream.makeStream(of: GPSFix.self)
        let (states, stateSink) = AsyncStream.makeStream(of: GPSDClient.Status.self)
        let client = GPSDClient(host: "127.0.0.1", port: UInt16(bigEndian: address.sin_port),
                                onFix: { fixSink.yield($0) }, onStatus: { stateSink.yield($0) })
        try await testGracefulShutdown { shutdown in
            async let running: Void = client.run()
            // The fake gpsd: accept, read the WATCH request, send one report (off the cooperative pool).
            let watch = await Offload.run(on: .global()) { () -> String in
                let connection = accept(listener, nil, nil)
                var buffer = [UInt8](repeating: 0, count: 256)
                let count = recv(connection, &buffer, buffer.count, 0)
                let tpv = #"{"class":"TPV","mode":3,"lat":45.5,"lon":-122.5,"altMSL":1000.0,"speed":51.4444,"track":90.0}"# + "\n"
                _ = tpv.withCString { send(connection, $0, strlen($0), 0) }
                return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
            }
            #expect(watch?.hasPrefix("?WATCH={\"enable\":true") == true)
            var states = states.makeAsyncIterator()
            #expect(await states.next() == .connected)
            var fixes = fixes.makeAsyncIterator()
            #expect(await fixes.next()?.position == Position(latitude: 45.5, longitude: -122.5))
            shutdown.triggerGracefulShutdown()
            try await running
        }
        #expect("\(client)" == "gpsd 127.0.0.1:\(UInt16(bigEndian: address.sin_port))")
    }

    /// One datagram: heartbeat, ownship and an intruder head-on 0.6 NM ahead (a warning).
    static func conflict() -> [UInt8] {
        let plane = LocalPlane(origin: Position(latitude: 45, longitude: -122))
        let own = Message.ownship(TrafficReport(address: 0xA1B2C3, position: plane.unproject(PlanePoint(east: 0, north: 0)),
                                                pressureAltitudeFt: 3000, groundSpeedKt: 100, verticalSpeedFpm: 0, trackDeg: 0)).frame()
        let intruder = Message.traffic(TrafficReport(address: 0xAB4549, position: plane.unproject(PlanePoint(east: 0.05, north: 0.6)),
                                                     pressureAltitudeFt: 3100, groundSpeedKt: 120, verticalSpeedFpm: 0, trackDeg: 180,
                                                     callsign: "N825V")).frame()
        return Message.heartbeat(Heartbeat(gpsPositionValid: true, utcOK: true)).frame() + own + intruder
    }
}
