/// What a picture's palette indices mean for one kind: each bin value is mapped to an index
/// (NEXRAD: the intensity itself), each index has a label and a colour, and the indices that mean
/// "nothing" (no echo, no data) are transparent.
public struct RadarLevels: Sendable {
    /// One documented index.
    public struct Level: Sendable, Equatable {
        /// The palette index.
        public var index: Int
        /// What it means.
        public var label: String
        /// Its colour, `#rrggbb`.
        public var color: String
    }

    /// The documented indices, in order (the `.json`'s `levels`).
    public let levels: [Level]
    /// The transparent indices.
    public let transparent: Set<Int>
    /// Bin value → palette index (256 entries).
    private let map: [UInt8]
    /// Bin values the product defines (256 entries).
    private let defined: [Bool]

    /// RGB triples, one an index from 0 to the last documented one.
    public var palette: [(UInt8, UInt8, UInt8)] {
        let count = (levels.map(\.index).max() ?? 0) + 1
        var out = [(UInt8, UInt8, UInt8)](repeating: (0, 0, 0), count: count)
        for l in levels { out[l.index] = Self.rgb(l.color) }
        return out
    }

    /// The palette index of bin value `value`.
    @inline(__always)
    public func index(_ value: UInt8) -> UInt8 { map[Int(value)] }

    /// Whether the product defines bin value `value` (others are counted and drawn as 0).
    @inline(__always)
    public func defines(_ value: UInt8) -> Bool { defined[Int(value)] }

    init(_ levels: [(Int, String, String)], transparent: Set<Int>, defined: (UInt8) -> Bool, map: (UInt8) -> Int) {
        self.levels = levels.map { Level(index: $0.0, label: $0.1, color: $0.2) }
        self.transparent = transparent
        let top = levels.map(\.0).max() ?? 0
        self.defined = (0...255).map { defined(UInt8($0)) }
        self.map = (0...255).map { v in defined(UInt8(v)) ? UInt8(clamping: min(top, max(0, map(UInt8(v))))) : 0 }
    }

    private static func rgb(_ hex: String) -> (UInt8, UInt8, UInt8) {
        let v = UInt32(hex.dropFirst(), radix: 16) ?? 0
        return (UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF))
    }

    /// The levels of `kind`.
    public static func of(_ kind: RadarKind) -> RadarLevels {
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

    /// Regional NEXRAD (DO-358B): the 3-bit intensity as transmitted; 0 (below 5 dBZ) is no echo.
    static let nexradRegional = RadarLevels(
        [(0, "< 5 dBZ (no echo)", reflectivity[0]), (1, "5–20 dBZ", reflectivity[1]), (2, "20–30 dBZ", reflectivity[2]),
         (3, "30–40 dBZ", reflectivity[3]), (4, "40–45 dBZ", reflectivity[4]), (5, "45–50 dBZ", reflectivity[5]),
         (6, "50–55 dBZ", reflectivity[6]), (7, "≥ 55 dBZ", reflectivity[7])],
        transparent: [0], defined: { $0 <= 7 }, map: { Int($0) })

    /// CONUS NEXRAD: 0 no data and 1 below 20 dBZ (a fifth of the country) are transparent.
    static let nexradCONUS = RadarLevels(
        [(0, "no data", reflectivity[0]), (1, "< 20 dBZ", "#a0d8a0"), (2, "20–30 dBZ", reflectivity[2]),
         (3, "30–40 dBZ", reflectivity[3]), (4, "40–45 dBZ", reflectivity[4]), (5, "45–50 dBZ", reflectivity[5]),
         (6, "50–55 dBZ", reflectivity[6]), (7, "≥ 55 dBZ", reflectivity[7])],
        transparent: [0, 1], defined: { $0 <= 7 }, map: { Int($0) })

    /// Lightning: the 3-bit strike-count band (the polarity bit is not drawn).
    static let lightning = RadarLevels(
        [(0, "no lightning", "#000000"), (1, "1 strike", "#fff3a0"), (2, "2 strikes", "#ffe14d"), (3, "3–5 strikes", "#ffc400"),
         (4, "6–10 strikes", "#ff9100"), (5, "11–15 strikes", "#ff5500"), (6, "16–20 strikes", "#e60000"), (7, "> 20 strikes", "#b00060")],
        transparent: [0], defined: { $0 <= 15 }, map: { Int($0 & 7) })

    /// Cloud tops: the 4-bit level (0 no cloud or no data, then 1,500 ft steps... see `cloudTopLabel`).
    static let cloudTops = RadarLevels(
        (0...15).map { ($0, cloudTopLabel($0), cloudTopColor($0)) },
        transparent: [0, 15], defined: { $0 <= 15 }, map: { Int($0) })

    /// Icing: severity (the value's severity bits).
    static let icing = RadarLevels(
        [(0, "none", "#000000"), (1, "trace", "#bfe6ff"), (2, "light", "#7fc8ff"), (3, "moderate", "#2f8fff"),
         (4, "severe", "#1c3fd0"), (5, "heavy", "#7a1cd0"), (6, "reserved", "#999999"), (7, "no data", "#555555")],
        transparent: [0, 7], defined: { _ in true }, map: { Int($0 >> 3 & 7) })

    /// Turbulence: the 4-bit EDR level (15 no data).
    static let turbulence = RadarLevels(
        (0...15).map { ($0, turbulenceLabel($0), turbulenceColor($0)) },
        transparent: [0, 15], defined: { $0 <= 15 }, map: { Int($0) })

    static func cloudTopLabel(_ level: Int) -> String {
        switch level {
        case 0: "no cloud"
        case 15: "no data"
        default: "\(level * 1500 / 1000 * 1000)… ft"
        }
    }

    static func cloudTopColor(_ level: Int) -> String {
        let shades = ["#000000", "#f4f4f4", "#e6e6e6", "#d8d8d8", "#cacaca", "#bcbcbc", "#aeaeae", "#a0a0ff", "#8c8cff", "#7878ff",
                      "#6464ff", "#5050f0", "#3c3ce0", "#2828d0", "#1414c0", "#000000"]
        return shades[level]
    }

    static func turbulenceLabel(_ level: Int) -> String {
        switch level {
        case 0: "EDR < 0.07 (none)"
        case 15: "no data"
        default: "EDR \(level)"
        }
    }

    static func turbulenceColor(_ level: Int) -> String {
        let shades = ["#000000", "#fff0b0", "#ffe080", "#ffd050", "#ffc020", "#ffa000", "#ff8000", "#ff6000", "#ff4000",
                      "#f02000", "#e00000", "#c00020", "#a00040", "#800060", "#600080", "#000000"]
        return shades[level]
    }
}
