import GatewaySupport
import GatewayRecords
import GatewayDomain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The airspace kind of a NOTAM, from everything that says it together: the Q-code (the Q-line's
/// or the FAA API's `selectionCode`; 2nd and 3rd letters: RT temporary restricted, RP
/// prohibited, RR restricted, RD danger, RM military operating area, WP parachute, WB
/// aerobatics, WU unmanned aircraft, GA/GW GNSS), the text's keywords and designators
/// ("AIRSPACE R7001A ACT", "VANCE 1A MOA", "91.137", "99.7", "PJE"), the classification (an
/// FDC airspace NOTAM is a TFR) and the geometry source (an official polygon on an AIRSPACE
/// NOTAM is airspace even without a more precise word). nil: not an airspace NOTAM (runways,
/// obstacles, navaids, procedures).
package enum AirspaceClassifier {
    /// The kind of `n`, or nil.
    package static func kind(of n: Notam) -> AirspaceKind? {
        let up = " " + String(decoding: n.text.uppercased().utf8.map { $0 == 0x0A ? 0x20 : $0 }, as: UTF8.self) + " "
        if let code = n.selectionCode ?? n.q?.code, let k = kind(qCode: code, text: up) { return k }
        if let k = kind(text: up, issuer: n.issuer, classification: n.classification) { return k }
        if n.geometry?.origin == .official, isAirspaceKeyword(up) { return .other }
        return nil
    }

    /// From the Q-code alone where it is precise; nil for codes that need the text.
    static func kind(qCode code: String, text up: String) -> AirspaceKind? {
        let c = Array(code.uppercased())
        guard c.count >= 3, c[0] == "Q" else { return nil }
        switch String(c[1...2]) {
        case "RT": return .tfr
        case "RP": return .prohibited
        case "RR": return .restricted
        case "RD": return .danger
        case "RM": return .moa
        case "WP": return .parachute
        case "WB": return .aerobatic
        case "WU": return .uas
        case "GA", "GW": return .gps
        default: return nil  // RA (reservation), RO, WE, WM…: the text decides
        }
    }

    static func has(_ up: String, _ words: String...) -> Bool { words.contains { up.has($0) } }

    static func matches(_ up: String, _ pattern: TextPattern) -> Bool {
        pattern.occurs(in: Array(up.utf8))
    }

    /// An airspace NOTAM by its keyword: domestic "…AIRSPACE …", "OR..AIRSPACE".
    static func isAirspaceKeyword(_ up: String) -> Bool {
        has(up, " AIRSPACE ", ".AIRSPACE ", " AIRSPACE.", " SUA ")
    }

    /// From the words.
    static func kind(text up: String, issuer: String?, classification: String?) -> AirspaceKind? {
        let airspace = isAirspaceKeyword(up)
        let fdc = issuer == "FDC" || classification == "FDC"
        if has(up, "TEMPORARY FLIGHT RESTRICTION", " 91.137", " 91.138", " 91.141", " 91.143", " 91.145", " 99.7", "SPECIAL SECURITY INSTRUCTION", " TFR ")
            || fdc && airspace && has(up, "FLIGHT RESTRICTION", "RESTRICTING ALL ACFT", "FLT RESTRICTION") {
            return .tfr
        }
        if has(up, "PROHIBITED AREA") || airspace && matches(up, ClassifierPatterns.prohibited) { return .prohibited }
        if has(up, "RESTRICTED AREA") || airspace && matches(up, ClassifierPatterns.restricted) { return .restricted }
        if has(up, "WARNING AREA") || airspace && matches(up, ClassifierPatterns.warning) { return .warning }
        if has(up, "ALERT AREA") || airspace && matches(up, ClassifierPatterns.alert) { return .alert }
        if has(up, "MOA", "ATCAA", "MILITARY OPERATIONS"), matches(up, ClassifierPatterns.moa) { return .moa }
        if has(up, "DANGER AREA") { return .danger }
        if has(up, " PJE ", "PARACHUTE JUMP", " PARACHUTING ") { return .parachute }
        if has(up, "AEROBATIC") { return .aerobatic }
        if airspace && has(up, " UAS ", "UNMANNED AIRCRAFT", " UA ") { return .uas }
        if has(up, " GPS ", " GNSS ", " WAAS ") && has(up, "UNREL", "NOT BE AVBL", "NOT BE AVAILABLE", " NOT AVBL", " NOT AVAILABLE", "INTERFERENCE", " JAMMING", "TESTING") {
            return .gps
        }
        if has(up, "AIRSPACE CLSD", "FIR CLSD") { return .other }
        return nil
    }
}

/// The classifier's designator patterns, compiled once.
enum ClassifierPatterns {
    static let prohibited = TextPattern(#"\bP-?\d{2,3}[A-Z]?\b"#)
    static let restricted = TextPattern(#"\bR-?\d{3,4}[A-Z]?\d?\b"#)
    static let warning = TextPattern(#"\bW-?\d{2,4}[A-Z]?\b"#)
    static let alert = TextPattern(#"\bA-?\d{3}[A-Z]?\b"#)
    static let moa = TextPattern(#"\b(MOA|MOAS|ATCAA|MILITARY OPERATIONS AREA)\b"#)
}
