import ArgumentParser
import GDL90
import TrafficGateway

/// `gatewayd decode`: every message of a capture, one line each.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Print every GDL90 message of captures, one line each (readable, or JSON Lines).",
        discussion: """
            Rejected frames appear in place as errors (reason crc, tooShort, badEscape, oversized, truncated, unsynced, length) with their byte offset; a summary goes to stderr. Exits 0 when the file could be read, even with bad frames.

            Examples:
              gatewayd decode fixtures/demo-flight.gdl90 | less
              gatewayd decode --json fixtures/demo-flight.pcap \\
                | jq 'select(.type=="traffic") | .callsign'
            """
    )

    @Argument(help: "Capture files: pcap, pcapng, dump978 text, or raw GDL90.")
    var files: [String]

    @Flag(help: "JSON Lines output (see README for the fields).")
    var json = false

    @Option(help: "UDP destination port to extract from pcap/pcapng captures.")
    var port: UInt16 = 4000

    @Option(help: ArgumentHelp("UTC date (YYYY-MM-DD) of raw GDL90 streams, which carry only the time of day. Without it the date comes from the FIS-B products' own dates, else the file's modification time (said in a note)."))
    var date: String?

    func run() throws {
        var totals = GatewayCounters()
        var damaged: [String] = []
        for path in files {
            // Read here, not ahead on a third thread: with the printer's, two threads fill two cores.
            var capture = try openCapture(path, port: port)
            let midnight = try rawCaptureMidnight(date, capture)
            var counting = GatewayCore.Configuration()
            counting.countsOnly = true
            var pipeline = GatewayPipeline(core: GatewayCore(configuration: counting), timeSource: capture.format == .raw ? .heartbeat(midnight: midnight) : .given)
            // The lines are written on a second core (one buffer, out every 256 kB) while this
            // thread deframes and decodes.
            let printer = ConcurrentPrinter(json: json) { Terminal.out(&$0) }
            while let datagram = capture.next() {
                _ = datagram.bytes.withUnsafeBytes { pipeline.process(datagram: $0, at: datagram.timestamp) { item, t in printer.append(item, at: t) } }
            }
            _ = pipeline.finish(.openFrameOnly) { item, t in printer.append(item, at: t) }
            printer.finish()
            totals.merge(pipeline.core.counters)
            if let damage = capture.error { damaged.append("\(damage)") }
        }
        Terminal.error(Summary.text(totals, alerts: 0).replacingAll("; 0 alert changes", with: ""))
        for d in damaged { Terminal.error("warning: \(d)") }
    }
}
