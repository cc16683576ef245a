import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySupport

/// Notifications end to end (issue 54), as a pilot has them: `gatewayd notams fetch` against a
/// fake FAA NOTAM API, three real peers (scripts/notify-peers.py: an aiosmtpd SMTP server with
/// STARTTLS and AUTH whose messages Python's `email` parses, ntfy's publish API, a webhook
/// receiver checking the HMAC), each command a new process (a restart between every step).
@Suite(.serialized, .timeLimit(.minutes(5)), .tags(.process), .slow) struct NotifyEndToEndTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The peers, started; nil (skipped) where aiosmtpd is missing outside CI.
    final class Peers {
        let peer: ScriptPeer
        let dir: String
        let log: String
        let ports: [String: Any]

        init?(dir: String) throws {
            self.dir = dir
            log = dir + "/peers.jsonl"
            peer = try ScriptPeer(script: "notify-peers.py", [dir, log])
            guard let object = try? JSONSerialization.jsonObject(with: Data(peer.firstLine.utf8)) as? [String: Any] else {
                let why = peer.errorText
                #expect(ProcessInfo.processInfo.environment["SKYGATE_CI"] == nil, "the notification peers did not start: \(why)")
                print("skipped: the notification peers did not start (pip install aiosmtpd): \(why.suffix(300))")
                return nil
            }
            ports = object
        }

        func port(_ name: String) -> Int { ports[name] as? Int ?? 0 }

        /// What `peer` received so far.
        func received(_ peer: String) -> [[String: Any]] {
            guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
            return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .filter { $0["peer"] as? String == peer }
        }

        func stop() { peer.stop() }
    }

    /// An FAA NOTAM API feature at KSLE (or an FDC TFR with its official polygon).
    static func feature(_ number: String, _ text: String, fdc: Bool = false, polygon: String? = nil) -> String {
        let geometry = polygon.map { #"{"type":"Polygon","coordinates":[\#($0)]}"# } ?? #"{"type":"GeometryCollection","geometries":[]}"#
        let notam = fdc
            ? #""id":"N-\#(number)","number":"\#(number)","type":"N","classification":"FDC","accountId":"FDC","location":"ZSE","effectiveStart":"2026-12-20T14:00:00Z","effectiveEnd":"2026-12-20T18:00:00Z","text":"\#(text)""#
            : #""id":"N-\#(number)","number":"\#(number)","type":"N","classification":"DOM","accountId":"SLE","icaoLocation":"KSLE","location":"SLE","effectiveStart":"2026-12-01T00:00:00Z","effectiveEnd":"2027-01-30T00:00:00Z","text":"\#(text)""#
        return #"{"type":"Feature","properties":{"coreNOTAMData":{"notam":{\#(notam)},"notamTranslation":[]}},"geometry":\#(geometry)}"#
    }

    static func page(_ features: [String]) -> String {
        #"{"pageSize":1000,"pageNum":1,"totalCount":\#(features.count),"totalPages":1,"items":[\#(features.joined(separator: ","))]}"#
    }

    /// A square about 2 NM across, `north` NM north of KSLE (44.9095 N, 123.0026 W).
    static func square(north: Double) -> String {
        let lat = 44.9095 + north / 60, d = 1.0 / 60
        return "[[-123.03,\(lat - d)],[-122.98,\(lat - d)],[-122.98,\(lat + d)],[-123.03,\(lat + d)],[-123.03,\(lat - d)]]"
    }

    @Test(.ownThread) func groupedOnceEachAndNothingLostWhileATargetIsDown() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-notify-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        guard let peers = try Peers(dir: dir), let gatewayd = gatewaydExecutable() else { return }
        defer { peers.stop() }

        let closure = Self.feature("12/001", "RWY 13/31 CLSD")
        let taxiLights = Self.feature("12/002", "TWY A EDGE LGT U/S")
        let tfr = Self.feature("6/2174", "OR..AIRSPACE SALEM, OR..TEMPORARY FLIGHT RESTRICTIONS WI AN AREA DEFINED AS 1NM RADIUS OF 451540N1230011W SFC-4000FT MSL",
                               fdc: true, polygon: Self.square(north: 6))
        let infoNotam = Self.feature("12/003", "TWY B EDGE LGT U/S")
        let secondTFR = Self.feature("6/2200", "OR..AIRSPACE SALEM, OR..TEMPORARY FLIGHT RESTRICTIONS WI AN AREA DEFINED AS 1NM RADIUS OF 443500N1230011W SFC-3000FT MSL",
                                     fdc: true, polygon: Self.square(north: -20))
        let first = Self.page([closure, taxiLights])
        let second = Self.page([taxiLights, tfr, infoNotam])
        let third = Self.page([taxiLights, tfr, infoNotam, secondTFR])
        let api = try TestHTTPServer([first, second, second, third, third].map { .respond(status: 200, headers: ["Content-Type": "application/json"], body: $0) })
        defer { api.stop() }

        let config = dir + "/gatewayd.toml"
        try """
            [notify]
            targets = [
              "ntfy://\(peers.ports["token"] ?? "")@127.0.0.1:\(peers.port("ntfy"))/hangar",   # the phone
              "mailto://pilot:\(peers.ports["password"] ?? "")@127.0.0.1:\(peers.port("smtp"))?to=pilot@example.org&from=skygate@example.org&cafile=\(peers.ports["cert"] ?? "")",
              "json://127.0.0.1:\(peers.port("webhook"))/hook?secret=\(peers.ports["secret"] ?? "")",
            ]
            page_url = "http://raspberrypi.local:8090"
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let database = dir + "/gateway.sqlite"
        func fetch() throws -> (status: Int32, output: String, errors: String) {
            try runProcess(gatewayd, ["notams", "fetch", "--source", "faa-api", "--url", api.base, "--location", "KSLE", "--config", config, "--database", database],
                           environment: ["FAA_CLIENT_ID": "id", "FAA_CLIENT_SECRET": "secret"])
        }

        // 1. The first refresh of KSLE sets the baseline: nothing is sent.
        var run = try fetch()
        #expect(run.status == 0, "\(run.errors)")
        #expect(peers.received("ntfy").isEmpty && peers.received("smtp").isEmpty && peers.received("webhook").isEmpty)

        // 2. A new TFR 6 NM north, the runway closure cancelled, a new info NOTAM: one grouped
        //    notification on each target naming the TFR and the closure, not the info NOTAM.
        run = try fetch()
        #expect(run.status == 0, "\(run.errors)")
        let ntfy = peers.received("ntfy"), mail = peers.received("smtp"), hooks = peers.received("webhook")
        #expect(ntfy.count == 1 && mail.count == 1 && hooks.count == 1, "\(run.errors)")
        let title = ntfy.first?["title"] as? String ?? ""
        #expect(title.contains("KSLE") && title.contains("FDC 6/2174") && title.contains("12/001"), "\(title)")
        let message = ntfy.first?["message"] as? String ?? ""
        #expect(message.contains("New TFR 6 NM N of KSLE: FDC 6/2174 (SFC–4000 ft, 20 Dec 14:00–18:00Z)"), "\(message)")
        #expect(message.contains("Cancelled runway closure at KSLE"), "\(message)")
        #expect(!message.contains("12/003") && !title.contains("12/003"))
        #expect(ntfy.first?["priority"] as? String == "4")  // the closure is a warning
        #expect((ntfy.first?["click"] as? String)?.hasPrefix("http://raspberrypi.local:8090/#notams/") == true)
        // The mail, parsed by Python's email package: over STARTTLS, authenticated, a proper message.
        let m = try #require(mail.first)
        #expect(m["tls"] as? Bool == true && m["auth"] as? Bool == true)
        #expect(m["subject"] as? String == title && m["to"] as? String == "pilot@example.org")
        #expect((m["message_id"] as? String)?.hasPrefix("<skygate-notam-changes-") == true)
        #expect(m["content_type"] as? String == "text/plain" && m["charset"] as? String == "utf-8")
        #expect((m["body"] as? String)?.contains("New TFR 6 NM N of KSLE") == true && (m["defects"] as? [Any])?.isEmpty == true)
        // The webhook: signed, its idempotency key the notification's id, the changes listed.
        let hook = try #require(hooks.first)
        let body = try #require(hook["body"] as? [String: Any])
        #expect(hook["signature_ok"] as? Bool == true && hook["idempotency_key"] as? String == body["id"] as? String)
        #expect(body["kind"] as? String == "notam-changes" && body["place"] as? String == "KSLE" && body["severity"] as? String == "warning")
        let changes = (body["changes"] as? [[String: Any]] ?? []).map { "\($0["change"] ?? "") \($0["number"] ?? "") \($0["kind"] ?? "")" }.sorted()
        #expect(changes == ["cancelled KSLE 12/001 runway closure", "new FDC 6/2174 TFR"], "\(changes)")
        #expect(ntfy.first?["id"] as? String == body["id"] as? String && (m["message_id"] as? String) == "<\(body["id"] as? String ?? "")@skygate.invalid>")

        // 3. The same set again: nothing.
        run = try fetch()
        #expect(run.status == 0)
        #expect(peers.received("ntfy").count == 1 && peers.received("smtp").count == 1 && peers.received("webhook").count == 1)

        // 4. ntfy down while another TFR appears: mail and webhook get it at once, ntfy keeps it.
        _ = FileManager.default.createFile(atPath: dir + "/ntfy-down", contents: nil)
        run = try fetch()
        #expect(run.status == 0, "a target down does not fail the refresh: \(run.errors)")
        #expect(run.errors.contains("ntfy://****@127.0.0.1") && run.errors.contains("1 kept for later"), "\(run.errors)")
        #expect(peers.received("smtp").count == 2 && peers.received("webhook").count == 2 && peers.received("ntfy").count == 1)
        #expect((peers.received("webhook").last?["body"] as? [String: Any])?["title"] as? String
                == "New TFR 20 NM S of KSLE: FDC 6/2200 (SFC–3000 ft, 20 Dec 14:00–18:00Z)")
        let list = try runProcess(gatewayd, ["notify", "list", "--json", "--database", database])
        let waiting = list.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["state"] as? String == "pending" }
        #expect(waiting.count == 1 && (waiting.first?["target"] as? String)?.hasPrefix("ntfy://****@") == true && waiting.first?["tries"] as? Int == 1,
                "\(list.output)")
        #expect(!list.output.contains(peers.ports["token"] as? String ?? "?") && !list.output.contains("s3cret"))

        // 5. ntfy back, a new process (a restart): ntfy gets what it missed, nobody anything twice.
        try FileManager.default.removeItem(atPath: dir + "/ntfy-down")
        run = try fetch()
        #expect(run.status == 0, "\(run.errors)")
        #expect(peers.received("ntfy").count == 2 && peers.received("smtp").count == 2 && peers.received("webhook").count == 2)
        #expect((peers.received("ntfy").last?["title"] as? String)?.contains("FDC 6/2200") == true)
        let ids = peers.received("webhook").compactMap { ($0["body"] as? [String: Any])?["id"] as? String }
        #expect(Set(ids).count == 2)
    }

    /// `gatewayd run` notifies as it runs: its NOTAM refresh (2 s after start) finds a new TFR
    /// against a baseline set by an earlier `notams fetch`, and the webhook has it at once; with
    /// `receiver_silent_min = 1` and no GDL90, "receiver silent" comes about a minute later.
    @Test(.ownThread) func runTellsWhatItsRefreshFindsAndASilentReceiver() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-notify-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        guard let peers = try Peers(dir: dir), let gatewayd = gatewaydExecutable() else { return }
        defer { peers.stop() }
        let closure = Self.feature("12/001", "RWY 13/31 CLSD")
        let tfr = Self.feature("6/2174", "OR..AIRSPACE SALEM, OR..TEMPORARY FLIGHT RESTRICTIONS WI AN AREA DEFINED AS 1NM RADIUS OF 451540N1230011W SFC-4000FT MSL",
                               fdc: true, polygon: Self.square(north: 6))
        let api = try TestHTTPServer([Self.page([closure]), Self.page([closure, tfr])].map { .respond(status: 200, headers: ["Content-Type": "application/json"], body: $0) })
        defer { api.stop() }
        let config = dir + "/gatewayd.toml", database = dir + "/gateway.sqlite"
        try """
            [notams]
            source = "faa-api"
            url = "\(api.base)"
            locations = ["KSLE"]

            [notify]
            targets = ["json://127.0.0.1:\(peers.port("webhook"))/hook?secret=\(peers.ports["secret"] ?? "")"]
            receiver_silent_min = 1
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let environment = ["FAA_CLIENT_ID": "id", "FAA_CLIENT_SECRET": "secret"]
        let baseline = try runProcess(gatewayd, ["notams", "fetch", "--config", config, "--database", database], environment: environment)
        #expect(baseline.status == 0 && peers.received("webhook").isEmpty, "\(baseline.errors)")

        let run = Process()
        run.executableURL = gatewayd
        run.arguments = ["run", "--config", config, "--udp-port", "0", "--http-port", "0", "--nmea-port", "0", "--database", database, "--status-interval", "0"]
        run.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errors = Pipe()
        run.standardError = errors
        run.standardOutput = Pipe()
        try run.run()
        defer { if run.isRunning { run.terminate() }; run.waitUntilExit() }
        #expect(eventually(30, every: 0.2) { peers.received("webhook").count == 1 }, "run's refresh was not notified")
        let body = peers.received("webhook").first?["body"] as? [String: Any]
        #expect(body?["title"] as? String == "New TFR 6 NM N of KSLE: FDC 6/2174 (SFC–4000 ft, 20 Dec 14:00–18:00Z)")
        #expect(eventually(100, every: 0.5) { peers.received("webhook").count == 2 }, "no 'receiver silent' notification")
        let silent = peers.received("webhook").last?["body"] as? [String: Any]
        #expect(silent?["kind"] as? String == "gateway" && silent?["title"] as? String == "skygate: receiver silent", "\(silent ?? [:])")
        run.terminate()
        run.waitUntilExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("gatewayd: notifications to json://127.0.0.1:\(peers.port("webhook"))/hook?secret=****"), "\(said)")
        #expect(!said.contains(peers.ports["secret"] as? String ?? "?"))
    }

    @Test func aBadTargetIsNamedByConfigCheck() throws {
        guard let gatewayd = gatewaydExecutable() else { return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-notify-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
            [notify]
            targets = [
              "ntfy://ntfy.sh/ok-topic",
              "mailto://me:hunter2@smtp.example.org",
            ]
            """.write(toFile: dir + "/g.toml", atomically: true, encoding: .utf8)
        let check = try runProcess(gatewayd, ["config", "check", "--config", dir + "/g.toml"])
        #expect(check.status != 0)
        #expect(check.errors.contains("g.toml:2: 'targets' in [notify]: mailto://me:****@smtp.example.org: no recipient: add ?to=you@example.org"), "\(check.errors)")
        #expect(!check.errors.contains("hunter2"))
    }
}
