#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ArgumentParser
import GatewaySupport
import GatewayRecords
import GatewayFeeds

/// `gatewayd flights`: the automatic logbook (issue 23).
struct FlightsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flights",
        abstract: "The logbook: flights kept by run and replay, debriefs and exports.",
        discussion: """
            'run' keeps a logbook by itself: a flight begins at takeoff (40 kt for 3 s, or a sustained climb) and ends when ownship has landed (below 30 kt for 20 s) and stood still for two minutes, so a touch-and-go or a go-around stays in one flight. Each flight keeps its 1 s track, its alerts, the closest approach of every target within 2 NM and the airspace entered or nearly entered, in the gateway's SQLite database. Old recordings are turned into flights with 'flights import'.

            Examples:
              gatewayd flights import REC/
              gatewayd flights import fixtures/scenarios/two-flights.pcap
              gatewayd flights list
              gatewayd flights show 1
              gatewayd flights export 1 --format kml -o flight.kml
              gatewayd flights export 1 --format igc > flight.igc
              gatewayd flights delete 1
            """,
        subcommands: [FlightsList.self, FlightsShow.self, FlightsExport.self, FlightsImport.self, FlightsDelete.self]
    )
}

/// Options every flights subcommand shares.
struct FlightsDatabaseOption: ParsableArguments {
    @Option(help: "SQLite database (default: $XDG_DATA_HOME/gatewayd/gateway.sqlite).")
    var database: String?

    /// The logbook; `readOnly` for commands that only read (they work on a read-only card too).
    func store(readOnly: Bool = false) throws -> LogbookStore {
        let path = database ?? GatewayDatabase.defaultPath()
        do { return LogbookStore(database: try readOnly ? GatewayDatabase(readingOnly: path) : GatewayDatabase(path: path)) } catch {
            throw CommandFailure("\(error)")
        }
    }

    func flight(_ id: Int64) throws -> LoggedFlight {
        let store = try store(readOnly: true)
        do {
            guard let f = try store.flight(id) else {
                throw CommandFailure("no flight \(id) in \(store.database.path) ('gatewayd flights list' shows the numbers)")
            }
            return f
        } catch let e as CommandFailure { throw e } catch { throw CommandFailure("\(error)") }
    }
}

/// `gatewayd flights list`.
struct FlightsList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the flights kept, oldest first.",
        discussion: """
            One line a flight: its number (for show, export, delete), date, takeoff and landing (UTC), route, time in the air, distance (NM), highest altitude (ft), alerts and the closest approach. A ground station's database (gatewayd fleet) leads each line with the gateway that flew it.

            Examples:
              gatewayd flights list
              gatewayd flights list --json | jq '.[] | select(.alerts > 0)'
            """)

    @OptionGroup var options: FlightsDatabaseOption

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    func run() throws {
        let flights: [LogbookStore.Summary]
        do { flights = try options.store(readOnly: true).list() } catch let e as CommandFailure { throw e } catch { throw CommandFailure("\(error)") }
        if json {
            Terminal.out([LogbookJSON.list(flights)])
            return
        }
        if flights.isEmpty {
            Terminal.error("no flights kept yet: 'run' keeps them as you fly; 'gatewayd flights import REC/' builds them from recordings")
            return
        }
        // Callsigns and airport names come from the air: their control characters are shown, never sent.
        // A ground station's club logbook: each line led by the gateway that flew it.
        if flights.contains(where: { $0.gateway != nil }) {
            let width = max(7, flights.map { ($0.gateway ?? "").count }.max() ?? 0)
            func pad(_ s: String) -> String { s + String(repeating: " ", count: max(0, width - s.count)) + "  " }
            Terminal.out(([pad("gateway") + LogbookText.listHeader] + flights.map { pad($0.gateway ?? "-") + LogbookText.listLine($0) }).map(\.escapingControlCharacters))
            return
        }
        Terminal.out(([LogbookText.listHeader] + flights.map(LogbookText.listLine)).map(\.escapingControlCharacters))
    }
}

/// `gatewayd flights show N`.
struct FlightsShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print the debrief of one flight.",
        discussion: """
            Route and times (off blocks, takeoff, landing, on blocks), distance, highest altitude and speed; every target that came within 2 NM, closest first, with its range and vertical distance; the alerts raised; the airspace entered or nearly entered.

            Example:
              gatewayd flights show 3
            """)

    @OptionGroup var options: FlightsDatabaseOption

    @Argument(help: "The flight's number (from 'gatewayd flights list').")
    var number: Int64

    func run() throws {
        // Broadcast callsigns may hold ESC and other control characters: shown escaped, as replay does.
        Terminal.out(LogbookText.debrief(try options.flight(number)).map(\.escapingControlCharacters))
    }
}

