import Foundation
import GDL90
import Synchronization
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayRecords
@testable import GatewayNotams
@testable import GatewayRuntime

/// Faults a gateway on a Pi meets: power cut during writes, a full disk, no network, gpsd going
/// away, the receiver falling silent, the clock jumping.
@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct FaultTests {
    func tempDir(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID())")
    }

    func run(_ args: [String], killAfter: Double? = nil) throws -> Int32 {
        let p = Process()
        guard let executable = gatewaydExecutable() else { throw CocoaError(.fileNoSuchFile) }
        p.executableURL = executable
        p.arguments = args
        p.standardOutput = Pipe()
        p.standardError = Pipe()
        try p.run()
        // kill -9 `killAfter` seconds into the writes, unless it has ended by then.
        if let killAfter, !waitForExit(p, timeout: killAfter) { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// kill -9 in the middle of alert-log and NOTAM writes: the database opens, passes SQLite's
    /// integrity check, and everything committed before is still there.
    @Test func killNineDuringWritesLosesNothingCommitted() throws {
        let dir = tempDir("kill9")
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("g.sqlite").path
        let capture = fixtures.appendingPathComponent("demo-flight.pcap").path
        let notams = fixtures.appendingPathComponent("notams-demo.json").path
        #expect(try run(["replay", capture, "--database", db, "--quiet"]) == 0)
        #expect(try run(["notams", "import", notams, "--database", db]) == 0)
        let committed = try AlertLog(database: GatewayDatabase(path: db)).events().count
        #expect(committed > 10)
        for delay in [0.05, 0.12, 0.2, 0.3] {
            _ = try run(["replay", capture, "--database", db, "--quiet"], killAfter: delay)
            _ = try run(["notams", "import", notams, "--database", db], killAfter: delay / 2)
            let database = try GatewayDatabase(path: db)
            let check = try database.read { try $0.row("PRAGMA integrity_check")?.string("integrity_check") }
            #expect(check == "ok")
            #expect(try AlertLog(database: database).events().count >= committed)
            #expect(try NotamStore(database: database).count() == 5)
        }
    }

    /// A full disk: the append fails with a sentence saying so; what was stored stays readable.
    @Test func fullDiskIsReportedAndEarlierRowsStay() throws {
        let dir = tempDir("full")
        defer { try? FileManager.default.removeItem(at: dir) }
        let database = try GatewayDatabase(path: dir.appendingPathComponent("g.sqlite").path)
        let log = AlertLog(database: database)
        let event = AlertEvent(change: .raised, kind: .traffic, id: "t", subject: "ab4549", level: .warning, time: 1,
                               message: String(repeating: "x", count: 2000))
        try log.append([event])
        let pages = try database.read { try $0.row("PRAGMA page_count")?.int("page_count") } ?? 0
        try database.writeWithoutTransaction { try $0.executeScript("PRAGMA max_page_count = \(pages + 2)") }
        var failure: GatewayError? = nil
        for _ in 0..<50 {
            do { try log.append(Array(repeating: event, count: 20)) } catch { failure = error; break }
        }
        #expect(failure?.description.contains("the disk is full") == true, "\(String(describing: failure))")
        #expect(try log.events().count >= 1)
    }

    /// `decode` into a full disk (/dev/full: every write fails with ENOSPC) is an error naming
    /// it, status 1; into a reader that has gone (a closed pipe, EPIPE: `| head`) it ends
    /// quietly with status 0, as command-line tools do.
    @Test func decodeIntoAFullDiskSaysSoAndAClosedPipeIsQuiet() throws {
        let executable = try #require(gatewaydExecutable())
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let capture = fixtures.appendingPathComponent("demo-flight.pcap").path
        func decode(into out: FileHandle) throws -> (status: Int32, stderr: String) {
            let p = Process()
            p.executableURL = executable
            p.arguments = ["decode", "--json", capture]
            p.standardOutput = out
            let err = Pipe()
            p.standardError = err
            try p.run()
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            return (p.terminationStatus, text)
        }
        let intoFull = try decode(into: full)
        #expect(intoFull.status == 1)
        #expect(intoFull.stderr.contains("error: writing the output failed: No space left on device (errno 28)"), "\(intoFull.stderr)")
        let closed = Pipe()
        try closed.fileHandleForReading.close()
        let intoClosed = try decode(into: closed.fileHandleForWriting)
        #expect(intoClosed.status == 0)
        #expect(!intoClosed.stderr.contains("error"), "\(intoClosed.stderr)")
    }

    /// No network during a refresh: a connection error, retried, then reported; the cache stays.
    @Test func networkDownDuringRefreshKeepsTheCache() async throws {
        let dir = tempDir("netdown")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = NotamStore(database: try GatewayDatabase(path: dir.appendingPathComponent("g.sqlite").path))
        try store.refresh(source: "faa-api", notams: [NotamParser.parse(NotamTexts.runway, source: "faa-api")], at: 0)
        var http = HTTPClient()
        let delays = Delays()
        http.sleep = { delays.add($0) }
        do throws(FetchError) {
            _ = try await FAANotamAPI(baseURL: "http://127.0.0.1:1", credentials: Credentials(id: "a", secret: "b"), http: http).fetch(NotamQuery(locations: ["KSLE"]))
            Issue.record("expected a network error")
        } catch {
            #expect(error.kind == .network && error.reason.contains("still after 4 attempts"))
        }
        #expect(delays.values == [1, 2, 4])
        #expect(try store.count() == 1)
    }

    /// gpsd goes away and comes back: the client says so and reconnects by itself.
    @Test func gpsdDisappearsAndComesBack() throws {
        let statuses = Mutex<[GPSDClient.Status]>([])
        let fixes = Mutex(0)
        var server = try FakeGPSD(port: 0)
        let port = server.port
        let client = GPSDClient(host: "127.0.0.1", port: port, onFix: { _ in fixes.withLock { $0 += 1 } },
                                onStatus: { s in statuses.withLock { $0.append(s) } })
        client.start()
        defer { client.stop() }
        func wait(_ condition: () -> Bool) { _ = eventually(10, condition) }
        wait { fixes.withLock { $0 } > 0 }
        #expect(statuses.withLock { $0 }.first == .connected)
        server.stop()
        wait { statuses.withLock { $0 }.contains { if case .disconnected = $0 { true } else { false } } }
        server = try FakeGPSD(port: port)
        defer { server.stop() }
        let before = fixes.withLock { $0 }
        wait { fixes.withLock { $0 } > before }
        #expect(fixes.withLock { $0 } > before)
        #expect(statuses.withLock { $0 }.last == .connected)
    }

    /// The receiver falls silent: health says so after 10 s, with what to check; it recovers.
    @Test func receiverSilenceAndRecovery() {
        var core = GatewayCore()
        _ = core.handle(.message(.heartbeat(Heartbeat(gpsPositionValid: true, utcOK: true))), at: 100)
        #expect(core.health.problem(at: 105) == nil)
        #expect(core.health.problem(at: 112)?.contains("no GDL90 for 12 s") == true)
        _ = core.handle(.message(.heartbeat(Heartbeat(gpsPositionValid: true, utcOK: true))), at: 113)
        #expect(core.health.problem(at: 114) == nil)
    }

    /// The clock jumps back an hour, then forward a day: no trap, stale targets go, alerts clear.
    @Test func clockJumps() {
        var s = Scene()
        _ = s.ownship(at: 1000)
        #expect(!s.target(at: 1000, east: 0, north: 0.6, altitude: 3000).isEmpty)
        _ = s.ownship(at: 1000 - 3600)
        _ = s.target(at: 1000 - 3600, east: 0, north: 0.6)
        let later = s.core.handle(.tick, at: 1000 + 86_400)
        #expect(s.core.picture.targets.isEmpty)
        #expect(s.core.trafficAlerts.activeCount == 0)
        #expect(later.allSatisfy { $0.change == .cleared })
    }
}

/// A gpsd stand-in: accepts connections and sends a TPV line every 100 ms.
struct FakeGPSD {
    let port: UInt16
    private let fd: Int32
    private let running: RunningFlag

    final class RunningFlag: Sendable {
        let value = Mutex(true)
    }

    init(port: UInt16) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr)
        let ok = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard ok == 0 else { throw CocoaError(.fileWriteUnknown) }
        listen(fd, 4)
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        self.fd = fd
        self.port = UInt16(bigEndian: bound.sin_port)
        let running = RunningFlag()
        self.running = running
        Thread {
            let c = accept(fd, nil, nil)
            guard c >= 0 else { return }
            let line = Array("{\"class\":\"TPV\",\"mode\":3,\"lat\":44.91,\"lon\":-123.0,\"alt\":100.0,\"speed\":50.0,\"track\":10.0}\n".utf8)
            while running.value.withLock({ $0 }) {
                if line.withUnsafeBytes({ send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) < 0 { break }
                _ = eventually(0.1) { !running.value.withLock { $0 } }  // gpsd's pace: the next line in 100 ms, unless stopped
            }
            close(c)
        }.start()
    }

    func stop() {
        running.value.withLock { $0 = false }
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}
