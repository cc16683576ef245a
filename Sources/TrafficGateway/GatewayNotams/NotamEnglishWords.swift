import GatewayRecords
/// Word lists the translator reads with: the English words NOTAM texts are written in (shown in
/// lower case; any other upper-case word is a name or an identifier and stays as written), the
/// acronyms that name a system (written "meaning (ACR)" the first time), the status words that
/// end a NOTAM's subject, and the US state codes of FDC texts.
enum NotamEnglishWords {
    /// English words, upper case as NOTAMs write them.
    static let english: Set<String> = [
        "ABOUT", "ABOVE", "ACROSS", "ACTIVE", "ACTIVATED", "ADDITIONAL", "AEROBATIC", "AFTER", "AIRCRAFT", "AIRSPACE", "ALL", "ALONG",
        "ALSO", "ALTERNATE", "ALTITUDE", "AN", "AND", "ANY", "APPROACH", "APPROACHES", "APRON", "ARE", "AREA", "AREAS", "ARRIVAL",
        "AS", "AT", "AUTHORITY", "AVAILABLE", "BALLOON", "BE", "BEACON", "BEFORE", "BEGINNING", "BEING", "BELOW", "BETWEEN", "BIRDS",
        "BOTH", "BRIDGE", "BUILDING", "BUT", "BY", "CAUTION", "CENTER", "CENTERED", "CENTRED", "CHANGE", "CHANGES", "CIRCLING",
        "CLASSIFIES", "CLIMB", "CLOCKWISE", "CLOSED", "CONSTRUCTION", "CONTACT", "COUNTERCLOCKWISE", "CRANE", "CRANES", "DAILY",
        "DAY", "DAYLIGHT", "DEFENSE", "DEFINED", "DEICING", "DEPARTURE", "DEPARTURES", "DESCENT", "DISTANCE", "DRY", "DUE", "DURING",
        "EACH", "EAST", "EDGE", "EFFECT", "EFFECTIVE", "EITHER", "END", "ENTIRE", "EQUIPMENT", "ERECTED", "EXCEPT", "EXCLUDING",
        "FEDERAL", "FEET", "FIELD", "FIREWORKS", "FLAGGED", "FLIGHT", "FLIGHTS", "FOR", "FROM", "FUEL", "GRADIENT", "HAZARD",
        "HEADING", "HEIGHT", "HIGH", "HOURS", "IN", "INCLUDING", "INDEX", "INSTRUCTIONS", "INTO", "IS", "IT", "LAUNCH", "LEFT",
        "LESS", "LIGHT", "LIGHTS", "LIMITED", "LINE", "LOCAL", "LOW", "MAINTENANCE", "MAY", "MARKINGS", "MILITARY", "MINIMUMS",
        "MOORED", "MORE", "MOVEMENT", "MOWING", "NATIONAL", "NIGHT", "NORTH", "NOT", "NOTE", "OBSTACLE", "OBSTACLES", "OF", "ON",
        "ONLY", "OPERATIONS", "OR", "OTHER", "OUTSIDE", "OVER", "PAD", "PARACHUTE", "PER", "PERSONNEL", "PROCEDURE", "PROCEDURES",
        "PROHIBITED", "PURSUANT", "RADIUS", "RAMP", "READ", "REMAIN", "REQUIRED", "RESTRICTED", "RESTRICTION", "RESTRICTIONS",
        "RIGHT", "RUNWAY", "SECTION", "SECURITY", "SIDE", "SOUTH", "SPECIAL", "STACK", "TAKEOFF", "TAXI", "TAXIWAY", "TEMPORARY",
        "TERMINAL", "THAN", "THE", "THEN", "THIS", "TO", "TOWER", "TRANSIENT", "TURBINE", "TURNING", "UNMANNED", "UNTIL", "UP",
        "USE", "WEST", "WHEN", "WILDLIFE", "WIND", "WINGSPAN", "WITH", "WITHIN", "WITHOUT", "WORK", "FREE", "DEFINED", "OPEN",
        "CLOSURE", "REMOVED", "INSTALLED", "UNLIGHTED", "LIGHTED", "STRAIGHT", "MISSED", "VISUAL", "FINAL", "COURSE", "RADAR",
        "REQUIRED", "AUTHORIZED", "NOTAM", "THESE", "THAT", "WHICH", "WILL", "SHALL", "MUST", "ARRIVALS", "INSTRUMENT", "VALID",
        "MARKED", "LIGHTING", "MARKING", "PAINTED", "SNOW", "ICE", "WET", "PATCHY", "THIN", "SLUSH", "SAND", "RUBBER", "MOBILE",
        "VEHICLES", "VEHICLE", "EQUIPMENT", "HANGAR", "GATE", "STAND", "STANDS", "HOLDING", "POSITION", "SHORT", "LONG", "WIDE",
        "WIDTH", "LENGTH", "SIGN", "SIGNS", "GUARD", "STOP", "BAR", "BARS", "ANTENNA", "POLE", "POLES", "TREE", "TREES", "MAST",
        "CHIMNEY", "WIRE", "WIRES", "POWERLINE", "DRONE", "DRONES", "TESTING", "TEST", "EXERCISE", "LAUNCHES", "RECOVERY",
        "SPACE", "ROCKET", "MISSILE", "FIRING", "GUNNERY", "DEMONSTRATION", "SHOW", "AIR", "STADIUM", "EVENT", "FIRE", "FIGHTING",
        "HELICOPTER", "HELICOPTERS", "BALLOONS", "GLIDER", "GLIDERS", "ULTRALIGHT", "CLASS", "SURFACE", "CONTROLLED", "UNCONTROLLED",
        "FREQUENCY", "FREQUENCIES", "SERVICE", "SERVICES", "UNAVAILABLE", "UNUSABLE", "INOPERATIVE", "COMMISSIONED", "DECOMMISSIONED",
        "OBSTRUCTION", "RELOCATED", "REPLACED", "REVISED", "ESTABLISHED", "CANCELLED", "CANCELED", "REFERENCE", "PRIOR", "PERMISSION",
        "TRAINING", "SPRAYING", "AGRICULTURAL", "CROP", "HOLIDAY", "WEEKENDS", "WEEKDAYS", "SUNRISE", "SUNSET", "DAWN", "DUSK",
        "MINUTES", "HOUR", "TIMES", "TIME", "IF", "NO", "YES", "ITS", "THEIR", "WHERE", "EXPECT", "DELAYS", "ADVISED", "BEYOND",
        "INTERFERENCE", "JAMMING", "SIGNAL", "SIGNALS", "UNRELIABLE", "OUTAGE", "OUTAGES", "INCLUDE", "INCLUDES", "CLASSIFIED",
        "AUTHORIZATION", "COORDINATE", "COORDINATED", "PILOTS", "PILOT", "OPERATORS", "OPERATOR", "REMARKS", "WATER", "OBSERVED",
        "TRAFFIC", "CONTROL", "ADVISORY", "AIRPORT", "AIRPORTS", "INFORMATION", "SYSTEM", "SYSTEMS", "WEATHER", "OBSERVING", "RANGE",
        "NAVIGATION", "GUIDANCE", "VERTICAL", "LATERAL", "PRECISION", "PATH", "INDICATOR", "MINIMUM", "MAXIMUM", "ALTITUDES", "ROUTE",
        "CLEARANCE", "DELIVERY", "GROUND", "TOWER", "OPERATING", "HOUR", "SURVEY", "TRANSMITTER", "RECEIVER", "OUTLET", "REMOTE",
        "CIRCLE", "POINT", "POINTS", "BOUNDARY", "BOUNDED", "DESCRIBED", "FOLLOWS", "BEGIN", "BEGINS", "ENDS", "CONTINUE", "CONTINUOUS",
        "WARNING", "ALERT", "DANGER", "CLIMBING", "TURN", "TURNS", "DIRECT", "HOLD", "DESCEND", "MAINTAIN", "PROCEED", "INTERCEPT",
        "JOIN", "CROSS", "CROSSING", "DESCENDING", "NORTHBOUND", "SOUTHBOUND", "EASTBOUND", "WESTBOUND", "INBOUND", "OUTBOUND",
        "INTERMITTENT", "PERIODS", "PERIOD", "ANNOUNCED", "SCHEDULED", "IMMEDIATELY", "EXPECTED", "PLEASE", "CALL", "PHONE", "PRIOR",
        // Issue 44: plain words of FDC procedure and obstacle texts left in capitals ("Change BACKUP
        // ALTIMETER note to read: when local ALTIMETER SETTING not RECEIVED, … INCREASE LPV …").
        "BACKUP", "ALTIMETER", "SETTING", "SETTINGS", "RECEIVED", "INCREASE", "INCREASED", "DECREASE", "DECREASED",
        "CENTERLINE", "DELETE", "DELETED", "ADD", "ADDED", "VISIBILITY", "REDUCTION", "REDUCED", "AMEND", "AMENDED",
        "AMENDMENT", "DECISION", "LOCALIZER", "GLIDESLOPE", "GLIDEPATH", "CREDIT", "CATEGORY", "CATEGORIES", "TEMPORARILY",
        "PERMANENTLY", "NOTICE", "FURTHER", "FOLLOWING", "LOWEST", "HIGHEST", "FIX", "FIXES", "SEGMENT", "SEGMENTS",
        "MISSED", "CLIMB", "CLIMBS", "GRADIENT", "STANDARD", "NONSTANDARD", "TAKEOFF", "LANDING", "LANDINGS", "FEET",
        "NAUTICAL", "MILES", "MILE", "STATUTE", "UNLESS", "OTHERWISE", "SPECIFIED", "PUBLISHED", "CHART", "CHARTS",
        "SUPPLEMENT", "TRAFFIC", "PATTERN", "PATTERNS", "ELEVATION", "THRESHOLD", "DISPLACED", "RELOCATED", "DAMAGED",
        "REPAIR", "REPAIRS", "PAVEMENT", "SHOULDER", "SHOULDERS", "FENCE", "TOWERS", "ANTENNAS", "STRUCTURE", "STRUCTURES",
        "PROPOSED", "ACTUAL", "APPROXIMATELY", "FROM", "BEYOND", "REMAINING", "USABLE", "DISTANCE", "DISTANCES", "DECLARED",
        "DO", "GO", "SO", "WE", "NOTIFY", "REQUEST", "REQUESTS", "ADVISE", "MONITOR", "MONITORED", "UNMONITORED", "ATTENDED", "UNATTENDED",

    ]

