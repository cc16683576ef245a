import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayRecords
@testable import GatewayRuntime

/// Issue 40, item 11: an alert raised while another process held the database's write lock
/// past the busy timeout was never written, and the message blamed disk space or permissions.
/// Now the sink says the real cause once, keeps what it could not write, and writes it when the
/// lock is released.
@Suite(.timeLimit(.minutes(5))) struct AlertLogLockTests {
    @Test func alertsWaitForALockedDatabaseAndAreWritten() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-lock-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let log = AlertLog(database: try GatewayDatabase(path: path))
        let said = Locked<[String]>([])
        let sink = AlertLogSink(log: log) { error in said.withLock { $0.append("\(error)") } }
        // Another process's connection takes the write lock and keeps it past the 5 s busy timeout.
        let other = try SQLiteConnection(path: path, create: false)
        try other.execute("BEGIN IMMEDIATE")
        let events = (0..<3).map { AlertEvent(change: $0 == 0 ? .raised : .updated, kind: .traffic, id: "t1", subject: "ab4549", level: .warning,
                                               time: Double($0), message: "Traffic \($0)") }
        sink.carryOut(GatewayOutputs(), alerts: [EncodedAlert(events[0])], at: 0)
        sink.carryOut(GatewayOutputs(), alerts: events.dropFirst().map { EncodedAlert($0) }, at: 2)
        // Both batches were tried while the lock was held (each after the busy timeout).
        _ = eventually(30) { sink.waiting >= 3 }
        #expect(sink.waiting == 3)
        #expect(said.value.count == 1, "said once: \(said.value)")
        #expect(said.value.first?.contains("the database is locked by another process") == true, "\(said.value)")
        #expect(said.value.first?.contains("free space") == false)
        try other.execute("COMMIT")
        sink.retryUnwritten()
        sink.finish()
        #expect(sink.waiting == 0)
        #expect(try log.events().map(\.message) == events.map(\.message))
        #expect(said.value.last?.contains("the alert log is written again (3 alert change(s) that waited were written)") == true, "\(said.value)")
    }
}
