import GDL90
import GatewaySupport
#if canImport(Glibc)
import Glibc
#endif

/// Synthetic but real-shaped gridded FIS-B weather, built with the project's own encoders: a
/// squall line of thunderstorms moving east across the Willamette Valley near Salem, Oregon on
/// 2026-05-16 (the demo flight's day and place), as two ground stations uplink it.
///
/// - Regional NEXRAD (63) every 2 minutes from 13:56: each station sends the blocks of its own
///   half (west and east of 123° W), interleaved with the other's, each composite while the
///   next observation has already begun on the other station (blocks of two times mixed on the
///   air, as they are in real streams). Blocks with no echo go as empty-block bitmaps.
/// - CONUS NEXRAD (64) at medium scale (5 × 5 bins) at 13:45 and 14:00 over the Northwest.
/// - Lightning (103) at the strongest cells, cloud tops (84), icing (70) at 4,000 and 8,000 ft
///   and turbulence (90) at 6,000 ft: the forecast grids at medium scale.
///
/// What each bin holds comes from one function of position and time (`reflectivity`), so a
/// test can build the expected picture without the encoders.
package enum WeatherSample {
    /// The first uplink's time: 2026-05-16T13:57:00Z.
    package static let startTime = FISBSamples.startTime - 180
    /// Regional observation times: 13:56 to 14:04, every 2 minutes.
    package static let regionalTimes: [Double] = (0..<5).map { FISBSamples.startTime - 240 + Double($0) * 120 }
    /// The regional area: 43.6–46.2° N, 124.8–121.6° W (whole blocks).
    package static let regionalRings = 654..<693
    /// Columns of the regional area (48′ each from 0°: 294 is 124.8° W).
    package static let regionalColumns = 294..<298
    /// The stations: west of 123.2° W (columns 294, 295) and east of it.
    static let stations = [
        UATUplinkHeader(latitude: 45.3, longitude: -123.9, positionValid: true, utcCoupled: true, applicationDataValid: true, slotID: 3, tisbSiteID: 1),
        UATUplinkHeader(latitude: 44.6, longitude: -122.4, positionValid: true, utcCoupled: true, applicationDataValid: true, slotID: 9, tisbSiteID: 2),
    ]

    /// Reflectivity in dBZ at a point and time: a squall line along a north-north-east axis
    /// moving east at 30 kt, its cells strongest near its middle; light rain ahead of it.
    package static func reflectivity(latitude: Double, longitude: Double, time: Double) -> Double {
        let minutes = (time - FISBSamples.startTime) / 60
        // The line's axis passes (44.9 N, 123.35 W) at 14:00, moving east 0.011° a minute.
        let x = (longitude + 123.35 - 0.011 * minutes) * 0.71, y = latitude - 44.9
        let across = x - 0.35 * y, along = y + 0.35 * x
        let core = 60 * exp(-across * across / 0.012) * exp(-along * along / 0.5)
        let cells = 1 + 0.18 * sin(along * 9) * cos(across * 14)
        let stratiform = 30 * exp(-(across + 0.25) * (across + 0.25) / 0.05) * exp(-along * along / 0.9)
        return max(core * cells, stratiform)
    }

    /// The regional NEXRAD intensity (0–7) of a dBZ value.
    package static func intensity(dBZ: Double) -> UInt8 {
        switch dBZ {
        case ..<5: 0
        case ..<20: 1
        case ..<30: 2
        case ..<40: 3
        case ..<45: 4
        case ..<50: 5
        case ..<55: 6
        default: 7
        }
    }

    /// The bins of a block of `productID` at `scale`, each the value at its centre (`value`).
    package static func bins(blockNumber: Int, scale: Int = 0, value: (_ latitude: Double, _ longitude: Double) -> UInt8) -> [UInt8] {
        let block = GriddedBlock(productID: 63, blockNumber: blockNumber, scale: scale, bins: [])
        return (0..<GriddedBlock.binCount).map { i in
            let b = block.binBounds(i)
            return value((b.north + b.south) / 2, (b.west + b.east) / 2)
        }
    }

    /// The blocks of one regional composite at `time`, a station's half (`station` 0 west, 1 east):
    /// blocks with echo as run-length blocks, the others in empty-block bitmaps.
    package static func regionalBlocks(time: Double, station: Int) -> [GriddedBlock] {
        let columns = station == 0 ? regionalColumns.lowerBound ..< regionalColumns.lowerBound + 2 : regionalColumns.lowerBound + 2 ..< regionalColumns.upperBound
        var out: [GriddedBlock] = []
        var empty: [Int] = []
        for ring in regionalRings {
            for column in columns {
                let number = ring * GriddedBlock.blocksPerRing + column
                let values = bins(blockNumber: number) { intensity(dBZ: reflectivity(latitude: $0, longitude: $1, time: time)) }
                if values.allSatisfy({ $0 == 0 }) { empty.append(number) } else { out.append(GriddedBlock(productID: 63, blockNumber: number, bins: values)) }
            }
        }
        // Bitmaps of up to 125 blocks from a reference block (the reference included).
        var i = 0
        while i < empty.count {
            let first = empty[i]
            var j = i + 1
            while j < empty.count, empty[j] <= first + 124 { j += 1 }
            out.append(GriddedBlock(productID: 63, blockNumber: first, emptyBlocks: Array(empty[(i + 1)..<j])))
            i = j
        }
        return out
    }

    /// A medium-scale (5 × 5) grid over the Northwest for product `productID` (at `level` for
    /// icing and turbulence), each bin `value` at its centre.
    static func mediumBlocks(productID: Int, level: Int? = nil, value: (_ latitude: Double, _ longitude: Double) -> UInt8) -> [GriddedBlock] {
        var out: [GriddedBlock] = []
        // Rings 615–730 in 20′ steps (41–48.7° N), columns 285–305 in 4° steps (128–116° W).
        for ring in stride(from: 615, to: 735, by: 5) {
            for column in stride(from: 285, to: 305, by: 5) {
                let number = ring * GriddedBlock.blocksPerRing + column
                let probe = GriddedBlock(productID: productID, blockNumber: number, scale: 1, bins: [])
                let values = (0..<GriddedBlock.binCount).map { i -> UInt8 in
                    let b = probe.binBounds(i)
                    return value((b.north + b.south) / 2, (b.west + b.east) / 2)
                }
                out.append(GriddedBlock(productID: productID, blockNumber: number, scale: 1, altitudeLevel: level, bins: values))
            }
        }
        return out
    }

    /// The CONUS NEXRAD blocks at `time` (0 no data outside the radars' reach, 1 below 20 dBZ).
    package static func conusBlocks(time: Double) -> [GriddedBlock] {
        mediumBlocks(productID: 64) { lat, lon in
            let dbz = reflectivity(latitude: lat, longitude: lon, time: time)
            return lon < -127 ? 0 : max(1, intensity(dBZ: dbz))
        }
    }

    /// Uplink payloads carrying `apdus` (as many as fit in each, in order) from `station`.
    static func uplinks(_ apdus: [APDU], station: UATUplinkHeader) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var frames: [InformationFrame] = []
        var size = UATUplinkHeader.length
        for apdu in apdus {
            var encoded: [UInt8] = []
            InformationFrame.apdu(apdu).encode(into: &encoded)
            if size + encoded.count > FISBUplink.payloadLength, !frames.isEmpty {
                out.append(FISBUplink(header: station, frames: frames).encode())
                frames = []
                size = UATUplinkHeader.length
            }
            frames.append(.apdu(apdu))
            size += encoded.count
        }
        if !frames.isEmpty { out.append(FISBUplink(header: station, frames: frames).encode()) }
        return out
    }

    static func apduTime(_ t: Double) -> APDU.Time {
        let second = Int(t) % 86_400
        return APDU.Time(hour: second / 3600, minute: second / 60 % 60)
    }

    /// The whole sample: (reception time, uplink payload), in time order, from 13:57 to about 14:06.
    package static func timedUplinks() -> [(time: Double, payload: [UInt8])] {
        var out: [(Double, [UInt8])] = []
        // Regional: a composite's two halves are sent from a minute after its time, over 2 minutes,
        // the stations alternating; the next composite begins while this one is still on the air.
        for (n, t) in regionalTimes.enumerated() {
            for station in 0..<2 {
                let apdus = regionalBlocks(time: t, station: station).map { APDU(productID: 63, time: apduTime(t), payload: $0.encode()) }
                let payloads = uplinks(apdus, station: stations[station])
                for (i, p) in payloads.enumerated() {
                    out.append((t + 60 + Double(station) * 0.5 + Double(i) * 110 / Double(payloads.count) + Double(n % 2) * 0.25, p))
                }
            }
        }
        // CONUS at 13:45 (heard from 13:57) and 14:00 (from 14:01).
        for (t, from) in [(FISBSamples.startTime - 900, startTime + 5), (FISBSamples.startTime, FISBSamples.startTime + 70)] {
            let apdus = conusBlocks(time: t).map { APDU(productID: 64, time: apduTime(t), payload: $0.encode()) }
            for (i, p) in uplinks(apdus, station: stations[1]).enumerated() { out.append((from + Double(i) * 1.5 + 0.75, p)) }
        }
        // Lightning where the line is strongest, at 14:00 and 14:04.
        for t in [FISBSamples.startTime, FISBSamples.startTime + 240] {
            var apdus: [APDU] = []
            for ring in regionalRings {
                for column in regionalColumns {
                    let number = ring * GriddedBlock.blocksPerRing + column
                    let values = bins(blockNumber: number) { lat, lon in
                        let dbz = reflectivity(latitude: lat, longitude: lon, time: t)
                        return dbz >= 56 ? UInt8(min(7, Int((dbz - 54) / 1.2))) : 0
                    }
                    guard values.contains(where: { $0 != 0 }) else { continue }
                    apdus.append(APDU(productID: 103, time: apduTime(t), payload: GriddedBlock(productID: 103, blockNumber: number, bins: values).encode()))
                }
            }
            for (i, p) in uplinks(apdus, station: stations[0]).enumerated() { out.append((t + 45 + Double(i), p)) }
        }
        // The forecast grids, valid 14:00, sent from 13:58.
        let valid = FISBSamples.startTime
        var forecast: [APDU] = []
        forecast += mediumBlocks(productID: 84) { lat, lon in
            let dbz = reflectivity(latitude: lat, longitude: lon, time: valid)
            return dbz < 10 ? 0 : UInt8(min(14, 2 + Int(dbz / 6)))
        }.map { APDU(productID: 84, time: apduTime(valid), payload: $0.encode()) }
        for (level, spread) in [(1, 1.0), (3, 0.6)] {
            forecast += mediumBlocks(productID: 70, level: level) { lat, lon in
                let d = (lat - 45.6) * (lat - 45.6) + (lon + 122.2) * (lon + 122.2)
                let severity = d < spread * 0.3 ? 3 : d < spread ? 2 : d < spread * 2 ? 1 : 0
                return UInt8(severity << 3)
            }.map { APDU(productID: 70, time: apduTime(valid), payload: $0.encode()) }
        }
        forecast += mediumBlocks(productID: 90, level: 2) { lat, lon in
            let d = abs(lon + 121.9 + 0.3 * (lat - 45))
            return d < 0.3 ? 6 : d < 0.7 ? 3 : d < 1.2 ? 1 : 0
        }.map { APDU(productID: 90, time: apduTime(valid), payload: $0.encode()) }
        for (i, p) in uplinks(forecast, station: stations[0]).enumerated() { out.append((startTime + 60 + Double(i) * 0.8 + 0.4, p)) }
        // A convective SIGMET over the line and an AIRMET for IFR behind it (text and outline each).
        for (i, p) in advisories().enumerated() { out.append((startTime + 20 + Double(i) * 0.6, p)) }
        return out.sorted { $0.0 < $1.0 }
    }

    /// The advisories' uplinks: SIGMET (product 12) report 41 over the squall line and AIRMET
    /// Sierra (product 11) report 17 for IFR west of it, valid 13:55–16:00Z.
    static func advisories() -> [[UInt8]] {
        let start = TWGOGraphicRecord.Time(month: 5, day: 16, hour: 13, minute: 55)
        let stop = TWGOGraphicRecord.Time(month: 5, day: 16, hour: 16, minute: 0)
        let time = APDU.Time(month: 5, day: 16, hour: 13, minute: 55)
        func polygon(_ points: [(Double, Double)], top: Int) -> TWGOGeometry {
            TWGOGeometry(shape: .polygon, reference: .msl, vertices: points.map { .init(longitude: $0.1, latitude: $0.0, altitudeFt: top) })
        }
        let sigmet = polygon([(45.9, -123.3), (45.9, -122.7), (44.0, -123.3), (44.0, -123.9)], top: 35_000)
        let airmet = polygon([(46.0, -124.3), (46.0, -123.7), (44.2, -124.1), (44.2, -124.6)], top: 8000)
        var out: [[UInt8]] = []
        for (product, number, text, shape) in [
            (12, 41, "CONVECTIVE SIGMET 41W VALID UNTIL 1555Z OR FROM 30NW SEA-20S EUG LINE TS 20NM WIDE MOV FROM 26030KT. TOPS TO FL350.", sigmet),
            (11, 17, "AIRMET SIERRA FOR IFR VALID UNTIL 161600 OR FROM 30W AST TO 20W ONP TO 40SW EUG CIG BLW 010/VIS BLW 3SM BR. CONDS CONTG BYD 16Z.", airmet),
        ] {
            let textRecord = TWGOProduct(location: "", records: .text([TWGOTextRecord(reportNumber: number, reportYear: 26, text: text)]))
            let graphic = TWGOProduct(location: "", records: .graphic([TWGOGraphicRecord(reportNumber: number, reportYear: 26, start: start, stop: stop, geometry: shape)]))
            out.append(FISBUplink(header: stations[0], frames: [.apdu(APDU(productID: product, time: time, payload: textRecord.encode())),
                                                               .apdu(APDU(productID: product, time: time, payload: graphic.encode()))]).encode())
        }
        return out
    }

    /// The sample as dump978 text lines (`+HEX;rs=…;t=…;`), what `fixtures/fisb-weather.978` holds.
    package static func dump978() -> String {
        var text = ""
        for (i, u) in timedUplinks().enumerated() {
            text += "+" + FISBSamples.hex(u.payload) + ";rs=\(12 + i % 9);t=" + JSONWriter.format(u.time, decimals: 3) + ";\n"
        }
        return text
    }
}
