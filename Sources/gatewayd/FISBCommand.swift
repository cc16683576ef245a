import ArgumentParser
import GDL90
import GatewaySupport
import GatewayDomain
import GatewayCaptures
import GatewayWeather
import GatewaySimulation

/// `gatewayd fisb`: FIS-B products (weather, NOTAMs, TFR areas) decoded from captures.
struct FISBCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fisb",
        abstract: "Decode FIS-B uplinks (message 0x07) of captures into products, each printed once complete.",
        usage: "gatewayd fisb [<options>] <files> ...\ngatewayd fisb --sample | --bench [--uplinks <uplinks>]",
        discussion: """
            Reads pcap, pcapng, raw GDL90, dump978 text (+HEX;…;t=…; lines; lines without t= are dated from the products, said in a note) and Stratux UAT replay logs. Products are printed when complete and again whenever they change (a TFR's areas arriving after its text, a newer METAR). Malformed frames are skipped and counted; a summary goes to stderr.

            Examples:
              gatewayd fisb fixtures/fisb-sample.978
              gatewayd fisb --json fixtures/fisb-sample.978 \\
                | jq 'select(.kind=="NOTAM") | .geometry'
              gatewayd fisb --radar /tmp/radar fixtures/fisb-sample.978 >/dev/null
                (then /tmp/radar/nexrad-regional.png with its .pgw world file opens
                 georeferenced in QGIS; gdalinfo /tmp/radar/nexrad-regional.png)
              swift run -c release gatewayd fisb --bench

            --radar DIR writes, for each gridded product present (NEXRAD regional and CONUS, lightning, cloud tops, icing and turbulence at each altitude), its latest complete composite as DIR/<kind>.png (8-bit indexed, no echo transparent), DIR/<kind>.pgw (ESRI world file, WGS 84 degrees) and DIR/<kind>.json (time, bounds, levels). <kind> is nexrad-regional, nexrad-conus, lightning, cloud-tops, icing-NNNNN or turbulence-NNNNN (feet, 5 digits).
            """
    )

    @Argument(help: "Capture files: pcap, pcapng, dump978 text, raw GDL90, or a Stratux UAT replay log (NNNN-uat.log); a folder is every capture in it, in time order.")
    var files: [String] = []

    @Flag(help: "JSON Lines output.")
    var json = false

    @Option(name: .customLong("radar"), help: ArgumentHelp("Write the latest complete composite of each gridded product into this folder (created if missing) as <kind>.png, .pgw and .json.", valueName: "dir"))
    var radarFolder: String?

    @Option(help: "UDP destination port to extract from pcap/pcapng captures.")
    var port: UInt16 = 4000

    @Option(help: ArgumentHelp("UTC date (YYYY-MM-DD) of raw GDL90 streams, which carry only the time of day. Without it the date comes from the FIS-B products' own dates, else the file's modification time (said in a note)."))
    var date: String?

    @Flag(help: "Measure decode throughput (uplinks/s) beside a copy+CRC baseline, then exit.")
    var bench = false

    @Option(help: "Synthetic uplinks for --bench.")
    var uplinks: Int = 200_000

    @Flag(help: "Print the synthetic sample capture (dump978 text) that fixtures/fisb-sample.978 holds, then exit.")
    var sample = false

    func validate() throws {
        if !bench && !sample && files.isEmpty { throw ValidationError("give at least one capture file (or --bench, --sample)") }
        // An empty folder name is no folder (it wrote the pictures into "/").
        if let radarFolder, radarFolder.allSatisfy({ $0 == " " }) { throw ValidationError("--radar needs a folder name (it is created if missing)") }
    }

    func run() throws {
        if sample {
            print(FISBSamples.dump978(), terminator: "")
            return
        }
        if bench {
            #if DEBUG
            Terminal.error("warning: this is a debug build; measure with: swift run -c release gatewayd fisb --bench")
            #endif
            for r in FISBBenchmark.run(uplinks: uplinks) { print(r.line) }
            return
        }
        var radar = RadarAssembler()
        for path in try expandCaptures(files) {
            var stream = try openCapture(path, port: port)
            let midnight = try rawCaptureMidnight(date, &stream)
            // Read (dump978 lines framed), deframed and decoded ahead on a second thread.
            let capture = PrefetchingCapture(stream, decoding: FrameDecoder(readingFISB: true))
            // The one replay driver, as `replay` uses it: raw streams timed by their heartbeats.
            // A file is decoded whole: no product is dropped for its age (a file's clock may be off).
            var configuration = GatewayCore.Configuration()
            configuration.keepsStaleFISBProducts = true
            var replay = CaptureReplay(pipeline: GatewayPipeline(core: GatewayCore(configuration: configuration),
                                                                 timeSource: capture.format == .raw ? .heartbeat(midnight: midnight) : .given,
                                                                 outputs: .init(fisb: true, grids: radarFolder != nil)))
            var out = OutputBuffer(capacity: 1 << 19)
            let json = self.json
            func print(_ reports: [FISBReport]) {
                for r in reports {
                    out.append(json ? FISBFormatter.json(r) : FISBFormatter.text(r))
                    out.append(byte: 0x0A)
                }
                if out.count >= 1 << 18 { Terminal.out(&out) }
            }
            while let d = capture.next() {
                let out = replay.process(d.datagram, decoded: d.decoded)
                print(out.fisbProducts)
                if !out.gridBlocks.isEmpty { radar.add(out.gridBlocks) }
            }
            var decoder = capture.decoder ?? FrameDecoder()
            let last = replay.finish(.products, decoded: decoder.finish())
            print(last.fisbProducts)
            radar.add(last.gridBlocks)
            Terminal.out(&out)
            let core = replay.pipeline.core
            let counts = "\(core.counters.messageCounts[Message.typeNames.firstIndex(of: "uplink")!]) uplink messages, \(core.counters.errors) rejected frames"
            Terminal.error("\(path): \(counts); \(core.fisb.counters.summary)")
            for e in core.fisb.lastErrors.suffix(5) { Terminal.error("  skipped: \(e)") }
            if let damage = capture.error { Terminal.error("warning: \(damage)") }
        }
        if let radarFolder { try writeRadar(radar, into: radarFolder) }
    }

    /// Writes the latest complete composite of each kind; says what was written, and why a kind was not.
    private func writeRadar(_ radar: RadarAssembler, into folder: String) throws {
        Terminal.error("radar: \(radar.counters.summary); held at the end: \(radar.blocksHeld) blocks in \(radar.compositeCount) composites, \(JSONWriter.format(Double(radar.storageBytes) / 1_048_576, decimals: 2)) MB")
        if radar.kinds.isEmpty { Terminal.error("radar: no gridded products in the captures: nothing written to \(folder)") }
        for kind in radar.kinds {
            guard let composite = radar.latest(kind) else { continue }
            do {
                let image = try RadarImage(composite)
                let paths = try RadarFiles.write(image, into: folder)
                Terminal.error("radar: \(paths[0]) \(image.width)×\(image.height), \(image.blocks) blocks and \(image.emptyBlocks) empty, \(kind.isObservation ? "observed" : "valid") \(Timestamp.iso8601(image.time)) (\(radar.loop(kind).count) complete composites in the last 30 minutes)")
            } catch let failure as RadarImage.Failure {
                Terminal.error("radar: \(kind.name) not drawn: \(failure)")
            }
        }
    }
}
