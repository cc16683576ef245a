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
import GatewayDomain
import GatewayRecords
import GatewayFeeds
import GatewayFleet

/// `gatewayd bench --only fleet` (issue 43): simulated gateways, each a real `FleetPublisher` on
/// its own database, publishing a 500-target picture once a second and an alert event every
/// 5 s through one real mosquitto on loopback to one subscriber (a ground station's view).
/// Latency is from the moment the event is handed to the alert log (what the core decided) to
/// its arrival at the subscriber; the picture's from its encoding to its arrival. Then the
/// drain: every gateway with a 10-minute outage's events queued (one a second), connected at
/// once. The baseline is one gateway, in the same run.
package enum FleetBenchmark {
    /// What a subscriber heard, stamped on arrival.
    final class Subscriber: Sendable {
        let arrivals = Locked<(alerts: [String: UInt64], pictures: [String: [UInt64]], bytes: Int, messages: Int)>(([:], [:], 0, 0))
        let client: MQTTClient
        init(url: FleetBroker) throws(GatewayError) {
            let arrivals = self.arrivals
            client = try MQTTClient(MQTTClient.Options(clientID: "skygate-bench-sub-\(getpid())")) { event in
                guard case .message(let topic, let payload, _) = event else { return }
                let now = DispatchTime.now().uptimeNanoseconds
                guard let (gateway, kind) = FleetTopic.parse(topic) else { return }
                arrivals.withLock { a in
                    a.bytes += payload.count
                    a.messages += 1
                    switch kind {
                    case .alerts:
                        // The id is the last key: read from the tail, not the whole message.
                        if let id = Self.eventId(payload) { a.alerts[gateway + "/" + id] = now }
                    case .traffic: a.pictures[gateway, default: []].append(now)
                    default: break
                    }
                }
            }
            client.connect(host: url.host, port: url.port)
        }
        static func eventId(_ payload: [UInt8]) -> String? {
            let tail = Array(payload.suffix(48)), key = Array("\"eventId\":\"".utf8)
            guard tail.count >= key.count, let at = (0...(tail.count - key.count)).first(where: { tail[$0..<($0 + key.count)].elementsEqual(key) }) else { return nil }
            return String(decoding: tail[(at + key.count)...].prefix { $0 != UInt8(ascii: "\"") }, as: UTF8.self)
        }
    }

    /// A 500-target picture from the real pipeline (the synthetic field the pipeline benchmark flies).
    static func picture(targets: Int) -> FeedSnapshot {
        let field = TargetField(count: targets)
        var pipeline = GatewayPipeline(outputs: .init(snapshotInterval: 0.25))
        var last: FeedSnapshot?
        for second in 0..<12 {
            for d in field.datagrams(second: second) {
                if let s = pipeline.process(.datagram(d.bytes), at: d.time).snapshot { last = s }
            }
        }
        return last ?? .empty(at: 0)
    }

    struct Run {
        var alertLatencies: [Double] = []
        var pictureLatencies: [Double] = []
        var cpuSeconds = 0.0
        var brokerCPUSeconds = 0.0
        var brokerRSSMB = 0.0
        var rssGrowthMB = 0.0
        var bytesPerGatewaySecond = 0.0
        var sent = 0
        var received = 0
        var pictureBytes = 0
    }

    static func cpuSeconds() -> Double {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    }

    /// The broker's CPU seconds and resident MB (/proc).
    static func process(_ pid: Int32) -> (cpu: Double, rssMB: Double) {
        func read(_ path: String) -> String {
            guard let f = OpenFile.reading(path) else { return "" }
            defer { f.close() }
            return String(decoding: f.read(upTo: 1 << 16), as: UTF8.self)
        }
        let stat = read("/proc/\(pid)/stat").split(separator: ")").last?.split(separator: " ") ?? []
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let cpu = stat.count > 12 ? ((Double(stat[11]) ?? 0) + (Double(stat[12]) ?? 0)) / ticks : 0
        let rss = read("/proc/\(pid)/status").split(separator: "\n").first { $0.hasPrefix("VmRSS:") }?.split(separator: " ").compactMap { Double($0) }.first ?? 0
        return (cpu, rss / 1024)
    }

    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-fleet-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// `gateways` publishers for `seconds` through `broker`.
    static func live(gateways: Int, targets: Int, seconds: Int, broker: MosquittoBroker, snapshot: FeedSnapshot,
                     progress: (String) -> Void) throws -> Run {
        let url = FleetBroker(url: broker.url)!
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let subscriber = try Subscriber(url: url)
        defer { subscriber.client.close() }
        _ = (0..<100).first { _ in usleep(20_000); return subscriber.client.subscribe(FleetTopic.everything, qos: 1) == 0 }  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
        var publishers: [(FleetPublisher, AlertLog)] = []
        for i in 0..<gateways {
            let db = try GatewayDatabase(path: dir.appendingPathComponent("gw\(i).sqlite").path)
            let p = FleetPublisher(settings: FleetSettings(broker: url, id: "bench\(i)"), password: nil, database: db, version: GatewayVersion.current,
                                   clock: { Date().timeIntervalSince1970 }) { _ in }
            try p.start()
            publishers.append((p, AlertLog(database: db)))
        }
        _ = (0..<200).first { _ in usleep(25_000); return publishers.allSatisfy { $0.0.status.connected } }  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
        let rssBefore = Benchmarks.residentMB() ?? 0
        let cpuBefore = cpuSeconds(), brokerBefore = broker.pid.map(process)
        let bytesBefore = subscriber.arrivals.value.bytes
        var sentAlerts: [String: UInt64] = [:]
        var sentPictures: [String: [UInt64]] = [:]
        var run = Run()
        let start = DispatchTime.now().uptimeNanoseconds
        var ids = [AlertEventIDs](repeating: AlertEventIDs(boot: 1), count: gateways)
        for second in 0..<seconds {
            let due = start + UInt64(second) * 1_000_000_000
            let now = DispatchTime.now().uptimeNanoseconds
            if due > now { usleep(UInt32((due - now) / 1000)) }  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
            for (i, (p, log)) in publishers.enumerated() {
                // The picture, encoded as FleetSink's queue does, once a second.
                let t0 = DispatchTime.now().uptimeNanoseconds
                let traffic = CockpitAPI.traffic(snapshot)
                run.pictureBytes = traffic.utf8.count
                p.picture(traffic: traffic, ownship: CockpitAPI.ownship(snapshot))
                sentPictures["bench\(i)", default: []].append(t0)
                // An alert event every 5 s, spread over the gateways.
                if (second + i) % 5 == 0 {
                    let id = ids[i].next()
                    let event = AlertEvent(change: .raised, kind: .traffic, id: "traffic-\(i)-\(second)", subject: "a\(i)", level: .advisory,
                                           time: Date().timeIntervalSince1970, message: "Traffic \(i) \(second)")
                    sentAlerts["bench\(i)/" + id] = DispatchTime.now().uptimeNanoseconds
                    try log.append(encoded: [EncodedAlert(event, eventId: id)])
                    p.nudge()
                    run.sent += 1
                }
            }
            if second % 10 == 9 { progress("\(gateways) gateway(s): \(second + 1) of \(seconds) s") }
        }
        usleep(2_000_000)  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
        run.cpuSeconds = cpuSeconds() - cpuBefore
        if let pid = broker.pid, let before = brokerBefore {
            let after = process(pid)
            run.brokerCPUSeconds = after.cpu - before.cpu
            run.brokerRSSMB = after.rssMB
        }
        run.rssGrowthMB = (Benchmarks.residentMB() ?? 0) - rssBefore
        for (p, _) in publishers { p.stop() }
        let heard = subscriber.arrivals.value
        run.bytesPerGatewaySecond = Double(heard.bytes - bytesBefore) / Double(gateways * seconds)
        for (key, sent) in sentAlerts {
            if let got = heard.alerts[key], got > sent { run.alertLatencies.append(Double(got - sent) / 1e6) }
        }
        run.received = run.alertLatencies.count
        for (gateway, sent) in sentPictures {
            let got = heard.pictures[gateway] ?? []
            // In order per gateway (one connection each); a dropped picture would shift them, so
            // only as many as both have, from the end.
            let n = min(sent.count, got.count)
            for k in 0..<n where got[got.count - n + k] > sent[sent.count - n + k] {
                run.pictureLatencies.append(Double(got[got.count - n + k] - sent[sent.count - n + k]) / 1e6)
            }
        }
        run.alertLatencies.sort()
        run.pictureLatencies.sort()
        return run
    }

    /// Every gateway with `events` queued (a 10-minute outage at one a second), then connected:
    /// seconds until the subscriber heard the last one.
    static func drain(gateways: Int, events: Int, broker: MosquittoBroker, progress: (String) -> Void) throws -> (seconds: Double, heard: Int) {
        let url = FleetBroker(url: broker.url)!
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let subscriber = try Subscriber(url: url)
        defer { subscriber.client.close() }
        usleep(300_000)  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
        subscriber.client.subscribe("skygate/+/alerts", qos: 1)
        usleep(300_000)  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
        var databases: [GatewayDatabase] = []
        for i in 0..<gateways {
            let db = try GatewayDatabase(path: dir.appendingPathComponent("gw\(i).sqlite").path)
            var ids = AlertEventIDs(boot: 1)
            let now = Date().timeIntervalSince1970
            try AlertLog(database: db).append(encoded: (0..<events).map { k in
                EncodedAlert(AlertEvent(change: .raised, kind: .traffic, id: "traffic-\(k)", subject: "a", level: .advisory, time: now - Double(events - k),
                                        message: "queued \(k)"), eventId: ids.next())
            })
            databases.append(db)
        }
        progress("drain: \(gateways) × \(events) events queued; connecting")
        let start = DispatchTime.now().uptimeNanoseconds
        var publishers: [FleetPublisher] = []
        for (i, db) in databases.enumerated() {
            let p = FleetPublisher(settings: FleetSettings(broker: url, id: "drain\(i)"), password: nil, database: db, version: GatewayVersion.current,
                                   clock: { Date().timeIntervalSince1970 }) { _ in }
            try p.start()
            publishers.append(p)
        }
        let total = gateways * events
        let deadline = start + 300_000_000_000
        while subscriber.arrivals.value.alerts.count < total, DispatchTime.now().uptimeNanoseconds < deadline { usleep(20_000) }  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let heard = subscriber.arrivals.value.alerts.count
        for p in publishers { p.stop() }
        return (seconds, heard)
    }

    /// The benchmark: one gateway (the baseline), then `gateways`, then the drain.
    package static func run(gateways: Int = 50, targets: Int = 500, seconds: Int = 60, outageEvents: Int = 600,
                           progress: (String) -> Void) throws -> [Benchmarks.Result] {
        guard let broker = try MosquittoBroker.start(extra: ["max_inflight_messages 0", "max_queued_messages 1000000"]) else {
            throw GatewayError.setting(name: "bench", message: "fleet: mosquitto is not installed (scripts/setup.sh installs it)")
        }
        defer { broker.stop() }
        progress("fleet: a \(targets)-target picture from the pipeline")
        let snapshot = picture(targets: targets)
        progress("fleet: baseline, 1 gateway for \(seconds) s")
        let one = try live(gateways: 1, targets: targets, seconds: seconds, broker: broker, snapshot: snapshot, progress: progress)
        progress("fleet: \(gateways) gateways for \(seconds) s")
        let many = try live(gateways: gateways, targets: targets, seconds: seconds, broker: broker, snapshot: snapshot, progress: progress)
        let drained = try drain(gateways: gateways, events: outageEvents, broker: broker, progress: progress)
        func pct(_ a: [Double], _ p: Double) -> Double { a.isEmpty ? .nan : a[min(a.count - 1, Int(Double(a.count) * p))] }
        typealias R = Benchmarks.Result
        let perGatewayCPU = 100 * many.cpuSeconds / Double(gateways * seconds), baselineCPU = 100 * one.cpuSeconds / Double(seconds)
        return [
            R(name: "fleet alert latency p50, \(gateways) gateways", value: pct(many.alertLatencies, 0.5), unit: "ms", baseline: pct(one.alertLatencies, 0.5),
              note: "from the alert log's append to the subscriber (QoS 1); baseline: 1 gateway"),
            R(name: "fleet alert latency p99, \(gateways) gateways", value: pct(many.alertLatencies, 0.99), unit: "ms", baseline: pct(one.alertLatencies, 0.99),
              note: "\(many.received) of \(many.sent) events heard"),
            R(name: "fleet picture latency p50, \(gateways) gateways", value: pct(many.pictureLatencies, 0.5), unit: "ms", baseline: pct(one.pictureLatencies, 0.5),
              note: "encoding a \(targets)-target /api/traffic (\(many.pictureBytes / 1024) KB) to the subscriber (QoS 0)"),
            R(name: "fleet picture latency p99, \(gateways) gateways", value: pct(many.pictureLatencies, 0.99), unit: "ms", baseline: pct(one.pictureLatencies, 0.99),
              note: "\(many.pictureLatencies.count) pictures heard of \(gateways * seconds)"),
            R(name: "fleet publisher CPU per gateway", value: perGatewayCPU, unit: "% of a core", baseline: baselineCPU,
              note: "this process (all publishers, their encoding, the subscriber) ÷ \(gateways)"),
            R(name: "fleet publishers' memory growth", value: many.rssGrowthMB, unit: "MB", baseline: one.rssGrowthMB, note: "\(gateways) publishers vs 1"),
            R(name: "fleet broker CPU", value: 100 * many.brokerCPUSeconds / Double(seconds), unit: "% of a core",
              baseline: 100 * one.brokerCPUSeconds / Double(seconds), note: "mosquitto \(MQTTClient.libraryVersion), resident \(JSONWriter.format(many.brokerRSSMB, decimals: 1)) MB"),
            R(name: "fleet bytes per gateway", value: many.bytesPerGatewaySecond / 1024, unit: "KB/s", baseline: one.bytesPerGatewaySecond / 1024,
              note: "≈ \(JSONWriter.format(many.bytesPerGatewaySecond * 3600 / 1e6, decimals: 0)) MB an hour of flight over LTE"),
            R(name: "fleet drain after a 10-minute outage", value: Double(drained.heard) / drained.seconds, unit: "events/s",
              note: "\(gateways) gateways × \(outageEvents) queued events: \(drained.heard) heard in \(JSONWriter.format(drained.seconds, decimals: 1)) s"),
        ]
    }
}
