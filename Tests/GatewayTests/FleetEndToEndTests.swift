import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayRecords
@testable import GatewayFeeds
@testable import GatewayFleet
@testable import GatewaySimulation

/// Issue 43's end to end: two gateways (the real `gatewayd run --replay`) publish to one real
/// mosquitto, which is stopped for 20 s mid-flight; a ground station (`gatewayd fleet`) keeps
/// the club's alerts and logbook. What each gateway streamed on SSE is what the station kept,
/// once each; each flight is in the club logbook once; a killed gateway's will turns it offline.
@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct FleetEndToEndTests {
    /// A child `gatewayd` whose stderr goes to a file.
    final class Child {
        let process = Process()
        let log: URL
        init(_ arguments: [String], log: URL) throws {
            self.log = log
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            guard let executable = gatewaydExecutable() else { throw CocoaError(.fileNoSuchFile) }
            process.executableURL = executable
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()
        }
        var text: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        func waitFor(_ needle: String, _ timeout: Double) -> Bool { fileContains(log, needle, within: timeout) }
        func signal(_ s: Int32) { if process.isRunning { kill(process.processIdentifier, s) } }
        deinit {
            signal(SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Follows a gateway's `/alerts` from the first event of its first start (`Last-Event-ID:
    /// 1-0`), reconnecting with the last id seen, as `gatewayd tail` does: every event it
    /// streamed, by id.
    final class Collector: Sendable {
        let events = Locked<[(id: String, json: String)]>([])
        let stopped = Locked(false)
        init(port: Int) {
            DedicatedThread.start { [self] in
                var last = "1-0"
                while !stopped.value {
                    guard let target = HTTPConnection.Target("http://127.0.0.1:\(port)/alerts"),
                          var c = try? HTTPConnection(target, timeout: 2, sending: [("Last-Event-ID", last)]) else {
                        _ = eventually(0.2) { stopped.value }  // the next attempt in 0.2 s, unless stopped
                        continue
                    }
                    var parser = SSEParser(lastEventID: last)
                    while !stopped.value, let piece = try? c.readBody() {
                        for e in parser.feedEvents(piece) {
                            if let id = e.id { events.withLock { $0.append((id, e.data)) } }
                        }
                        if let id = parser.lastEventID { last = id }
                    }
                    c.close()
                    _ = eventually(0.2) { stopped.value }  // reconnect in 0.2 s, unless stopped
                }
            }
        }
        /// Each id once (a reconnect may not repeat one, but if it did, once).
        var byID: [String: String] {
            events.value.reduce(into: [:]) { $0[$1.id] = $1.json }
        }
    }

    @Test(.ownThread) func twoGatewaysThroughABrokerOutage() throws {
        guard let broker = try fleetBroker() else { return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-e2e-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func file(_ name: String, _ text: String) throws -> String {
            let path = dir.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let empty = try file("empty.toml", "")
        let gwPassword = try file("gw.pw", "pw\n"), stationPassword = try file("station.pw", "pw2\n")
        let stationDB = dir.appendingPathComponent("station.sqlite").path
        let stationPort = Int(HostileBenchmark.freePort(Int32(SOCK_STREAM.rawValue)))
        let station = try Child(["fleet", "--config", empty, "--broker", broker.url, "--fleet-user", "station", "--fleet-password-file", stationPassword,
                                 "--http-bind", "127.0.0.1", "--http-port", "\(stationPort)", "--database", stationDB], log: dir.appendingPathComponent("station.log"))
        #expect(station.waitFor("subscribed to skygate/+/#", 10), "\(station.text)")

        var ports: [String: Int] = [:]
        func gateway(_ name: String, _ arguments: [String]) throws -> Child {
            let port = Int(HostileBenchmark.freePort(Int32(SOCK_STREAM.rawValue)))
            ports[name] = port
            return try Child(["run", "--config", empty, "--http-bind", "127.0.0.1", "--http-port", "\(port)", "--nmea-port", "0", "--status-interval", "0",
                              "--database", dir.appendingPathComponent("\(name).sqlite").path, "--fleet", broker.url, "--fleet-id", name,
                              "--fleet-user", "gw", "--fleet-password-file", gwPassword] + arguments, log: dir.appendingPathComponent("\(name).log"))
        }
        let a = try gateway("A", ["--replay", fixtures.appendingPathComponent("demo-flight.pcap").path, "--speed", "5"])
        let b = try gateway("B", ["--replay", fixtures.appendingPathComponent("stratux").path, "--speed", "5"])
        let collectors = ["A": Collector(port: ports["A"]!), "B": Collector(port: ports["B"]!)]
        defer { for c in collectors.values { c.stopped.set(true) } }
        #expect(a.waitFor("fleet: connected", 10) && b.waitFor("fleet: connected", 10), "\(a.text)\n\(b.text)")

        // Mid-flight, the broker goes away for 20 s (at speed 5: a minute into the capture, for
        // 100 s of it), on A's clock, the capture's (its /healthz says it).
        let captureStart = try #require(Timestamp.parse("2026-05-16T14:00:00Z"))
        func clockA() -> Double {
            guard let body = try? HTTPConnection.get("http://127.0.0.1:\(ports["A"]!)/healthz").body,
                  let time = JSONReader.object(Array(body.utf8))?["time"] as? String else { return 0 }
            return Timestamp.parse(time) ?? 0
        }
        #expect(eventually(60) { clockA() >= captureStart + 60 }, "\(a.text)")
        broker.stop()
        #expect(eventually(60) { clockA() >= captureStart + 160 }, "\(a.text)")
        try broker.restart()
        #expect(a.waitFor("has been played", 60) && b.waitFor("has been played", 60), "\(a.text)\n\(b.text)")

        // The station has what each gateway streamed before they stop (what is not published by
        // then never is).
        let stationStore = FleetStationStore(database: try GatewayDatabase(readingOnly: stationDB))
        func keptNow(_ name: String) -> [String: String] {
            var d: [String: String] = [:]
            for e in (try? stationStore.events(after: 0)) ?? [] where e.gateway == name {
                let id = JSONReader.object(Array(e.json.utf8))?["eventId"] as? String
                d[id ?? "?"] = e.json
            }
            return d
        }
        _ = eventually(30) { ["A", "B"].allSatisfy { Set(keptNow($0).keys).isSuperset(of: collectors[$0]!.byID.keys) } }
        a.signal(SIGTERM)
        b.signal(SIGTERM)
        a.process.waitUntilExit()
        b.process.waitUntilExit()
        #expect(a.process.terminationStatus == 0 && b.process.terminationStatus == 0, "\(a.text)\n\(b.text)")
        #expect(a.text.contains("connected to \(broker.url)") && !a.text.contains("refused"))

        // What each gateway streamed is what the station kept, once each, JSON byte for byte.
        for name in ["A", "B"] {
            let streamed = collectors[name]!.byID
            #expect(streamed.count >= 10, "\(name) streamed only \(streamed.count) events")
            var kept: [String: String] = [:]
            #expect(eventually(10) {
                kept = keptNow(name)
                return kept.count >= streamed.count
            })
            #expect(kept == streamed, "\(name): the station kept \(kept.count) events, the gateway streamed \(streamed.count)")
            #expect(try stationStore.events(after: 0).filter { $0.gateway == name }.count == kept.count, "a duplicate was kept")
            // The gateway's own alert log has the same events.
            let logged = try AlertLog(database: GatewayDatabase(readingOnly: dir.appendingPathComponent("\(name).sqlite").path)).events()
            #expect(Set(logged.compactMap(\.eventID)) == Set(streamed.keys))
        }

        // Each gateway's flights are in the club logbook once, under their own uid.
        let listed = try runGatewayd(["flights", "list", "--json", "--database", stationDB])
        #expect(listed.status == 0, "\(listed.errors)")
        let club = (try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]]) ?? []
        for name in ["A", "B"] {
            let own = try runGatewayd(["flights", "list", "--json", "--database", dir.appendingPathComponent("\(name).sqlite").path])
            let uids = ((try JSONSerialization.jsonObject(with: Data(own.output.utf8)) as? [[String: Any]]) ?? []).compactMap { $0["uid"] as? String }
            let theirs = club.filter { $0["gateway"] as? String == name }.compactMap { $0["uid"] as? String }
            #expect(!uids.isEmpty || name == "B", "\(name) kept no flight")
            #expect(theirs.sorted() == uids.sorted(), "\(name): club logbook \(theirs), gateway's \(uids)")
        }

        // B again (no input), then killed: its will turns it offline; it publishes nothing twice.
        let before = (try? stationStore.events(after: 0).count) ?? -1
        let b2 = try gateway("B", [])
        #expect(b2.waitFor("fleet: connected", 10), "\(b2.text)")
        let fleetURL = "http://127.0.0.1:\(stationPort)/api/fleet"
        func gatewayB() -> [String: Any]? {
            guard let body = try? HTTPConnection.get(fleetURL).body, let o = JSONReader.object(Array(body.utf8)) else { return nil }
            return (o["gateways"] as? [Any])?.compactMap { $0 as? [String: Any] }.first { $0["id"] as? String == "B" }
        }
        #expect(eventually(5) { gatewayB()?["online"] as? Bool == true })
        b2.signal(SIGKILL)
        b2.process.waitUntilExit()
        #expect(eventually(5) { gatewayB()?["online"] as? Bool == false && gatewayB()?["reason"] as? String == "connection lost" }, "\(String(describing: gatewayB()))")
        #expect(try stationStore.events(after: 0).count == before)
        station.signal(SIGTERM)
        station.process.waitUntilExit()
        #expect(station.process.terminationStatus == 0, "\(station.text)")
    }
}
