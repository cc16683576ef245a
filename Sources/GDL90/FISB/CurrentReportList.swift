/// A Current Report List (information frame type 14): the reports of one product a ground
/// station currently holds, so a receiver knows when its picture of that product is complete.
public struct CurrentReportList: Hashable, Sendable {
    /// One listed report.
    public struct Entry: Hashable, Sendable {
        /// Report year (7 bits; the month for NOTAM-TRA/TMOA), as in the product's records.
        public var yearOrMonth: Int
        /// Report number (14 bits), as in the product's records.
        public var reportNumber: Int
        /// The report has a text part.
        public var hasText: Bool
        /// The report has a graphic part.
        public var hasGraphics: Bool

        /// Creates an entry.
        public init(yearOrMonth: Int, reportNumber: Int, hasText: Bool, hasGraphics: Bool) {
            self.yearOrMonth = yearOrMonth
            self.reportNumber = reportNumber
            self.hasText = hasText
            self.hasGraphics = hasGraphics
        }
    }

    /// Product ID the list is about (11 bits).
    public var productID: Int
    /// The list is for NOTAM-TFRs.
    public var isTFR: Bool
    /// More reports exist than the list holds (more than 138).
    public var overflow: Bool
    /// Product range in nautical miles (sent in 5 NM steps).
    public var rangeNM: Int
    /// Location identifier, when sent.
    public var location: String?
    /// The reports.
    public var entries: [Entry]

    /// Creates a list.
    public init(productID: Int, isTFR: Bool = false, overflow: Bool = false, rangeNM: Int, location: String? = nil, entries: [Entry]) {
        self.productID = productID
        self.isTFR = isTFR
        self.overflow = overflow
        self.rangeNM = rangeNM
        self.location = location
        self.entries = entries
    }

    /// Decodes the frame data; a count larger than the entries present is capped.
    public init(_ data: [UInt8]) throws(FISBError) {
        var r = BitReader(data, what: "current report list")
        productID = try r.read(11, "product ID")
        isTFR = try r.flag()
        _ = try r.read(2)
        overflow = try r.flag()
        let hasLocation = try r.flag()
        rangeNM = try r.read(8, "range") * 5
        location = hasLocation ? DLAC.decode(try r.bytes(3, "location")) : nil
        let declared = try r.read(8, "report count")
        let count = Swift.min(declared, r.bytesLeft / 3)
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            _ = try r.read(1)
            let year = try r.read(7)
            let text = try r.flag()
            let graphics = try r.flag()
            let number = try r.read(14)
            entries.append(Entry(yearOrMonth: year, reportNumber: number, hasText: text, hasGraphics: graphics))
        }
        self.entries = entries
    }

    /// The frame data.
    public func encode() -> [UInt8] {
        var w = BitWriter()
        w.write(productID, 11)
        w.write(isTFR)
        w.write(0, 2)
        w.write(overflow)
        w.write(location != nil)
        w.write(Swift.min(255, rangeNM / 5), 8)
        if let location { w.append(DLAC.encode(location, width: 3)) }
        w.write(Swift.min(255, entries.count), 8)
        for e in entries.prefix(255) {
            w.write(0, 1)
            w.write(e.yearOrMonth, 7)
            w.write(e.hasText)
            w.write(e.hasGraphics)
            w.write(e.reportNumber, 14)
        }
        return w.bytes
    }
}
