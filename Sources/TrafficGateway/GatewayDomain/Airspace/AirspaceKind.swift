import GatewaySupport
/// What kind of airspace an area is, for the alert level it raises: the kinds a pilot must avoid
/// or know about, as NOTAMs and SUA describe them.
package enum AirspaceKind: String, Sendable, CaseIterable, Codable, Comparable {
    /// Temporary flight restriction (14 CFR 91.137, .138, .141, .143, .145; 99.7 security).
    case tfr
    /// Prohibited area (P-xx).
    case prohibited
    /// Restricted area (R-xxxx).
    case restricted
    /// Warning area (W-xxx, over international waters).
    case warning
    /// Alert area (A-xxx, intensive training).
    case alert
    /// Military operations area.
    case moa
    /// Danger area (ICAO).
    case danger
    /// Parachute jumping activity.
    case parachute
    /// Aerobatic activity.
    case aerobatic
    /// Unmanned aircraft activity.
    case uas
    /// GPS/GNSS interference testing or outage.
    case gps
    /// Other airspace a NOTAM restricts (airspace closed, reservations).
    case other

    /// Ranks kinds in declaration order (stable output).
    package static func < (a: AirspaceKind, b: AirspaceKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// The `[alerts]` configuration key that sets this kind's levels (`level_restricted`).
    package var configKey: String { "level_\(rawValue)" }

    /// The reference levels: restricted, prohibited and TFRs warn inside and caution on
    /// predicted entry; MOAs, warning, alert and danger areas caution; activity areas (parachute,
    /// aerobatic, UAS) and GPS interference advise.
    package var defaultLevels: AirspaceAlertLevels {
        switch self {
        case .tfr, .prohibited, .restricted, .other: AirspaceAlertLevels(inside: .warning, entry: .caution, near: .advisory)
        case .moa, .warning, .alert, .danger: AirspaceAlertLevels(inside: .caution, entry: .caution, near: .advisory)
        case .parachute, .aerobatic, .uas, .gps: AirspaceAlertLevels(inside: .advisory, entry: .advisory, near: nil)
        }
    }
}

/// The alert level an area raises when ownship is inside it, predicted to enter it within the
/// look-ahead, or within the lateral/vertical buffers of it (nil: no alert for that case).
package struct AirspaceAlertLevels: Sendable, Equatable, Codable {
    /// Inside the area (laterally and vertically).
    package var inside: AlertLevel?
    /// Predicted to enter within the look-ahead.
    package var entry: AlertLevel?
    /// Within the buffers.
    package var near: AlertLevel?

    /// Levels for the three cases.
    package init(inside: AlertLevel?, entry: AlertLevel?, near: AlertLevel?) {
        self.inside = inside
        self.entry = entry
        self.near = near
    }

    /// The levels an area of a given content severity raised before kinds existed (areas from
    /// GeoJSON files and FIS-B): warning inside, caution on entry, advisory near; a
    /// warning-severity area raises near to caution, a critical one entry to warning too.
    package init(severity: AirspaceArea.Severity) {
        switch severity {
        case .info, .caution: self.init(inside: .warning, entry: .caution, near: .advisory)
        case .warning: self.init(inside: .warning, entry: .caution, near: .caution)
        case .critical: self.init(inside: .warning, entry: .warning, near: .caution)
        }
    }

    /// Parses the configuration form: `"warning"` (inside; entry one step lower, near two), or
    /// `"warning,caution,advisory"` / `"caution,caution,none"` (inside, entry, near).
    package init?(config text: String) {
        let names = text.lowercased().split(separator: ",").map { $0.trimmingWhitespace() }
        func level(_ s: String) -> AlertLevel?? {
            if s == "none" || s == "off" { return .some(nil) }
            guard let l = AlertLevel.allCases.first(where: { $0.description == s }) else { return nil }
            return .some(l)
        }
        switch names.count {
        case 1:
            guard let inside = level(names[0]) else { return nil }
            let lower = { (l: AlertLevel?) -> AlertLevel? in l.flatMap { AlertLevel(rawValue: $0.rawValue - 1) } }
            self.init(inside: inside, entry: lower(inside), near: lower(lower(inside)))
        case 3:
            guard let inside = level(names[0]), let entry = level(names[1]), let near = level(names[2]) else { return nil }
            self.init(inside: inside, entry: entry, near: near)
        default:
            return nil
        }
    }

    /// The configuration form (`warning,caution,advisory`).
    package var configText: String {
        [inside, entry, near].map { $0?.description ?? "none" }.joined(separator: ",")
    }

    /// The NOTAM severity matching the inside level (warning, caution, info).
    package var severity: AirspaceArea.Severity {
        switch inside {
        case .warning: .warning
        case .caution: .caution
        default: .info
        }
    }
}

/// The alert levels of every kind: the reference defaults, changed by `[alerts] level_<kind>`.
package struct AirspaceLevelTable: Sendable, Equatable {
    /// Levels by kind (every kind present).
    package var levels: [AirspaceKind: AirspaceAlertLevels]

    /// The reference defaults.
    package init() {
        levels = Dictionary(uniqueKeysWithValues: AirspaceKind.allCases.map { ($0, $0.defaultLevels) })
    }

    /// The levels for `kind`.
    package subscript(kind: AirspaceKind) -> AirspaceAlertLevels {
        get { levels[kind] ?? kind.defaultLevels }
        set { levels[kind] = newValue }
    }
}
