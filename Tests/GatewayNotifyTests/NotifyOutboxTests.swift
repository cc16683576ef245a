import Foundation
import Testing
import GDL90
@testable import GatewaySupport
@testable import GatewayRecords
@testable import GatewayNotams
@testable import GatewayWeather
@testable import GatewayNotify
@testable import GatewayRuntime
@testable import GatewayFleet

/// The outbox in a real SQLite file, and what is decided there: baselines, first times, the
/// bounds, the gateway's episodes across a restart.
@Suite struct NotifyOutboxTests {
    static func database() throws -> GatewayDatabase {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-outbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return try GatewayDatabase(path: dir.appendingPathComponent("g.sqlite").path)
    }

    static let ksle = Position(latitude: 44.9095, longitude: -123.0026)

    static func settings() throws -> NotifySettings {
        var s = NotifySettings()
        s.targets = [try NotifyTarget(url: "ntfy://ntfy.sh/t1"), try NotifyTarget(url: "json://127.0.0.1:9/hook")]
        s.pageURL = "http://pi.local:8090/"
        return s
    }

    /// A NOTAM as the parser reads it, with `severity` as given.
    static func notam(_ number: String, _ text: String, location: String = "KSLE", severity: String? = nil) -> Notam {
        var n = NotamParser.parse("!\(location.dropFirst()) \(number) \(location.dropFirst()) \(text) 2612200000-2612210000", source: "test", id: "N-\(number)")
        n.number = number
        n.location = location
        if let severity { n.severity = severity }
        return n
    }

    static func change(_ kind: String, _ n: Notam) -> NotamChange {
        NotamChange(time: 0, kind: kind, key: NotamStore.key(n), number: n.number, location: n.location, summary: "", read: false, notam: n)
    }

    @Test func firstRefreshIsTheBaselineAndEachChangeIsToldOnce() throws {
        let db = try Self.database()
        let notices = NotamNotices(settings: try Self.settings(), places: [NotifyPlace(name: "KSLE", position: Self.ksle)])
        let closure = Self.notam("12/001", "RWY 13/31 CLSD")
        #expect(closure.severity == "warning")
        let first = try db.write { try notices.notifications(for: [Self.change("new", closure)], in: $0, now: 100) }
        #expect(first.isEmpty, "the first refresh of KSLE sets its baseline")
        let lights = Self.notam("12/002", "TWY A EDGE LGT U/S")
        #expect(lights.severity == "info")
        let second = try db.write { try notices.notifications(for: [Self.change("cancelled", closure), Self.change("new", lights)], in: $0, now: 200) }
        #expect(second.count == 1 && second[0].changes.map(\.number) == ["KSLE 12/001"] && second[0].severity == "warning")
        #expect(second[0].title == "Cancelled runway closure at KSLE: KSLE 12/001 (20 Dec 00:00Z–21 Dec 00:00Z)")
        #expect(second[0].url == "http://pi.local:8090/#notams/12%2F001")
        let again = try db.write { try notices.notifications(for: [Self.change("cancelled", closure)], in: $0, now: 300) }
        #expect(again.isEmpty, "the same change is never told twice")
    }

    @Test func aCriticalChangeIsAlsoToldOnItsOwn() throws {
        let db = try Self.database()
        let notices = NotamNotices(settings: try Self.settings(), places: [NotifyPlace(name: "KSLE", position: Self.ksle)])
        _ = try db.write { try notices.notifications(for: [], in: $0, now: 1) }
        let closed = Self.notam("12/009", "AIRSPACE CLSD", severity: "critical")
        let lights = Self.notam("12/010", "RWY 13/31 CLSD")
        let told = try db.write { try notices.notifications(for: [Self.change("new", lights), Self.change("new", closed)], in: $0, now: 2) }
        #expect(told.count == 2)
        #expect(told[0].changes.count == 2 && told[0].severity == "critical" && told[0].priority == 5)
        #expect(told[1].title.hasPrefix("CRITICAL: New ") && told[1].changes.map(\.number) == ["KSLE 12/009"])
    }

    @Test func theBoundsDropTheOldestAndSayHowMany() throws {
        let db = try Self.database()
        var outbox = Outbox(database: db)
        outbox.maximumPending = 100
        let targets = try Self.settings().targets
        try db.write { sql in
            for i in 0..<105 {
                let n = Notification(id: "n\(i)", kind: .test, title: "t\(i)", message: "m", severity: "info", url: nil, time: Double(i), place: nil)
                try Outbox.add(n, targets: targets, in: sql, now: i == 0 ? 0 : 8 * 86_400)
            }
        }
        #expect(try outbox.counts().pending == 105)
        let dropped = try outbox.prune(now: 8 * 86_400)
        // n0 is older than 7 days (two deliveries), then the 4 oldest beyond 100 (eight).
        #expect(dropped == 10)
        let counts = try outbox.counts()
        #expect(counts.pending == 100 && counts.failed == 10 && counts.dropped == 10)
        let oldest = try outbox.pending(target: targets[0].key, dueBy: nil, limit: 1)
        #expect(oldest.first?.notification.id == "n5")
        #expect(try outbox.entries().contains { $0.notification.id == "n0" && $0.state == "failed" && $0.lastError == "dropped: not delivered within 7 days" })
    }

