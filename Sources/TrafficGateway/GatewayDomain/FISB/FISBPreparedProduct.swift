import GDL90

/// A whole APDU's product with everything the product store derives from its bytes alone, not
/// from when it was received: the records, their report keys, the fields read from their texts
/// (NOTAM number and validity, SUA schedule, TAF valid period, report times as sent) and the
/// shapes of graphic records with their times still unresolved. What depends on the time of
/// reception (times resolved near it, expiry) is worked out by the store on each reception.
///
/// Real FIS-B rebroadcasts the same products over and over: the store keeps these by the APDU's
/// bytes (`FISBProductCache`), so a product received again unchanged is not decoded again.
struct FISBPreparedProduct: Sendable {
    /// What the product is.
    enum Body: Sendable {
        /// The payload could not be decoded (noted on every reception, as if decoded again).
        case failure(FISBError)
        /// Product 413 records (of a kind the store keeps).
        case text([TextRecord])
        /// A text-with-graphic-overlay product.
        case twgo(TWGO)
        /// One block of a gridded product.
        case gridded(GriddedBlock)
    }

    /// One product-413 record.
    struct TextRecord: Sendable {
        var kind: FISBReport.Kind
        var location: String?
        var text: String
        /// The report time as sent (`ddhhmm`).
        var reportTime: (day: Int, hour: Int, minute: Int)?
        /// `TAF.AMD`.
        var isAmendment: Bool
        /// A TAF's valid-period end `ddhh` as sent (see `FISBProductStore.tafValidityWord`).
        var tafValidityEnd: Int?
        /// The report key, for every kind but winds (whose key holds the forecast hours).
        var key: String?
    }

    /// A text-with-graphic-overlay product.
    struct TWGO: Sendable {
        /// The product's location, empty when none.
        var location: String
        /// Records skipped, with why.
        var errors: [FISBError]
        var records: Records
    }

    /// TWGO records, keyed.
    enum Records: Sendable {
        case text([TWGOText])
        case graphic([TWGOGraphic])
    }

    /// A TWGO text record.
    struct TWGOText: Sendable {
        var key: String
        var reportNumber: Int
        var isActive: Bool
        /// The text without record separators; empty on a "still active" refresh.
        var text: String
        /// For a non-empty text: what it says, read once (SUA or NOTAM fields, by the product).
        var fields: Fields?
    }

    /// The fields of a TWGO text.
    enum Fields: Sendable {
        case sua(SUARecord, start: Double?, end: Double?, extra: [(String, String)])
        case notam(NOTAMTextFields)
        case none
    }

    /// The graphic records of one report of a product (in the order the reports first appear).
    struct TWGOGraphic: Sendable {
        var key: String
        var reportNumber: Int
        var isCancelled: Bool
        var shapes: [FISBProductStore.ShapeTemplate]
    }

    /// The product ID of the APDU.
    var productID: Int
    /// The APDU's time, as sent.
    var time: APDU.Time
    var body: Body

    /// Bytes the decoded form holds, about (what the cache's byte budget counts).
    var storageBytes: Int {
        switch body {
        case .failure(let e): return 64 + e.detail.utf8.count
        case .gridded: return 64 + GriddedBlock.binCount
        case .text(let records): return records.reduce(64) { $0 + 64 + $1.text.utf8.count + ($1.key?.utf8.count ?? 0) }
        case .twgo(let p):
            switch p.records {
            case .text(let records): return records.reduce(64) { $0 + 128 + $1.text.utf8.count + $1.key.utf8.count }
            case .graphic(let records):
                return records.reduce(64) { total, r in total + 64 + r.key.utf8.count + r.shapes.reduce(0) { $0 + 96 + $1.shape.coordinates.count * 40 } }
            }
        }
    }

    /// Decodes and prepares a whole (unsegmented or reassembled) APDU.
    init(_ apdu: APDU) {
        productID = apdu.productID
        time = apdu.time
        let content: FISBProductContent
        do {
            content = try FISBProductContent(apdu)
        } catch {
            body = .failure(error)
            return
        }
        switch content {
        case .genericText(let product):
            body = .text(product.records.compactMap(Self.prepare))
        case .twgo(let product):
            body = .twgo(Self.prepare(product, productID: apdu.productID, apduTime: apdu.time))
        case .gridded(let block):
            body = .gridded(block)
        }
    }

    private static func prepare(_ record: GenericTextProduct.Record) -> TextRecord? {
        let kind: FISBReport.Kind
        switch record.kind {
        case .metar: kind = .metar
        case .speci: kind = .speci
        case .taf: kind = .taf
        case .pirep: kind = .pirep
        case .winds: kind = .winds
        case .other: return nil
        }
        var r = TextRecord(kind: kind, location: record.location, text: record.text, reportTime: record.reportTime,
                           isAmendment: record.isAmendment, tafValidityEnd: nil, key: nil)
        if kind == .taf { r.tafValidityEnd = FISBProductStore.tafValidityWord(record.text) }
        if kind != .winds {
            let subtype: String? = kind == .taf && record.isAmendment ? "AMD" : nil
            r.key = FISBProductStore.textKey(kind: kind, location: record.location, text: record.text, subtype: subtype)
        }
        return r
    }

