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
import GatewayCaptures
import GatewaySimulation

/// `gatewayd simulate`: writes the scripted demo flight (the bundled fixtures) and the traffic
/// scenarios as captures.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Write the scripted demo flight and the traffic scenarios as captures.",
        discussion: """
            This is how fixtures/demo-flight.* and fixtures/scenarios/* are made: with the project's own encoder, so every byte is explained by Sources/TrafficGateway/Simulation/DemoFlight.swift and TrafficScenario.swift. Each scenario reproduces one thing real receivers do to traffic alerts (a parked ownship with the airborne bit set, ownship reports seconds apart, TIS-B twins, ownship's own echo, frozen positions); a receiver without ownship reports also gets a gpspipe log to replay with --gps.

            Example: gatewayd simulate --out fixtures
            """
    )

    @Option(help: "Folder to write demo-flight.pcap, demo-flight.pcapng, demo-flight.gdl90 and scenarios/ into.")
    var out: String = "fixtures"

    func run() throws {
        let flight = DemoFlight()
        let datagrams = flight.datagrams().map { (time: $0.time, bytes: $0.bytes) }
        var files: [(String, [UInt8])] = [
            ("demo-flight.pcap", PcapWriter.pcap(datagrams)),
            ("demo-flight.pcapng", PcapWriter.pcapng(datagrams, link: .linuxSLL2, nanoseconds: true)),
            ("demo-flight.gdl90", flight.rawStream()),
            // The FIS-B samples as a raw stream without a date (issue 28): decoded on any later day
            // it must keep every product, dated from the products themselves.
            ("fisb-sample.gdl90", FISBSamples.rawGDL90()),
        ]
        // The flight as a Stratux's replay logs keep it, as plain SBS text, and FIS-B as dump978
        // prints it without times (issue 45).
        let logs = flight.stratuxLogs()
        files.append(("stratux/0001-uat.log", Array(logs.uat.utf8)))
        files.append(("stratux/0001-es.log", Array(logs.es.utf8)))
        files.append(("stratux/0001-gps.log", Array(logs.gps.utf8)))
        files.append(("demo-flight.sbs", Array(flight.sbsText().utf8)))
        files.append(("fisb-undated.978", Array(DemoFlight.undatedDump978().utf8)))
        // Gridded weather (issue 42): a squall line as two ground stations uplink it, with CONUS
        // NEXRAD, lightning, cloud tops, icing and turbulence (`WeatherSample`).
        files.append(("fisb-weather.978", Array(WeatherSample.dump978().utf8)))
        // Hostile FIS-B uplinks (issue 27), seeds of the fisb fuzz target: one DLAC tab run, one
        // uplink of the gridded flood.
        files.append(("hostile/fisb-dlac-tab-run.uplink", HostileFISB.dlacTabRun(station: 0)))
        files.append(("hostile/fisb-gridded-flood.uplink", HostileFISB.griddedFlood(count: 1)[0]))
        for scenario in TrafficScenario.all {
            files.append(("scenarios/\(scenario.name).pcap", PcapWriter.pcap(scenario.datagrams())))
            let gps = scenario.gpsLog()
            if !gps.isEmpty { files.append(("scenarios/\(scenario.name).gps.jsonl", gps)) }
        }
        // The logbook's flights (issue 23): whole flights, takeoffs and landings to find.
        for flight in FlightScenario.all {
            files.append(("scenarios/\(flight.scenario.name).pcap", PcapWriter.pcap(flight.scenario.datagrams())))
        }
        try FileManager.default.createDirectory(atPath: out + "/scenarios", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: out + "/hostile", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: out + "/stratux", withIntermediateDirectories: true)
        for (name, bytes) in files {
            let path = out + "/" + name
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                throw CommandFailure("\(path): cannot write (folder missing, read-only or disk full)")
            }
            Terminal.error("wrote \(path) (\(bytes.count) bytes)")
        }
    }
}