    @Test func aSilentReceiverIsToldOnceWhenItBeginsAndOnceWhenItEndsAcrossARestart() throws {
        let db = try Self.database()
        var settings = try Self.settings()
        settings.receiverSilentMin = 10
        let outbox = Outbox(database: db)
        let now = Locked(1_000.0), messages = Locked(5)
        func watch() -> GatewayWatch {
            GatewayWatch(episodes: GatewayEpisodes(settings: settings, outbox: outbox, name: "gateway N123AB"), messages: { messages.value },
                         storage: { nil }, broker: { nil }, clock: { now.value })
        }
        var w = watch()
        now.set(1_000 + 9 * 60)
        #expect(!w.check())
        now.set(1_000 + 10 * 60)
        #expect(w.check())
        now.set(1_000 + 20 * 60)
        #expect(!w.check(), "said once an episode")
        w = watch()  // a restart while it is silent: not said again
        now.set(1_000 + 31 * 60)
        #expect(!w.check())
        messages.set(6)
        now.set(1_000 + 32 * 60)
        #expect(w.check())
        let titles = try outbox.entries().filter { $0.target == settings.targets[0].key }.map(\.notification.title)
        #expect(titles == ["gateway N123AB: receiver heard again after 22 min", "gateway N123AB: receiver silent"])
    }

    @Test func aSigmetOnTheAreaIsToldOnceAfterTheBaseline() throws {
        let db = try Self.database()
        let notices = WeatherNotices(settings: try Self.settings(), area: "KSLE and 50 NM around")
        let old = WeatherRecord(kind: .sigmet, station: "SFOW", time: 900, received: 900, source: "test", text: "SIGMET WHISKEY 2 VALID UNTIL 1200Z SEV TURB")
        #expect(try db.write { try notices.addToOutbox([old], in: $0, now: 1_000) }.isEmpty)
        let convective = WeatherRecord(kind: .sigmet, station: "MKCC", time: 1_100, received: 1_100, source: "test", text: "CONVECTIVE SIGMET 12C VALID UNTIL 1455Z")
        let told = try db.write { try notices.addToOutbox([old, convective], in: $0, now: 1_200) }
        #expect(told.map(\.title) == ["Convective SIGMET on KSLE and 50 NM around, until 06:18Z"])
        #expect(try db.write { try notices.addToOutbox([old, convective], in: $0, now: 1_300) }.isEmpty)
    }

    @Test func theConfigurationTakesTargetsWrittenOverSeveralLines() throws {
        let c = try GatewayConfig.parse("""
            [notify]
            targets = [
              "ntfy://ntfy.sh/one",   # the phone
              # a comment line inside
              "json://ha.local:8123/hook?secret=x",
            ]
            min_severity = "warning"
            """, file: "g.toml")
        #expect(c.notify.targets.map(\.description) == ["ntfy://ntfy.sh/one", "json://ha.local:8123/hook?secret=****"])
        #expect(c.notify.minSeverity == "warning")
        #expect(throws: ConfigError(file: "g.toml", line: 2, message: "the array opened here is not closed with ]")) {
            try GatewayConfig.parse("[notify]\ntargets = [\n \"ntfy://ntfy.sh/one\",\n", file: "g.toml")
        }
    }
}

/// The ground station's notifications: a gateway offline unexpectedly (its will) and back, once
/// each; an expected stop and the statuses of a station's restart say nothing; an aircraft's
/// warning with `fleet_alerts = "warning"`, once per event, a caution not.
@Suite struct FleetNotifyTests {
    @Test func offlineUnexpectedlyAndWarningsAreToldOnce() throws {
        let db = try NotifyOutboxTests.database()
        var configured = try NotifyOutboxTests.settings()
        configured.fleetAlerts = "warning"
        let settings = configured
        let notifier = Notifier(settings: settings, outbox: Outbox(database: db), clock: { 0 }) { _ in }
        let episodes = GatewayEpisodes(settings: settings, outbox: notifier.outbox, name: "fleet")
        let station = FleetStation(settings: FleetSettings(broker: try #require(FleetBroker(url: "mqtt://127.0.0.1:1"))), password: nil, database: db,
                                   clientID: "notify-test", clock: { 1_778_940_000 }) { _ in }
        station.notices.set { FleetStationApp.notice($0, settings: settings, episodes: episodes, notifier: notifier, console: .silent) }
        func status(_ gateway: String, _ json: String) { station.receive(topic: "skygate/\(gateway)/status", payload: Array(json.utf8)) }
        status("N1", #"{"online":true,"version":"0.19.0"}"#)  // the retained status after a station restart: nothing
        status("N1", #"{"online":false,"reason":"stopped"}"#)  // a clean stop: nothing
        status("N1", #"{"online":true}"#)
        status("N1", #"{"online":false,"reason":"connection lost"}"#)  // the will
        status("N1", #"{"online":false,"reason":"connection lost"}"#)  // again: no change
        status("N1", #"{"online":true}"#)
        let warning = #"{"eventId":"7-1","id":"traffic-a1","event":"raised","level":"warning","message":"Traffic N825V 12 o'clock 0.4 NM","time":"2026-05-16T14:00:00Z"}"#
        station.receive(topic: "skygate/N1/alerts", payload: Array(warning.utf8))
        station.receive(topic: "skygate/N1/alerts", payload: Array(warning.utf8))  // the broker's redelivery: once
        station.receive(topic: "skygate/N1/alerts", payload: Array(#"{"eventId":"7-2","id":"traffic-a2","event":"raised","level":"caution","message":"Traffic N2","time":"2026-05-16T14:00:01Z"}"#.utf8))
        let titles = try notifier.outbox.entries().filter { $0.target == settings.targets[0].key }.map(\.notification.title).reversed()
        #expect(Array(titles) == ["gateway N1: offline", "gateway N1: online again after 0 min", "N1: WARNING Traffic N825V 12 o'clock 0.4 NM"])
    }
}
