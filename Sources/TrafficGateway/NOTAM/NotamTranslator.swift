/// NOTAM contractions in plain English (the FAA's and ICAO's common ones): word by word, so
/// `RWY 13/31 CLSD` reads "runway 13/31 closed"; numbers, identifiers and unknown words stay.
public enum NotamTranslator {
    /// Contraction → meaning.
    public static let abbreviations: [String: String] = [
        "ABV": "above", "ACFT": "aircraft", "ACT": "active", "AD": "aerodrome", "ADJ": "adjacent", "AGL": "above ground level",
        "ALS": "approach lighting system", "ALT": "altitude", "AMDT": "amendment", "AMSL": "above mean sea level", "APCH": "approach",
        "APN": "apron", "APP": "approach control", "APRX": "approximately", "ARFF": "aircraft rescue and fire fighting", "ARR": "arrival",
        "ASDA": "accelerate-stop distance available", "ATC": "air traffic control", "ATIS": "automatic terminal information service",
        "ATS": "air traffic services", "AUTH": "authorized", "AVBL": "available", "AWOS": "automated weather observing system",
        "BA": "braking action", "BCN": "beacon", "BLW": "below", "BTN": "between", "CAT": "category", "CL": "centreline",
        "CLSD": "closed", "CNL": "cancelled", "COM": "communications", "CONST": "construction", "CTAF": "common traffic advisory frequency",
        "CTC": "contact", "CTN": "caution", "CTR": "control zone", "DCT": "direct", "DEP": "departure", "DLY": "daily",
        "DME": "distance measuring equipment", "DSPLCD": "displaced", "E": "east", "EFF": "effective", "ELEV": "elevation",
        "ENG": "engine", "EST": "estimated", "EXC": "except", "FAC": "facility", "FAF": "final approach fix", "FICON": "field condition",
        "FIR": "flight information region", "FL": "flight level", "FLT": "flight", "FM": "from", "FREQ": "frequency", "FRI": "Friday",
        "FT": "feet", "GND": "ground", "GP": "glide path", "GPS": "GPS", "HEL": "helicopter", "HGT": "height", "HR": "hours",
        "IAP": "instrument approach procedure", "ILS": "instrument landing system", "INOP": "inoperative", "INT": "intersection",
        "LAT": "latitude", "LDA": "landing distance available", "LGT": "light", "LGTD": "lighted", "LGTS": "lights", "LOC": "localizer",
        "LONG": "longitude", "MAINT": "maintenance", "MAX": "maximum", "MIL": "military", "MIN": "minimum", "MNM": "minimum",
        "MON": "Monday", "MSL": "mean sea level", "N": "north", "NAV": "navigation", "NDB": "non-directional beacon", "NM": "nautical miles",
        "NML": "normal", "NXT": "next", "OBST": "obstacle", "OPS": "operations", "OTS": "out of service", "PAPI": "precision approach path indicator",
        "PARL": "parallel", "PERM": "permanent", "PJE": "parachute jumping exercise", "PPR": "prior permission required",
        "PROC": "procedure", "RAI": "runway alignment indicator", "RCL": "runway centreline", "RCLL": "runway centreline lights",
        "REIL": "runway end identifier lights", "RMK": "remark", "RNAV": "area navigation", "RTE": "route", "RWY": "runway",
        "S": "south", "SAT": "Saturday", "SFC": "surface", "SKED": "scheduled", "SR": "sunrise", "SS": "sunset", "STAR": "standard arrival",
        "SUN": "Sunday", "SVC": "service", "TAR": "terminal area radar", "TEMPO": "temporary", "TFC": "traffic", "TFR": "temporary flight restriction",
        "THR": "threshold", "THU": "Thursday", "TIL": "until", "TKOF": "take-off", "TORA": "take-off run available", "TUE": "Tuesday",
        "TWR": "tower", "TWY": "taxiway", "U/S": "unserviceable", "UFN": "until further notice", "UNL": "unlimited", "UNREL": "unreliable",
        "VASI": "visual approach slope indicator", "VFR": "visual flight rules", "VIS": "visibility", "VOR": "VHF omnidirectional range",
        "W": "west", "WED": "Wednesday", "WEF": "with effect from", "WI": "within", "WIP": "work in progress", "WKDAYS": "weekdays",
        "WKEND": "weekend", "WPT": "waypoint", "WX": "weather", "ACTVT": "activated", "AFD": "airport facility directory",
        "APV": "approve", "AWY": "airway", "CRN": "crane", "DECMSND": "decommissioned", "DEG": "degrees", "LRG": "large",
        "NGT": "night", "OBSC": "obscured", "RDL": "radial", "RSTD": "restricted", "SEC": "seconds", "TWEB": "transcribed weather broadcast",
        "UAS": "unmanned aircraft system", "UNMKD": "unmarked", "UNLGTD": "unlighted", "VOLMET": "meteorological information for aircraft in flight",
    ]

