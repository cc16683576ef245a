import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GDL90
import GatewaySupport
import GatewayRuntime

/// A flood on loopback: `rate` datagrams a second for `seconds`, each carrying 8 valid traffic
/// frames, one frame with a bad CRC and one too short (so every datagram received must count
/// exactly 8 messages and 2 rejections), with a conflict scenario mixed in (heartbeat,
/// ownship and a head-on intruder every 100th datagram) whose warning must still be raised.
package struct FloodReport: Sendable {
    /// Datagrams the sender handed to the kernel.
    package var sent = 0
    /// Datagrams the gateway received.
    package var received = 0
    /// Sent but lost in the kernel (socket buffer full).
    package var dropped: Int { sent - received }
    /// Messages decoded.
    package var decoded = 0
    /// Frames rejected.
    package var rejected = 0
    /// Messages and rejections the received datagrams must account for.
    package var expectedDecoded = 0
    /// See `expectedDecoded`.
    package var expectedRejected = 0
    /// Whether the scenario's warning on ab4549 was raised.
    package var scenarioAlerted = false
    /// Largest resident set seen, MB.
    package var peakRSSMB = 0.0
    /// Resident set before the flood, MB.
    package var startRSSMB = 0.0

    /// Whether received = decoded + rejected holds frame for frame.
    package var countersAddUp: Bool { decoded == expectedDecoded && rejected == expectedRejected && received <= sent }

    /// One line per figure.
    package var lines: [String] {
        [
            "flood: sent \(sent) datagrams, received \(received), dropped by the kernel \(dropped)",
            "flood: decoded \(decoded) messages (expected \(expectedDecoded)), rejected \(rejected) frames (expected \(expectedRejected)): \(countersAddUp ? "counters add up" : "COUNTERS DO NOT ADD UP")",
            "flood: scenario warning \(scenarioAlerted ? "raised" : "NOT RAISED"); resident memory \(JSONWriter.format(startRSSMB, decimals: 1)) MB before, peak \(JSONWriter.format(peakRSSMB, decimals: 1)) MB",
        ]
    }
}

extension Benchmarks {
    /// Runs the flood described on `FloodReport`.
    package static func flood(rate: Int = 50_000, seconds: Double = 30) throws -> FloodReport {
        let plane = LocalPlane(origin: Position(latitude: 45, longitude: -122))
        var report = FloodReport()
        report.startRSSMB = residentMB() ?? 0
        var traffic: [UInt8] = []
        for i in 0..<8 {
            traffic += Message.traffic(TrafficReport(
                address: 0x200000 + UInt32(i), position: plane.unproject(PlanePoint(east: 15 + Double(i), north: 15)),
                pressureAltitudeFt: 9000, groundSpeedKt: 150, verticalSpeedFpm: 0, trackDeg: 90, callsign: "FLOOD\(i)")).frame()
        }
        var badCRC = Message.heartbeat(Heartbeat(gpsPositionValid: true, utcOK: true)).frame()
        badCRC[badCRC.count - 2] ^= 0x55
        let tooShort: [UInt8] = [0x7E, 0x00, 0x7E]
        let floodDatagram = traffic + badCRC + tooShort
        let heartbeat = Message.heartbeat(Heartbeat(gpsPositionValid: true, utcOK: true)).frame()
        let own = Message.ownship(TrafficReport(address: 0xA1B2C3, position: plane.unproject(PlanePoint(east: 0, north: 0)),
                                                pressureAltitudeFt: 3000, groundSpeedKt: 100, verticalSpeedFpm: 0, trackDeg: 0)).frame()
        let intruder = Message.traffic(TrafficReport(address: 0xAB4549, position: plane.unproject(PlanePoint(east: 0.05, north: 0.6)),
                                                     pressureAltitudeFt: 3100, groundSpeedKt: 120, verticalSpeedFpm: 0, trackDeg: 180,
                                                     callsign: "N825V")).frame()
        let scenario = heartbeat + own + intruder
        let alerted = Locked(false)
        let gateway = LiveGateway(log: nil, onAlerts: { events in
            if events.contains(where: { $0.event.subject == "ab4549" && $0.event.level == .warning }) { alerted.set(true) }
        })
        try gateway.start(bind: "127.0.0.1", port: 0)
        let sender = try UDPSender(host: "127.0.0.1", port: gateway.port)
        let total = Int(Double(rate) * seconds)
        let done = DispatchSemaphore(value: 0)  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
        let sentScenario = Locked(0), sentFlood = Locked(0)
        BenchThread {
            let start = DispatchTime.now().uptimeNanoseconds
            var i = 0, scenarios = 0, floods = 0
            while i < total {
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                let due = min(total, Int(elapsed * Double(rate)) + 1)
                while i < due {
                    if i % 100 == 0 {
                        if sender.send(scenario) { scenarios += 1 }
                    } else if sender.send(floodDatagram) {
                        floods += 1
                    }
                    i += 1
                }
                usleep(200)  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
            }
            sentScenario.set(scenarios)
            sentFlood.set(floods)
            done.signal()
        }.start()
        while done.wait(timeout: .now() + 0.5) == .timedOut {
            report.peakRSSMB = max(report.peakRSSMB, residentMB() ?? 0)
        }
        var last = -1
        while true {
            usleep(200_000)  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
            let now = gateway.status().counters.datagrams
            if now == last { break }
            last = now
        }
        report.peakRSSMB = max(report.peakRSSMB, residentMB() ?? 0)
        let counters = gateway.status().counters
        gateway.stop()
        report.sent = sentScenario.value + sentFlood.value
        report.received = counters.datagrams
        report.decoded = counters.messages
        report.rejected = counters.errors
        // Which datagrams arrived is not known one by one, but their kinds are told apart by
        // what they decode to: scenario datagrams are the only ones with ownship reports.
        let scenariosReceived = counters.messageCounts[Message.typeNames.firstIndex(of: "ownship")!]
        let floodsReceived = report.received - scenariosReceived
        report.expectedDecoded = scenariosReceived * 3 + floodsReceived * 8
        report.expectedRejected = floodsReceived * 2
        report.scenarioAlerted = alerted.value
        return report
    }
}
