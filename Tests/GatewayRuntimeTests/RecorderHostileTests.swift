import Foundation
import Testing
@testable import GatewaySupport
@testable import GatewayCaptures
@testable import GatewayRuntime

/// Issue 27, items 13–15: the flight recorder under a flood, a removed folder and a planted link.
@Suite(.timeLimit(.minutes(5))) struct RecorderHostileTests {
    let start = Timestamp.parse("2026-05-16T14:00:00Z")!

    func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-rec-hostile-\(UUID())").path
    }

    func bytes(_ directory: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)[.size] as? Int) ?? 0)
        }
    }

    /// Item 13: 20,000 datagrams of 1 kB within one hour under a 1 MB cap made a 20.5 MB file;
    /// now the hour is paused at the cap, said once, and the next hour records again.
    @Test func capHoldsWithinTheHour() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let said = Locked<[String]>([])
        let recorder = try FlightRecorder(directory: directory, maximumBytes: 1 << 20) { line in said.withLock { $0.append(line) } }
        let payload = [UInt8](repeating: 0x7E, count: 1_000)
        for i in 0..<20_000 {
            payload.withUnsafeBytes { recorder.record($0, at: CaptureTime.quantized(start + Double(i) * 0.01)) }
            if i % 2_000 == 1_999 { recorder.flushNow() }
        }
        recorder.flushNow()
        #expect(bytes(directory) <= (1 << 20) + (64 << 10) + 2_048)
        #expect(said.value.count == 1 && said.value[0].contains("paused until the next hour"))
        // The next hour records again (the full hour is the oldest and goes to make room).
        payload.withUnsafeBytes { recorder.record($0, at: CaptureTime.quantized(start + 3600.5)) }
        recorder.close()
        let next = try CaptureFile.read(path: directory + "/gdl90-2026-05-16-15.pcapng")
        #expect(next.datagrams.count == 1)
    }

    /// Item 14: the folder removed while recording is noticed and said, and recording goes on
    /// into a new file.
    @Test func removedFolderIsNoticed() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let said = Locked<[String]>([])
        let recorder = try FlightRecorder(directory: directory) { line in said.withLock { $0.append(line) } }
        let payload = [UInt8](repeating: 0x42, count: 100)
        payload.withUnsafeBytes { recorder.record($0, at: CaptureTime.quantized(start + 1)) }
        recorder.flushNow()
        try FileManager.default.removeItem(atPath: directory)
        payload.withUnsafeBytes { recorder.record($0, at: CaptureTime.quantized(start + 2)) }
        recorder.flushNow()
        #expect(said.value.contains { $0.contains("was removed while recording") })
        payload.withUnsafeBytes { recorder.record($0, at: CaptureTime.quantized(start + 3)) }
        recorder.close()
        let again = try CaptureFile.read(path: directory + "/gdl90-2026-05-16-14.pcapng")
        #expect(again.datagrams.count == 1 && again.datagrams[0].timestamp == CaptureTime.quantized(start + 3))
    }

    /// Item 15: a symbolic link planted where the hour's file goes is neither followed nor written.
    @Test func plantedLinkIsNotFollowed() throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let target = directory + "/victim"
        try "precious\n".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory + "/gdl90-2026-05-16-14.pcapng", withDestinationPath: target)
        let said = Locked<[String]>([])
        let recorder = try FlightRecorder(directory: directory) { line in said.withLock { $0.append(line) } }
        [UInt8](repeating: 0x42, count: 100).withUnsafeBytes { recorder.record($0, at: CaptureTime.quantized(start + 1)) }
        recorder.close()
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
        #expect(said.value.count == 1 && said.value[0].contains("is a symbolic link: not followed"))
    }
}
