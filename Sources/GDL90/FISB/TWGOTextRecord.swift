/// A TWGO text record (record format 2): the report text of a NOTAM, AIRMET, SIGMET, CWA or SUA.
public struct TWGOTextRecord: Hashable, Sendable {
    /// Size of the record header in bytes.
    public static let headerLength = 5

    /// Report number (14 bits); graphic records of the same report carry the same number.
    public var reportNumber: Int
    /// Report year (7 bits; last one or two digits of the year).
    public var reportYear: Int
    /// False when the report is cancelled.
    public var isActive: Bool
    /// The report text, DLAC-decoded (ETX padding dropped, record separators kept as U+001E).
    /// Empty on a short "still active" refresh.
    public var text: String

    /// Creates a text record.
    public init(reportNumber: Int, reportYear: Int, isActive: Bool = true, text: String) {
        self.reportNumber = reportNumber
        self.reportYear = reportYear
        self.isActive = isActive
        self.text = text
    }

    /// Decodes one record at `start` of `bytes`; returns it with the byte index of the next
    /// record. A declared length longer than the bytes present is capped.
    static func read(_ bytes: [UInt8], at start: Int) throws(FISBError) -> (TWGOTextRecord, next: Int) {
        var r = BitReader(bytes, from: start, what: "text record")
        let declared = try r.read(16, "length")
        guard declared >= headerLength else {
            throw FISBError(.badLength, at: start, "text record declares \(declared) bytes, its header alone is \(headerLength)")
        }
        let number = try r.read(14, "report number")
        let year = try r.read(7, "report year")
        let active = try r.flag()
        _ = try r.read(2)
        let end = Swift.min(bytes.count, start + declared)
        let text = DLAC.decode(bytes, from: start + headerLength, count: end - start - headerLength)
        return (TWGOTextRecord(reportNumber: number, reportYear: year, isActive: active, text: text), end)
    }

    /// Appends the encoded record.
    func encode(into out: inout [UInt8]) {
        let body = DLAC.encode(text)
        var w = BitWriter()
        w.write(Self.headerLength + body.count, 16)
        w.write(reportNumber, 14)
        w.write(reportYear, 7)
        w.write(isActive)
        w.write(0, 2)
        out += w.bytes
        out += body
    }
}