    /// Contractions that name a system, written "meaning (ACR)" the first time a text uses them.
    static let acronyms: Set<String> = [
        "ILS", "VOR", "VORTAC", "DME", "NDB", "TACAN", "DVOR", "ATIS", "AWOS", "ASOS", "CTAF", "PAPI", "VASI", "REIL", "ALS", "MALS",
        "MALSF", "MALSR", "SSALR", "SSALF", "SSALS", "HIRL", "MIRL", "LIRL", "RCLL", "TDZL", "RVR", "LPV", "LNAV", "VNAV", "RNAV", "RNP",
        "WAAS", "GBAS", "RCO", "RTR", "PCL", "ARFF", "PPR", "MOA", "TFR", "PJE", "UAS", "LAHSO", "HIWAS", "MDA", "DA", "HAT", "HAA",
        "MEA", "MOCA", "MCA", "MRA", "MAA", "DH", "VDP", "FAF", "IAF", "MAPT", "ODP", "SID", "STAR", "IAP", "TORA", "TODA", "ASDA",
        "LDA", "FICON", "ATC", "ATCT", "FSS", "RAIL", "RLLS", "SDF", "TAR", "ASR", "LLWAS", "RAIM", "GNSS", "TAA", "DER", "ATCAA",
        "SUA", "ADS-B", "IFR", "VFR", "IMC", "VMC", "CFR", "USC", "PCN", "ARP", "MSA", "ATS", "FIR", "CTR", "TMA", "CTA",
        "ARTCC", "CPDLC", "PBN", "HUD", "TDZE",
    ]

