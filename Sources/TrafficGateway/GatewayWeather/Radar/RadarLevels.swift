import GatewaySupport

/// What a picture's palette indices mean for one kind: each bin value is mapped to an index
/// (NEXRAD: the intensity itself), each index has a label and a colour, and the indices that mean
/// "nothing" (no echo, no data) are transparent.
package struct RadarLevels: Sendable {
    /// One documented index.
    package struct Level: Sendable, Equatable {
        /// The palette index.
        package var index: Int
        /// What it means.
        package var label: String
        /// Its colour, `#rrggbb`.
        package var color: String
    }

    /// The documented indices, in order (the `.json`'s `levels`).
    package let levels: [Level]
    /// The transparent indices.
    package let transparent: Set<Int>
    /// Bin value → palette index (256 entries).
    private let map: [UInt8]
    /// Bin values the product defines (256 entries).
    private let defined: [Bool]

    /// RGB triples, one an index from 0 to the last documented one.
    package var palette: [(UInt8, UInt8, UInt8)] {
        let count = (levels.map(\.index).max() ?? 0) + 1
        var out = [(UInt8, UInt8, UInt8)](repeating: (0, 0, 0), count: count)
        for l in levels { out[l.index] = Self.rgb(l.color) }
        return out
    }

    /// The palette index of bin value `value`.
    @inline(__always)
    package func index(_ value: UInt8) -> UInt8 { map[Int(value)] }

    /// Whether the product defines bin value `value` (others are counted and drawn as 0).
    @inline(__always)
    package func defines(_ value: UInt8) -> Bool { defined[Int(value)] }

    /// The index a block announced empty is drawn with.
    package let emptyIndex: UInt8

    init(_ levels: [(Int, String, String)], transparent: Set<Int>, empty: UInt8, defined: (UInt8) -> Bool, map: (UInt8) -> Int) {
        self.levels = levels.map { Level(index: $0.0, label: $0.1, color: $0.2) }
        self.transparent = transparent
        self.emptyIndex = empty
        let top = levels.map(\.0).max() ?? 0
        self.defined = (0...255).map { defined(UInt8($0)) }
        self.map = (0...255).map { v in defined(UInt8(v)) ? UInt8(clamping: min(top, max(0, map(UInt8(v))))) : 0 }
    }

    private static func rgb(_ hex: String) -> (UInt8, UInt8, UInt8) {
        let v = UInt32(hex.dropFirst(), radix: 16) ?? 0
        return (UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF))
    }

    /// The levels of `kind`.
    package static func of(_ kind: RadarKind) -> RadarLevels {
        switch kind {
        case .nexradRegional: nexradRegional
        case .nexradCONUS: nexradCONUS
        case .lightning: lightning
        case .cloudTops: cloudTops
        case .icing: icing
        case .turbulence: turbulence
        }
    }

    // The usual reflectivity colours (light green through red to magenta).
    private static let reflectivity = ["#000000", "#7fd67f", "#2ea62e", "#f2e21d", "#f5a21a", "#e8311a", "#b0101a", "#d81fd8"]

    // Values as DO-358B defines them (through the FAA's SRT-047 and the public decoders
    // fisb-decode and dump978, checked on real recordings: issue 42's note).

    /// Regional NEXRAD: the 3-bit intensity as transmitted; 0 (below 5 dBZ) is no echo. A block
    /// announced empty is all 0.
    static let nexradRegional = RadarLevels(
        [(0, "< 5 dBZ (no echo)", reflectivity[0]), (1, "5–20 dBZ", reflectivity[1]), (2, "20–30 dBZ", reflectivity[2]),
         (3, "30–40 dBZ", reflectivity[3]), (4, "40–45 dBZ", reflectivity[4]), (5, "45–50 dBZ", reflectivity[5]),
         (6, "50–55 dBZ", reflectivity[6]), (7, "≥ 55 dBZ", reflectivity[7])],
        transparent: [0], empty: 0, defined: { $0 <= 7 }, map: { Int($0) })

    /// CONUS NEXRAD: 0 is no data, 1 clear air below 20 dBZ (a fifth of the country), both
    /// transparent; a block announced empty is clear air (1), as the real streams show it (the
    /// regional composite of the same time has no echo there).
    static let nexradCONUS = RadarLevels(
        [(0, "no data", reflectivity[0]), (1, "< 20 dBZ (clear air)", "#a0d8a0"), (2, "20–30 dBZ", reflectivity[2]),
         (3, "30–40 dBZ", reflectivity[3]), (4, "40–45 dBZ", reflectivity[4]), (5, "45–50 dBZ", reflectivity[5]),
         (6, "50–55 dBZ", reflectivity[6]), (7, "≥ 55 dBZ", reflectivity[7])],
        transparent: [0, 1], empty: 1, defined: { $0 <= 7 }, map: { Int($0) })

    /// Lightning: the strike-count band in the low 3 bits (bit 3 is the polarity, not drawn);
    /// 7 is no data.
    static let lightning = RadarLevels(
        [(0, "no lightning", "#000000"), (1, "1 strike", "#fff3a0"), (2, "2 strikes", "#ffe14d"), (3, "3–5 strikes", "#ffc400"),
         (4, "6–10 strikes", "#ff9100"), (5, "11–15 strikes", "#ff4d00"), (6, "> 15 strikes", "#d9006c"), (7, "no data", "#000000")],
        transparent: [0, 7], empty: 0, defined: { $0 <= 15 }, map: { Int($0 & 7) })

    /// Cloud tops: 0 no cloud, 1 below 1,500 ft, then 1,500 ft steps to 15,000 ft (10), 3,000 ft
    /// steps to 24,000 ft (13), 14 above 24,000 ft, 15 no data.
    static let cloudTops = RadarLevels(
        (0...15).map { ($0, cloudTopLabel($0), cloudTopColor($0)) },
        transparent: [0, 15], empty: 0, defined: { $0 <= 15 }, map: { Int($0) })

    /// Icing: the severity bits of `ddsssppp` (SLD, severity, probability); 7 is no data.
    static let icing = RadarLevels(
        [(0, "none", "#000000"), (1, "trace", "#c6e8ff"), (2, "light", "#8cc8ff"), (3, "moderate", "#3c8cff"),
         (4, "severe", "#1c3fd0"), (5, "heavy", "#7a1cd0"), (6, "(undefined)", "#000000"), (7, "no data", "#000000")],
        transparent: [0, 6, 7], empty: 0, defined: { $0 >> 3 & 7 != 6 }, map: { Int($0 >> 3 & 7) })

    /// Turbulence: EDR × 100 in bands of 7 (0 below 7, 14 at 98 and above), 15 no data.
    static let turbulence = RadarLevels(
        (0...15).map { ($0, turbulenceLabel($0), turbulenceColor($0)) },
        transparent: [0, 15], empty: 0, defined: { $0 <= 15 }, map: { Int($0) })

    static func cloudTopLabel(_ level: Int) -> String {
        switch level {
        case 0: "no cloud"
        case 1: "< 1,500 ft"
        case 2...10: "\(thousands((level - 1) * 1500))–\(thousands(level * 1500)) ft"
        case 11...13: "\(thousands(15_000 + (level - 11) * 3000))–\(thousands(18_000 + (level - 11) * 3000)) ft"
        case 14: "> 24,000 ft"
        default: "no data"
        }
    }

    private static func thousands(_ n: Int) -> String {
        n >= 1000 ? "\(n / 1000)," + String(String(n % 1000 + 1000).dropFirst()) : String(n)
    }

    static func cloudTopColor(_ level: Int) -> String {
        let shades = ["#000000", "#f4f4f4", "#e6e6e6", "#d8d8d8", "#cacaca", "#bcbcbc", "#aeaeae", "#a0a0ff", "#8c8cff", "#7878ff",
                      "#6464ff", "#5050f0", "#3c3ce0", "#2828d0", "#1414c0", "#000000"]
        return shades[level]
    }

    static func turbulenceLabel(_ level: Int) -> String {
        switch level {
        case 0: "EDR < 0.07"
        case 1...13: "EDR 0.\(Timestamp.pad(level * 7, 2))–0.\(Timestamp.pad(level * 7 + 7, 2))"
        case 14: "EDR ≥ 0.98"
        default: "no data"
        }
    }

    static func turbulenceColor(_ level: Int) -> String {
        let shades = ["#000000", "#fff0b0", "#ffe080", "#ffd050", "#ffc020", "#ffa000", "#ff8000", "#ff6000", "#ff4000",
                      "#f02000", "#e00000", "#c00020", "#a00040", "#800060", "#600080", "#000000"]
        return shades[level]
    }
}
