/// The text of a product-13 SUA (special use airspace) report: one `|`-separated record,
/// `SUA ddhhmm SCHEDULE|AIRSPACE-ID|STATUS|TYPE|NAME|START|END|LOW|HIGH|SEPARATION|SHAPE|NFDC-ID|NFDC-NAME|DAFIF-ID|DAFIF-NAME`,
/// with times as `yymmddHHMM` and altitudes in hundreds of feet.
public struct SUARecord: Hashable, Sendable {
    /// Validation time `ddhhmm` as sent.
    public var validTime: String
    /// Schedule ID.
    public var scheduleID: String
    /// Airspace catalogue ID.
    public var airspaceID: String
    /// Schedule status: P pending, W waiting to start, H hot (active).
    public var status: String
    /// Airspace type: W warning, R restricted, M MOA, P prohibited, L alert, A ATCAA, I/V/S routes, B/T refuelling, O other.
    public var type: String
    /// Airspace name.
    public var name: String
    /// Start `yymmddHHMM`.
    public var start: String
    /// End `yymmddHHMM`.
    public var end: String
    /// Floor in feet.
    public var floorFt: Int?
    /// Ceiling in feet.
    public var ceilingFt: Int?
    /// Separation rule (A aircraft, O other).
    public var separationRule: String
    /// Shape defined (Y/N).
    public var shapeIndicator: String
    /// Optional NFDC and DAFIF identifiers and names, as sent.
    public var references: [String]

    /// Creates a record.
    public init(validTime: String, scheduleID: String, airspaceID: String, status: String, type: String, name: String,
                start: String, end: String, floorFt: Int?, ceilingFt: Int?, separationRule: String = "A",
                shapeIndicator: String = "Y", references: [String] = []) {
        self.validTime = validTime
        self.scheduleID = scheduleID
        self.airspaceID = airspaceID
        self.status = status
        self.type = type
        self.name = name
        self.start = start
        self.end = end
        self.floorFt = floorFt
        self.ceilingFt = ceilingFt
        self.separationRule = separationRule
        self.shapeIndicator = shapeIndicator
        self.references = references
    }

    /// Parses an SUA text; nil when it is not one (no `SUA ` prefix or fewer than 9 fields).
    public init?(_ text: String) {
        let trimmed = text.hasSuffix("\n") ? String(text.dropLast()) : text
        let f = trimmed.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard f.count >= 9, f[0].hasPrefix("SUA ") else { return nil }
        let head = f[0].split(separator: " ", maxSplits: 2)
        validTime = head.count > 1 ? String(head[1]) : ""
        scheduleID = head.count > 2 ? String(head[2]) : ""
        airspaceID = f[1]
        status = f[2]
        type = f[3]
        name = f[4]
        start = f[5]
        end = f[6]
        floorFt = Int(f[7].filter { $0 != " " }).map { $0 * 100 }
        ceilingFt = Int(f[8].filter { $0 != " " }).map { $0 * 100 }
        separationRule = f.count > 9 ? f[9] : ""
        shapeIndicator = f.count > 10 ? f[10] : ""
        references = f.count > 11 ? Array(f[11...]) : []
    }

    /// The record text.
    public var text: String {
        var fields = ["SUA \(validTime) \(scheduleID)", airspaceID, status, type, name, start, end,
                      floorFt.map { String($0 / 100) } ?? "", ceilingFt.map { String($0 / 100) } ?? "", separationRule, shapeIndicator]
        fields += references
        return fields.joined(separator: "|")
    }
}
