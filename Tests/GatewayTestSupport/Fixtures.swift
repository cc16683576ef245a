import Foundation

/// The repository's fixtures folder (tests never read ../shared).
package let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fixtures")

/// The NOTAM texts of `fixtures/notams-english.txt` (the plain-English corpus), comments and
/// blank lines left out.
package func englishNotamFixtures() throws -> [String] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures/notams-english.txt")
    return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
}

/// Real-shaped NOTAM texts of each form.
package enum NotamTexts {
    package static let icaoRestricted = """
        A0123/26 NOTAMN
        Q) KZSE/QRRCA/IV/BO/W/000/060/4458N12246W004
        A) KZSE B) 2605161200 C) 2605162000
        E) RESTRICTED AREA R-DEMO ACT WI AN AREA DEFINED AS 445634N1224855W-445634N1224318W-450034N1224318W-450034N1224855W
        F) SFC G) 6000FT MSL
        """
    package static let fdcTFR = "!FDC 6/2174 ZSE OR..AIRSPACE SALEM, OR..TEMPORARY FLIGHT RESTRICTIONS WI AN AREA DEFINED AS 3NM RADIUS OF 473624N1222007W (SEA) SFC-3000FT MSL EFFECTIVE 2605161300 UTC UNTIL 2605161800 UTC. 2605161300-2605161800"
    package static let runway = "!SLE 05/012 SLE RWY 13/31 CLSD 2605160800-2605170800"
    package static let perm = "!UBG 12/001 UBG NAV VOR U/S 2512010000-PERM"
    package static let estimated = "!PDX 05/101 PDX TWY C CLSD EXC TAX ACFT WINGSPAN LESS THAN 79FT 2605160600-2605201400EST"
    package static let replacement = """
        A0456/26 NOTAMR A0400/26
        Q) EGTT/QMRLC/IV/NBO/A/000/999/5128N00028W005
        A) EGLL B) 2605150600 C) 2605152200 EST
        E) RWY 09L/27R CLSD DUE WIP
        """
    package static let cancel = """
        A0457/26 NOTAMC A0456/26
        Q) EGTT/QMRXX/IV/NBO/A/000/999/5128N00028W005
        A) EGLL B) 2605151000
        E) REF RWY CLOSURE CNL
        """
    package static let prohibited = """
        A0001/26 NOTAMN
        Q) UMMV/QRPCA/IV/BO/W/000/999/5350N02734E010
        A) UMMV B) 2605010000 C) PERM
        E) PROHIBITED AREA ACT 10NM RADIUS OF 535000N0273400E
        F) SFC G) UNL
        """
    /// Messy: empty Q-line fields, no C) item.
    package static let messy = """
        A1111/26 NOTAMN
        Q) KZOA//IV/M//000/999/
        A) KSFO B) 2605161200
        E) OBST CRANE 374300N1222200W 250FT AGL LGTD
        """
}

/// A real-shaped FAA NOTAM API feature.
package func apiFeature(number: String, text: String, simple: String? = nil, selection: String? = nil, classification: String = "DOM",
                        geometry: String = #"{"type":"GeometryCollection","geometries":[]}"#, extra: String = "",
                        start: String = "2026-05-16T13:00:00Z", end: String = "2026-05-16T18:00:00Z") -> String {
    let esc = { (s: String) in s.replacingOccurrences(of: "\"", with: "\\\"") }
    return """
        {"type":"Feature","properties":{"coreNOTAMData":{"notam":{"id":"N-\(number)","series":"","number":"\(number)","type":"N",\
        "issued":"2026-05-15T18:00:00Z","affectedFIR":"KZSE","location":"ZSE","effectiveStart":"\(start)","effectiveEnd":"\(end)",\
        "text":"\(esc(text))","classification":"\(classification)","accountId":"ZSE"\(selection.map { ",\"selectionCode\":\"\($0)\"" } ?? "")\(extra)},\
        "notamTranslation":[{"type":"LOCAL_FORMAT","simpleText":"\(esc(simple ?? "!ZSE \(number) ZSE \(text) 2605161300-2605161800"))"}]}},\
        "geometry":\(geometry)}
        """
}