    /// Words after which letters are designators, not directions (`TWY N`, `TWY A, B AND N`).
    static let designatorWords: Set<String> = ["TWY", "TWYS", "TAXIWAY", "TAXIWAYS", "RWY", "RWYS", "RUNWAY", "APN", "APRON", "STAND", "GATE", "HELIPAD"]

    /// `text` with every known contraction spelled out, reading each word in its context: the
    /// letters after `TWY` (and the list that follows) stay taxiway names, runway designators
    /// stay as written, and `NM` not after a number (`ALBUQUERQUE, NM`, `NM..AIRSPACE`) is the
    /// state, New Mexico.
    public static func translate(_ text: String) -> String {
        var context = WordContext()
        var out: [String] = []
        for token in text.split(separator: " ", omittingEmptySubsequences: true) {
            // FDC texts glue words with "..": "NM..AIRSPACE ALBUQUERQUE, NM..TEMPORARY".
            var pieces: [String] = []
            for piece in token.components(separatedBy: "..") { pieces.append(context.translate(Substring(piece))) }
            out.append(pieces.joined(separator: ".."))
        }
        return out.joined(separator: " ")
    }

    /// What the previous words say about the next one.
    struct WordContext {
        static let joiners: Set<String> = ["AND", "OR", "&", "-", "BTN", "TO"]
        /// The previous word's core, upper case.
        var previous = ""
        /// Its trailing punctuation.
        var previousTrailing = ""
        /// Inside a list of taxiway or runway designators.
        var inDesignatorList = false

        mutating func translate(_ word: Substring) -> String {
            var core = word
            var trailing = ""
            while let last = core.last, ",.;:()".contains(last) {
                trailing = String(last) + trailing
                core = core.dropLast()
            }
            var leading = ""
            while let first = core.first, first == "(" {
                leading += String(first)
                core = core.dropFirst()
            }
            let upper = core.uppercased()
            defer {
                previous = upper
                previousTrailing = trailing
            }
            // Designators: after TWY/RWY, and a list of them joined by commas, AND, OR, "-".
            if designatorWords.contains(previous) && !upper.isEmpty {
                inDesignatorList = true
                return String(word)
            }
            if inDesignatorList {
                let isDesignator = upper.count == 1
                    || upper.count <= 4 && upper.first.map { $0.isLetter || $0.isNumber } == true && abbreviations[upper] == nil
                if Self.joiners.contains(upper) {
                    return abbreviations[upper] ?? (upper.count > 1 ? upper.lowercased() : String(word))
                }
                if isDesignator && (previousTrailing.contains(",") || Self.joiners.contains(previous)) { return String(word) }
                inDesignatorList = false
            }
            // NM after a number is nautical miles; otherwise the state (after a city, before "..").
            if upper == "NM" && core.uppercased() == core && !(previous.last?.isNumber ?? false) { return leading + "New Mexico" + trailing }
            if let full = abbreviations[upper], core.uppercased() == core { return leading + full + trailing }
            return String(word)
        }
    }
}