    /// Navaid types (the word before one is the navaid's identifier: `OAK VORTAC`).
    static let navaids: Set<String> = ["VOR", "VORTAC", "NDB", "TACAN", "DME", "VOR/DME", "DVOR", "DVOR/DME", "ILS", "LOC", "VOT", "ILS/DME", "LOC/DME", "NDB/DME"]

    /// Words that are never a navaid's identifier though they stand before a navaid type.
    static let notIdentifiers: Set<String> = ["NAV", "RWY", "COM", "SVC", "AD", "AP", "OBST", "THE", "AND", "OR", "TO", "FROM", "FM", "WITH", "OF", "USE", "S", "ON", "IN", "AT", "NO"]

    /// Statuses: the words (one to four) and how they read after "is".
    static let statuses: [([String], String, Bool)] = [
        (["MAY", "NOT", "BE", "AVBL"], "may not be available", false),
        (["MAY", "NOT", "BE", "AVAILABLE"], "may not be available", false),
        (["FLAGGED", "AND", "LGTD"], "flagged and lighted", true),
        (["NOT", "AVBL"], "not available", true), (["NOT", "AVAILABLE"], "not available", true),
        (["NOT", "LGTD"], "not lighted", true), (["NOT", "AUTH"], "not authorized", true), (["NOT", "MNT"], "not monitored", true),
        (["CLSD"], "closed", true), (["CLOSED"], "closed", true), (["U/S"], "out of service", true), (["OTS"], "out of service", true),
        (["UNSERVICEABLE"], "out of service", true), (["INOP"], "inoperative", true), (["UNUSBL"], "unusable", true),
        (["UNUSABLE"], "unusable", true), (["UNAVBL"], "unavailable", true), (["AVBL"], "available", true), (["LGTD"], "lighted", true),
        (["UNLGTD"], "unlighted", true), (["ACT"], "active", true), (["NA"], "not authorized", true), (["UNMNT"], "unmonitored", true),
        (["OBSC"], "obscured", true), (["UNREL"], "unreliable", true), (["DSPLCD"], "displaced", true), (["RSTD"], "restricted", true),
        (["DCMSND"], "decommissioned", true), (["UNSAFE"], "unsafe:", true), (["CMSND"], "commissioned", true), (["ACTIVATED"], "activated", true),
    ]

