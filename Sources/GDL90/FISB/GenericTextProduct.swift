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
            let words = text.utf8.split(maxSplits: 4, whereSeparator: { $0 == 0x20 || $0 == 0x0A })
            guard let first = words.first else { return (.other, nil) }
            func word(_ i: Int) -> String? { words.count > i ? String(decoding: words[i], as: UTF8.self) : nil }
            let kind: Kind
            switch String(decoding: first, as: UTF8.self) {
            case "METAR": kind = .metar
            case "SPECI": kind = .speci
            case "TAF", "TAF.AMD": kind = .taf
            case "PIREP": kind = .pirep
            case "WINDS": kind = .winds
            default: return (.other, nil)
            }
            var index = 1
            if kind == .taf, let second = word(1), second == "COR" || second == "AMD" { index = 2 }
            if kind == .pirep { index = 3 }
            return (kind, word(index))
        }
    }

    /// The records, in order; empty ones (padding) are dropped.
    public var records: [Record]

    /// Creates a product.
    public init(records: [Record]) { self.records = records }

    /// Decodes the APDU payload.
    public init(_ payload: [UInt8]) {
        let ascii = DLAC.decodeASCII(payload)
        records = ascii.split(separator: 0x1E).compactMap { r in
            guard r.contains(where: { $0 != 0x20 && $0 != 0x0A }) else { return nil }
            return Record(text: String(decoding: r, as: UTF8.self))
        }
    }

    /// The encoded payload: records joined by record separators, each one ended by one.
    public func encode() -> [UInt8] {
        DLAC.encode(records.map { $0.text + String(DLAC.recordSeparator) }.joined())
    }
}
