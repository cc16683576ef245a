import ArgumentParser
import GDL90
import GatewaySupport
import GatewayDomain
import GatewayCaptures

/// `gatewayd decode`: every message of a capture, one line each.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Print every GDL90 message of captures, one line each (readable, or JSON Lines).",
        discussion: """
            Rejected frames appear in place as errors (reason crc, tooShort, badEscape, oversized, truncated, unsynced, length) with their byte offset; a summary goes to stderr. Exits 0 when the file could be read, even with bad frames.

            Uses every core (up to four): parts of a capture are decoded side by side and printed in order, the very lines one pipeline reading it from start to end gives.

            Examples:
              gatewayd decode fixtures/demo-flight.gdl90 | less
              gatewayd decode --json fixtures/demo-flight.pcap \\
                | jq 'select(.type=="traffic") | .callsign'
            """
    )

    @Argument(help: "Capture files: pcap, pcapng, dump978 text, raw GDL90, a Stratux replay log (NNNN-uat.log, -es.log, -gps.log) SBS BaseStation text or OGN APRS text (one beacon a line, optionally after an ISO time); the format is found from the content. A folder is every capture in it, in time order.")
    var files: [String]

    @Flag(help: "JSON Lines output (see README for the fields).")
    var json = false

    @Option(help: "UDP destination port to extract from pcap/pcapng captures.")
    var port: UInt16 = 4000

    @Option(help: ArgumentHelp("UTC date (YYYY-MM-DD) of raw GDL90 streams, which carry only the time of day, and of dump978 lines without t= times. Without it the date comes from the FIS-B products' own dates, else the file's modification time (said in a note)."))
    var date: String?

    /// Prints the APRS log at `path` when it is one (`APRSLog.looksLike`), a line a beacon as it is
    /// read (a few thousand lines at a time: the log's beacons are never all held); nil when it is
    /// not one.
    func printAPRSLog(_ path: String) throws -> APRSLog? {
        guard APRSLog.isLog(path: path) else { return nil }
        var lines: [String] = []
        let log = try APRSLog.forEach(path: path, date: date.flatMap(Timestamp.parse)) { e in
            lines.append(json ? APRSLog.json(e) : "\(Timestamp.iso8601(e.time)) ogn \(e.beacon.dialect) \(e.beacon.callsign) \(e.beacon.addressType) \(e.beacon.aircraftType) \(e.beacon.altitudeFt) ft \(e.beacon.trackDeg.map { "\(Int($0))°" } ?? "-") \(e.beacon.groundSpeedKt.map { "\($0) kt" } ?? "-")")
            if lines.count >= 4096 { Terminal.out(lines); lines.removeAll(keepingCapacity: true) }
        }
        Terminal.out(lines)
        return log
    }

    func run() throws {
        var totals = GatewayCounters()
        var damaged: [String] = []
        for path in try expandCaptures(files) {
            if let log = try printAPRSLog(path) {
                // OGN APRS text: each aircraft beacon a `traffic` line `from` `ogn`.
                Terminal.error("\(path): \(log.beaconCount) OGN beacons, \(log.skipped) receiver/status lines skipped, \(log.problemCount) wrong lines" + (log.problemExamples.first.map { " (\($0))" } ?? ""))
                continue
            }
            var capture = try openCapture(path, port: port)
            let midnight = try rawCaptureMidnight(date, &capture)
            var counting = GatewayCore.Configuration()
            counting.countsOnly = true
            let pipeline = GatewayPipeline(core: GatewayCore(configuration: counting), timeSource: capture.format == .raw ? .heartbeat(midnight: midnight) : .given)
            // Parts of the capture deframed, decoded and printed on every core, written in order.
            let end = ParallelDecode.run(&capture, pipeline: pipeline, json: json) { Terminal.out(&$0) }
            totals.merge(end.pipeline.core.counters)
            if let damage = capture.error { damaged.append("\(damage)") }
        }
        Terminal.error(Summary.text(totals, alerts: 0).replacingAll("; 0 alert changes", with: ""))
        for d in damaged { Terminal.error("warning: \(d)") }
    }
}
