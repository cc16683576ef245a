import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayRecords
@testable import GatewayFeeds
@testable import GatewayFleet
@testable import GatewayRuntime
@testable import GatewaySimulation

/// A real mosquitto for a test, or nil (said once) when it is not installed; under CI
/// (SKYGATE_CI) its absence fails the test.
func fleetBroker(users: [String: String] = ["gw": "pw", "station": "pw2"], extra: [String] = []) throws -> MosquittoBroker? {
    guard let broker = try MosquittoBroker.start(users: users, extra: extra) else {
        print("fleet: mosquitto not found (scripts/setup.sh installs it): skipped")
        #expect(ProcessInfo.processInfo.environment["SKYGATE_CI"] == nil, "mosquitto is missing in CI (scripts/setup.sh installs it)")
        return nil
    }
    return broker
}

@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct FleetSettingsTests {
    @Test func brokerURLs() {
        #expect(FleetBroker(url: "mqtt://127.0.0.1") == FleetBroker(url: "mqtt://127.0.0.1:1883"))
        #expect(FleetBroker(url: "mqtts://club.example")?.port == 8883)
        #expect(FleetBroker(url: "mqtts://club.example")?.tls == true)
        #expect(FleetBroker(url: "mqtt://[::1]:1884")?.description == "mqtt://[::1]:1884")
        for bad in ["http://x", "mqtt://", "mqtt://u:p@host", "mqtt://host/path", "mqtt://host:0", "mqtt://host:70000", "mqtt://host?x=1", "mqtt://host:abc"] {
            #expect(FleetBroker(url: bad) == nil, "\(bad)")
        }
    }

    @Test func fleetIDs() {
        for good in ["N123AB", "G-CLUB", "Glider 7".replacingOccurrences(of: " ", with: "_"), "élève", String(repeating: "x", count: 64)] {
            #expect(FleetSettings.isValidID(good), "\(good)")
        }
        for bad in ["", "a/b", "a+b", "#", "a b", "\u{7}", "x\u{7F}", "$SYS", String(repeating: "x", count: 65)] {
            #expect(!FleetSettings.isValidID(bad), "\(bad)")
        }
    }

    @Test func topicsRoundTrip() {
        let all: [FleetTopic] = [.status, .ownship, .traffic, .alerts, .flight(uid: "20260516T140030Z"), .flightDetail(uid: "20260516T140030Z")]
        for t in all {
            let name = t.name(gateway: "N123AB")
            #expect(FleetTopic.parse(name)?.gateway == "N123AB" && FleetTopic.parse(name)?.topic == t, "\(name)")
        }
        #expect(FleetTopic.flightDetail(uid: "U").name(gateway: "A") == "skygate/A/flights/U/detail")
        #expect(FleetTopic.parse("skygate/A/other") == nil && FleetTopic.parse("other/A/status") == nil && FleetTopic.parse("skygate//status") == nil)
    }

    /// The password file's one trailing newline is not part of the password; the error never
    /// quotes the file.
    @Test func passwordFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-pw-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (content, expected) in [("s3cret\n", "s3cret"), ("s3cret\r\n", "s3cret"), ("s3cret", "s3cret"), ("s3cret\n\n", "s3cret\n"), (" sp ace\n", " sp ace")] {
            let f = dir.appendingPathComponent("p").path
            try content.write(toFile: f, atomically: true, encoding: .utf8)
            #expect(try FleetSettings.readPassword(path: f, environment: [:]) == expected)
        }
        try "\n".write(toFile: dir.appendingPathComponent("empty").path, atomically: true, encoding: .utf8)
        #expect(throws: GatewayError.self) { try FleetSettings.readPassword(path: dir.appendingPathComponent("empty").path, environment: [:]) }
        do {
            _ = try FleetSettings.readPassword(path: dir.appendingPathComponent("missing").path, environment: [:])
            Issue.record("a missing file was read")
        } catch {
            #expect(error.description.contains("password_file") && error.description.contains("missing"))
        }
        // systemd's credentials folder.
        try "c\n".write(toFile: dir.appendingPathComponent("fleet-password").path, atomically: true, encoding: .utf8)
        #expect(try FleetSettings.readPassword(path: "${CREDENTIALS_DIRECTORY}/fleet-password", environment: ["CREDENTIALS_DIRECTORY": dir.path]) == "c")
    }

    /// `config check` refuses what cannot work, naming the line and key; `config show` masks the user.
    @Test func configurationChecks() throws {
        func parse(_ text: String) -> String? {
            do { _ = try GatewayConfig.parse(text, file: "g.toml"); return nil } catch { return "\(error)" }
        }
        #expect(parse("[fleet]\nbroker = \"mqtt://127.0.0.1\"\nid = \"N1\"\n") == nil)
        #expect(parse("[fleet]\nid = \"a/b\"\n")?.contains("g.toml:2") == true)
        #expect(parse("[fleet]\nid = \"#\"\n")?.contains("'id' in [fleet] must be") == true)
        #expect(parse("[fleet]\nbroker = \"mqtt://u:p@host\"\nid = \"N1\"\n")?.contains("'broker' in [fleet]") == true)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-cfg-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("g.toml").path
        // What needs two keys: `config check` (and `run`) after the flags.
        try "[fleet]\nbroker = \"mqtt://127.0.0.1\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let noID = try runGatewayd(["config", "check", "--config", path])
        #expect(noID.status != 0 && noID.errors.contains("[fleet] broker is set but not id"), "\(noID.errors)")
        try "[database]\nenabled = false\n[fleet]\nbroker = \"mqtt://127.0.0.1\"\nid = \"N1\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try runGatewayd(["config", "check", "--config", path]).errors.contains("needs the database"))
        let flagged = try runGatewayd(["run", "--fleet", "mqtt://127.0.0.1", "--fleet-id", "a/b", "--http-port", "0"])
        #expect(flagged.status != 0 && flagged.errors.contains("--fleet-id must be"), "\(flagged.errors)")
        try "[fleet]\nbroker = \"mqtt://127.0.0.1\"\nid = \"N1\"\nusername = \"club-user\"\npassword_file = \"/etc/gatewayd/fleet-password\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let shown = try runGatewayd(["config", "show", "--config", path])
        #expect(shown.status == 0, "\(shown.errors)")
        #expect(shown.output.contains("username = \"****\"") && !shown.output.contains("club-user"))
        #expect(shown.output.contains("broker = \"mqtt://127.0.0.1:1883\"") && shown.output.contains("id = \"N1\""))
    }
}

