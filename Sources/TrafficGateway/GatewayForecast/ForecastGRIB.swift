import GatewaySupport
import CEccodes

/// One GRIB2 message of a model forecast, decoded by ecCodes (Debian's libeccodes0, loaded on
/// first use): any packing NOAA uses (simple, complex with spatial differencing, JPEG 2000), the
/// grid as the file describes it (a Lambert conformal grid, template 3.30, or a regular
/// latitude/longitude one, 3.0), the values with what GRIB marks missing as nil (NaN here).
package struct ForecastField: Sendable {
    /// Points along a row and rows.
    package var nx: Int, ny: Int
    /// The grid.
    package var grid: ForecastGrid
    /// Values in the file's scanning order, NaN where missing.
    package var values: [Float]
    /// The run (reference time), seconds since 1970.
    package var run: Double
    /// Hours after the run.
    package var forecastHour: Int
    /// ecCodes' short name ("refc").
    package var shortName: String

    /// The value at grid point (i, j) counted from the first grid point, nil when missing or off the grid.
    package func value(i: Int, j: Int) -> Float? {
        guard i >= 0, j >= 0, i < nx, j < ny else { return nil }
        let v = values[j * nx + i]
        return v.isNaN ? nil : v
    }

    /// Valid time.
    package var valid: Double { run + Double(forecastHour) * 3600 }
}

/// Why a GRIB file could not be used, in words that say what to do.
package struct ForecastError: Error, CustomStringConvertible, Equatable {
    /// The sentence.
    package var description: String
    /// An error.
    package init(_ description: String) { self.description = description }
}

