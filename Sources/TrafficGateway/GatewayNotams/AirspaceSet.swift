import GatewaySupport
import GatewayRecords
import GatewayDomain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GDL90

/// The areas the airspace alerts watch, assembled the same way by `run`, `replay` and the
/// tests: GeoJSON airspace files, then NOTAM files (`--notams`), then the NOTAMs stored in the
/// database (what `notams fetch`/`import` and FIS-B put there). One merge rule: the first area
/// with an id wins, so a file given on the command line overrides the stored copy of the same
/// NOTAM, and a NOTAM in both a file and the store alerts once. NOTAM areas take their kind's
/// levels from `levels` (`[alerts] level_<kind>`).
package enum AirspaceSet {
    /// The merged areas. `activeAt`: only stored NOTAMs in force then (nil: every stored NOTAM
    /// not cancelled; the alert engine still honours each area's activity window). `near`:
    /// only stored areas within `radiusNM` of it (the R*Tree).
    package static func load(database: GatewayDatabase?, notamFiles: [String] = [], airspaceFiles: [String] = [],
                            activeAt: Double? = nil, near: Position? = nil, radiusNM: Double = 150,
                            levels: AirspaceLevelTable = AirspaceLevelTable()) throws(GatewayError) -> [AirspaceArea] {
        var areas: [AirspaceArea] = []
        for path in airspaceFiles {
            areas += try AirspaceFile.read(path: path).map { a in
                var area = a
                if let kind = a.kind { area.levels = levels[kind] }
                return area
            }
        }
        for path in notamFiles {
            var notams: [Notam] = []
            try NotamFile.read(path: path) { notams.append($0) }
            areas += notams.flatMap { $0.airspaceAreas(levels: levels) }
        }
        if let database {
            let store = NotamStore(database: database)
            areas += try store.areas(activeAt: activeAt, near: near, radiusNM: radiusNM, levels: levels)
        }
        return withGroundElevation(merge(areas), airports: AirportTable.shared)
    }

    /// `areas` with the ground elevation of each one with an AGL limit: the field elevation of
    /// the airport nearest its centre within `withinNM` (issue 23: NOTAM limits are often AGL).
    package static func withGroundElevation(_ areas: [AirspaceArea], airports: AirportTable?, withinNM: Double = 10) -> [AirspaceArea] {
        guard let airports else { return areas }
        return areas.map { a in
            guard a.floorIsAGL || a.ceilingIsAGL, a.groundElevationFt == nil else { return a }
            let ring = a.outline(segments: 16)
            guard !ring.isEmpty else { return a }
            let centre = Position(latitude: ring.map(\.latitude).reduce(0, +) / Double(ring.count),
                                  longitude: ring.map(\.longitude).reduce(0, +) / Double(ring.count))
            var area = a
            area.groundElevationFt = airports.nearest(to: centre, withinNM: withinNM)?.airport.elevationFt
            return area
        }
    }

    /// The merge rule: the first area with an id wins; order otherwise kept.
    package static func merge(_ areas: [AirspaceArea]) -> [AirspaceArea] {
        var seen = Set<String>()
        return areas.filter { seen.insert($0.id).inserted }
    }
}

/// A NOTAM file in the FAA NOTAM API's JSON shape (`{"items": [Feature…]}`), read as a stream:
/// one feature at a time is decoded, so a file of tens of thousands of NOTAMs never sits in
/// memory as one JSON tree.
package enum NotamFile {
    /// The largest NOTAM (one item of the file) read.
    package static let maximumItemBytes = 16 << 20

    /// Calls `body` with each NOTAM of `path` (source `file`); throws when the file cannot be
    /// read, is not the API's shape, or holds no NOTAM.
    package static func read(path: String, _ body: (Notam) throws(GatewayError) -> Void) throws(GatewayError) {
        guard let file = OpenFile.reading(path) else {
            throw GatewayError.unreadable(what: "NOTAM file", path: path)
        }
        try read(name: path, chunks: { Data(file.read(upTo: 1 << 20)) }, body)
    }

    /// Checks `path` as `read` would, without parsing the NOTAMs' texts (cheap: what `run`
    /// does at start, before reading the file off the start path): the same errors for a file
    /// that cannot be read, is not the API's shape, or holds no NOTAM.
    package static func check(path: String) throws(GatewayError) {
        guard let file = OpenFile.reading(path) else {
            throw GatewayError.unreadable(what: "NOTAM file", path: path)
        }
        try read(name: path, chunks: { Data(file.read(upTo: 1 << 20)) }, parse: false) { _ throws(GatewayError) in }
    }

    /// The same over a file's contents in memory (`name` in errors): the fuzz target's way in.
    package static func parse(_ bytes: [UInt8], name: String, _ body: (Notam) throws(GatewayError) -> Void) throws(GatewayError) {
        var given = false
        try read(name: name, chunks: {
            defer { given = true }
            return given ? Data() : Data(bytes)
        }, body)
    }

    /// Splits the file's items and hands each NOTAM to `body`; without `parse`, only counts
    /// those with a text (`body` is not called).
    private static func read(name path: String, chunks next: () -> Data, parse: Bool = true, _ body: (Notam) throws(GatewayError) -> Void) throws(GatewayError) {
        var splitter = JSONItemSplitter(arrayKey: "items")
        var count = 0
        var failure: GatewayError?
        while failure == nil {
            let chunk = next()
            if chunk.isEmpty { break }
            do {
                try splitter.feed(chunk) { bytes, at throws(GatewayError) in
                    // A real feature is well under a megabyte; parsing one of 42 MB took 827 MB.
                    guard bytes.count <= maximumItemBytes else {
                        throw GatewayError.content(place: path, reason: "item \(count + 1) of \"items\" is \(bytes.count >> 20) MB, over the \(maximumItemBytes >> 20) MB a NOTAM may take: refused")
                    }
                    let object: [String: Any]
                    do throws(JSONReader.Failure) {
                        guard let o = try JSONReader.value(bytes) as? [String: Any] else {
                            throw JSONReader.Failure(offset: 0, reason: "not a JSON object")
                        }
                        object = o
                    } catch {
                        throw GatewayError.content(place: path, reason: "item \(count + 1) of \"items\" (at byte \(at)) is not a NOTAM: at byte \(at + error.offset): \(error.reason); nothing imported")
                    }
                    guard parse else {
                        if FAANotamAPI.texts(object) != nil { count += 1 }
                        return
                    }
                    guard var n = FAANotamAPI.notam(object) else { return }
                    n.source = "file"
                    count += 1
                    try body(n)
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        guard splitter.sawArray else {
            throw GatewayError.content(place: path, reason: "no \"items\" array (expected the FAA NOTAM API's JSON: {\"items\": [GeoJSON Feature…]})")
        }
        guard splitter.finished else {
            throw GatewayError.content(place: path, reason: "the file is cut short: its \"items\" array does not end (\(count) NOTAM(s) read before byte \(splitter.offset)); nothing imported")
        }
        guard !splitter.repeated else {
            throw GatewayError.content(place: path, reason: "the file has \"items\" twice at the top level: which list is meant cannot be told; nothing imported")
        }
        guard count > 0 else { throw GatewayError.content(place: path, reason: "no NOTAMs in it") }
    }

    /// Every NOTAM of `path`.
    package static func read(path: String) throws(GatewayError) -> [Notam] {
        var out: [Notam] = []
        try read(path: path) { out.append($0) }
        return out
    }
}