/// Without libmosquitto, a gateway configured for a fleet says so once and alerts as ever.
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct FleetWithoutLibraryTests {
    static func emptyConfig(_ dir: URL) throws -> String {
        let path = dir.appendingPathComponent("empty.toml").path
        try "".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aMissingLibraryIsOneLineAndTheGatewayGoesOn() throws {
        let dir = try FleetBrokerTests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let executable = try #require(gatewaydExecutable())
        let p = Process()
        p.executableURL = executable
        p.arguments = ["run", "--config", try FleetWithoutLibraryTests.emptyConfig(dir), "--replay", fixtures.appendingPathComponent("demo-flight.pcap").path, "--speed", "50", "--json",
                       "--http-port", "0", "--nmea-port", "0", "--status-interval", "0", "--database", dir.appendingPathComponent("g.sqlite").path,
                       "--fleet", "mqtt://127.0.0.1:1", "--fleet-id", "N1"]
        p.environment = ProcessInfo.processInfo.environment.merging(["SKYGATE_LIBMOSQUITTO": "/nonexistent/libmosquitto.so.1"]) { $1 }
        let out = dir.appendingPathComponent("out"), err = dir.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        let played = fileContains(err, "has been played", within: 20)
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
        let errors = try String(contentsOf: err, encoding: .utf8)
        #expect(played && p.terminationStatus == 0, "\(errors)")
        let lines = errors.split(separator: "\n").filter { $0.contains("libmosquitto") }
        #expect(lines.count == 1 && lines[0].contains("/nonexistent/libmosquitto.so.1") && lines[0].contains("apt install libmosquitto1")
                && lines[0].contains("not publishing to the fleet"), "\(errors)")
        // The alerts as ever: the golden's 16 changes, each with its id.
        let alerts = try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
        #expect(alerts.count == 16 && alerts.allSatisfy { $0.contains("\"eventId\":\"1-") }, "\(alerts.count) alert lines")
    }
}

