/// A TWGO graphic overlay record (record format 8): one shape of a report, matched to its text by
/// report number, with the object it describes and when it applies.
public struct TWGOGraphicRecord: Hashable, Sendable {
    /// A record applicability time; which fields are present is the record's date/time format.
    public struct Time: Hashable, Sendable {
        /// Month (format 1 only).
        public var month: Int?
        /// Day (formats 1 and 2).
        public var day: Int?
        /// Hour (UTC).
        public var hour: Int
        /// Minute.
        public var minute: Int

        /// Creates a time.
        public init(month: Int? = nil, day: Int? = nil, hour: Int, minute: Int) {
            self.month = month
            self.day = day
            self.hour = hour
            self.minute = minute
        }

        /// The date/time format: 1 month-day-hour-minute, 2 day-hour-minute, 3 hour-minute.
        var format: Int { month != nil ? 1 : day != nil ? 2 : 3 }
    }

    /// Report number (14 bits).
    public var reportNumber: Int
    /// Report year (7 bits).
    public var reportYear: Int
    /// Years to add to the report year for the start of applicability (2 bits).
    public var startYearOffset: Int
    /// Years to add to the report year for the end of applicability (2 bits).
    public var endYearOffset: Int
    /// Overlay record identifier, 1–16.
    public var overlayID: Int
    /// Alphanumeric object label (label flag 1), or nil for the 2-byte numeric label.
    public var label: String?
    /// The numeric label (label flag 0).
    public var numericLabel: Int
    /// Object element (5 bits; 0 TFR, 1 TURB, 2 LLWS, 3 SFC, 4 ICING, 5 FRZLVL, 6 IFR, 7 MTN), when flagged.
    public var element: Int?
    /// Object type (4 bits; 0 airport, 14 airspace).
    public var objectType: Int
    /// Object status (4 bits; 13 cancelled, 15 in effect).
    public var objectStatus: Int
    /// Object qualifier (3 bytes, a bit map; G-AIRMET), when flagged.
    public var qualifier: [UInt8]?
    /// Object parameter type (5 bits) and value (11 bits), when flagged.
    public var parameter: (type: Int, value: Int)? {
        get { parameterRaw.map { ($0 >> 11, $0 & 0x7FF) } }
        set { parameterRaw = newValue.map { ($0.type & 0x1F) << 11 | ($0.value & 0x7FF) } }
    }
    /// Parameter type and value as the 16 bits sent.
    public var parameterRaw: Int?
    /// Start of applicability.
    public var start: Time?
    /// End of applicability.
    public var stop: Time?
    /// Overlay operator (0 independent, 1 dependent: combine with the report's other records).
    public var overlayOperator: Int
    /// The shape.
    public var geometry: TWGOGeometry

    /// Object status value meaning the object is cancelled.
    public static let statusCancelled = 13

    /// Creates a graphic record.
    public init(reportNumber: Int, reportYear: Int, overlayID: Int = 1, label: String? = nil, element: Int? = 0,
                objectType: Int = 14, objectStatus: Int = 15, start: Time? = nil, stop: Time? = nil,
                geometry: TWGOGeometry) {
        self.reportNumber = reportNumber
        self.reportYear = reportYear
        self.startYearOffset = 0
        self.endYearOffset = 0
        self.overlayID = overlayID
        self.label = label
        self.numericLabel = 0
        self.element = element
        self.objectType = objectType
        self.objectStatus = objectStatus
        self.qualifier = nil
        self.parameterRaw = nil
        self.start = start
        self.stop = stop
        self.overlayOperator = 0
        self.geometry = geometry
    }

    /// True when the object status says cancelled.
    public var isCancelled: Bool { objectStatus == Self.statusCancelled }

