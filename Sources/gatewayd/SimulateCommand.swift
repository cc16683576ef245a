import ArgumentParser
import Foundation
import TrafficGateway

/// `gatewayd simulate`: writes the scripted demo flight (the bundled fixtures) as captures.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Write the scripted demo flight as pcap, pcapng and raw GDL90 captures.",
        discussion: """
            This is how fixtures/demo-flight.* are made: with the project's own encoder, so every byte is
            explained by Sources/TrafficGateway/Simulation/DemoFlight.swift.

            Example: gatewayd simulate --out fixtures
            """
    )

    @Option(help: "Folder to write demo-flight.pcap, demo-flight.pcapng and demo-flight.gdl90 into.")
    var out: String = "fixtures"

    func run() throws {
        let flight = DemoFlight()
        let datagrams = flight.datagrams().map { (time: $0.time, bytes: $0.bytes) }
        let files: [(String, [UInt8])] = [
            ("demo-flight.pcap", PcapWriter.pcap(datagrams)),
            ("demo-flight.pcapng", PcapWriter.pcapng(datagrams, link: .linuxSLL2, nanoseconds: true)),
            ("demo-flight.gdl90", flight.rawStream()),
        ]
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        for (name, bytes) in files {
            let path = out + "/" + name
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                throw CommandFailure("\(path): cannot write (folder missing, read-only or disk full)")
            }
            Terminal.error("wrote \(path) (\(bytes.count) bytes)")
        }
    }
}