/// The publisher and the ground station through a real mosquitto.
@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct FleetBrokerTests {
    /// A temporary folder.
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func events(_ n: ClosedRange<Int>, boot: Int64 = 1) -> [EncodedAlert] {
        var ids = AlertEventIDs(boot: boot)
        for _ in 1..<n.lowerBound { _ = ids.next() }
        return n.map { i in
            EncodedAlert(AlertEvent(change: i % 3 == 0 ? .cleared : .raised, kind: .traffic, id: "traffic-\(i)", subject: "a\(i)", level: .advisory,
                                    time: 1_778_940_000 + Double(i), message: "Traffic \(i)"), eventId: ids.next())
        }
    }

    final class Lines: Sendable {
        let lines = Locked<[String]>([])
        func add(_ s: String) { lines.withLock { $0.append(s) } }
        var all: [String] { lines.value }
    }

    /// Alert events reach the station in order, each once, through a broker outage and a
    /// restart of the publisher; the cursor survives the restart.
    @Test func alertsArriveInOrderThroughAnOutageAndARestart() throws {
        guard let broker = try fleetBroker() else { return }
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gatewayDB = try GatewayDatabase(path: dir.appendingPathComponent("gw.sqlite").path)
        let stationDB = try GatewayDatabase(path: dir.appendingPathComponent("station.sqlite").path)
        let url = try #require(FleetBroker(url: broker.url))
        let log = AlertLog(database: gatewayDB)
        try log.append(encoded: Self.events(1...5))
        let lines = Lines()
        let station = FleetStation(settings: FleetSettings(broker: url, username: "station"), password: "pw2", database: stationDB,
                                   clientID: "skygate-station-test", clock: { Date().timeIntervalSince1970 }) { lines.add($0) }
        try station.start()
        defer { station.stop() }
        #expect(eventually(5) { station.connection.connected })
        func publisher() -> FleetPublisher {
            FleetPublisher(settings: FleetSettings(broker: url, id: "N1", username: "gw"), password: "pw", database: gatewayDB, version: "test",
                           clock: { 1_778_940_100 }) { lines.add($0) }
        }
        var p = publisher()
        try p.start()
        #expect(eventually(10) { (try? station.store.eventCount(gateway: "N1")) == 5 })
        broker.stop()
        try log.append(encoded: Self.events(6...10))
        p.nudge()
        // Broker down: nothing arrives for 1.5 s.
        #expect(!eventually(1.5) { ((try? station.store.eventCount(gateway: "N1")) ?? 0) > 5 })
        #expect(try station.store.eventCount(gateway: "N1") == 5)
        try broker.restart()
        #expect(eventually(20) { (try? station.store.eventCount(gateway: "N1")) == 10 }, "\(lines.all)")
        // Restarted: what the broker acknowledged is not sent again, what came after is.
        p.finish(timeout: 2)
        p.stop()
        try log.append(encoded: Self.events(11...12))
        p = publisher()
        try p.start()
        #expect(eventually(10) { (try? station.store.eventCount(gateway: "N1")) == 12 })
        // And nothing more (no event sent twice) for half a second.
        #expect(!eventually(0.5) { ((try? station.store.eventCount(gateway: "N1")) ?? 0) > 12 })
        p.stop()
        let kept = try station.store.events(after: 0).map { JSONReader.object(Array($0.json.utf8))?["eventId"] as? String }
        #expect(kept == (1...12).map { "1-\($0)" }, "order or duplicates: \(kept)")
        // The station's copy is the gateway's JSON, byte for byte.
        let sent = try log.events().map(\.json)
        #expect(try station.store.events(after: 0).map(\.json) == sent)
        #expect(lines.all.filter { $0.contains("connected to \(url) as N1") }.count >= 2, "\(lines.all)")
    }

    /// `[fleet] traffic_every_sec`: the traffic picture every N seconds of the gateway's clock, or never.
    @Test func trafficEveryNSeconds() throws {
        guard let broker = try fleetBroker(users: [:]) else { return }
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try #require(FleetBroker(url: broker.url))
        let heard = Locked<[String: Int]>([:])
        let subscribed = Locked(false)
        let subscriber = try MQTTClient(MQTTClient.Options(clientID: "traffic-test")) { event in
            if case .message(let topic, _, _) = event { heard.withLock { $0[topic, default: 0] += 1 } }
            if case .subscribed = event { subscribed.set(true) }
        }
        defer { subscriber.close() }
        subscriber.connect(host: url.host, port: url.port)
        #expect(eventually(5) { subscriber.subscribe("skygate/+/traffic", qos: 0) == 0 && subscriber.subscribe("skygate/+/ownship", qos: 0) == 0 })
        #expect(eventually(5) { subscribed.value }, "the broker acknowledged the subscriptions")
        // Ownship in each second's picture: its message, published each second after the
        // traffic picture when there is one, says the picture went out (the sink keeps at most
        // two pictures waiting: the next second is handed over once this one is out).
        var snapshot = FeedSnapshot.empty(at: 0)
        snapshot.ownship = OwnshipFix(position: Position(latitude: 44.9, longitude: -123), altitudeFt: 3000, altitudeIsPressure: true,
                                      velocity: PlaneVelocity(east: 0, north: 0), groundSpeedKt: 0, trackDeg: nil, verticalSpeedFpm: 0,
                                      airborne: true, source: .gdl90)
        for (name, every) in [("E5", 5), ("E0", 0)] {
            let db = try GatewayDatabase(path: dir.appendingPathComponent("\(name).sqlite").path)
            let p = FleetPublisher(settings: FleetSettings(broker: url, id: name), password: nil, database: db, version: "test", clock: { 0 }) { _ in }
            try p.start()
            #expect(eventually(5) { p.status.connected })
            let sink = FleetSink(publisher: p, trafficEverySec: every)
            for t in 0..<20 {
                var outputs = GatewayOutputs()
                snapshot.time = 1_778_940_000 + Double(t)
                outputs.snapshot = snapshot
                sink.carryOut(outputs, alerts: [], at: 1_778_940_000 + Double(t) + 0.5)
                #expect(eventually(5) { heard.value["skygate/\(name)/ownship"] == t + 1 }, "second \(t)'s picture")
            }
            sink.finish()
            // E5's four pictures are in; E0's none comes.
            if every > 0 {
                #expect(eventually(5) { heard.value["skygate/\(name)/traffic"] == 20 / every })
            } else {
                #expect(!eventually(0.3) { heard.value["skygate/\(name)/traffic"] != nil })
            }
            p.stop()
        }
        #expect(heard.value["skygate/E5/traffic"] == 4 && heard.value["skygate/E0/traffic"] == nil, "\(heard.value)")
    }

    /// A wrong password: one clear line naming the broker and the reason, then quiet retries.
    @Test func wrongPasswordIsOneClearLine() throws {
        guard let broker = try fleetBroker() else { return }
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try GatewayDatabase(path: dir.appendingPathComponent("gw.sqlite").path)
        let lines = Lines()
        let url = try #require(FleetBroker(url: broker.url))
        let p = FleetPublisher(settings: FleetSettings(broker: url, id: "N1", username: "gw"), password: "wrong", database: db, version: "test",
                               clock: { 0 }) { lines.add($0) }
        try p.start()
        // It retried (the broker refused it twice), and the second refusal is no second line.
        #expect(eventually(20) { broker.log.components(separatedBy: "not authorised").count > 2 }, "it did not retry")
        #expect(!eventually(1) { lines.all.count > 1 }, "\(lines.all)")
        p.stop()
        #expect(lines.all == ["fleet: \(url) refused the connection: not authorised (check [fleet] username and password_file); retrying"], "\(lines.all)")
        #expect(broker.log.components(separatedBy: "not authorised").count > 2, "it did not retry")
        #expect(p.status.connected == false)
    }

    /// A broker that is not there: one line after the attempt, naming it.
    @Test(.ownThread) func unreachableBrokerIsOneLine() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try GatewayDatabase(path: dir.appendingPathComponent("gw.sqlite").path)
        let lines = Lines()
        let port = HostileBenchmark.freePort(Int32(SOCK_STREAM.rawValue))
        let url = try #require(FleetBroker(url: "mqtt://127.0.0.1:\(port)"))
        let p = FleetPublisher(settings: FleetSettings(broker: url, id: "N1"), password: nil, database: db, version: "test", clock: { 0 }) { lines.add($0) }
        try p.start()
        // One line in 12 s: the attempt's, or the one said after `unreachableAfter` (10 s), not both.
        #expect(!eventually(12) { lines.all.count > 1 }, "\(lines.all)")
        p.stop()
        #expect(lines.all.count == 1 && lines.all[0].hasPrefix("fleet: \(url) unreachable"), "\(lines.all)")
    }

    /// TLS: the broker's certificate checked against the CA file and the name connected to.
    @Test(.ownThread) func tlsChecksTheBrokersCertificate() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        func openssl(_ arguments: [String]) throws -> Bool {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else { return false }
            return try runProcess(URL(fileURLWithPath: "/usr/bin/openssl"), arguments, in: dir).status == 0
        }
        let subject = ["-subj", "/CN=localhost"]
        guard try openssl(["req", "-x509", "-new", "-nodes", "-newkey", "rsa:2048", "-days", "2", "-subj", "/CN=test CA", "-keyout", "ca.key", "-out", "ca.crt"]),
              try openssl(["req", "-x509", "-new", "-nodes", "-newkey", "rsa:2048", "-days", "2", "-subj", "/CN=other CA", "-keyout", "other.key", "-out", "other.crt"]),
              try openssl(["req", "-new", "-nodes", "-newkey", "rsa:2048"] + subject + ["-keyout", "broker.key", "-out", "broker.csr"]) else {
            #expect(ProcessInfo.processInfo.environment["SKYGATE_CI"] == nil, "openssl is missing in CI")
            return
        }
        try "subjectAltName=DNS:localhost\n".write(to: dir.appendingPathComponent("ext"), atomically: true, encoding: .utf8)
        #expect(try openssl(["x509", "-req", "-in", "broker.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2", "-extfile", "ext", "-out", "broker.crt"]))
        let path = { (name: String) in dir.appendingPathComponent(name).path }
        guard let broker = try fleetBroker(users: [:], extra: ["cafile \(path("ca.crt"))", "certfile \(path("broker.crt"))", "keyfile \(path("broker.key"))"]) else { return }
        let url = try #require(FleetBroker(url: "mqtts://localhost:\(broker.port)"))
        #expect(url.tls)
        for (ca, ok) in [("ca.crt", true), ("other.crt", false)] {
            let db = try GatewayDatabase(path: path("gw-\(ca).sqlite"))
            let lines = Lines()
            let p = FleetPublisher(settings: FleetSettings(broker: url, id: "T1", caFile: path(ca)), password: nil, database: db, version: "test",
                                   clock: { 0 }) { lines.add($0) }
            try p.start()
            if ok {
                #expect(eventually(10) { p.status.connected }, "\(lines.all)")
            } else {
                #expect(eventually(14) { !lines.all.isEmpty })
                #expect(!p.status.connected)
                // libmosquitto reports the handshake's failure only sometimes (it may end its
                // thread without a word): either way the line names the certificate.
                #expect(lines.all.count == 1 && lines.all[0].contains("certificate") && lines.all[0].hasPrefix("fleet: \(url) unreachable"), "\(lines.all)")
            }
            p.stop()
        }
    }
}

