/// A FIS-B Application Protocol Data Unit (information frame type 0, DO-358B §2.2.2): a header
/// naming the product and when it was made, optionally a segmentation block, then the product
/// payload.
public struct APDU: Hashable, Sendable {
    /// The time fields of the header; which are present is the 2-bit time option.
    public struct Time: Hashable, Sendable {
        /// Month (1–12), present with time options 2 and 3.
        public var month: Int?
        /// Day of month, present with time options 2 and 3.
        public var day: Int?
        /// Hour (UTC).
        public var hour: Int
        /// Minute.
        public var minute: Int
        /// Second, present with time options 1 and 3.
        public var second: Int?

        /// Creates a time; give month and day together.
        public init(month: Int? = nil, day: Int? = nil, hour: Int, minute: Int, second: Int? = nil) {
            self.month = month
            self.day = day
            self.hour = hour
            self.minute = minute
            self.second = second
        }

        /// The time option: 0 hours+minutes, 1 +seconds, 2 month/day+hours+minutes, 3 +seconds.
        public var option: Int { (month != nil ? 2 : 0) | (second != nil ? 1 : 0) }
    }

    /// The segmentation block of a product too long for one APDU.
    public struct Segment: Hashable, Sendable {
        /// Product file ID (10 bits): the same on every segment of one product.
        public var fileID: Int
        /// Number of segments in the product file (9 bits).
        public var count: Int
        /// This segment's number, 1…count (9 bits).
        public var number: Int

        /// Creates a segmentation block.
        public init(fileID: Int, count: Int, number: Int) {
            self.fileID = fileID
            self.count = count
            self.number = number
        }
    }

    /// A flag ("application method"), reserved in DO-358B.
    public var aFlag: Bool
    /// G flag ("geographic"), reserved in DO-358B.
    public var gFlag: Bool
    /// P flag ("provider specific"), reserved in DO-358B.
    public var pFlag: Bool
    /// Product ID (11 bits): 8 NOTAM, 11 AIRMET, 12 SIGMET, 13 SUA, 14 G-AIRMET, 15 CWA, 16 TRA,
    /// 17 TMOA, 18/19 TFR, 63/64 NEXRAD, 413 generic text, …
    public var productID: Int
    /// Product time.
    public var time: Time
    /// Segmentation block (S flag set), or nil for a whole product.
    public var segment: Segment?
    /// The product payload after the header.
    public var payload: [UInt8]

    /// Creates an APDU.
    public init(productID: Int, time: Time, segment: Segment? = nil, payload: [UInt8],
                aFlag: Bool = false, gFlag: Bool = false, pFlag: Bool = false) {
        self.productID = productID
        self.time = time
        self.segment = segment
        self.payload = payload
        self.aFlag = aFlag
        self.gFlag = gFlag
        self.pFlag = pFlag
    }

    /// Decodes an APDU from the data of a type-0 information frame.
    public init(_ data: [UInt8]) throws(FISBError) {
        try self.init(data, in: 0..<data.count)
    }

    /// Decodes an APDU from `bytes[range]` (a type-0 frame's data where it lies in an uplink
    /// payload, not copied out first); error offsets count from the start of `bytes`.
    public init(_ bytes: [UInt8], in range: Range<Int>) throws(FISBError) {
        var r = BitReader(bytes, from: range.lowerBound, to: range.upperBound, what: "APDU header")
        aFlag = try r.flag()
        gFlag = try r.flag()
        pFlag = try r.flag()
        productID = try r.read(11, "product ID")
        let segmented = try r.flag()
        let option = try r.read(2, "time option")
        var t = Time(hour: 0, minute: 0)
        if option & 2 != 0 {
            t.month = try r.read(4, "month")
            t.day = try r.read(5, "day")
        }
        t.hour = try r.read(5, "hour")
        t.minute = try r.read(6, "minute")
        if option & 1 != 0 { t.second = try r.read(6, "second") }
        time = t
        if segmented {
            let fileID = try r.read(10, "product file ID")
            let count = try r.read(9, "product file length")
            let number = try r.read(9, "APDU number")
            segment = Segment(fileID: fileID, count: count, number: number)
        } else {
            segment = nil
        }
        payload = Array(bytes[Swift.min(range.upperBound, r.byteOffset)..<range.upperBound])
    }

    /// The frame data: header (zero-padded to a whole byte) followed by the payload.
    public func encode() -> [UInt8] {
        var w = BitWriter()
        w.write(aFlag)
        w.write(gFlag)
        w.write(pFlag)
        w.write(productID, 11)
        w.write(segment != nil)
        w.write(time.option, 2)
        if let month = time.month {
            w.write(month, 4)
            w.write(time.day ?? 0, 5)
        }
        w.write(time.hour, 5)
        w.write(time.minute, 6)
        if let second = time.second { w.write(second, 6) }
        if let s = segment {
            w.write(s.fileID, 10)
            w.write(s.count, 9)
            w.write(s.number, 9)
        }
        w.append(payload)
        return w.bytes
    }
}
