import Foundation
import GDL90
import Synchronization
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayFeeds
@testable import GatewayRuntime

/// A conflict scene sent over real UDP: ownship at 3000 ft heading north, intruder N825V
/// 0.6 NM ahead, 100 ft above, head-on (a warning), and a far target that alerts nothing.
private struct FeedScene {
    let plane = LocalPlane(origin: Position(latitude: 45, longitude: -122))
    var heartbeat: [UInt8] { Message.heartbeat(Heartbeat(gpsPositionValid: true, utcOK: true)).frame() }
    var ownship: [UInt8] {
        Message.ownship(TrafficReport(address: 0xA1B2C3, position: plane.unproject(PlanePoint(east: 0, north: 0)),
                                      pressureAltitudeFt: 3000, groundSpeedKt: 100, verticalSpeedFpm: 0, trackDeg: 0)).frame()
    }
    func intruder(alertBit: UInt8 = 0) -> [UInt8] {
        Message.traffic(TrafficReport(alertStatus: alertBit, address: 0xAB4549, position: plane.unproject(PlanePoint(east: 0.05, north: 0.6)),
                                      pressureAltitudeFt: 3100, groundSpeedKt: 120, verticalSpeedFpm: 0, trackDeg: 180,
                                      callsign: "N825V")).frame()
    }
    /// Stratux sets its own alert bit on this one (within 2 NM): we must clear it, it is 5000 ft above.
    var farTarget: [UInt8] {
        Message.traffic(TrafficReport(alertStatus: 1, address: 0xC0FFEE, position: plane.unproject(PlanePoint(east: 1.5, north: 1)),
                                      pressureAltitudeFt: 8000, groundSpeedKt: 90, verticalSpeedFpm: -500, trackDeg: 90,
                                      emitterCategory: 9, callsign: "GLIDER1")).frame()
    }
    var datagram: [UInt8] { heartbeat + ownship + intruder() + farTarget }
}

/// A running gateway with every feed on loopback ports chosen by the kernel.
private final class FeedRig: @unchecked Sendable {
    let hub = FeedHub(bufferLimit: 8)
    let gateway: LiveGateway
    let http: FeedServer
    let nmea: NMEAServer
    var base: String { "http://127.0.0.1:\(http.port)" }

    init(forward: [UDPSender] = []) throws {
        let collected = Collected()
        gateway = LiveGateway(hub: hub, sinks: [AlertHandlerSink { events in collected.alerts.withLock { $0 += events.map(\.event) } }]
                                + (forward.isEmpty ? [] : [ForwardSink(targets: forward, efbs: nil, hub: hub)]), forwarding: !forward.isEmpty)
        try gateway.start(bind: "127.0.0.1", port: 0)
        http = FeedServer(hub: hub)
        try http.start(host: "127.0.0.1", port: 0)
        nmea = try NMEAServer(address: "127.0.0.1", port: 0, hub: hub, interval: 0.2)
    }

    func send(_ bytes: [UInt8]) throws {
        try UDPSender(host: "127.0.0.1", port: gateway.port).send(bytes)
    }

    /// Waits until `condition` holds (up to 5 s).
    func wait(_ condition: () -> Bool) {
        _ = eventually(5, condition)
    }

    func stop() {
        nmea.stop()
        http.stop()
        gateway.stop()
    }
}