/// The SSE stream's event ids (issue 43): a client that reconnects with `Last-Event-ID` gets
/// exactly what it missed, from the hub, or from the alert log after a restart.
@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct AlertStreamResumeTests {
    /// Reads SSE events from `url` (sending `lastEventID`) until `count` arrived.
    static func read(_ url: String, after lastEventID: String?, count: Int) throws -> [(id: String?, data: String)] {
        let target = try #require(HTTPConnection.Target(url))
        var c = try HTTPConnection(target, timeout: 5, sending: lastEventID.map { [("Last-Event-ID", $0)] } ?? [])
        defer { c.close() }
        var parser = SSEParser()
        var events: [(id: String?, data: String)] = []
        while events.count < count, let piece = try c.readBody() { events += parser.feedEvents(piece) }
        return events
    }

    @Test func reconnectingWithTheLastIdGetsExactlyTheRest() throws {
        let dir = try FleetBrokerTests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try GatewayDatabase(path: dir.appendingPathComponent("gw.sqlite").path)
        let events = FleetBrokerTests.events(1...6, boot: 4)
        let hub = FeedHub()
        hub.publish(encoded: events)
        try AlertLog(database: db).append(encoded: events)
        let server = FeedServer(hub: hub, cockpit: CockpitSources(logbook: LogbookStore(database: db)))
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/alerts"
        // Resumed from the hub: the events after 4-2, with their ids, in order.
        let rest = try Self.read(url, after: "4-2", count: 4)
        #expect(rest.map(\.id) == ["4-3", "4-4", "4-5", "4-6"])
        #expect(rest.map(\.data) == events[2...].map(\.json))
        // A whole start ("4-0").
        #expect(try Self.read(url, after: "4-0", count: 6).map(\.id) == (1...6).map { "4-\($0)" })
        server.stop()

        // After a restart (a new hub, empty): the alert log has them; the new start's events follow.
        let hub2 = FeedHub()
        let later = FleetBrokerTests.events(1...2, boot: 5)
        hub2.publish(encoded: later)
        try AlertLog(database: db).append(encoded: later)
        let server2 = FeedServer(hub: hub2, cockpit: CockpitSources(logbook: LogbookStore(database: db)))
        try server2.start(host: "127.0.0.1", port: 0)
        defer { server2.stop() }
        let resumed = try Self.read("http://127.0.0.1:\(server2.port)/alerts", after: "4-5", count: 3)
        #expect(resumed.map(\.id) == ["4-6", "5-1", "5-2"])
        #expect(resumed.map(\.data) == [events[5].json] + later.map(\.json))
        // `tail`'s parser takes the last id, so its next reconnect resumes after it.
        var parser = SSEParser()
        _ = parser.feed(Array("id: 5-2\ndata: x\n\n: keep-alive\n\nid: 5-3\n\n".utf8))
        #expect(parser.lastEventID == "5-3")
    }
}