    /// Decodes one record at `start`; returns it with the index of the next record. The declared
    /// length is capped to the bytes present, and fields must fit inside it.
    static func read(_ bytes: [UInt8], at start: Int) throws(FISBError) -> (TWGOGraphicRecord, next: Int) {
        var head = BitReader(bytes, from: start, what: "graphic record")
        let declared = try head.read(10, "length")
        guard declared >= 11 else {
            throw FISBError(.badLength, at: start, "graphic record declares \(declared) bytes, needs at least 11")
        }
        let end = Swift.min(bytes.count, start + declared)
        var r = BitReader(bytes, from: start, to: end, what: "graphic record")
        _ = try r.read(10)
        var rec = TWGOGraphicRecord(reportNumber: try r.read(14, "report number"), reportYear: 0,
                                    geometry: TWGOGeometry(shape: .point, reference: .msl))
        rec.reportYear = try r.read(7, "report year")
        rec.startYearOffset = try r.read(2)
        rec.endYearOffset = try r.read(2)
        rec.overlayID = try r.read(4) + 1
        let alphaLabel = try r.flag()
        if alphaLabel {
            rec.label = DLAC.decode(try r.bytes(9, "object label"))
        } else {
            rec.numericLabel = try r.read(16, "object label")
        }
        let hasElement = try r.flag()
        let hasQualifier = try r.flag()
        let hasParameter = try r.flag()
        let element = try r.read(5)
        rec.element = hasElement ? element : nil
        rec.objectType = try r.read(4)
        rec.objectStatus = try r.read(4)
        if hasQualifier { rec.qualifier = try r.bytes(3, "object qualifier") }
        if hasParameter { rec.parameterRaw = try r.read(16, "object parameter") }
        let applicability = try r.read(2)
        let format = try r.read(2)
        let option = try r.read(4)
        rec.overlayOperator = try r.read(2)
        let count = try r.read(6) + 1
        func time() throws(FISBError) -> Time {
            switch format {
            case 1:
                return Time(month: try r.read(8, "month"), day: try r.read(8, "day"), hour: try r.read(8, "hour"),
                            minute: try r.read(8, "minute"))
            case 2: return Time(day: try r.read(8, "day"), hour: try r.read(8, "hour"), minute: try r.read(8, "minute"))
            case 3: return Time(hour: try r.read(8, "hour"), minute: try r.read(8, "minute"))
            default: throw FISBError(.unsupported, at: r.byteOffset, "record date/time format 0 with applicability times")
            }
        }
        if applicability & 1 != 0 { rec.start = try time() }
        if applicability & 2 != 0 { rec.stop = try time() }
        if option == 0 {
            rec.geometry = TWGOGeometry(shape: .point, reference: .msl)
        } else {
            rec.geometry = try TWGOGeometry.read(option: option, count: count, from: &r)
        }
        return (rec, start + declared)
    }

    /// Appends the encoded record.
    func encode(into out: inout [UInt8]) {
        var w = BitWriter()
        w.write(0, 10)  // length, patched below
        w.write(reportNumber, 14)
        w.write(reportYear, 7)
        w.write(startYearOffset, 2)
        w.write(endYearOffset, 2)
        w.write(overlayID - 1, 4)
        w.write(label != nil)
        if let label { w.append(DLAC.encode(label, width: 9)) } else { w.write(numericLabel, 16) }
        w.write(element != nil)
        w.write(qualifier != nil)
        w.write(parameterRaw != nil)
        w.write(element ?? 0, 5)
        w.write(objectType, 4)
        w.write(objectStatus, 4)
        if let qualifier { w.append(Array(qualifier.prefix(3)) + [UInt8](repeating: 0, count: Swift.max(0, 3 - qualifier.count))) }
        if let parameterRaw { w.write(parameterRaw, 16) }
        let format = start?.format ?? stop?.format ?? 0
        w.write((start != nil ? 1 : 0) | (stop != nil ? 2 : 0), 2)
        w.write(format, 2)
        w.write(geometry.option, 4)
        w.write(overlayOperator, 2)
        w.write(Swift.max(0, geometry.count - 1), 6)
        for t in [start, stop].compactMap({ $0 }) {
            if format == 1 { w.write(t.month ?? 0, 8) }
            if format <= 2 { w.write(t.day ?? 0, 8) }
            w.write(t.hour, 8)
            w.write(t.minute, 8)
        }
        geometry.write(to: &w)
        var bytes = w.bytes
        let length = bytes.count
        bytes[0] = UInt8((length >> 2) & 0xFF)
        bytes[1] |= UInt8((length & 3) << 6)
        out += bytes
    }
}
