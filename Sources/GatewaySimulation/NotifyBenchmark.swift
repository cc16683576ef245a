#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import GatewaySupport
import GatewayRecords
import GatewayNotams
import GatewayNotify

/// `gatewayd bench --only notify` (issue 54): the notifications through a real webhook on
/// loopback (a POST server that answers 200 and notes when each body arrived) and the outbox in
/// a real SQLite file:
/// - refresh-to-delivery: a NOTAM refresh that brings a new TFR, its notification written in the
///   refresh's transaction, delivered, until the webhook has it; beside the refresh alone;
/// - the drain of 10,000 waiting notifications (what a day's outage of a target leaves), beside
///   POSTing the same bodies straight, without the outbox;
/// - the outbox's size on disk per notification (two targets each).
package enum NotifyBenchmark {
    /// A loopback HTTP/1.1 server taking POSTs: answers 200, counts bodies and when the last came.
    final class Receiver: Sendable {
        let fd: Int32, port: UInt16
        let received = Locked<(count: Int, last: Double)>((0, 0))
        init() throws {
            (fd, port) = try IPv4Socket.bound(type: Int32(SOCK_STREAM.rawValue), address: "127.0.0.1", port: 0, what: "benchmark webhook", inUse: "", reuseAddress: true)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            listen(fd, 64)
            DispatchQueue(label: "gatewayd.bench-webhook").async { [self] in serve() }
        }
        private func serve() {
            while true {
                let c = accept(fd, nil, nil)
                if c < 0 { return }
                var data: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 16_384)
                while true {
                    let n = buffer.withUnsafeMutableBytes { recv(c, $0.baseAddress, $0.count, 0) }
                    if n <= 0 { break }
                    data += buffer[0..<n]
                    if let end = Self.headEnd(data) {
                        let head = String(decoding: data[..<end], as: UTF8.self).lowercased()
                        let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                            .flatMap { Int($0.dropFirst(15).trimmingWhitespace()) } ?? 0
                        if data.count - end - 4 >= length { break }
                    }
                }
                let at = Date().timeIntervalSince1970
                received.withLock { $0 = ($0.count + 1, at) }
                let reply = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
                _ = reply.withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(c)
            }
        }
        static func headEnd(_ d: [UInt8]) -> Int? {
            guard d.count >= 4 else { return nil }
            for i in 0...(d.count - 4) where d[i] == 13 && d[i + 1] == 10 && d[i + 2] == 13 && d[i + 3] == 10 { return i }
            return nil
        }
        func stop() { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
    }

    /// A TFR the refresh brings, `i` apart from the others.
    static func tfr(_ i: Int) -> Notam {
        var n = NotamParser.parse("!FDC 6/\(3000 + i) ZSE OR..AIRSPACE SALEM, OR..TEMPORARY FLIGHT RESTRICTIONS WI AN AREA DEFINED AS 1NM RADIUS OF 450034N1230011W SFC-4000FT MSL 2612201400-2612201800",
                                  source: "bench", id: "N-\(i)")
        n.location = "KSLE"
        return n
    }

    /// Runs the three measures; `rounds` refreshes, `pending` notifications drained.
    package static func run(rounds: Int = 30, pending: Int = 10_000, progress: @escaping @Sendable (String) -> Void) async throws -> [Benchmarks.Result] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-bench-notify-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let receiver = try Receiver()
        defer { receiver.stop() }
        var settings = NotifySettings()
        settings.targets = [try NotifyTarget(url: "json://127.0.0.1:\(receiver.port)/hook?secret=bench")]
        settings.pageURL = "http://raspberrypi.local:8090"
        var results: [Benchmarks.Result] = []

        // 1. Refresh to delivery.
        progress("notify: \(rounds) NOTAM refreshes, each with a new TFR, to the webhook's 200")
        let database = try GatewayDatabase(path: dir + "/latency.sqlite")
        let store = NotamStore(database: database)
        let notices = NotamNotices(settings: settings, places: [NotifyPlace(name: "KSLE", position: AirportTable.place("KSLE"))])
        let notifier = Notifier(settings: settings, outbox: Outbox(database: database), clock: { Date().timeIntervalSince1970 }) { _ in }
        var set = [tfr(0)]
        try store.refresh(source: "bench", notams: set, at: 0, alsoInTransaction: { db, changes in try notices.addToOutbox(changes, in: db, now: 0) })
        var latencies: [Double] = [], refreshOnly: [Double] = []
        for i in 1...rounds {
            set.append(tfr(i))
            let before = receiver.received.value.count
            let start = Date().timeIntervalSince1970
            let now = start
            let notams = set
            try store.refresh(source: "bench", notams: notams, at: now, alsoInTransaction: { db, changes in try notices.addToOutbox(changes, in: db, now: now) })
            await notifier.deliver(ignoringBackoff: false)
            let got = receiver.received.value
            guard got.count == before + 1 else { throw NotifyError("the webhook got \(got.count - before) notifications for refresh \(i), not 1") }
            latencies.append(got.last - start)
        }
        // The same refreshes without notifications, in another file.
        let plain = NotamStore(database: try GatewayDatabase(path: dir + "/plain.sqlite"))
        set = [tfr(0)]
        try plain.refresh(source: "bench", notams: set, at: 0)
        for i in 1...rounds {
            set.append(tfr(i))
            let start = Date().timeIntervalSince1970
            try plain.refresh(source: "bench", notams: set, at: start)
            refreshOnly.append(Date().timeIntervalSince1970 - start)
        }
        func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }
        func p95(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[min(s.count - 1, Int(Double(s.count) * 0.95))] }
        results.append(Benchmarks.Result(name: "notify: refresh to webhook delivery, median", value: median(latencies) * 1000, unit: "ms",
                                         baseline: median(refreshOnly) * 1000, note: "(baseline: the refresh alone; p95 \(JSONWriter.format(p95(latencies) * 1000, decimals: 1)) ms, \(rounds) refreshes of up to \(rounds + 1) NOTAMs)"))

        // 2. The drain of `pending` waiting notifications.
        progress("notify: \(pending) waiting notifications drained to the webhook")
        let drainDB = try GatewayDatabase(path: dir + "/drain.sqlite")
        let outbox = Outbox(database: drainDB)
        let bodies = (0..<pending).map { i in
            Notification(id: Notification.id(kind: .notamChanges, identity: "bench|\(i)"), kind: .notamChanges,
                         title: "New TFR 6 NM N of KSLE: FDC 6/\(3000 + i) (SFC–4000 ft, 20 Dec 14:00–18:00Z)",
                         message: "• New TFR 6 NM N of KSLE: FDC 6/\(3000 + i)\n  Temporary flight restriction, Salem, OR: within an area defined as 1 nautical mile radius.",
                         severity: "caution", url: "http://raspberrypi.local:8090/#notams/6%2F\(3000 + i)", time: 1_796_000_000 + Double(i), place: "KSLE")
        }
        var twoTargets = settings.targets
        twoTargets.append(try NotifyTarget(url: "ntfy://127.0.0.1:9/elsewhere"))
        let empty = fileSize(dir + "/drain.sqlite")
        try drainDB.write { db in for n in bodies { try Outbox.add(n, targets: twoTargets, in: db, now: n.time) } }
        _ = try drainDB.writeWithoutTransaction { db in try db.rows("PRAGMA wal_checkpoint(TRUNCATE)") }
        let full = fileSize(dir + "/drain.sqlite")
        let drainer = Notifier(settings: settings, outbox: outbox, clock: { Date().timeIntervalSince1970 }) { _ in }
        let before = receiver.received.value.count
        let start = Date().timeIntervalSince1970
        await drainer.deliver(ignoringBackoff: true)
        let drained = receiver.received.value.count - before
        let seconds = Date().timeIntervalSince1970 - start
        guard drained == pending else { throw NotifyError("the drain delivered \(drained) of \(pending)") }
        // The same bodies POSTed straight (libcurl, a connection each, as the delivery does).
        let delivery = Delivery()
        let straight = Date().timeIntervalSince1970
        for n in bodies.prefix(pending / 5) { try await delivery.send(n, to: settings.targets[0]) }
        let straightRate = Double(pending / 5) / (Date().timeIntervalSince1970 - straight)
        results.append(Benchmarks.Result(name: "notify: drain of \(pending) waiting notifications", value: Double(pending) / seconds, unit: "notifications/s",
                                         baseline: straightRate, note: "(baseline: the same signed webhook POSTs without the outbox; \(JSONWriter.format(seconds, decimals: 1)) s in all)"))
        results.append(Benchmarks.Result(name: "notify: outbox on disk", value: Double(full - empty) / Double(pending), unit: "bytes/notification",
                                         note: "(\(pending) notifications for 2 targets: \(JSONWriter.format(Double(full - empty) / 1_048_576, decimals: 1)) MB; kept 30 days once delivered, at most 10,000 waiting)"))
        return results
    }

    static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
