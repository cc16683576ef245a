/// The fields a FIS-B NOTAM text gives away in its first words and its validity group:
/// `NOTAM-D KFWA.07/077 240200Z !FWA 07/077 … 2007240200-2007240400` or
/// `NOTAM-TFR 0/6733 211945Z PART 1 OF 6 … !FDC 0/6733 ZID …`.
public struct NOTAMTextFields: Hashable, Sendable {
    /// Subtype after `NOTAM-`: D, FDC, TFR, D-SUA…
    public var subtype: String?
    /// Number as written (`07/077`, `0/6733`).
    public var number: String?
    /// Accountable location (`KFWA`, or the ARTCC after `!FDC n/nnnn`).
    public var location: String?
    /// Start of the first `YYMMDDHHMM-YYMMDDHHMM` group.
    public var start: Double?
    /// End of that group (nil for PERM).
    public var end: Double?

    /// Parses `text`.
    public init(_ text: String) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        if let first = words.first, first.hasPrefix("NOTAM-") { subtype = String(first.dropFirst(6)) }
        if words.count > 1, words[1].contains("/") {
            let w = words[1]
            if let dot = w.firstIndex(of: ".") {
                location = String(w[..<dot])
                number = String(w[w.index(after: dot)...])
            } else {
                number = String(w)
            }
        }
        if location == nil, let bang = words.firstIndex(where: { $0.hasPrefix("!") && $0.count > 1 }) {
            let account = words[bang].dropFirst()
            if account == "FDC" {
                if bang + 2 < words.count, words[bang + 1].contains("/") { location = String(words[bang + 2]) }
            } else {
                location = String(account)
            }
        }
        for w in words where w.utf8.count >= 21 && w.utf8.count <= 24 {
            let parts = w.split(separator: "-")
            guard parts.count == 2, let s = FISBClock.notamTime(parts[0].prefix(10)) else { continue }
            start = s
            end = FISBClock.notamTime(parts[1].prefix(10))
            break
        }
        if start == nil, let w = words.first(where: { $0.hasSuffix("-PERM") && $0.utf8.count == 15 }) {
            start = FISBClock.notamTime(w.prefix(10))
        }
    }
}