@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.process), .slow) struct FeedTests {
    @Test func categoryAndTypeFollowReadsb() {
        #expect(FeedEncoders.category(1) == "A1")
        #expect(FeedEncoders.category(7) == "A7")
        #expect(FeedEncoders.category(9) == "B1")
        #expect(FeedEncoders.category(17) == "C1")
        #expect(FeedEncoders.category(0) == "A0")
        #expect(FeedEncoders.readsbType(.tisbTrackFile) == "tisb_trackfile")
        #expect(FeedEncoders.readsbType(.adsbICAO) == "adsb_icao")
    }

    /// Checksums as FLARM's spec and any NMEA reader compute them (XOR between $ and *).
    @Test func nmeaChecksumsAndFormats() {
        #expect(NMEA.sentence("PFLAU,0,1,0,1,0,,0,,,") == "$PFLAU,0,1,0,1,0,,0,,,*4E\r\n")
        // A published example sentence: $GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47
        #expect(NMEA.sentence("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") ==
                "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n")
        #expect(NMEA.latitude(48.1173) == "4807.0380,N")
        #expect(NMEA.longitude(-11.516666666) == "01131.0000,W")
        let (hms, dmy) = NMEA.clock(Timestamp.parse("2026-05-16T14:03:20Z")! + 0.5)
        #expect(hms == "140320.50")
        #expect(dmy == "160526")
    }

    @Test func efbRegistryLearnsAndForgets() {
        var r = EFBRegistry()
        #expect(r.announce(from: "192.168.10.20", payload: Array(#"{"App":"ForeFlight","GDL90":{"port":4000}}"#.utf8), at: 100)?.port == 4000)
        #expect(r.announce(from: "192.168.10.21", payload: Array(#"{"App":"Other","GDL90":{"port":4001}}"#.utf8), at: 105)?.port == 4001)
        #expect(r.announce(from: "192.168.10.22", payload: Array("not json".utf8), at: 105) == nil)
        #expect(r.announce(from: "192.168.10.23", payload: Array(#"{"App":"X","GDL90":{"port":"x"}}"#.utf8), at: 105) == nil)
        #expect(r.active(at: 110).map(\.host) == ["192.168.10.20", "192.168.10.21"])
        #expect(r.active(at: 118).map(\.host) == ["192.168.10.21"])  // .20 silent 18 s: forgotten
        #expect(r.active(at: 200).isEmpty)
    }

    /// The real HTTP server on loopback, fed over real UDP: every document, checked against the
    /// field names readsb documents and against GeoJSON's rules.
    @Test func httpFeedsServeThePicture() throws {
        let rig = try FeedRig()
        defer { rig.stop() }
        // Nothing received yet: unhealthy, with the reason.
        let early = try HTTPConnection.get(rig.base + "/healthz")
        #expect(early.status == 503)
        #expect(early.body.contains("no GDL90 received yet"))

        try rig.send(FeedScene().datagram)
        rig.wait { rig.hub.snapshot.targets.count == 2 && rig.hub.activeAlerts.count == 1 }

        // tar1090 reads readsb's receiver.json first (issue 28): version, refresh, history, position.
        let receiver = try HTTPConnection.get(rig.base + "/data/receiver.json")
        #expect(receiver.status == 200)
        let info = try #require(try JSONSerialization.jsonObject(with: Data(receiver.body.utf8)) as? [String: Any])
        #expect((info["version"] as? String)?.contains("gatewayd") == true)
        #expect(info["refresh"] as? Int == 1000 && info["history"] as? Int == 0)
        #expect(info["lat"] is Double && info["lon"] is Double)

        let aircraft = try HTTPConnection.get(rig.base + "/data/aircraft.json")
        #expect(aircraft.status == 200)
        #expect(aircraft.headers["content-type"] == "application/json")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(aircraft.body.utf8)) as? [String: Any])
        #expect(doc["now"] is Double)
        #expect(doc["messages"] as? Int == 4)
        let list = try #require(doc["aircraft"] as? [[String: Any]])
        #expect(list.count == 2)
        let n825v = try #require(list.first { $0["hex"] as? String == "ab4549" })
        #expect(n825v["flight"] as? String == "N825V   ")
        #expect(n825v["alt_baro"] as? Int == 3100)
        #expect(n825v["gs"] as? Double == 120)
        #expect(n825v["track"] as? Double == 180)
        #expect(n825v["baro_rate"] as? Int == 0)
        #expect(n825v["category"] as? String == "A1")
        #expect(n825v["type"] as? String == "adsb_icao")
        #expect(n825v["gateway_alert"] as? String == "warning")
        #expect((n825v["lat"] as? Double).map { abs($0 - 45.01) < 0.001 } == true)
        #expect(n825v["seen"] is Double && n825v["seen_pos"] is Double)
        // Only readsb's documented names, or our own gateway_ extras.
        let readsbNames: Set<String> = ["hex", "type", "flight", "lat", "lon", "alt_baro", "alt_geom", "gs", "track", "baro_rate",
                                        "category", "seen", "seen_pos", "messages", "tisb", "squawk", "emergency", "rssi"]
        for entry in list { for key in entry.keys { #expect(readsbNames.contains(key) || key.hasPrefix("gateway_"), "\(key)") } }

        let traffic = try HTTPConnection.get(rig.base + "/traffic.geojson")
        #expect(traffic.headers["content-type"] == "application/geo+json")
        let features = try validateGeoJSON(traffic.body)
        #expect(features.count == 3)  // ownship + two targets
        #expect(features.contains { ($0["properties"] as? [String: Any])?["alert"] as? String == "warning" })

        let health = try HTTPConnection.get(rig.base + "/healthz")
        #expect(health.status == 200)
        #expect(health.body.contains(#""status":"ok""#))

        let metrics = try HTTPConnection.get(rig.base + "/metrics")
        #expect(metrics.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(metrics.body.contains("gatewayd_datagrams_total 1\n"))
        #expect(metrics.body.contains(#"gatewayd_frames_total{type="traffic"} 2"#))
        #expect(metrics.body.contains("gatewayd_targets 2\n"))
        #expect(metrics.body.contains("gatewayd_alerts_active 1\n"))
        #expect(metrics.body.contains(#"gatewayd_slow_clients_dropped_total{feed="sse"} 0"#))

        let active = try HTTPConnection.get(rig.base + "/alerts/active")
        let actives = try #require(try JSONSerialization.jsonObject(with: Data(active.body.utf8)) as? [[String: Any]])
        #expect(actives.first?["subject"] as? String == "ab4549")
    }

    @Test func airspaceGeoJSONIsValidWithClosedCounterClockwiseRings() throws {
        let clockwise = [Position(latitude: 45, longitude: -122), Position(latitude: 45.1, longitude: -121.9),
                         Position(latitude: 45, longitude: -121.8)]
        var s = FeedSnapshot.empty(at: 0)
        s.airspace = [
            AirspaceArea(id: "FDC 6/1234", name: "TFR", shape: .circle(center: Position(latitude: 44.9, longitude: -123), radiusNM: 3),
                         ceilingFt: 3000),
            AirspaceArea(id: "R-4", name: "R-4", shape: .polygon(clockwise), floorFt: 1000, ceilingFt: 5000, severity: .warning),
        ]
        let features = try validateGeoJSON(FeedEncoders.airspaceGeoJSON(s))
        #expect(features.count == 2)
        let circle = try #require((features[0]["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]])
        #expect(circle[0].count == 65)
        // Every vertex 3 NM from the centre.
        for p in circle[0] {
            #expect(abs(Geodesy.distanceNM(Position(latitude: 44.9, longitude: -123), Position(latitude: p[1], longitude: p[0])) - 3) < 0.01)
        }
        #expect((features[1]["properties"] as? [String: Any])?["floorRef"] as? String == "MSL")
        #expect((features[0]["properties"] as? [String: Any])?["floorRef"] as? String == "SFC")
    }

    /// /alerts as an SSE client reads it: the active alert first, then a change, and after a
    /// reconnect the active alert again.
    @Test func alertsStreamAndReconnect() throws {
        let rig = try FeedRig()
        defer { rig.stop() }
        let target = try #require(HTTPConnection.Target(rig.base + "/alerts"))
        var first = try HTTPConnection(target)
        first.setReadTimeout(5)
        #expect(first.status == 200)
        #expect(first.headers["content-type"] == "text/event-stream")
        try rig.send(FeedScene().datagram)
        var parser = SSEParser()
        var events: [String] = []
        while events.isEmpty, let piece = try first.readBody() { events += parser.feed(piece) }
        first.close()
        let raised = try #require(try JSONSerialization.jsonObject(with: Data(events[0].utf8)) as? [String: Any])
        #expect(raised["event"] as? String == "raised")
        #expect(raised["kind"] as? String == "traffic")
        #expect(raised["subject"] as? String == "ab4549")
        #expect(raised["level"] as? String == "warning")

        var second = try HTTPConnection(target)
        second.setReadTimeout(5)
        var parser2 = SSEParser()
        var again: [String] = []
        while again.isEmpty, let piece = try second.readBody() { again += parser2.feed(piece) }
        second.close()
        #expect(again.first == events.first)  // the active alert, sent first on connect
    }

    /// A client that never reads is dropped once its buffer fills, and counted; the others and
    /// decoding carry on.
    @Test func stalledSubscriberIsDroppedAndCounted() {
        let hub = FeedHub(bufferLimit: 4)
        let stalled = hub.subscribe()
        #expect(stalled != nil)
        let e = AlertEvent(change: .raised, kind: .traffic, id: "t-1", subject: "ab4549", level: .advisory, time: 0, message: "m")
        for i in 0..<10 {
            var u = e
            u.change = i == 0 ? .raised : .updated
            hub.publish([u])
        }
        #expect(hub.counters.sseDropped == 1)
        #expect(hub.counters.sseClients == 0)
        #expect(hub.activeAlerts.count == 1)
    }

    /// A UDP listener receives the forwarded stream: our alert bit on the conflicting target,
    /// Stratux's bit cleared on the harmless one.
    @Test func forwardedGDL90CarriesOurAlertBit() throws {
        let received = Mutex<[[UInt8]]>([])
        let efb = try UDPListener(address: "127.0.0.1", port: 0, queue: DispatchQueue(label: "efb")) { bytes, _ in
            received.withLock { $0.append(Array(bytes)) }
        }
        defer { efb.cancel() }
        let rig = try FeedRig(forward: [UDPSender(host: "127.0.0.1", port: efb.port)])
        defer { rig.stop() }
        let scene = FeedScene()
        try rig.send(scene.datagram)  // raises the alert
        rig.wait { rig.hub.activeAlerts.count == 1 }
        try rig.send(scene.heartbeat + scene.intruder() + scene.farTarget)  // forwarded with the alert known
        rig.wait { received.withLock { $0.count } >= 2 }
        let last = try #require(received.withLock { $0.last })
        var reports: [UInt32: UInt8] = [:]
        var deframer = Deframer()
        deframer.feed(last) { event in
            if case .frame(let f) = event, case .traffic(let r)? = try? Message.decode(f.message) { reports[r.address] = r.alertStatus }
        }
        #expect(reports[0xAB4549] == 1)
        #expect(reports[0xC0FFEE] == 0)
        #expect(rig.hub.counters.forwarded >= 2)
    }

    /// `--forward auto`: an EFB announcing itself the ForeFlight way on the discovery port gets
    /// the stream unicast to the port it asked for.
    @Test func discoveredEFBGetsTheStream() throws {
        let received = Mutex<Int>(0)
        let efb = try UDPListener(address: "127.0.0.1", port: 0, queue: DispatchQueue(label: "efb2")) { _, _ in
            received.withLock { $0 += 1 }
        }
        defer { efb.cancel() }
        let hub = FeedHub()
        // The forwarder is a sink, discovery a source: one line of wiring each.
        let forwarder = ForwardSink(targets: [], efbs: ForwardSink.registry(ownPort: 0), hub: hub)
        let discovery = DiscoverySource(port: 0)
        let gateway = LiveGateway(hub: hub, sinks: [forwarder], forwarding: true)
        gateway.add(discovery)
        try gateway.start(bind: "127.0.0.1", port: 0)
        defer { gateway.stop() }
        let announce = try UDPSender(host: "127.0.0.1", port: discovery.port)
        announce.send(Array(#"{"App":"ForeFlight","GDL90":{"port":\#(efb.port)}}"#.utf8))
        let now = { Date().timeIntervalSince1970 }
        _ = eventually(2) { !forwarder.discovered(at: now()).isEmpty }
        #expect(forwarder.discovered(at: now()).map(\.port) == [efb.port])
        #expect(forwarder.discovered(at: now()).first?.app == "ForeFlight")
        try UDPSender(host: "127.0.0.1", port: gateway.port).send(FeedScene().datagram)
        _ = eventually(2) { received.withLock { $0 } > 0 }
        #expect(received.withLock { $0 } >= 1)
    }

    /// A late-joining EFB (issue 57): the gateway has heard FIS-B (the 59 uplinks of
    /// fisb-weather.978: METARs, TAFs, NEXRAD) before a tablet announces itself; the tablet gets
    /// the uplinks held at once, paced at 32 a second, every one a valid GDL 90 uplink, without
    /// waiting for the next broadcast cycle.
    @Test(.ownThread) func aLateEFBGetsTheFISBHeldFirst() throws {
        let frames: [[UInt8]] = try String(contentsOf: fixtures.appendingPathComponent("fisb-weather.978"), encoding: .utf8)
            .split(separator: "\n").compactMap { line in
                guard line.hasPrefix("+"), let end = line.firstIndex(of: ";") else { return nil }
                let hex = Array(line[line.index(after: line.startIndex)..<end].utf8)
                var bytes: [UInt8] = []
                var i = 0
                while i + 1 < hex.count {
                    guard let b = UInt8(String(decoding: hex[i...i + 1], as: UTF8.self), radix: 16) else { return nil }
                    bytes.append(b)
                    i += 2
                }
                return Message.uplink(Uplink(timeOfReception: nil, payload: bytes)).frame()
            }
        #expect(frames.count == 59)
        let arrivals = Mutex<[(Double, [UInt8])]>([])
        let efb = try UDPListener(address: "127.0.0.1", port: 0, queue: DispatchQueue(label: "late-efb")) { bytes, _ in
            let copy = Array(bytes)
            arrivals.withLock { $0.append((Date().timeIntervalSince1970, copy)) }
        }
        defer { efb.cancel() }
        let hub = FeedHub()
        let lines = Mutex<[String]>([])
        let forwarder = ForwardSink(targets: [], efbs: ForwardSink.registry(ownPort: 0), hub: hub) { line in lines.withLock { $0.append(line) } }
        let discovery = DiscoverySource(port: 0)
        let gateway = LiveGateway(hub: hub, sinks: [forwarder], forwarding: true)
        gateway.add(discovery)
        try gateway.start(bind: "127.0.0.1", port: 0)
        defer { gateway.stop() }
        let receiver = try UDPSender(host: "127.0.0.1", port: gateway.port)
        for f in frames { receiver.send(f) }
        // Every uplink through the gateway (each carries products; a repeat replaces its own).
        #expect(eventually(5) { gateway.status().counters.datagrams == frames.count })
        gateway.queue.sync {}
        #expect(forwarder.heldUplinks > 0)
        let held = forwarder.heldUplinks
        // The tablet starts listening, then announces itself.
        let announced = Date().timeIntervalSince1970
        try UDPSender(host: "127.0.0.1", port: discovery.port).send(Array(#"{"App":"ForeFlight","GDL90":{"port":\#(efb.port)}}"#.utf8))
        #expect(eventually(10) { arrivals.withLock { $0.count } >= held }, "the EFB got \(arrivals.withLock { $0.count }) of \(held)")
        let got = arrivals.withLock { $0 }
        // Every datagram a valid uplink, each held one once.
        var uplinks = 0
        for (_, d) in got {
            var deframer = Deframer()
            deframer.feed(d) { event in if case .frame(let f) = event, f.messageID == 7 { uplinks += 1 } }
        }
        #expect(uplinks == held && Set(got.map(\.1)).count == held)
        // At once, and paced: the first within half a second, all within held/32 s (and a little).
        let first = try #require(got.first?.0), last = try #require(got.last?.0)
        print("late EFB: \(held) of the \(frames.count) uplinks heard held; the first sent \(Int((first - announced) * 1000)) ms after the announcement, all in \(Int((last - first) * 1000)) ms")
        #expect(first - announced < 0.5)
        #expect(last - first >= Double(held - 1) / ForwardSink.catchUpRate * 0.8, "faster than \(ForwardSink.catchUpRate) a second")
        #expect(last - first <= Double(held) / ForwardSink.catchUpRate + 2)
        #expect(lines.withLock { $0 }.contains { $0.contains("ForeFlight at 127.0.0.1:\(efb.port) joined: sending it the \(held) FIS-B uplinks held") })
    }

    /// A TCP client reads FLARM NMEA: valid checksums, RMC/GGA from ownship, a PFLAA per target
    /// and PFLAU pointing at the warning (alarm level 3).
    @Test func nmeaClientReadsValidSentences() throws {
        let rig = try FeedRig()
        defer { rig.stop() }
        try rig.send(FeedScene().datagram)
        rig.wait { rig.hub.activeAlerts.count == 1 }
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = rig.nmea.port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr)
        let ok = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        #expect(ok == 0)
        defer { close(fd) }
        let text = receive(fd, within: 5) { $0.contains("PFLAU") }
        let lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let firstBurst = Array(lines.prefix { !$0.hasPrefix("$PFLAU") }) + lines.filter { $0.hasPrefix("$PFLAU") }.prefix(1)
        for line in firstBurst { #expect(NMEA.isValid(line), "\(line)") }
        #expect(firstBurst.contains { $0.hasPrefix("$GPRMC,") && $0.contains(",A,4500.0000,N,1215") && $0.contains(",W,100,0,") })
        #expect(firstBurst.contains { $0.hasPrefix("$GPGGA,") })
        let pflaa = firstBurst.filter { $0.hasPrefix("$PFLAA,") }
        #expect(pflaa.count == 2)
        // Warning target: 0.6 NM north (1111 m), 0.05 NM east (93 m), 100 ft (30 m) above, ICAO id;
        // PFLAU: 2 targets, airborne GPS, alarm 3, 5° right (atan2(93, 1111)), 1115 m away.
        #expect(pflaa.contains { $0.hasPrefix("$PFLAA,3,1111,93,30,1,AB4549,180,,62,0,8*") })
        #expect(firstBurst.contains { $0.hasPrefix("$PFLAU,2,1,2,1,3,5,2,30,1115,AB4549*") })
    }

    /// `gatewayd tail` against the running server prints the live alert.
    @Test func tailPrintsALiveAlert() throws {
        let executable = try #require(gatewaydExecutable(), "build gatewayd first (swift build)")
        let rig = try FeedRig()
        defer { rig.stop() }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["tail", rig.base, "--count", "1"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        process.environment = ["NO_COLOR": "1"]
        try process.run()
        rig.wait { rig.hub.counters.sseClients == 1 }
        try rig.send(FeedScene().datagram)
        _ = waitForExit(process, timeout: 10)
        if process.isRunning { process.terminate() }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0)
        #expect(text.contains("WARNING  raised   Traffic N825V (ab4549)"), "\(text)")
    }
}

/// Checks a GeoJSON FeatureCollection against RFC 7946's rules (types, [lon, lat] ranges, closed
/// linear rings of 4+ positions, exterior rings counter-clockwise); returns its features.
func validateGeoJSON(_ text: String) throws -> [[String: Any]] {
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["type"] as? String == "FeatureCollection")
    let features = try #require(object["features"] as? [[String: Any]])
    for f in features {
        #expect(f["type"] as? String == "Feature")
        #expect(f["properties"] is [String: Any])
        let geometry = try #require(f["geometry"] as? [String: Any])
        func position(_ p: [Double]) {
            #expect(p.count == 2)
            #expect((-180...180).contains(p[0]) && (-90...90).contains(p[1]))
        }
        switch geometry["type"] as? String {
        case "Point":
            position(try #require(geometry["coordinates"] as? [Double]))
        case "Polygon":
            let rings = try #require(geometry["coordinates"] as? [[[Double]]])
            for ring in rings {
                #expect(ring.count >= 4)
                #expect(ring.first == ring.last)
                ring.forEach(position)
            }
            var area = 0.0
            for i in 0..<(rings[0].count - 1) { area += rings[0][i][0] * rings[0][i + 1][1] - rings[0][i + 1][0] * rings[0][i][1] }
            #expect(area > 0, "exterior ring must be counter-clockwise")
        default:
            Issue.record("unexpected geometry \(String(describing: geometry["type"]))")
        }
    }
    return features
}
