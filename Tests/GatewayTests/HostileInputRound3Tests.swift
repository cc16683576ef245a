import Foundation
import Testing
import GatewayTestSupport
@testable import GatewayDomain
@testable import GatewayRecords
@testable import GatewayRuntime

/// Issue 40, items 7, 8, 9, 14, 15 and 17, through the command as a person runs it: each
/// reproduced as the probe found it, then its fix.
@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct HostileInputRound3Tests {
    /// Runs gatewayd with `arguments`: status, stdout, stderr.
    func gatewayd(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) { try runGatewayd(arguments) }

    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-round3-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    var demo: String { fixtures.appendingPathComponent("demo-flight.pcapng").path }

    /// Item 7: a recording folder with an empty hour, a dangling link and a link loop among its
    /// hours replays the readable hour, saying what was skipped and why.
    @Test func aFolderWithBadHoursReplaysTheRest() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: demo, toPath: dir + "/gdl90-2026-05-16-14.pcapng")
        #expect(FileManager.default.createFile(atPath: dir + "/gdl90-2026-05-16-15.pcapng", contents: Data()))
        try FileManager.default.createSymbolicLink(atPath: dir + "/gdl90-2026-05-16-16.pcapng", withDestinationPath: dir + "/gone")
        try FileManager.default.createSymbolicLink(atPath: dir + "/gdl90-2026-05-16-17.pcapng", withDestinationPath: dir + "/gdl90-2026-05-16-17.pcapng")
        let whole = try gatewayd(["replay", "--json", demo])
        let run = try gatewayd(["replay", "--json", dir])
        #expect(run.status == 0 && run.output == whole.output && !whole.output.isEmpty)
        #expect(run.errors.contains("warning: \(dir)/gdl90-2026-05-16-15.pcapng: the file is empty: skipped"), "\(run.errors)")
        #expect(run.errors.contains("warning: \(dir)/gdl90-2026-05-16-16.pcapng: a link to nothing: skipped"))
        #expect(run.errors.contains("warning: \(dir)/gdl90-2026-05-16-17.pcapng: a symbolic link loop: skipped"))
        // Only bad hours: refused, saying why for each.
        try FileManager.default.removeItem(atPath: dir + "/gdl90-2026-05-16-14.pcapng")
        let none = try gatewayd(["replay", dir])
        #expect(none.status != 0 && none.errors.contains("no readable recording among the") && none.errors.contains("the file is empty"))
    }

    /// Item 8: a callsign or message holding ESC and other control characters is printed
    /// escaped by `flights show`, `flights list` and `alerts`, never sent to the terminal.
    @Test func controlCharactersAreEscapedInTheLogbookAndAlerts() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let database = dir + "/g.sqlite"
        #expect(try gatewayd(["flights", "import", fixtures.appendingPathComponent("scenarios/two-flights.pcap").path, "--database", database]).status == 0)
        let db = try GatewayDatabase(path: database)
        try db.write { try $0.execute("UPDATE flight_encounter SET callsign = ?", ["EVIL\u{1B}[2J\u{7}"]) }
        try db.write { try $0.execute("UPDATE flight SET departure = ?", ["K\u{1B}]0;owned\u{7}"]) }
        try AlertLog(database: db).append([AlertEvent(change: .raised, kind: .traffic, id: "t", subject: "ab4549", level: .warning, time: 1,
                                                      message: "Traffic EVIL\u{1B}[31m 12 o'clock")])
        try db.close()
        for arguments in [["flights", "show", "1"], ["flights", "list"], ["alerts"]] {
            let out = try gatewayd(arguments + ["--database", database])
            #expect(out.status == 0, "\(arguments): \(out.errors)")
            #expect(!out.output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(arguments) printed a raw control character")
            #expect(out.output.contains("\\u{1B}"), "\(arguments): \(out.output.prefix(400))")
        }
    }

    /// Item 12: a stored NOTAM row whose JSON is damaged is skipped by `notams list` with a
    /// warning naming it (it said "none stored" before).
    @Test func unreadableNotamRowsAreNamed() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let database = dir + "/g.sqlite"
        #expect(try gatewayd(["notams", "import", fixtures.appendingPathComponent("notams-demo.json").path, "--database", database]).status == 0)
        let db = try GatewayDatabase(path: database)
        try db.write { try $0.execute("UPDATE notam SET json = '{\"id\": [' WHERE key = 'FDC:6/2174'") }
        try db.close()
        let list = try gatewayd(["notams", "list", "--database", database])
        #expect(list.status == 0 && list.output.split(separator: "\n").count == 4, "\(list.output)")
        #expect(list.errors.contains("warning: 1 stored NOTAM row(s) cannot be read (damaged): skipped (FDC:6/2174)"), "\(list.errors)")
    }

    /// Item 9: `run --replay DIR --record DIR` (the same folder, however written) is refused
    /// before anything is written; another folder records.
    @Test func runRefusesToRecordIntoTheFolderItReplays() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: demo, toPath: dir + "/gdl90-2026-05-16-14.pcapng")
        let before = FlightRecorder.size(atPath: dir + "/gdl90-2026-05-16-14.pcapng")
        for record in [dir, dir + "/", dir + "/../" + URL(fileURLWithPath: dir).lastPathComponent] {
            let out = try gatewayd(["run", "--replay", dir, "--record", record, "--loop", "--http-port", "0", "--nmea-port", "0", "--no-database"])
            #expect(out.status != 0 && out.errors.contains("is where the replayed recording") && out.errors.contains("record into another folder"), "\(out.errors)")
        }
        #expect(FlightRecorder.size(atPath: dir + "/gdl90-2026-05-16-14.pcapng") == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["gdl90-2026-05-16-14.pcapng"])
    }

    /// Item 15: a pace outside 0.1–1000 is refused by `run`, `replay` and `send` with the range
    /// (1e-300 crashed the pacing; 0.05 was taken).
    @Test func paceOutsideItsRangeIsRefused() throws {
        for speed in ["1e-300", "0.05", "0", "-1", "1001", "nan", "inf"] {
            let run = try gatewayd(["run", "--replay", demo, "--speed=\(speed)", "--no-database"])
            #expect(run.status != 0 && run.errors.contains("0.1") && run.errors.contains("1000"), "run --speed \(speed): \(run.errors)")
            let send = try gatewayd(["send", demo, "--to", "127.0.0.1:9", "--speed=\(speed)"])
            #expect(send.status != 0 && send.errors.contains("0.1 to 1000"), "send --speed \(speed): \(send.errors)")
            let replay = try gatewayd(["replay", demo, "--speed=\(speed)"])
            #expect(replay.status != 0 && replay.errors.contains("0.1 to 1000"), "replay --speed \(speed): \(replay.errors)")
        }
        #expect(try gatewayd(["replay", demo, "--speed", "1000", "--quiet"]).status == 0)
    }

    /// Items 14 and 17: an export or a WAV never follows a link nor replaces a device; `-o -` is
    /// standard output; a full device is said as a full disk, status 1.
    @Test func outputFilesAreWrittenSafely() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let database = dir + "/g.sqlite"
        #expect(try gatewayd(["flights", "import", demo, "--database", database]).status == 0)
        // A link: refused, its target untouched.
        try "precious\n".write(toFile: dir + "/victim", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.gpx", withDestinationPath: dir + "/victim")
        let linked = try gatewayd(["flights", "export", "1", "--format", "gpx", "-o", dir + "/link.gpx", "--database", database])
        #expect(linked.status == 1 && linked.errors.contains("is a symbolic link: not followed"))
        #expect(try String(contentsOfFile: dir + "/victim", encoding: .utf8) == "precious\n")
        // `-o -`: standard output, no file named "-".
        let stdout = try gatewayd(["flights", "export", "1", "--format", "csv", "-o", "-", "--database", database])
        let plain = try gatewayd(["flights", "export", "1", "--format", "csv", "--database", database])
        #expect(stdout.status == 0 && stdout.output == plain.output && plain.output.hasPrefix("time_utc,"))
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/-"))
        // A regular file: replaced whole.
        try "old".write(toFile: dir + "/flight.csv", atomically: false, encoding: .utf8)
        #expect(try gatewayd(["flights", "export", "1", "--format", "csv", "-o", dir + "/flight.csv", "--database", database]).status == 0)
        #expect(try String(contentsOfFile: dir + "/flight.csv", encoding: .utf8) == plain.output)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".partial-") }.isEmpty)
        // /dev/full: written in place (the device stays a device), a full disk said, status 1.
        let full = try gatewayd(["flights", "export", "1", "--format", "gpx", "-o", "/dev/full", "--database", database])
        #expect(full.status == 1 && full.errors.contains("/dev/full: cannot write: the disk is full"), "\(full.errors)")
        #expect(!full.errors.contains("CocoaError"))
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        // The WAV of replay --callouts likewise (it turned /dev/full into a regular file as root).
        let wav = try gatewayd(["replay", "--callouts", "--wav", "/dev/full", demo])
        #expect(wav.status == 1 && wav.errors.contains("the disk is full"), "\(wav.errors)")
        #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        let null = try gatewayd(["replay", "--callouts", "--wav", "/dev/null", demo])
        #expect(null.status == 0 && stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }
}
