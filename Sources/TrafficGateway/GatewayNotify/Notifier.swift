import GatewaySupport
import GatewayRecords
import GatewayNotams

/// The `[notify]` settings.
package struct NotifySettings: Sendable, Equatable {
    /// Where notifications go.
    package var targets: [NotifyTarget] = []
    /// The least severity notified: info, caution (the default: TFRs are in), warning, critical.
    package var minSeverity = "caution"
    /// The cockpit page's address, for the links (`http://raspberrypi.local:8090`).
    package var pageURL: String?
    /// No GDL90 for this many minutes while `run` runs is said (0: never).
    package var receiverSilentMin = 10
    /// Takeoffs and landings notified.
    package var flightEvents = false
    /// At the ground station: every aircraft's alert at this level or above ("warning"), nil: none.
    package var fleetAlerts: String?

    /// Settings with the defaults.
    package init() {}

    /// True when there is somewhere to send to.
    package var enabled: Bool { !targets.isEmpty }

    /// `page_url/#notams/<number>`, nil without `page_url`.
    package func link(notam n: Notam) -> String? {
        guard let pageURL else { return nil }
        return Self.trimmed(pageURL) + "/#notams/" + HTTPClient.escape(n.number ?? NotamStore.key(n))
    }

    /// `page_url/#alerts/<eventId>`, nil without `page_url`.
    package func link(alert eventID: String) -> String? {
        pageURL.map { Self.trimmed($0) + "/#alerts/" + HTTPClient.escape(eventID) }
    }

    /// `page_url/#<panel>`.
    package func link(panel: String) -> String? { pageURL.map { Self.trimmed($0) + "/#" + panel } }

    static func trimmed(_ url: String) -> String { url.hasSuffix("/") ? String(url.dropLast()) : url }
}

/// Delivers what the outbox holds: each target's waiting notifications oldest first, targets in
/// parallel (a dead one costs only its own queue), each attempt with its timeout; a failure
/// keeps the notification for the next round (after a backoff, in `run`) and stops that
/// target's round so the order holds. One round at a time: a round asked for while one runs
/// runs again right after it.
package final class Notifier: Sendable {
    /// The settings.
    package let settings: NotifySettings
    /// The outbox.
    package let outbox: Outbox
    /// How one notification is sent.
    package let delivery: Delivery
    private let clock: @Sendable () -> Double
    private let log: @Sendable (String) -> Void
    private let state = Locked(RoundState())

    private struct RoundState {
        var running = false
        var again = false
        /// Per target: the last problem said (said once until it clears).
        var problems: [String: String] = [:]
    }

    /// What one round did, per target.
    package struct Report: Sendable, Equatable {
        /// The target, masked.
        package var target: String
        /// Delivered now.
        package var delivered: Int
        /// Still waiting (after a failure).
        package var waiting: Int
        /// Why the last attempt failed.
        package var problem: String?
    }

    /// A notifier for `settings` over `outbox`; `log` takes the lines to say (a target down, back).
    package init(settings: NotifySettings, outbox: Outbox, delivery: Delivery = Delivery(), clock: @escaping @Sendable () -> Double,
                 log: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.outbox = outbox
        self.delivery = delivery
        self.clock = clock
        self.log = log
    }

    /// Adds notifications (own transaction) and delivers at once.
    package func notify(_ notifications: [Notification]) async {
        guard settings.enabled, !notifications.isEmpty else { return }
        let now = clock()
        for n in notifications {
            do { try outbox.add(n, targets: settings.targets, now: now) } catch { log("notify: not kept (\(error)); not sent") }
        }
        _ = await deliver(ignoringBackoff: false)
    }

    /// One delivery round: with `ignoringBackoff` (a command, a person waiting) every waiting
    /// notification is tried now, else only those whose backoff has passed.
    @discardableResult
    package func deliver(ignoringBackoff: Bool) async -> [Report] {
        guard settings.enabled else { return [] }
        let go = state.withLock { s -> Bool in
            if s.running { s.again = true; return false }
            s.running = true
            return true
        }
        guard go else { return [] }
        var reports: [Report] = []
        while true {
            let now = clock()
            if let dropped = try? outbox.prune(now: now), dropped > 0 {
                log("notify: \(dropped) notification deliveries dropped (older than 7 days, or beyond 10,000 waiting): notify list shows them")
            }
            reports = await withTaskGroup(of: Report.self) { group in
                for target in settings.targets {
                    group.addTask { await self.deliver(to: target, ignoringBackoff: ignoringBackoff) }
                }
                var all: [Report] = []
                for await r in group { all.append(r) }
                return all.sorted { $0.target < $1.target }
            }
            let again = state.withLock { s -> Bool in
                if s.again { s.again = false; return true }
                s.running = false
                return false
            }
            if !again { return reports }
        }
    }

    private func deliver(to target: NotifyTarget, ignoringBackoff: Bool) async -> Report {
        var report = Report(target: target.description, delivered: 0, waiting: 0, problem: nil)
        while !Task.isCancelled {
            let now = clock()
            let batch: [Outbox.Entry]
            do { batch = try outbox.pending(target: target.key, dueBy: ignoringBackoff ? nil : now) } catch {
                report.problem = "\(error)"
                return report
            }
            if batch.isEmpty { break }
            for entry in batch {
                do {
                    try await delivery.send(entry.notification, to: target)
                    try? outbox.delivered(entry.rowid, target: target.key, now: clock())
                    report.delivered += 1
                } catch {
                    let giveUp = error.permanent && entry.tries + 1 >= 3
                    try? outbox.failed(entry.rowid, target: target.key, reason: error.description, now: clock(), giveUp: giveUp)
                    report.problem = error.description
                    if giveUp { log("notify: \(target): gave up on \(entry.notification.id) after \(entry.tries + 1) tries: \(error)") }
                    break
                }
            }
            if report.problem != nil { break }
        }
        report.waiting = ((try? outbox.pending(target: target.key, dueBy: nil, limit: 10_001)) ?? []).count
        // Said once when a target goes down, once when it is back.
        let line: String? = state.withLock { s in
            let before = s.problems[target.key]
            if let problem = report.problem {
                s.problems[target.key] = problem
                return before == nil ? "notify: \(target) is not taking notifications (\(problem)); \(report.waiting) kept, tried again later" : nil
            }
            s.problems[target.key] = nil
            return before != nil && report.delivered > 0 ? "notify: \(target) is taking notifications again (\(report.delivered) sent)" : nil
        }
        if let line { log(line) }
        return report
    }

    /// Sends a test notification to every target now, each once, without the outbox
    /// (`notify test`): per target, nil when delivered, else why not.
    package static func test(_ settings: NotifySettings, delivery: Delivery = Delivery(), now: Double) async -> [(target: NotifyTarget, failure: String?)] {
        let n = Notification(id: Notification.id(kind: .test, identity: "\(now)"), kind: .test, title: "skygate: test notification",
                             message: "If you read this, skygate's notifications reach you here. Sent by gatewayd notify test at \(Timestamp.iso8601(now)).",
                             severity: "info", url: settings.link(panel: "notams"), time: now, place: nil)
        return await withTaskGroup(of: (Int, String?).self) { group in
            for (i, target) in settings.targets.enumerated() {
                group.addTask {
                    do { try await delivery.send(n, to: target); return (i, nil) } catch { return (i, "\(error)") }
                }
            }
            var out: [(Int, String?)] = []
            for await r in group { out.append(r) }
            return out.sorted { $0.0 < $1.0 }.map { (settings.targets[$0.0], $0.1) }
        }
    }
}