/// Reads GRIB2 messages through ecCodes.
package enum ForecastGRIB {
    /// The message in `bytes` (the first, when there are several): refused with a reason when it
    /// is not GRIB2 (an HTML error page, a truncated download), or its grid is of a template this
    /// reader does not draw.
    package static func decode(_ bytes: [UInt8]) throws(ForecastError) -> ForecastField {
        guard skygate_eccodes_load() != 0 else {
            let why = skygate_eccodes_load_error().map { String(cString: $0) } ?? "not found"
            throw ForecastError("ecCodes is not installed (\(why)): sudo apt-get install libeccodes0")
        }
        guard bytes.count >= 16, bytes.starts(with: Array("GRIB".utf8)) else {
            let head = String(decoding: bytes.prefix(60), as: UTF8.self).escapingControlCharacters
            throw ForecastError("not a GRIB file (it begins \(bytes.isEmpty ? "with nothing" : "'\(head)'"))")
        }
        guard bytes[7] == 2 else { throw ForecastError("GRIB edition \(bytes[7]), not 2") }
        // The message's declared length (octets 9–16) against what came: a truncated download.
        let declared = bytes[8..<16].reduce(0) { $0 << 8 | Int($1) }
        guard declared <= bytes.count, bytes[declared - 4..<declared].elementsEqual(Array("7777".utf8)) else {
            throw ForecastError("truncated GRIB message: \(bytes.count) bytes of the \(declared) it declares")
        }
        return try bytes.withUnsafeBytes { raw in Result { () throws(ForecastError) in try read(raw, length: declared) } }.get()
    }

    /// The message at `raw` (its `length` bytes), through ecCodes.
    static func read(_ raw: UnsafeRawBufferPointer, length declared: Int) throws(ForecastError) -> ForecastField {
        do {
            guard let h = skygate_codes_handle_new_from_message(raw.baseAddress, declared) else {
                throw ForecastError("ecCodes could not read the GRIB message")
            }
            defer { skygate_codes_handle_delete(h) }
            func long(_ key: String) -> Int? {
                var v = 0
                return skygate_codes_get_long(h, key, &v) == 0 ? v : nil
            }
            func double(_ key: String) -> Double? {
                var v = 0.0
                return skygate_codes_get_double(h, key, &v) == 0 ? v : nil
            }
            func string(_ key: String) -> String? {
                var buffer = [CChar](repeating: 0, count: 256)
                var length = buffer.count
                guard skygate_codes_get_string(h, key, &buffer, &length) == 0 else { return nil }
                return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            let gridType = string("gridType") ?? "?"
            let grid: ForecastGrid
            let nx: Int, ny: Int
            let scan = ForecastGrid.Scan(iNegative: long("iScansNegatively") == 1, jPositive: long("jScansPositively") == 1,
                                         jConsecutive: long("jPointsAreConsecutive") == 1)
            guard !scan.jConsecutive else { throw ForecastError("columns stored first (jPointsAreConsecutive): not read") }
            switch gridType {
            case "lambert":
                guard let x = long("Nx"), let y = long("Ny"), let lat1 = double("latitudeOfFirstGridPointInDegrees"),
                      let lon1 = double("longitudeOfFirstGridPointInDegrees"), let lov = double("LoVInDegrees"),
                      let latin1 = double("Latin1InDegrees"), let latin2 = double("Latin2InDegrees"),
                      let dx = double("DxInMetres"), let dy = double("DyInMetres") else {
                    throw ForecastError("a Lambert conformal grid without its parameters")
                }
                (nx, ny) = (x, y)
                let radius = double("radius") ?? 6_371_229
                grid = .lambert(LambertConformal(lat1: lat1, lon1: lon1, lov: lov, latin1: latin1, latin2: latin2, dx: dx, dy: dy,
                                                 radius: radius, scan: scan))
            case "regular_ll":
                guard let x = long("Ni"), let y = long("Nj"), let lat1 = double("latitudeOfFirstGridPointInDegrees"),
                      let lon1 = double("longitudeOfFirstGridPointInDegrees"), let di = double("iDirectionIncrementInDegrees"),
                      let dj = double("jDirectionIncrementInDegrees") else {
                    throw ForecastError("a latitude/longitude grid without its parameters")
                }
                (nx, ny) = (x, y)
                grid = .latLon(lat1: lat1, lon1: lon1, di: di, dj: dj, scan: scan)
            default:
                let template = long("gridDefinitionTemplateNumber").map { "template 3.\($0)" } ?? "an unknown template"
                throw ForecastError("a grid of \(template) (\(gridType)): only Lambert conformal (3.30) and latitude/longitude (3.0) grids are drawn")
            }
            guard nx > 0, ny > 0, nx * ny <= 50_000_000 else { throw ForecastError("a grid of \(nx) × \(ny) points: not read") }
            // What GRIB marks missing (the bitmap) comes back as this sentinel, then NaN.
            let missing = 9.999e20
            _ = skygate_codes_set_double(h, "missingValue", missing)
            var count = 0
            guard skygate_codes_get_size(h, "values", &count) == 0, count == nx * ny else {
                throw ForecastError("\(count) values for a grid of \(nx) × \(ny)")
            }
            var doubles = [Double](repeating: 0, count: count)
            var length = count
            let code = skygate_codes_get_double_array(h, "values", &doubles, &length)
            guard code == 0 else { throw ForecastError("ecCodes could not unpack the values: \(String(cString: skygate_codes_get_error_message(Int32(code))))") }
            let values = doubles.map { $0 >= missing * 0.5 ? Float.nan : Float($0) }
            guard let date = long("dataDate"), let time = long("dataTime") else { throw ForecastError("no reference time") }
            let run = Timestamp.midnight(year: date / 10_000, month: date / 100 % 100, day: date % 100) + Double(time / 100 * 3600 + time % 100 * 60)
            let step = long("forecastTime") ?? long("step") ?? 0
            let unit = long("indicatorOfUnitOfTimeRange") ?? 1
            let hours = unit == 0 ? step / 60 : unit == 1 ? step : unit == 2 ? step * 24 : step
            return ForecastField(nx: nx, ny: ny, grid: grid, values: values, run: run, forecastHour: hours, shortName: string("shortName") ?? "?")
        }
    }
}
