import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GatewaySupport
import GatewayRuntime

/// `gatewayd send`: replay a capture's datagrams over UDP, paced by their timestamps.
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a capture's datagrams over UDP, paced by their timestamps (a stand-in Stratux).",
        discussion: """
            Raw GDL90 streams have no timestamps: they are cut into datagrams at each heartbeat and sent one second apart (divided by --speed).

            Example: gatewayd send fixtures/demo-flight.pcap --to 127.0.0.1:4000 --speed 10
            """
    )

    @Argument(help: "Capture file.")
    var file: String

    @Option(help: "Destination host:port.", transform: { try HostPort.argument($0) })
    var to: HostPort

    @Option(help: "Pace: 1 for real time, N (0.1 to 1000) for N times faster, max for no pause.")
    var speed: ReplaySpeed = .factor(1)

    @Option(help: "UDP destination port to extract from pcap/pcapng captures.")
    var port: UInt16 = 4000

    func run() throws {
        let sender: UDPSender
        do { sender = try UDPSender(host: to.host, port: to.port) } catch { throw CommandFailure("\(error)") }
        var capture = try openCapture(file, port: port)
        // Raw streams arrive cut at heartbeats (a second of traffic each), timed by their order.
        let started = Date()
        var first: Double?
        var sent = 0, bytes = 0, refused = 0
        var i = -1
        while let d = capture.next() {
            i += 1
            if let factor = speed.factor {
                let t = d.timestamp ?? Double(i)
                if first == nil { first = t }
                let wait = (t - first!) / factor - Date().timeIntervalSince(started)
                if wait > 0 { Terminal.pause(wait) }
            }
            if sender.send(d.bytes) { sent += 1; bytes += d.bytes.count } else { refused += 1 }
        }
        Terminal.error("sent \(sent) datagrams (\(bytes) bytes) to \(to)\(refused > 0 ? ", \(refused) refused by the kernel" : "")")
        if let damage = capture.error { Terminal.error("warning: \(damage)") }
    }
}