/// `gatewayd flights export N --format F`.
struct FlightsExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write one flight as KML, GPX, IGC, GeoJSON or CSV.",
        usage: "gatewayd flights export <number> --format <format> [<options>]",
        discussion: """
            kml      Google Earth, CloudAhoy: the track as an absolute-altitude 3D line with times, alerts and closest approaches as placemarks, each encounter's target track for its minute.
            gpx      GPX 1.1: the track with time and elevation; waypoints for alerts and closest approaches.
            igc      the FAI flight recorder format: 1 Hz B records with pressure and GNSS altitude. Unsigned (no G record): not valid for badges.
            geojson  QGIS, Leaflet: the track as a LineString, alerts and encounters as points.
            csv      one line a second: time, position, both altitudes, speed, track.

            Examples:
              gatewayd flights export 3 --format kml -o flight.kml
              gatewayd flights export 3 --format gpx > flight.gpx
            """)

    @OptionGroup var options: FlightsDatabaseOption

    @Argument(help: "The flight's number (from 'gatewayd flights list').")
    var number: Int64

    @Option(help: "kml, gpx, igc, geojson or csv.")
    var format: FlightExport

    @Option(name: [.short, .customLong("output")], help: "File to write (default, or -: standard output). An existing file is replaced whole (a power cut leaves the old or the new); a link is refused.")
    var output: String?

    func run() throws {
        let bytes = format.render(try options.flight(number))
        if let output, output != "-" {
            // Never through a link, never replacing a device; a full disk is said as such.
            do { try FileOutput.write(bytes, to: output) } catch { throw CommandFailure("\(error)") }
            Terminal.error("wrote \(output) (\(bytes.count) bytes)")
        } else {
            var buffer = OutputBuffer(capacity: bytes.count + 1)
            buffer.append(contentsOf: bytes)
            Terminal.out(&buffer)
        }
    }
}

extension FlightExport: ExpressibleByArgument {}

/// `gatewayd flights import …`.
struct FlightsImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Build the logbook from recordings and captures.",
        usage: "gatewayd flights import [<options>] <capture> ...",
        discussion: """
            Each argument is a capture (pcap, pcapng, raw GDL90, dump978 text, a Stratux replay log), a recording folder ('run --record REC'), a recorded hour's stem, a folder of Stratux replay logs (/var/log/stratux: each start's UAT, 1090ES and GPS logs on one clock) or one start's stem (DIR/0007). The captures are read in the order of their first timestamp, each once, through the pipeline 'run' uses, so the flights are the ones 'run' would have kept. Importing the same recordings again adds no flight twice. A damaged capture is read up to the damage and named. An OGN APRS text log (one beacon a line, as 'decode' reads it) given beside the captures, or in their folder, adds its gliders to the flights' traffic: their alerts and closest approaches.

            Examples:
              gatewayd flights import REC/
              gatewayd flights import REC/gdl90-2026-05-16-14 REC/gdl90-2026-05-16-15
              gatewayd flights import old/*.pcap --database /var/lib/gatewayd/gateway.sqlite
            """)

    @OptionGroup var options: FlightsDatabaseOption

    @Argument(help: ArgumentHelp("Captures, recording folders or recorded hours' stems.", valueName: "capture"))
    var files: [String]

    @Option(help: "UDP destination port to extract from pcap/pcapng captures.")
    var port: UInt16 = 4000

    @Option(help: "UTC date (YYYY-MM-DD) of raw GDL90 streams, which carry only the time of day.")
    var date: String?

    @Option(help: "Airport table (default: airports.bin beside gatewayd, else the repository's data/airports.bin).")
    var airports: String?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func run() throws {
        let store = try options.store()
        let table: AirportTable?
        if let airports {
            do { table = try AirportTable(path: airports) } catch { throw CommandFailure("\(error)") }
        } else {
            table = AirportTable.located()
            if table == nil && !quiet { Terminal.error("note: " + AirportTable.notFound() + ", or give --airports PATH") }
        }
        var logbook = Logbook(store: store, airports: table, source: files.first ?? "")
        let quiet = self.quiet
        let report: FlightImport.Report
        do {
            report = try FlightImport.run(files, into: &logbook, port: port, date: date) { line in if !quiet { Terminal.error(line) } }
        } catch { throw CommandFailure("\(error)") }
        for d in report.damaged { Terminal.error("warning: \(d)") }
        let added = report.flights.filter { if case .added? = $0.1 { true } else { false } }.count
        let replaced = report.flights.filter { if case .replaced? = $0.1 { true } else { false } }.count
        if !quiet {
            var summary = "imported \(report.captures) capture(s), \(report.datagrams) datagrams: \(report.flights.count) flight(s), \(added) new"
            if replaced > 0 { summary += ", \(replaced) replaced by a longer recording" }
            if report.flights.count - added - replaced > 0 { summary += ", \(report.flights.count - added - replaced) already kept" }
            if report.overlapping > 0 { summary += "; \(report.overlapping) datagrams older than the ones before skipped (overlapping recordings)" }
            if report.outOfLine > 0 { summary += "; \(report.outOfLine) datagram(s) with a time out of line with the ones around them skipped" }
            if !report.skipped.isEmpty { summary += "; \(report.skipped.count) file(s) skipped, not captures (named above)" }
            if report.clockSteps > 0 { summary += "; the capture's clock stepped \(report.clockSteps) time(s) (followed; a step back ends the flight there)" }
            Terminal.error(summary)
        }
        if !report.damaged.isEmpty && report.captures == 0 { throw ExitCode(1) }
    }
}

/// `gatewayd flights delete N`.
struct FlightsDelete: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete one flight from the logbook.",
        discussion: """
            The flight, its track, alerts, encounters and airspace are deleted. Recordings are not touched: 'flights import' brings it back.

            Example:
              gatewayd flights delete 3
            """)

    @OptionGroup var options: FlightsDatabaseOption

    @Argument(help: "The flight's number (from 'gatewayd flights list').")
    var number: Int64

    func run() throws {
        let store = try options.store()
        let deleted: Bool
        do { deleted = try store.delete(number) } catch { throw CommandFailure("\(error)") }
        guard deleted else { throw CommandFailure("no flight \(number) in \(store.database.path) ('gatewayd flights list' shows the numbers)") }
        Terminal.error("deleted flight \(number)")
    }
}
