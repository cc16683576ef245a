import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySimulation
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayRecords
@testable import GatewayFeeds

/// Issue 40, item 4: `run` starts and alerts whatever state its database is in. A corrupt file is
/// moved aside (kept) and a new one started; a full disk, a read-only mount or a database made by
/// a newer gatewayd leave the database in memory, said once, on `/healthz` (degraded, with the
/// reason), the status line and the page, and tried again until the file can be written, when
/// what memory kept is written to it.
///
/// The full disk and the read-only mount are real: a small tmpfs, filled or remounted read-only
/// (mounting needs root, which CI has).
@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct StorageFaultStartTests {
    enum Fault: String, CaseIterable, CustomTestStringConvertible {
        case corrupt, newerVersion, fullDisk, readOnlyMount
        var testDescription: String { rawValue }
        /// Whether the database ends up in memory (a corrupt file is replaced instead).
        var degrades: Bool { self != .corrupt }
        /// What the reason says.
        var reason: String {
            switch self {
            case .corrupt: "not a valid SQLite database"
            case .newerVersion: "made by a newer gatewayd"
            case .fullDisk: "the disk is full"
            case .readOnlyMount: "read-only"
            }
        }
    }

    static let isRoot = getuid() == 0
    static let garbage = Array(String(repeating: "not a database, a log line; ", count: 2_000).utf8)

    /// A folder holding the database path for `fault`, made so, and how to undo it.
    /// The same, undone again (the tmpfs unmounted) when making it fails halfway.
    func prepare(_ fault: Fault) throws -> (path: String, folder: String, undo: () -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-storage-\(fault.rawValue)-\(UUID())").path
        let mount = folder + "/card"
        let undo = {
            if fault == .fullDisk || fault == .readOnlyMount { _ = try? Self.shell("umount", mount) }
            try? FileManager.default.removeItem(atPath: folder)
        }
        do {
            return try prepare(fault, folder: folder, mount: mount, undo: undo)
        } catch {
            undo()
            throw error
        }
    }

    private func prepare(_ fault: Fault, folder: String, mount: String, undo: @escaping () -> Void) throws -> (path: String, folder: String, undo: () -> Void) {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        switch fault {
        case .corrupt:
            try Data(Self.garbage).write(to: URL(fileURLWithPath: folder + "/gateway.sqlite"))
            return (folder + "/gateway.sqlite", folder, undo)
        case .newerVersion:
            let database = try GatewayDatabase(path: folder + "/gateway.sqlite")
            try database.write { try $0.execute("INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
            try database.close()
            return (folder + "/gateway.sqlite", folder, undo)
        case .fullDisk:
            try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
            try Self.shell("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mount)
            // Filled to the last byte, as a card whose recorder ran without a cap.
            _ = try? Self.shell("dd", "if=/dev/zero", "of=\(mount)/filler", "bs=4096")
            return (mount + "/gateway.sqlite", folder, undo)
        case .readOnlyMount:
            try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
            try Self.shell("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mount)
            do {
                let database = try GatewayDatabase(path: mount + "/gateway.sqlite")
                try AlertLog(database: database).append([AlertEvent(change: .raised, kind: .traffic, id: "before", subject: "abc123", level: .advisory,
                                                                    time: 1, message: "kept before the card went read-only")])
                try database.close()
            }  // its connections closed: nothing holds the mount
            // The kernel remounts a card read-only when it finds errors on it.
            try Self.shell("mount", "-o", "remount,ro", mount)
            return (mount + "/gateway.sqlite", folder, undo)
        }
    }

    @discardableResult
    static func shell(_ arguments: String...) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 || ["dd", "touch"].contains(arguments.first!) else {
            throw GatewayError.subprocess(name: arguments.joined(separator: " "), status: p.terminationStatus)
        }
        return p.terminationStatus
    }

    /// The library: each fault gives a usable database and the words for it, never an error.
    @Test(.enabled(if: isRoot, "mounts a tmpfs: run as root (CI does)"), arguments: Fault.allCases)
    func openForRunNeverFails(_ fault: Fault) throws {
        let (path, folder, undo) = try prepare(fault)
        defer { undo() }
        let (database, notes) = GatewayDatabase.openForRun(path: path, now: Timestamp.parse("2026-05-16T14:00:00Z")!)
        #expect(notes.count == 1 && notes[0].contains(fault.reason), "\(notes)")
        #expect((database.degradedReason != nil) == fault.degrades)
        // Alerts are logged wherever the database is.
        let log = AlertLog(database: database)
        try log.append([AlertEvent(change: .raised, kind: .traffic, id: "t1", subject: "ab4549", level: .warning, time: 2, message: "traffic")])
        #expect(try log.events().map(\.alertID).suffix(1) == ["t1"])
        if fault == .corrupt {
            // Moved aside with its bytes, never deleted; the new file is a database.
            let aside = folder + "/gateway.sqlite.corrupt-20260516T140000Z"
            #expect(notes[0].contains("moved aside to \(aside) (kept, not deleted)"))
            #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: aside))) == Self.garbage)
            #expect(try GatewayDatabase(path: path).read { try $0.row("PRAGMA integrity_check")?.string("integrity_check") } == "ok")
        } else {
            #expect(notes[0].hasSuffix("tried again every minute), NOTAMs stored before are not read"))
            #expect(database.retry() == nil)  // still unusable: nothing to say
        }
        try database.close()
    }

    /// Item 12: the commands that only read (`alerts`, `flights list`, `notams list`) read a
    /// database on a card remounted read-only, instead of failing with a misleading message.
    @Test(.enabled(if: isRoot, "mounts a tmpfs: run as root (CI does)"))
    func readOnlyDatabasesCanBeListed() throws {
        let (path, _, undo) = try prepare(.readOnlyMount)
        defer { undo() }
        func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let r = try runGatewayd(arguments + ["--database", path])
            return (r.status, r.output)
        }
        let alerts = try run(["alerts"])
        #expect(alerts.status == 0 && alerts.output.contains("kept before the card went read-only"), "\(alerts)")
        #expect(try run(["flights", "list"]).status == 0)
        #expect(try run(["notams", "list"]).status == 0)
        // Nothing was written: the card is still read-only and holds what it held.
        #expect(try Self.shell("touch", URL(fileURLWithPath: path).deletingLastPathComponent().path + "/x") != 0)
    }

    /// A full card freed while running: the retry writes into the file what memory kept (the
    /// alert changes and a flight with its parts), and the database is on its file again.
    @Test(.enabled(if: isRoot, "mounts a tmpfs: run as root (CI does)"))
    func aFreedCardGetsWhatMemoryKept() throws {
        let (path, _, undo) = try prepare(.fullDisk)
        defer { undo() }
        let (database, _) = GatewayDatabase.openForRun(path: path)
        #expect(database.degradedReason?.contains("the disk is full") == true)
        let log = AlertLog(database: database)
        let events = (0..<5).map { AlertEvent(change: $0 == 0 ? .raised : .updated, kind: .traffic, id: "t1", subject: "ab4549", level: .caution,
                                               time: Double($0), message: "traffic \($0)") }
        try log.append(events)
        // A flight kept by the logbook while in memory (the committed scenario of two flights).
        let store = LogbookStore(database: database)
        var logbook = Logbook(store: store, airports: AirportTable.located(), source: "test")
        let report = try FlightImport.run([fixtures.appendingPathComponent("scenarios/two-flights.pcap").path], into: &logbook)
        #expect(report.flights.count == 2)
        let before = try store.list()
        try FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path + "/filler")
        let said = try #require(database.retry())
        #expect(said == "database \(path): usable again: the alert log and logbook are written to it again (5 alert change(s) and 2 flight(s) kept in memory meanwhile were written)")
        #expect(database.degradedReason == nil)
        try log.append([AlertEvent(change: .cleared, kind: .traffic, id: "t1", subject: "ab4549", level: .caution, time: 9, message: "clear")])
        try database.close()
        // Read back from the file alone.
        let file = try GatewayDatabase(path: path)
        #expect(try AlertLog(database: file).events().map(\.message) == events.map(\.message) + ["clear"])
        let after = try LogbookStore(database: file).list()
        #expect(after.map(\.offBlock) == before.map(\.offBlock) && after.map(\.distanceNM) == before.map(\.distanceNM))
        let flight = try #require(try LogbookStore(database: file).flight(after[0].id, display: false))
        let original = try #require(try store.flight(before[0].id, display: false))
        #expect(flight.track.count == original.track.count && flight.encounters.count == original.encounters.count)
    }

    /// The daemon: with each fault it starts, prints the demo flight's alerts on stdout, streams
    /// them on `/alerts`, and `/healthz` says degraded with the reason (a corrupt file: replaced, ok).
    @Test(.ownThread, .enabled(if: isRoot, "mounts a tmpfs: run as root (CI does)"), arguments: Fault.allCases)
    func runAlertsThroughTheFault(_ fault: Fault) throws {
        let executable = try #require(gatewaydExecutable(), "build gatewayd first (swift build)")
        let (path, _, undo) = try prepare(fault)
        defer { undo() }
        let http = HostileBenchmark.freePort(Int32(SOCK_STREAM.rawValue))
        let process = Process()
        process.executableURL = executable
        process.arguments = ["run", "--replay", fixtures.appendingPathComponent("demo-flight.pcap").path, "--speed", "20",
                             "--notams", fixtures.appendingPathComponent("notams-demo.json").path, "--http-bind", "127.0.0.1",
                             "--http-port", "\(http)", "--nmea-port", "0", "--database", path, "--status-interval", "1"]
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        var errors = Data()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !String(decoding: errors, as: UTF8.self).contains("feeds:") { errors.append(stderr.fileHandleForReading.availableData) }
        let base = "http://127.0.0.1:\(http)"
        _ = eventually(20) { (try? HTTPConnection.get(base + "/healthz", timeout: 1)) != nil }
        // /alerts: the first alert of the flight (the TFR ahead, then traffic) arrives as an event.
        var sse = try HTTPConnection(#require(HTTPConnection.Target(base + "/alerts")))
        sse.setReadTimeout(20)
        var parser = SSEParser()
        var events: [String] = []
        while events.isEmpty, let piece = try sse.readBody() { events += parser.feed(piece) }
        #expect(events.first?.contains("\"event\":\"raised\"") == true, "\(events)")
        let health = try HTTPConnection.get(base + "/healthz")
        #expect(health.status == 200)
        if fault.degrades {
            #expect(health.body.contains("\"status\":\"degraded\"") && health.body.contains("\"storage\":\"database \(path): "), "\(health.body)")
            #expect(health.body.contains(fault.reason), "\(health.body)")
            #expect(try HTTPConnection.get(base + "/api/traffic").body.contains("\"storage\":\"database \(path): "))
        } else {
            #expect(health.body.contains("\"status\":\"ok\""), "\(health.body)")
        }
        // The traffic alert (N51TB) is out too, and a status line (with the storage's state) said.
        while !events.contains(where: { $0.contains("c0ffee") }), let piece = try sse.readBody() { events += parser.feed(piece) }
        sse.close()
        let statusLine = fault.degrades ? "; storage degraded: database \(path): " : "status: "
        let until = Date().addingTimeInterval(20)
        while Date() < until, !String(decoding: errors, as: UTF8.self).contains(statusLine) { errors.append(stderr.fileHandleForReading.availableData) }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        errors.append(stderr.fileHandleForReading.readDataToEndOfFile())
        let said = String(decoding: errors, as: UTF8.self)
        let printed = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0)
        #expect(printed.contains("raised   Entering TFR 6/2174") && printed.contains("Traffic N51TB (c0ffee)"), "\(printed.prefix(500))")
        #expect(said.components(separatedBy: "warning: database \(path): ").count - 1 == 1, "said once: \(said)")
        if fault.degrades {
            #expect(said.contains("; storage degraded: database \(path): "), "the status line: \(said)")
            #expect(said.contains("the alert log and logbook of this run, kept in memory, are lost (the alerts were printed)"), "\(said)")
        }
    }
}
