import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayCaptures
@testable import GatewayRuntime

/// Issue 40, items 1 and 2: the recorder's cap holds as each block is added (whatever else the
/// folder holds, however fast datagrams come), and an hour file cut mid-block by a power cut is
/// continued after its last whole block, while the readers go on past a torn block left in the
/// middle of a file by an earlier version.
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct RecorderCapAndPowerCutTests {
    let start = Timestamp.parse("2026-05-16T14:00:00Z")!

    func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-rec-cap-\(UUID())").path
    }

    /// Bytes of the regular files in `directory`, by `stat` (what the card holds).
    func bytes(_ directory: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.reduce(0) { $0 + Int(FlightRecorder.size(atPath: directory + "/" + $1)) }
    }

    /// The demo flight's datagrams (real GDL 90: heartbeats, ownship, traffic).
    func demoDatagrams() throws -> [CapturedDatagram] {
        try CaptureFile.read(path: fixtures.appendingPathComponent("demo-flight.pcap").path).datagrams
    }

    /// Item 1: 20,000 datagrams of 1 kB handed in at once, never flushed by hand, under a 1 MB cap:
    /// the folder never passes the cap, and the pause names the section `[recorder]`.
    @Test func aBurstNeverPassesTheCap() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let said = Locked<[String]>([])
        let recorder = try FlightRecorder(directory: directory, maximumBytes: 1 << 20) { line in said.withLock { $0.append(line) } }
        let payload = [UInt8](repeating: 0x7E, count: 1_000)
        for i in 0..<20_000 {
            payload.withUnsafeBytes { recorder.record($0, at: CaptureTime.quantized(start + Double(i) * 0.0001)) }
            // Nothing is dropped from the backlog here: wait whenever it holds 2 MB.
            if i % 2_000 == 1_999 { recorder.flushNow() }
        }
        recorder.close()
        #expect(bytes(directory) <= 1 << 20)
        #expect(bytes(directory) > (1 << 20) - 2_048)  // filled to the cap, not short of it
        #expect(said.value == ["recorder: this hour's recording reached the cap of 1 MB (a flood of datagrams?): recording paused until the next hour; raise [recorder] max_mb to keep more"])
        // What was kept reads whole.
        let kept = try CaptureFile.read(path: directory + "/gdl90-2026-05-16-14.pcapng")
        #expect(kept.error == nil && kept.datagrams.count > 900 && kept.datagrams.count < 1_100)
    }

    /// Item 1: hours already in the folder count against the cap (their sizes were read as 0, so
    /// three 2 MB hours stayed under a 1 MB cap): the oldest go first, as soon as the recorder opens an hour.
    @Test func olderHoursAreRemovedToKeepTheCap() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let old = ["gdl90-2026-05-16-10.pcapng", "gdl90-2026-05-16-11.pcapng", "gdl90-2026-05-16-12.pcapng"]
        for name in old { try Data(repeating: 0x55, count: 2 << 20).write(to: URL(fileURLWithPath: directory + "/" + name)) }
        let recorder = try FlightRecorder(directory: directory, maximumBytes: 5 << 20) { Issue.record("recorder: \($0)") }
        let datagrams = try demoDatagrams()
        for d in datagrams.prefix(100) { recorder.record(.datagram(d.bytes), at: CaptureTime.quantized(start + d.timestamp! - datagrams[0].timestamp!)) }
        recorder.close()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        // 6 MB and the new hour: the oldest goes, the two newer stay (4 MB and the hour's file).
        #expect(names == Array(old.dropFirst()) + ["gdl90-2026-05-16-14.pcapng"])
        #expect(bytes(directory) <= 5 << 20)
        #expect(try CaptureFile.read(path: directory + "/gdl90-2026-05-16-14.pcapng").datagrams.count == 100)
    }

    /// Item 1: a card that does not keep up (the recorder's queue held still) costs datagrams
    /// past a bounded backlog, counted and said once, never memory without bound.
    @Test func theBacklogIsBounded() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let said = Locked<[String]>([])
        let recorder = try FlightRecorder(directory: directory) { line in said.withLock { $0.append(line) } }
        let payload = [UInt8](repeating: 0x42, count: 1_000)
        recorder.holdWrites()
        for i in 0..<5_000 { payload.withUnsafeBytes { recorder.record($0, at: CaptureTime.quantized(start + Double(i) * 0.001)) } }
        let accepted = FlightRecorder.maximumBacklog / 1_000
        #expect(recorder.droppedDatagrams == 5_000 - accepted)
        recorder.releaseWrites()
        recorder.close()
        #expect(said.value.count == 1 && said.value[0].contains("not keeping up") && said.value[0].contains("1 datagram(s) not recorded"))
        #expect(try CaptureFile.read(path: directory + "/gdl90-2026-05-16-14.pcapng").datagrams.count == accepted)
    }

    /// Item 2: power lost mid-block, then the gateway restarts in the same hour and records a
    /// second flight: the torn block is cut (said once), and every datagram of both runs before
    /// and after the cut reads back, with `CaptureFile`, the replay session and tshark.
    @Test func aRestartAfterAPowerCutContinuesAfterTheLastWholeBlock() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let datagrams = try demoDatagrams()
        let first = Array(datagrams.prefix(150)), second = Array(datagrams.dropFirst(150))
        #expect(first.count == 150 && second.count > 140)
        let t0 = datagrams[0].timestamp!
        var recorder = try FlightRecorder(directory: directory) { Issue.record("recorder: \($0)") }
        for d in first { recorder.record(.datagram(d.bytes), at: CaptureTime.quantized(start + d.timestamp! - t0)) }
        recorder.close()
        let path = directory + "/gdl90-2026-05-16-14.pcapng"
        // The power cut: the file ends 17 bytes into its last block.
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let lastLength = Int(whole[whole.count - 4]) | Int(whole[whole.count - 3]) << 8
        let cut = whole.count - lastLength + 17
        try Data(whole.prefix(cut)).write(to: URL(fileURLWithPath: path))
        let said = Locked<[String]>([])
        recorder = try FlightRecorder(directory: directory) { line in said.withLock { $0.append(line) } }
        for d in second { recorder.record(.datagram(d.bytes), at: CaptureTime.quantized(start + d.timestamp! - t0)) }
        recorder.close()
        #expect(said.value == ["recorder: \(path) ended in a torn block (a power cut?): its last 17 byte(s), after byte \(cut - 17), were cut; recording goes on after its last whole block"])
        let read = try CaptureFile.read(path: path)
        #expect(read.error == nil)
        #expect(read.datagrams.map(\.bytes) == (first.dropLast() + second).map(\.bytes))
        // Wireshark's reader agrees.
        let tshark = Process()
        tshark.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tshark.arguments = ["tshark", "-r", path, "-Y", "frame.interface_id == 0", "-T", "fields", "-e", "frame.number"]
        let out = Pipe()
        tshark.standardOutput = out
        tshark.standardError = FileHandle.nullDevice
        try tshark.run()
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        tshark.waitUntilExit()
        #expect(tshark.terminationStatus == 0 && lines.count == first.count - 1 + second.count)
    }

    /// Item 2: a file left by the earlier recorder (a torn block, then a later run's blocks
    /// appended after it) reads on past the damage: the datagrams after it are kept and the
    /// damage is named once, with where reading went on.
    @Test func readersGoOnPastATornBlock() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let datagrams = try demoDatagrams()
        let t0 = datagrams[0].timestamp!
        let path = directory + "/gdl90-2026-05-16-14.pcapng"
        let recorder = try FlightRecorder(directory: directory) { Issue.record("recorder: \($0)") }
        // The demo flight has 299 datagrams.
        for d in datagrams.prefix(200) { recorder.record(.datagram(d.bytes), at: CaptureTime.quantized(start + d.timestamp! - t0)) }
        recorder.close()
        let firstRun = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // Blocks of a second run, appended after a block torn at each byte offset in turn.
        var appended: [UInt8] = []
        for d in datagrams.dropFirst(200).prefix(50) {
            PcapWriter.enhancedPacketBlock(PcapWriter.wrap(d.bytes, link: .rawIPv4, port: 4000),
                                           ticks: CaptureTime.ticks(CaptureTime.quantized(start + d.timestamp! - t0)),
                                           writer: PcapWriter.Writer(bigEndian: false), into: &appended)
        }
        let lastLength = Int(firstRun[firstRun.count - 4]) | Int(firstRun[firstRun.count - 3]) << 8
        for torn in 1..<lastLength {
            let bytes = Array(firstRun.prefix(firstRun.count - lastLength + torn)) + appended
            let read = CaptureFile.parse(bytes, name: "torn")
            #expect(read.datagrams.map(\.bytes) == (datagrams.prefix(199) + datagrams.dropFirst(200).prefix(50)).map(\.bytes), "torn at \(torn)")
            #expect(read.error?.readOn == true && read.error?.offset == firstRun.count - lastLength, "torn at \(torn): \(String(describing: read.error))")
            #expect(read.error?.description.contains("read on from the next whole block, at byte \(firstRun.count - lastLength + torn)") == true, "torn at \(torn)")
        }
        // And through the streaming reader and `flights import`'s words, from a file.
        try Data(Array(firstRun.prefix(firstRun.count - 9)) + appended).write(to: URL(fileURLWithPath: path))
        var stream = try CaptureStream(path: path)
        var count = 0
        while stream.next() != nil { count += 1 }
        #expect(count == 249 && stream.error?.readOn == true)
    }
}