    private static func prepare(_ product: TWGOProduct, productID: Int, apduTime: APDU.Time) -> TWGO {
        let kind = FISBReport.Kind.of(productID: productID)
        switch product.records {
        case .text(let records):
            let prepared = records.map { rec -> TWGOText in
                let key = FISBProductStore.twgoKey(productID, year: FISBProductStore.keyYear(productID, recordYear: rec.reportYear, apdu: apduTime),
                                                   number: rec.reportNumber, location: product.location)
                let text = rec.text.utf8.contains(0x1E) ? rec.text.filter { $0 != DLAC.recordSeparator } : rec.text
                var fields: Fields?
                if !text.isEmpty { fields = FISBProductStore.fields(of: text, kind: kind) }
                return TWGOText(key: key, reportNumber: rec.reportNumber, isActive: rec.isActive, text: text, fields: fields)
            }
            return TWGO(location: product.location, errors: product.errors, records: .text(prepared))
        case .graphic(let records):
            var byReport: [String: [TWGOGraphicRecord]] = [:]
            var order: [String] = []
            for rec in records {
                let key = FISBProductStore.twgoKey(productID, year: FISBProductStore.keyYear(productID, recordYear: rec.reportYear, apdu: apduTime),
                                                   number: rec.reportNumber, location: product.location)
                if byReport[key] == nil { order.append(key) }
                byReport[key, default: []].append(rec)
            }
            let prepared = order.map { key -> TWGOGraphic in
                let recs = byReport[key] ?? []
                return TWGOGraphic(key: key, reportNumber: recs[0].reportNumber, isCancelled: recs.contains(where: \.isCancelled),
                                   shapes: FISBProductStore.shapeTemplates(recs))
            }
            return TWGO(location: product.location, errors: product.errors, records: .graphic(prepared))
        }
    }
}

/// Prepared products by the bytes of the APDU that carried them: a product received again with
/// the same bytes is taken from here instead of being decoded again. Bounded by entries and by
/// bytes; when full it is emptied (a cache: what it holds never changes what the store does).
struct FISBProductCache: Sendable {
    private struct Entry: Sendable {
        var bytes: [UInt8]
        var product: FISBPreparedProduct
        var size: Int
    }

    private var entries: [UInt64: Entry] = [:]
    private var bytesHeld = 0
    /// Entries held at most.
    var maximumEntries = 4096
    /// Bytes (keys and prepared products, about) held at most.
    var maximumBytes = 2 << 20
    /// Receptions answered from the cache, and products prepared (decoded) and kept.
    private(set) var hits = 0, misses = 0
    /// Entries held.
    var count: Int { entries.count }

    /// The product prepared from these APDU bytes, if held.
    mutating func product(for bytes: ArraySlice<UInt8>) -> FISBPreparedProduct? {
        guard let entry = entries[Self.hash(bytes)], Self.equal(entry.bytes, bytes) else { return nil }
        hits += 1
        return entry.product
    }

    /// Keeps `product`, prepared from `bytes`.
    mutating func insert(_ product: FISBPreparedProduct, for bytes: [UInt8]) {
        misses += 1
        let size = bytes.count + product.storageBytes
        guard size <= maximumBytes / 8 else { return }
        if entries.count >= maximumEntries || bytesHeld + size > maximumBytes {
            entries.removeAll(keepingCapacity: true)
            bytesHeld = 0
        }
        let h = Self.hash(bytes[...])
        if let old = entries.updateValue(Entry(bytes: bytes, product: product, size: size), forKey: h) { bytesHeld -= old.size }
        bytesHeld += size
    }

    /// A 64-bit hash of the bytes, eight at a time (not seeded: the same bytes land in the same
    /// place every run).
    static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            var h: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(raw.count)
            var i = 0
            while i + 8 <= raw.count {
                h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x0000_0100_0000_01B3
                h ^= h >> 29
                i += 8
            }
            while i < raw.count {
                h = (h ^ UInt64(raw[i])) &* 0x0000_0100_0000_01B3
                i += 1
            }
            return h ^ h >> 32
        }
    }

    /// True when the bytes are equal, compared eight at a time.
    static func equal(_ a: [UInt8], _ b: ArraySlice<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                var i = 0
                while i + 8 <= x.count {
                    if x.loadUnaligned(fromByteOffset: i, as: UInt64.self) != y.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
                    i += 8
                }
                while i < x.count {
                    if x[i] != y[i] { return false }
                    i += 1
                }
                return true
            }
        }
    }
}