    /// US state and territory codes (FDC texts: `SALEM, OR`).
    static let states: Set<String> = [
        "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME", "MD",
        "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD",
        "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "PR", "GU", "VI", "AS", "MP",
    ]

    /// Words in airport names, written out (`DENVER INTL` → `DENVER INTERNATIONAL`).
    static let nameWords: [String: String] = [
        "INTL": "INTERNATIONAL", "FLD": "FIELD", "MUNI": "MUNICIPAL", "RGNL": "REGIONAL", "ARPT": "AIRPORT", "MEML": "MEMORIAL",
        "CNTY": "COUNTY", "EXEC": "EXECUTIVE", "AP": "AIRPORT", "NTL": "NATIONAL", "INTERNATL": "INTERNATIONAL",
    ]

    /// Words after which a letter or short word is a designator, not a word (`TWY N`, `AREA A`).
    static let designatorWords: Set<String> = ["TWY", "TWYS", "TAXIWAY", "TAXIWAYS", "RWY", "RWYS", "RUNWAY", "APN", "APRON", "STAND",
                                               "GATE", "HELIPAD", "AREA", "INDEX", "CAT", "CATEGORY", "CLASS", "SECTOR", "PAD", "SPOT"]

    /// Words that open a qualifier rather than name a part (`TWY B BTN TWY B1 AND TWY B3`).
    static let qualifiers: Set<String> = ["BTN", "BETWEEN", "FM", "FROM", "EAST", "WEST", "NORTH", "SOUTH", "AT", "ABEAM", "ADJ", "EXC",
                                          "TO", "FOR", "BYD", "BLW", "ABV", "IN", "ON", "WI", "&", "N", "S", "E", "W", "NE", "NW", "SE",
                                          "SW", "BEYOND", "BELOW", "ABOVE", "WITHIN", "EXCEPT", "DUE", "DLY", "AND"]

    /// Procedure altitudes: a bare number after one is in feet (`MDA 560`).
    static let procedureAltitudes: Set<String> = ["MDA", "DA", "DH", "HAT", "HAA", "MEA", "MOCA", "MCA", "MRA", "MAA", "MTA", "MSA"]
}
