/// The fields a FIS-B NOTAM text gives away in its first words and its validity group:
/// `NOTAM-D KFWA.07/077 240200Z !FWA 07/077 … 2007240200-2007240400` or
/// `NOTAM-TFR 0/6733 211945Z PART 1 OF 6 … !FDC 0/6733 ZID …`.
package struct NOTAMTextFields: Hashable, Sendable {
    /// Subtype after `NOTAM-`: D, FDC, TFR, TRA, TMOA; D-SUA for a NOTAM-D activating special use
    /// airspace; FIS-B-UNAVAILABLE for the provider's outage notices.
    package var subtype: String?
    /// Number as written (`07/077`, `0/6733`).
    package var number: String?
    /// Accountable location (`KFWA`, or the ARTCC after `!FDC n/nnnn`).
    package var location: String?
    /// Start of the first `YYMMDDHHMM-YYMMDDHHMM` group.
    package var start: Double?
    /// End of that group (nil for PERM).
    package var end: Double?

    /// Parses `text`.
    package init(_ text: String) {
        // Byte-level: these texts run to 1–2 kB and are parsed on every refresh.
        let bytes = Array(text.utf8)
        let words = bytes.split(whereSeparator: { $0 == 0x20 || $0 == 0x0A })
        func string(_ w: ArraySlice<UInt8>) -> String { String(decoding: w, as: UTF8.self) }
        let prefix = Array("NOTAM-".utf8)
        if let first = words.first, first.starts(with: prefix) { subtype = string(first.dropFirst(prefix.count)) }
        if words.count > 1, words[1].contains(0x2F) {
            let w = words[1]
            if let dot = w.firstIndex(of: 0x2E) {
                location = string(w[..<dot])
                number = string(w[(dot + 1)...])
            } else {
                number = string(w)
            }
        }
        if location == nil, let bang = words.firstIndex(where: { $0.first == 0x21 && $0.count > 1 }) {
            let account = words[bang].dropFirst()
            if account.elementsEqual("FDC".utf8) {
                if bang + 2 < words.count, words[bang + 1].contains(0x2F) { location = string(words[bang + 2]) }
            } else {
                location = string(account)
            }
        }
        for w in words where w.count >= 21 && w.count <= 24 {
            let parts = w.split(separator: 0x2D)
            guard parts.count == 2, let s = FISBClock.notamTime(parts[0].prefix(10)) else { continue }
            start = s
            end = FISBClock.notamTime(parts[1].prefix(10))
            break
        }
        if start == nil, let w = words.first(where: { $0.count == 15 && $0.suffix(5).elementsEqual("-PERM".utf8) }) {
            start = FISBClock.notamTime(w.prefix(10))
        }
        // A NOTAM-D activating special use airspace ("… AIRSPACE R-2508 ACT …"), and the FIS-B
        // provider's own "product unavailable" notices.
        if subtype == "D", words.contains(where: { $0.elementsEqual("AIRSPACE".utf8) }),
           words.contains(where: { $0.elementsEqual("ACT".utf8) }) {
            subtype = "D-SUA"
        }
        if subtype == nil, let first = words.first, first.elementsEqual("FIS-B".utf8) { subtype = "FIS-B-UNAVAILABLE" }
    }
}
