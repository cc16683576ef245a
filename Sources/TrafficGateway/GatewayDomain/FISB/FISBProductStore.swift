import GatewaySupport
import GDL90

/// The current FIS-B picture: the latest version of every product, keyed by product, location
/// and report identity. Pure and deterministic: time comes in with each uplink.
///
/// - TWGO text and graphic records are matched by report number (products 18 and 19 share one
///   key space, so TFR text in one and its areas in the other meet); segmented APDUs are
///   reassembled first (TFR texts arrive in 2–6 segments).
/// - An empty text record is a "still active" refresh: the earlier text is kept.
/// - A cancelled text record or a graphic record with status "cancelled" removes the report.
/// - Reports expire at their own end time (NOTAM validity group, graphic stop times, TAF valid
///   period, METAR/PIREP/winds lifetimes); products without one expire `refreshTimeout`
///   seconds after they were last received.
/// - A report is returned by `ingest` when it is complete (text present; graphics present too
///   when a current report list says the report has them) and differs from what was returned
///   for its key before.
package struct FISBProductStore: Sendable {
    /// Reports by key.
    package private(set) var reports: [String: FISBReport] = [:]
    /// Counters.
    package private(set) var counters = FISBCounters()
    /// The most recent skipped-part errors (at most 32).
    package private(set) var lastErrors: [FISBError] = []
    /// Seconds a product without its own end time stays after its last reception.
    package var refreshTimeout: Double
    /// A product already past its validity when it arrives is counted (`counters.stale`) and,
    /// unless this is set, not shown. Decoding a file sets it: a file's clock may be days off.
    package var keepsStaleOnArrival = false

    private var reassembler = APDUReassembler()
    private var lists: [String: CurrentReportList] = [:]
    private var returned: [String: FISBReport.Content] = [:]
    private var nextExpiry = Double.infinity
    private var grids: [GridKey: GridComposite] = [:]
    private var lastStation: (latitude: Double, longitude: Double, key: String)?
    /// Blocks of the last finished composite of each product and level: the next one's table is
    /// made that large at once (a NEXRAD composite has thousands of blocks).
    private var lastGridSizes: [GridKey: Int] = [:]

    /// A composite's identity: product ID and level (icing, turbulence). A value, not the
    /// string `63/-` it is named by, so that finding a block's composite builds no string.
    private struct GridKey: Hashable {
        var productID: Int
        var altitudeFt: Int?

        /// `productID/altitude`, or `productID/-`: the report key's tail and the flush order.
        var name: String { "\(productID)/\(altitudeFt.map(String.init) ?? "-")" }
    }

    /// The blocks of one gridded product (one product ID and level, one product time) so far.
    private struct GridComposite {
        var productID: Int
        var altitudeFt: Int?
        var time: Double?
        var received: Double
        var blocks: [Int: GriddedBlock] = [:]
        var empty: Set<Int> = []
        var north = -90.0, south = 90.0, west = 180.0, east = -180.0
    }

    /// What the store holds at most, whatever is uplinked (a neighbour on the Wi-Fi can send
    /// FIS-B too): past them the reports received longest ago are dropped, and counted.
    package struct Limits: Sendable {
        /// Reports held.
        package var reports = 8_000
        /// Bytes of text and grid bins held (about what they take in memory).
        package var bytes = 8 << 20
        /// Characters of one report's text (a 440-byte uplink of DLAC tab codes expands to 16 kB).
        package var textCharacters = 4_096
        /// Gridded products being assembled at once (real streams: a few dozen product/level pairs).
        package var composites = 64
        /// Blocks (with bins) and empty-block marks held by the composites being assembled.
        package var compositeBlocks = 40_000
        /// The defaults.
        package init() {}
    }

    /// The limits in force.
    package var limits = Limits()
    /// Bytes held (see `Limits.bytes`), kept as reports are put and removed.
    package private(set) var bytesHeld = 0
    private var compositeBlocksHeld = 0

    /// Keep every gridded block heard for `drainGridBlocks()` (the radar pictures, assembled
    /// elsewhere).
    package var collectsGridBlocks = false
    private var collectedBlocks: [GridBlockReceipt] = []

    /// Creates an empty store.
    package init(refreshTimeout: Double = 3600) { self.refreshTimeout = refreshTimeout }

    /// The gridded blocks heard since the last call (with `collectsGridBlocks`), in arrival order.
    package mutating func drainGridBlocks() -> [GridBlockReceipt] {
        defer { collectedBlocks.removeAll(keepingCapacity: true) }
        return collectedBlocks
    }

    // MARK: Bounds

    private mutating func put(_ report: FISBReport, at key: String) {
        var r = report
        if r.text.utf8.count > limits.textCharacters {
            r.text = String(r.text.prefix(limits.textCharacters))
            counters.truncated += 1
        }
        bytesHeld += r.storageBytes - (reports.updateValue(r, forKey: key)?.storageBytes ?? 0)
    }

    @discardableResult
    private mutating func remove(_ key: String) -> Bool {
        guard let old = reports.removeValue(forKey: key) else { return false }
        bytesHeld -= old.storageBytes
        return true
    }

    /// Over a limit: the reports received longest ago go, down to nine tenths of it (so a flood
    /// pays for one sort per tenth of the store, not one per uplink).
    private mutating func enforceLimits() {
        guard reports.count > limits.reports || bytesHeld > limits.bytes else { return }
        let keepCount = limits.reports * 9 / 10, keepBytes = limits.bytes / 10 * 9
        var ages: [(key: String, received: Double)] = []
        ages.reserveCapacity(reports.count)
        for (key, r) in reports { ages.append((key, r.received)) }
        ages.sort { a, b in a.received != b.received ? a.received < b.received : a.key < b.key }
        for (key, _) in ages {
            guard reports.count > keepCount || bytesHeld > keepBytes else { break }
            remove(key)
            returned[key] = nil
            counters.dropped += 1
        }
    }

    // MARK: Ingest

    /// Reads uplink payloads, keeping the products prepared from APDU bytes.
    private var reader = FISBUplinkReader()
    /// Keep prepared products by their APDU bytes and reuse them (on by default; off, every
    /// APDU is decoded on every reception: the same reports, only slower).
    var reusesDecodedProducts: Bool {
        get { reader.reusesDecodedProducts }
        set { reader.reusesDecodedProducts = newValue }
    }
    /// Receptions of an APDU whose prepared product came from the cache, and APDUs decoded and kept.
    var productCacheCounts: (reused: Int, kept: Int) { (reader.cache.hits, reader.cache.misses) }

    /// Decodes and ingests one 432-byte uplink payload received at `time`. Empty uplinks return
    /// at once. Reads the payload as `FISBUplink(payload:)` does, but an APDU frame whose bytes
    /// were seen before is not decoded again.
    package mutating func ingest(payload: [UInt8], at time: Double) -> [FISBReport] {
        ingest(reader.read(payload), at: time)
    }

    /// Ingests an uplink payload read ahead (by a `FISBUplinkReader` that has read every uplink
    /// before it, on another thread): the same as `ingest(payload:at:)` of its payload.
    package mutating func ingest(_ read: FISBReadUplink, at time: Double) -> [FISBReport] {
        let header: UATUplinkHeader
        let frames: [FISBReadUplink.Frame]
        switch read.outcome {
        case .empty:
            counters.uplinks += 1
            counters.emptyUplinks += 1
            if time >= nextExpiry { expire(at: time) }
            return []
        case .bad(let error):
            counters.uplinks += 1
            counters.badUplinks += 1
            note(error)
            return []
        case .read(let h, let f, let errors):
            header = h
            frames = f
            counters.uplinks += 1
            if frames.isEmpty && errors.isEmpty { counters.emptyUplinks += 1 }
            for e in errors { note(e) }
        }
        var touched: [String] = []
        for frame in frames {
            counters.frames += 1
            switch frame {
            case .prepared(let product):
                // A whole APDU: nothing to reassemble.
                apply(product, at: time, touched: &touched)
            case .frame(let frame):
                handle(frame, header: header, at: time, touched: &touched)
            }
        }
        return finishUplink(header, touched: touched, at: time)
    }

    /// Ingests a decoded uplink received at `time`; returns reports that became complete or changed.
    package mutating func ingest(_ uplink: FISBUplink, at time: Double) -> [FISBReport] {
        counters.uplinks += 1
        if uplink.frames.isEmpty && uplink.errors.isEmpty { counters.emptyUplinks += 1 }
        for e in uplink.errors { note(e) }
        var touched: [String] = []
        for frame in uplink.frames {
            counters.frames += 1
            handle(frame, header: uplink.header, at: time, touched: &touched)
        }
        return finishUplink(uplink.header, touched: touched, at: time)
    }

    /// One information frame.
    private mutating func handle(_ frame: InformationFrame, header: UATUplinkHeader, at time: Double, touched: inout [String]) {
        switch frame {
        case .apdu(let apdu):
            handle(apdu, at: time, touched: &touched)
        case .currentReportList(let list):
            let key = "CRL/\(stationKey(header))/\(list.productID)"
            lists["\(list.productID)"] = list
            var r = FISBReport(key: key, productID: list.productID, kind: .crl, location: list.location, received: time,
                               expires: time + refreshTimeout)
            r.extra = [
                ("rangeNM", String(list.rangeNM)), ("tfr", list.isTFR ? "true" : "false"),
                ("reports", JSONWriter.array(list.entries.map { e in
                    var s = ""
                    JSONWriter.appendQuoted("\(e.yearOrMonth)/\(e.reportNumber)\(e.hasText ? " T" : "")\(e.hasGraphics ? " G" : "")", to: &s)
                    return s
                })),
            ]
            put(r, at: key)
            touched.append(key)
            // A list may complete reports waiting for graphics it no longer lists.
            touched += reports.keys.filter { $0.hasPrefix("\(Self.family(list.productID))/") }
        case .serviceStatus(let status):
            let key = "SERVICE-STATUS/\(stationKey(header))"
            var r = FISBReport(key: key, productID: 15, kind: .serviceStatus, received: time, expires: time + 40)
            r.extra = [("aircraft", String(status.entries.count))]
            put(r, at: key)
            touched.append(key)
        case .other:
            break
        }
    }

    /// The reports an uplink touched, station noted: those complete and changed are returned.
    private mutating func finishUplink(_ header: UATUplinkHeader, touched: [String], at time: Double) -> [FISBReport] {
        var out: [FISBReport] = []
        // Most uplinks touch a handful of keys: a linear look for repeats, a set past a dozen.
        var seen = Set<String>()
        let station = [header.longitude, header.latitude]
        for (n, key) in touched.enumerated() {
            if touched.count <= 12 {
                if touched[..<n].contains(key) { continue }
            } else if !seen.insert(key).inserted {
                continue
            }
            guard let i = reports.index(forKey: key) else { continue }
            if header.positionValid || reports.values[i].station == nil { reports.values[i].station = station }
            // Read where it lies: a copy of the report (a dozen references retained and released),
            // of its content and of the store per key touched were a fifth of this loop's time.
            let expires = reports.values[i].expires
            if expires < time {
                // Stale on arrival (a queued uplink, an old product): not shown live; a file being
                // decoded keeps it, counted once.
                if !keepsStaleOnArrival {
                    counters.stale += 1
                    remove(key)
                    returned[key] = nil
                    continue
                }
                if returned[key] == nil { counters.stale += 1 }
            }
            // (Each key still held after the loop counts: only the stale one above is removed.)
            nextExpiry = Swift.min(nextExpiry, expires)
            if Self.noteIfNew(&reports.values[i], key: key, lists: lists, returned: &returned) { out.append(reports.values[i]) }
        }
        if time >= nextExpiry { expire(at: time) }
        enforceLimits()
        return out
    }

    private mutating func handle(_ apdu: APDU, at time: Double, touched: inout [String]) {
        if apdu.segment != nil { counters.segments += 1 }
        let whole: APDU
        do {
            guard let w = try reassembler.add(apdu) else { return }
            whole = w
        } catch {
            note(error)
            return
        }
        var product: FISBPreparedProduct
        if apdu.segment != nil {
            counters.reassembled += 1
            // A reassembled product is known by its bytes as one unsegmented APDU.
            if reusesDecodedProducts && FISBUplinkReader.isKept(whole.productID) {
                let encoded = whole.encode()
                if let known = reader.cache.product(for: encoded[...]) {
                    product = known
                } else {
                    product = FISBPreparedProduct(whole)
                    reader.cache.insert(product, for: encoded)
                }
            } else {
                product = FISBPreparedProduct(whole)
            }
        } else {
            product = FISBPreparedProduct(whole)
        }
        apply(product, at: time, touched: &touched)
    }

    /// Ingests a whole APDU's prepared product received at `time`.
    private mutating func apply(_ product: FISBPreparedProduct, at time: Double, touched: inout [String]) {
        let productTime = FISBClock.resolve(product.time, near: time)
        switch product.body {
        case .failure(let error):
            if error.reason == .unknownProduct { counters.unknownProducts += 1 }
            note(error)
        case .text(let records):
            for record in records {
                if let key = ingestText(record, apduTime: product.time, productTime: productTime, at: time) { touched.append(key) }
            }
        case .twgo(let twgo):
            for e in twgo.errors { note(e) }
            touched += ingestTWGO(twgo, productID: product.productID, productTime: productTime, at: time)
        case .gridded(let block):
            counters.gridded += 1
            if collectsGridBlocks { collectedBlocks.append(GridBlockReceipt(block: block, productTime: productTime, received: time)) }
            if let key = ingestBlock(block, productTime: productTime, at: time) { touched.append(key) }
        }
    }

    // MARK: Product 413

    /// The report key of a product-413 record.
    static func textKey(kind: FISBReport.Kind, location: String?, text: String, subtype: String?) -> String {
        kind == .pirep
            ? "413/PIREP/\(text)"
            : "413/\(kind.rawValue)/\(location ?? "")\(subtype.map { "/" + $0 } ?? "")"
    }

    private mutating func ingestText(_ record: FISBPreparedProduct.TextRecord, apduTime: APDU.Time, productTime: Double?, at time: Double) -> String? {
        let kind = record.kind
        let reportTime = record.reportTime.flatMap { FISBClock.resolve(day: $0.day, hour: $0.hour, minute: $0.minute, near: time) }
        var subtype: String?
        var expires = (reportTime ?? time) + 2 * 3600
        var end: Double?
        switch kind {
        case .taf:
            subtype = record.isAmendment ? "AMD" : nil
            end = record.tafValidityEnd.flatMap { Self.tafValidityEnd($0, near: time) }
            expires = end ?? ((reportTime ?? time) + 30 * 3600)
        case .pirep:
            expires = (reportTime ?? time) + 75 * 60
        case .winds:
            if let valid = reportTime, let hours = Self.windsForecastHours(apduHour: apduTime.hour, validTime: valid) {
                subtype = hours < 10 ? "0\(hours)" : "\(hours)"
                expires = valid + Double(hours == 6 ? 3 : 6) * 3600
            } else {
                expires = time + 12 * 3600
            }
        default:
            break
        }
        let key = record.key ?? Self.textKey(kind: kind, location: record.location, text: record.text, subtype: subtype)
        var r = FISBReport(key: key, productID: GenericTextProduct.productID, kind: kind, location: record.location,
                           text: record.text, time: reportTime ?? productTime, received: time, expires: expires)
        r.subtype = subtype
        r.end = end
        // An older report than the one held is not taken (its time read in place, not copied out).
        if let i = reports.index(forKey: key), let oldTime = reports.values[i].time, let newTime = r.time, oldTime > newTime { return nil }
        put(r, at: key)
        return key
    }

    /// The end of a TAF's valid period `ddhh/ddhh`.
    static func tafValidityEnd(_ text: String, near time: Double) -> Double? {
        tafValidityWord(text).flatMap { tafValidityEnd($0, near: time) }
    }

    /// The end `ddhh` of a TAF's valid period `ddhh/ddhh`, as sent: the first of its first six
    /// words that has that shape.
    static func tafValidityWord(_ text: String) -> Int? {
        for w in text.split(separator: " ").prefix(6) where w.utf8.count == 9 {
            let parts = w.split(separator: "/")
            guard parts.count == 2, parts[1].utf8.count == 4, let v = Int(parts[1]) else { continue }
            return v
        }
        return nil
    }

    /// The time of a valid-period end `ddhh` near `time` (a day ahead, as forecasts run ahead).
    static func tafValidityEnd(_ ddhh: Int, near time: Double) -> Double? {
        FISBClock.resolve(day: ddhh / 100, hour: ddhh % 100, minute: 0, near: time + 24 * 3600)
    }

    /// Winds forecast (6, 12 or 24 h) from the APDU hour (product availability, about 02, 08,
    /// 14, 20Z) and the valid time (00, 06, 12, 18Z), per DO-358B table A-9.
    static func windsForecastHours(apduHour: Int, validTime: Double) -> Int? {
        let available: Int
        switch apduHour {
        case 1..<3: available = 0
        case 7..<9: available = 1
        case 13..<15: available = 2
        case 19..<21: available = 3
        default: return nil
        }
        let validHour = Int((validTime.truncatingRemainder(dividingBy: 86_400)) / 3600)
        guard validHour % 6 == 0 else { return nil }
        let validIndex = (validHour / 6 + 3) % 4  // 06 → 0, 12 → 1, 18 → 2, 00 → 3
        let matrix = [[6, 12, 0, 24], [24, 6, 12, 0], [0, 24, 6, 12], [12, 0, 24, 6]]
        let h = matrix[available][validIndex]
        return h == 0 ? nil : h
    }

    // MARK: Gridded products

    /// Adds a block to its composite; when a block of a newer product time arrives, the previous
    /// composite is finished and stored as a report (returned key).
    private mutating func ingestBlock(_ block: GriddedBlock, productTime: Double?, at time: Double) -> String? {
        let gridKey = GridKey(productID: block.productID, altitudeFt: block.altitudeFt)
        var finished: String?
        // One look-up a block: the composite is changed where it lies through its index (a copy
        // taken out, changed and put back would copy its whole block table on every block).
        var index = grids.index(forKey: gridKey)
        if let i = index, let t = grids.values[i].time, t != productTime {
            finished = finishGrid(gridKey)
            index = nil
        }
        // Random product ids, levels and block numbers must not grow the composites without end.
        let marks = block.bins == nil ? block.emptyBlocks.count : 1
        guard index != nil || grids.count < limits.composites, compositeBlocksHeld + marks <= limits.compositeBlocks else {
            counters.droppedBlocks += 1
            return finished
        }
        if let i = index {
            compositeBlocksHeld += Self.add(block, at: time, to: &grids.values[i])
        } else {
            var g = GridComposite(productID: block.productID, altitudeFt: block.altitudeFt, time: productTime, received: time)
            if let size = lastGridSizes[gridKey] { g.blocks.reserveCapacity(size) }
            compositeBlocksHeld += Self.add(block, at: time, to: &g)
            grids[gridKey] = g
        }
        return finished
    }

    /// Adds `block`; returns how many blocks and empty marks the composite gained.
    private static func add(_ block: GriddedBlock, at time: Double, to g: inout GridComposite) -> Int {
        g.received = time
        let before = g.blocks.count + g.empty.count
        if block.bins != nil {
            g.blocks[block.blockNumber << 2 | block.scale] = block
            // A block outside the grid is kept (and counted by the radar) but bounds nothing:
            // `fisb` said "north 155.4°" for one.
            guard block.isInGrid else { return g.blocks.count + g.empty.count - before }
            let b = block.bounds
            g.north = Swift.max(g.north, b.north)
            g.south = Swift.min(g.south, b.south)
            g.west = Swift.min(g.west, b.west)
            g.east = Swift.max(g.east, b.east)
        } else {
            for n in block.emptyBlocks { g.empty.insert(n << 2 | block.scale) }
        }
        return g.blocks.count + g.empty.count - before
    }

    /// Stores the composite as a report and forgets it; returns the report key.
    @discardableResult
    private mutating func finishGrid(_ gridKey: GridKey) -> String? {
        guard let g = grids.removeValue(forKey: gridKey) else { return nil }
        lastGridSizes[gridKey] = Swift.min(g.blocks.count, limits.compositeBlocks)
        compositeBlocksHeld -= g.blocks.count + g.empty.count
        guard let kind = FISBReport.Kind.of(productID: g.productID) else { return nil }
        let key = "GRID/\(gridKey.name)"
        let lifetime: Double = kind == .nexrad || kind == .lightning ? 75 * 60 : 3 * 3600
        var r = FISBReport(key: key, productID: g.productID, kind: kind, time: g.time, received: g.received,
                           expires: (g.time ?? g.received) + lifetime)
        var bounds = JSONWriter()
        bounds.add("north", g.blocks.isEmpty ? nil : g.north, decimals: 4)
        bounds.add("south", g.blocks.isEmpty ? nil : g.south, decimals: 4)
        bounds.add("west", g.blocks.isEmpty ? nil : g.west, decimals: 4)
        bounds.add("east", g.blocks.isEmpty ? nil : g.east, decimals: 4)
        r.extra = [("blocks", String(g.blocks.count)), ("emptyBlocks", String(g.empty.count)), ("bounds", bounds.result)]
            + (g.altitudeFt.map { [("altitudeFt", String($0))] } ?? [])
        r.grid = g.blocks.keys.sorted().compactMap { g.blocks[$0] }
        put(r, at: key)
        return key
    }

    // MARK: TWGO

    /// Products 8, 18 and 19 are all NOTAMs: 18 and 19 share one key space.
    static func family(_ productID: Int) -> Int { productID == 19 ? 18 : productID }

    /// Report key: product family, year (the APDU month for NOTAM-TRA/TMOA, as their report lists
    /// use), report number, and for product 8 the location when there is one (NOTAM-D and FDC
    /// numbers repeat across locations; TFRs have none).
    static func twgoKey(_ productID: Int, year: Int, number: Int, location: String = "") -> String {
        let located = !location.isEmpty && productID != 16 && productID != 17
        return "\(Self.family(productID))/\(year)/\(number)\(located ? "/" + location : "")"
    }

    /// The year field of a report's key: the APDU month for products 16 and 17.
    static func keyYear(_ productID: Int, recordYear: Int, apdu: APDU.Time) -> Int {
        productID == 16 || productID == 17 ? (apdu.month ?? recordYear) : recordYear
    }

    /// What a TWGO text of a product of `kind` says: SUA schedule fields, NOTAM fields, or nothing.
    static func fields(of text: String, kind: FISBReport.Kind?) -> FISBPreparedProduct.Fields {
        if kind == .sua, let sua = SUARecord(text) {
            var name = ""
            JSONWriter.appendQuoted(sua.name, to: &name)
            var status = ""
            JSONWriter.appendQuoted(sua.status, to: &status)
            let extra: [(String, String)] = [
                ("name", name), ("status", status),
                ("floorFt", sua.floorFt.map(String.init) ?? "null"), ("ceilingFt", sua.ceilingFt.map(String.init) ?? "null"),
            ]
            return .sua(sua, start: FISBClock.notamTime(sua.start), end: FISBClock.notamTime(sua.end), extra: extra)
        }
        if let kind, kind.isNOTAM { return .notam(NOTAMTextFields(text)) }
        return .none
    }

    private mutating func ingestTWGO(_ product: FISBPreparedProduct.TWGO, productID: Int, productTime: Double?, at time: Double) -> [String] {
        guard let kind = FISBReport.Kind.of(productID: productID) else { return [] }
        var touched: [String] = []
        let location = product.location.isEmpty ? nil : product.location
        switch product.records {
        case .text(let records):
            for rec in records {
                let key = rec.key
                guard rec.isActive else {
                    if remove(key) { counters.cancelled += 1 }
                    returned[key] = nil
                    continue
                }
                var r = reports[key] ?? FISBReport(key: key, productID: productID, kind: kind, received: time, expires: time + refreshTimeout)
                r.productID = productID
                r.reportNumber = rec.reportNumber
                r.received = time
                r.time = productTime ?? r.time
                if !rec.text.isEmpty { r.text = rec.text }
                // An empty text ("still active") keeps the text held, read again.
                switch rec.fields ?? Self.fields(of: r.text, kind: kind) {
                case .sua(let sua, let start, let end, let extra):
                    r.location = location ?? sua.airspaceID
                    r.number = sua.scheduleID
                    r.subtype = sua.type
                    r.start = start ?? r.start
                    r.end = end ?? r.end
                    r.extra = extra
                case .notam(let f):
                    r.subtype = f.subtype
                    r.number = f.number
                    r.location = location ?? f.location ?? r.location
                    r.start = f.start ?? r.start
                    r.end = f.end ?? r.end
                case .none:
                    r.location = location ?? r.location
                }
                r.expires = expiry(of: r, at: time)
                put(r, at: key)
                touched.append(key)
            }
        case .graphic(let groups):
            for g in groups {
                if g.isCancelled {
                    if remove(g.key) { counters.cancelled += 1 }
                    returned[g.key] = nil
                    continue
                }
                var r = reports[g.key] ?? FISBReport(key: g.key, productID: productID, kind: kind, received: time, expires: time + refreshTimeout)
                r.reportNumber = g.reportNumber
                r.received = time
                r.time = r.time ?? productTime
                if r.location == nil { r.location = location }
                r.geometry = Self.shapes(g.shapes, near: productTime ?? time)
                r.expires = expiry(of: r, at: time)
                put(r, at: g.key)
                touched.append(g.key)
            }
        }
        return touched
    }

    /// A shape of graphic records with its start and stop as sent (resolved on each reception).
    struct ShapeTemplate: Sendable {
        var shape: FISBReport.Shape
        var start: TWGOGraphicRecord.Time?
        var stop: TWGOGraphicRecord.Time?
    }

    /// Converts graphic records to shapes. Two polygons (or polylines) of one report with the
    /// same corners are the floor and ceiling of one volume and become one shape.
    static func shapes(_ records: [TWGOGraphicRecord], near reference: Double) -> [FISBReport.Shape] {
        shapes(shapeTemplates(records), near: reference)
    }

    /// The shapes of `templates` with their times resolved near `reference`.
    static func shapes(_ templates: [ShapeTemplate], near reference: Double) -> [FISBReport.Shape] {
        templates.map { t in
            var s = t.shape
            s.start = t.start.flatMap { FISBClock.resolve($0, near: reference) }
            s.stop = t.stop.flatMap { FISBClock.resolve($0, near: reference) }
            return s
        }
    }

    /// The shapes of graphic records (see `shapes(_:near:)`), times unresolved. A merged volume
    /// keeps the times of its first record.
    static func shapeTemplates(_ records: [TWGOGraphicRecord]) -> [ShapeTemplate] {
        var out: [ShapeTemplate] = []
        for rec in records.sorted(by: { $0.overlayID < $1.overlayID }) {
            let g = rec.geometry
            let ref = g.reference.rawValue
            switch g.shape {
            case .circle:
                for c in g.circles {
                    out.append(ShapeTemplate(shape: FISBReport.Shape(shape: "circle", coordinates: [[c.longitude, c.latitude]], radiusNM: c.radiusNM,
                                                                     floorFt: c.floorFt, floorRef: ref, ceilingFt: c.ceilingFt, ceilingRef: ref),
                                             start: rec.start, stop: rec.stop))
                }
            case .polygon, .polyline, .point:
                let coords = g.vertices.map { [$0.longitude, $0.latitude] }
                let alts = g.vertices.map(\.altitudeFt)
                if let i = out.firstIndex(where: { $0.shape.shape == g.shape.rawValue && $0.shape.coordinates == coords && $0.shape.floorFt == $0.shape.ceilingFt }),
                   let other = out[i].shape.floorFt, let alt = alts.first, alts.allSatisfy({ $0 == alt }), alt != other {
                    out[i].shape.floorFt = Swift.min(other, alt)
                    out[i].shape.ceilingFt = Swift.max(other, alt)
                    if alt > other { out[i].shape.ceilingRef = ref } else { out[i].shape.floorRef = ref }
                    continue
                }
                out.append(ShapeTemplate(shape: FISBReport.Shape(shape: g.shape.rawValue, coordinates: coords, floorFt: alts.min(),
                                                                 floorRef: alts.isEmpty ? nil : ref, ceilingFt: alts.max(),
                                                                 ceilingRef: alts.isEmpty ? nil : ref),
                                         start: rec.start, stop: rec.stop))
            }
        }
        return out
    }

    /// End of validity: the text's end, else the latest graphic stop, else refresh timeout.
    private func expiry(of r: FISBReport, at time: Double) -> Double {
        if let end = r.end { return end }
        if let stop = r.geometry.compactMap(\.stop).max() { return stop }
        return time + refreshTimeout
    }

    /// Whether `r` is complete and differs from what was last returned for `key`; if so, its
    /// content is noted as returned. In place: the report reached through `inout`, not copied.
    private static func noteIfNew(_ r: inout FISBReport, key: String, lists: [String: CurrentReportList],
                                  returned: inout [String: FISBReport.Content]) -> Bool {
        guard isComplete(r, lists: lists) else { return false }
        if let j = returned.index(forKey: key) {
            if r.hasContent(returned.values[j]) { return false }
            returned.values[j] = r.content
        } else {
            returned[key] = r.content
        }
        return true
    }

    private static func isComplete(_ r: FISBReport, lists: [String: CurrentReportList]) -> Bool {
        switch r.kind {
        case .crl, .serviceStatus, .gAirmet, .nexrad, .lightning, .icing, .turbulence, .cloudTops: return true
        default:
            guard !r.text.isEmpty else { return false }
            guard r.productID != GenericTextProduct.productID, r.geometry.isEmpty, let number = r.reportNumber else { return true }
            if let list = lists["\(r.productID)"], let entry = list.entries.first(where: { $0.reportNumber == number }) {
                return !entry.hasGraphics
            }
            // TFR texts always come with areas: wait for them (see `flushHeld`).
            return r.subtype != "TFR"
        }
    }

    /// Reports with text that are still waiting for graphics (a TFR whose areas never came):
    /// returned once, for the end of a capture, so nothing received is silently lost.
    package mutating func flushHeld() -> [FISBReport] {
        var out: [FISBReport] = []
        for gridKey in grids.keys.sorted(by: { $0.name < $1.name }) {
            if let key = finishGrid(gridKey), let r = reports[key] {
                returned[key] = r.content
                out.append(r)
            }
        }
        for r in all where returned[r.key] == nil && !r.text.isEmpty && r.kind != .crl && r.kind != .serviceStatus {
            returned[r.key] = r.content
            out.append(r)
        }
        return out
    }

    // MARK: Expiry and queries

    /// Removes reports whose validity ended before `time`; returns their keys.
    @discardableResult
    package mutating func expire(at time: Double) -> [String] {
        // A file being decoded keeps what it carries (its clock may be days off); the limits
        // still bound memory.
        if keepsStaleOnArrival {
            nextExpiry = .infinity
            return []
        }
        let gone = reports.filter { $0.value.expires < time }.map(\.key).sorted()
        for key in gone {
            remove(key)
            returned[key] = nil
        }
        counters.expired += gone.count
        nextExpiry = reports.values.map(\.expires).min() ?? .infinity
        return gone
    }

    /// Reports valid at `time` within `radiusNM` of a position (reports without geometry count
    /// when their location is unknown to the store: they are listed last), nearest first.
    package func current(near latitude: Double, longitude: Double, radiusNM: Double, at time: Double) -> [FISBReport] {
        var near: [(Double, FISBReport)] = []
        for r in reports.values where r.expires >= time && (r.start ?? -.infinity) <= time {
            guard r.kind != .crl, r.kind != .serviceStatus, !r.text.isEmpty || !r.geometry.isEmpty else { continue }
            if let d = r.distanceNM(latitude: latitude, longitude: longitude) {
                if d <= radiusNM { near.append((d, r)) }
            }
        }
        return near.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1.key < $1.1.key }.map(\.1)
    }

    /// The entries of the latest current report list for `productID` that the store does not hold
    /// completely (missing, or lacking the text or graphics the list says the report has). Empty
    /// when the picture of that product is complete; nil when no list has been received.
    package func missingReports(productID: Int) -> [CurrentReportList.Entry]? {
        guard let list = lists["\(productID)"] else { return nil }
        return list.entries.filter { e in
            guard let r = reports[Self.twgoKey(productID, year: e.yearOrMonth, number: e.reportNumber)] else { return true }
            return (e.hasText && r.text.isEmpty) || (e.hasGraphics && r.geometry.isEmpty)
        }
    }

    /// Every stored report, sorted by key.
    package var all: [FISBReport] { reports.values.sorted { $0.key < $1.key } }

    // MARK: Helpers

    private mutating func stationKey(_ h: UATUplinkHeader) -> String {
        // One station sends for minutes on end: its key is formatted once.
        if let last = lastStation, last.latitude == h.latitude, last.longitude == h.longitude { return last.key }
        let key = "\(JSONWriter.format(h.latitude, decimals: 3)),\(JSONWriter.format(h.longitude, decimals: 3))"
        lastStation = (h.latitude, h.longitude, key)
        return key
    }

    private mutating func note(_ error: FISBError) {
        counters.skipped += 1
        lastErrors.append(error)
        if lastErrors.count > 32 { lastErrors.removeFirst(lastErrors.count - 32) }
    }
}
