import ArgumentParser
import GatewaySupport
import GatewaySimulation

/// `gatewayd bench`: release-mode figures with same-run baselines.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure codec throughput, ingest rate, alert latency and memory (run with -c release).",
        discussion: "Example: swift run -c release gatewayd bench --megabytes 64 --targets 500"
    )

    @Option(help: "Size of the synthetic stream for the codec benchmark, and of each file of the formats benchmark, MB.")
    var megabytes: Int = 64

    @Option(help: "Simultaneous targets for the pipeline benchmark.")
    var targets: Int = 500

    @Option(help: "Simulated seconds of traffic for the pipeline benchmark.")
    var seconds: Int = 60

    @Option(help: "Datagrams a second for --only flood.")
    var floodRate: Int = 50_000

    @Option(help: "Seconds of flood for --only flood.")
    var floodSeconds: Int = 30

    @Option(help: "NOTAMs in the real-shaped set for --only notams (import rate, memory and coverage).")
    var notams: Int = 10_000

    @Option(help: "Keep the NOTAM set --only notams writes at this path (to import it with other builds).")
    var notamCorpus: String?

    @Option(help: "For --only commands: an earlier gatewayd build to run the same commands with, as the same-run baseline.")
    var baseline: String?

    @Option(help: "For --only commands: size of the generated traffic stream (--targets targets), MB.")
    var streamMegabytes: Int = 20

    @Option(help: "For --only commands: keep the generated stream at this path, or use the one already there (to run other builds on the same bytes).")
    var stream: String?

    @Option(help: "For --only commands: write the Stratux-shaped, message-dense and NEXRAD-heavy streams to this folder (stratux.gdl90, dense.gdl90, nexrad.978) and keep them, to profile the commands on them.")
    var keepStreams: String?

    @Option(help: "For --only commands: FIS-B captures (dump978 text or GDL90) to repeat for fisb --json (repeatable; default fixtures/fisb-sample.978).")
    var fisb: [String] = []

    @Option(help: "For --only commands: how many times the FIS-B captures are repeated.")
    var fisbCopies: Int = 2_000

    @Option(help: "For --only commands: also decode and replay a capture of this many GB and report peak memory (0: skip).")
    var gigabytes: Int = 0

    @Option(help: "Hours of flight recordings for --only logbook.")
    var logbookHours = 10

    @Option(help: "Simulated gateways for --only fleet (each a real publisher with its own database, through one mosquitto on loopback).")
    var fleetGateways = 50

    @Option(help: "Seconds of publishing for --only fleet (once for 1 gateway, the baseline, once for --fleet-gateways).")
    var fleetSeconds = 60

    @Option(help: "Run only these benchmarks (repeatable): codec, pipeline, loopback, feeds, airspace, notams, flood, hostile, commands, voice, logbook, patterns, formats, radar, fleet, notify, ogn (ogn: the OGN APRS examples decoded by the parser and by decode --json beside SBS text of the same bytes, and a child run --ogn following a loopback APRS-IS server at 100 lines/s for 30 s beside the same run idle, about 80 s, not in the default set; notify: NOTAM refresh to webhook delivery on loopback, the drain of 10,000 waiting notifications and the outbox's size on disk, under a minute, not in the default set; radar: assembling gridded FIS-B blocks and drawing whole-CONUS pictures, a few seconds; fleet: --fleet-gateways publishers of a 500-target picture a second and an alert event every 5 s through a real mosquitto, latency, CPU, memory and the drain after a 10-minute outage, about 3 minutes, not in the default set; of the others the last seven are not in the default set: 30 s at 50,000 datagrams/s; the daemon under a hostile neighbour, about 90 s; decode, replay and fisb as child processes on a --stream-megabytes stream, a few minutes; the spoken callouts' start-up CPU and datagram-to-ALSA latency, about 30 s; --logbook-hours of recordings into the logbook and each export of a 3 h flight, about a minute; every NOTAM text pattern on 1 to 64 kB runs of each character class, a table of size against time, under a minute; each capture format (pcap, dump978, Stratux's UAT, 1090ES and GPS logs, SBS text) read and decoded beside raw GDL90, --megabytes MB of each, under a minute).")
    var only: [String] = []

    func run() async throws {
        let known = ["codec", "pipeline", "loopback", "feeds", "airspace", "notams", "flood", "hostile", "commands", "voice", "logbook", "patterns", "formats", "radar", "fleet", "notify", "ogn"]
        if let bad = only.first(where: { !known.contains($0) }) {
            throw ValidationError("unknown benchmark '\(bad)'; choose from: \(known.joined(separator: ", "))")
        }
        func wanted(_ name: String) -> Bool {
            (only.isEmpty && !["flood", "hostile", "commands", "voice", "logbook", "patterns", "formats", "fleet", "notify", "ogn"].contains(name)) || only.contains(name)
        }
        #if DEBUG
        Terminal.error("warning: this is a debug build; measure with: swift run -c release gatewayd bench")
        #endif
        let rssBefore = Benchmarks.residentMB()
        if wanted("codec") { for r in Benchmarks.codec(megabytes: megabytes) { print(r.line) } }
        if wanted("pipeline") { for r in Benchmarks.pipeline(targets: targets, seconds: seconds) { print(r.line) } }
        if wanted("loopback") { for r in Benchmarks.loopback(targets: targets) { print(r.line) } }
        if wanted("feeds") { for r in Benchmarks.feeds(targets: targets) { print(r.line) } }
        if wanted("airspace") { for r in Benchmarks.airspace() { print(r.line) } }
        if wanted("notams") {
            do { for r in try Benchmarks.notamImport(count: notams, corpus: notamCorpus) { print(r.line) } } catch { throw CommandFailure("\(error)") }
        }
        if wanted("flood") {
            let report = try Benchmarks.flood(rate: floodRate, seconds: Double(floodSeconds))
            for line in report.lines { print(line) }
            if !report.countersAddUp || !report.scenarioAlerted { throw ExitCode(1) }
        }
        if wanted("hostile") {
            let report = try HostileBenchmark.run(executable: CommandLine.arguments[0])
            for line in report.lines { print("hostile: " + line) }
            let round2 = try HostileBenchmark.runRound2(executable: CommandLine.arguments[0]) { Terminal.error("hostile: \($0)…") }
            for line in round2.lines { print("hostile: " + line) }
            if !report.passed || !round2.passed { throw ExitCode(1) }
        }
        if wanted("commands") {
            let fisbFiles = fisb.isEmpty ? ["fixtures/fisb-sample.978"] : fisb
            do {
                let results = try CommandBenchmark.run(executable: CommandLine.arguments[0], baseline: baseline, megabytes: streamMegabytes,
                                                       targets: targets, fisb: fisbFiles, fisbCopies: fisbCopies, gigabytes: gigabytes, keepStream: stream,
                                                       keepStreams: keepStreams,
                                                       progress: { Terminal.error("commands: \($0)…") })
                for r in results { print("commands: " + r.line) }
            } catch { throw CommandFailure("\(error)") }
        }
        if wanted("logbook") {
            for r in Benchmarks.flightLength(progress: { Terminal.error("logbook: \($0)…") }) { print(r.line) }
            do { for r in try Benchmarks.logbook(hours: logbookHours, progress: { Terminal.error("logbook: \($0)…") }) { print(r.line) } } catch {
                throw CommandFailure("\(error)")
            }
        }
        if wanted("patterns") {
            let rows = PatternBenchmark.run()
            for r in rows { print(r.line) }
            if let worst = rows.max(by: { $0.ratio < $1.ratio }), let slowest = rows.max(by: { $0.seconds.last! < $1.seconds.last! }) {
                print("patterns: highest 64k/16k ratio ×\(JSONWriter.format(worst.ratio, decimals: 2)) (\(worst.pattern) on \(worst.text)); slowest at 64k \(PatternBenchmark.Row.milliseconds(slowest.seconds.last!)) ms (\(slowest.pattern) on \(slowest.text)); over budget: \(rows.filter(\.overBudget).count)")
            }
            let before = PatternBenchmark.before().map { "\($0.bytes >> 10)k \(PatternBenchmark.Row.milliseconds($0.seconds)) ms" }
            print("patterns: before issue 40 (no memo), range on 1FT spaces: " + before.joined(separator: ", "))
        }
        if wanted("radar") {
            Terminal.error("radar: assembling and drawing whole-CONUS composites, 5 rounds…")
            for r in RadarBenchmark.run() { print(r.line) }
            Terminal.error("weather: fetching a 300-station area from a loopback server into SQLite, 5 rounds…")
            do {
                for r in try await WeatherFetchBenchmark.run(progress: { Terminal.error("weather: \($0)") }) { print(r.line) }
            } catch { throw CommandFailure("\(error)") }
        }
        if wanted("fleet") {
            do {
                for r in try FleetBenchmark.run(gateways: fleetGateways, seconds: fleetSeconds, progress: { Terminal.error($0 + "…") }) { print(r.line) }
            } catch { throw CommandFailure("\(error)") }
        }
        if wanted("notify") {
            do {
                for r in try await NotifyBenchmark.run(progress: { Terminal.error($0 + "…") }) { print(r.line) }
            } catch { throw CommandFailure("\(error)") }
        }
        if wanted("ogn") {
            do {
                for r in try OGNBenchmark.run(executable: CommandLine.arguments[0], progress: { Terminal.error($0 + "…") }) { print(r.line) }
            } catch { throw CommandFailure("\(error)") }
        }
        if wanted("formats") {
            do {
                for r in try FormatBenchmark.run(megabytes: megabytes, progress: { Terminal.error("formats: \($0)…") }) { print(r.line) }
            } catch { throw CommandFailure("\(error)") }
        }
        if wanted("voice") {
            do { for r in try Benchmarks.voice() { print(r.line) } } catch { throw CommandFailure("\(error)") }
        }
        if let rss = Benchmarks.residentMB() {
            var what: [String] = []
            if let before = rssBefore { what.append("\(before.rounded()) MB at start") }
            if wanted("pipeline") || wanted("loopback") { what.append("\(targets) targets held") }
            if wanted("codec") { what.append("includes the \(megabytes) MB synthetic stream: run --only pipeline for the gateway alone") }
            print("resident memory: \(rss.rounded()) MB (\(what.joined(separator: "; ")))")
        }
    }
}
