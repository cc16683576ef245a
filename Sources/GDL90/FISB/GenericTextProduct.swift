/// Product 413, generic text: DLAC text holding METAR, SPECI, TAF (and amendments), PIREP and
/// winds-aloft records, separated by record separators. Each record keeps its text as sent.
public struct GenericTextProduct: Hashable, Sendable {
    /// The product ID.
    public static let productID = 413

    /// What a record is, from its first word.
    public enum Kind: String, Hashable, Sendable {
        /// Routine observation.
        case metar = "METAR"
        /// Special observation.
        case speci = "SPECI"
        /// Terminal forecast (also `TAF.AMD` amendments and `TAF COR` corrections).
        case taf = "TAF"
        /// Pilot report.
        case pirep = "PIREP"
        /// Winds and temperatures aloft forecast.
        case winds = "WINDS"
        /// Anything else.
        case other = "OTHER"
    }

    /// One record.
    public struct Record: Hashable, Sendable {
        /// What the record is.
        public var kind: Kind
        /// The station: for METAR/SPECI/TAF/WINDS the word after the type, for a PIREP the
        /// reporting station after the time (the word before it is made up by the ground system).
        public var location: String?
        /// The record text as sent (without the record separator).
        public var text: String

        /// Creates a record; kind and location come from the text.
        public init(text: String) {
            self.text = text
            (kind, location) = Record.classify(text)
        }

        /// True for a TAF amendment (`TAF.AMD`).
        public var isAmendment: Bool { text.hasPrefix("TAF.AMD") }

        /// The report time `ddhhmm` of the record (third word for METAR/SPECI/TAF/PIREP/WINDS),
        /// as day, hour and minute.
        public var reportTime: (day: Int, hour: Int, minute: Int)? {
            let words = text.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: true)
            var index = 2
            if kind == .taf && words.count > 1 && words[1] == "COR" { index = 3 }
            guard words.count > index else { return nil }
            let w = words[index].utf8.prefix(6)
            guard w.count == 6, w.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            let d = w.map { Int($0) - 48 }
            return (d[0] * 10 + d[1], d[2] * 10 + d[3], d[4] * 10 + d[5])
        }

        static func classify(_ text: String) -> (Kind, String?) {
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).prefix(5)
            guard let first = words.first else { return (.other, nil) }
            let kind: Kind
            switch first {
            case "METAR": kind = .metar
            case "SPECI": kind = .speci
            case "TAF", "TAF.AMD": kind = .taf
            case "PIREP": kind = .pirep
            case "WINDS": kind = .winds
            default: return (.other, nil)
            }
            var index = 1
            if kind == .taf && words.count > 1 && (words[1] == "COR" || words[1] == "AMD") { index = 2 }
            if kind == .pirep { index = 3 }
            return (kind, words.count > index ? String(words[index]) : nil)
        }
    }

    /// The records, in order; empty ones (padding) are dropped.
    public var records: [Record]

    /// Creates a product.
    public init(records: [Record]) { self.records = records }

    /// Decodes the APDU payload.
    public init(_ payload: [UInt8]) {
        let text = DLAC.decode(payload)
        records = text.split(separator: DLAC.recordSeparator, omittingEmptySubsequences: true)
            .map { Record(text: String($0)) }
            .filter { !$0.text.allSatisfy { $0 == " " || $0 == "\n" } }
    }

    /// The encoded payload: records joined by record separators, each one ended by one.
    public func encode() -> [UInt8] {
        DLAC.encode(records.map { $0.text + String(DLAC.recordSeparator) }.joined())
    }
}
