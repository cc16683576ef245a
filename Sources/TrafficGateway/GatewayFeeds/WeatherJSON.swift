import GatewaySupport
import GatewayDomain
import GatewayWeather

/// The `decoded` object `/api/weather` gives each station product (issue 42): what the page shows
/// a person instead of the raw text (which stays in `text`, one click away). Times in a report
/// are day-of-month and hour only: they are resolved to the instant nearest the report's own time.
enum WeatherJSON {
    /// The source named for fetched reports.
    static let fetchedSource = AviationWeatherClient.sourceName

    /// A fetched report as the page's weather takes reports: the FIS-B product shape, keyed
    /// `fetched/…`, its outline (advisories) as a polygon.
    static func report(_ r: WeatherRecord) -> FISBReport {
        let kind: FISBReport.Kind
        switch r.kind {
        case .metar: kind = r.text.hasPrefix("SPECI") ? .speci : .metar
        case .taf: kind = .taf
        case .pirep: kind = .pirep
        case .winds: kind = .winds
        case .sigmet: kind = .sigmet
        case .airmet: kind = .airmet
        case .gAirmet: kind = .gAirmet
        case .cwa: kind = .cwa
        }
        var out = FISBReport(key: "fetched/" + r.key, productID: 0, kind: kind, location: r.station, text: r.text, time: r.time,
                             received: r.received, expires: r.expires)
        if r.kind == .sigmet || r.kind == .airmet || r.kind == .gAirmet || r.kind == .cwa {
            out.start = r.time
            out.end = r.expires
        }
        if r.outline.count >= 3 {
            out.geometry = [FISBReport.Shape(shape: "polygon", coordinates: r.outline.map { [$0[1], $0[0]] }, start: r.time, stop: r.expires)]
        } else if let lat = r.latitude, let lon = r.longitude, r.kind == .pirep {
            out.geometry = [FISBReport.Shape(shape: "point", coordinates: [[lon, lat]])]
        }
        return out
    }

    /// The decoded form of `report`, or nil for a kind that has none (or text that is not one).
    static func decoded(_ report: FISBReport) -> String? {
        let reference = report.time ?? report.received
        switch report.kind {
        case .metar, .speci:
            return DecodedMETAR.decode(report.text).map { metar($0) }
        case .taf:
            return DecodedTAF.decode(report.text).map { taf($0, near: reference) }
        case .pirep:
            return DecodedPIREP.decode(report.text).map(pirep)
        case .winds:
            return DecodedWindsAloft.decode(report.text).map { winds($0, near: reference) }
        default:
            return nil
        }
    }

    private static func time(_ t: WeatherDayTime?, near reference: Double) -> String? {
        guard let t, let resolved = FISBClock.resolve(day: t.day, hour: t.hour, minute: t.minute, near: reference) else { return nil }
        return Timestamp.iso8601(resolved)
    }

    private static func wind(_ w: WeatherWind?, into o: inout JSONWriter) {
        guard let w else { return }
        o.add("windDirDeg", w.directionDeg)
        o.add("windVariable", w.isVariable ? true : nil)
        o.add("windKt", w.speedKt)
        o.add("gustKt", w.gustKt)
        if let from = w.variableFrom, let to = w.variableTo { o.add("windVariesFrom", from); o.add("windVariesTo", to) }
        if w.isCalm { o.add("calm", true) }
    }

    private static func conditions(_ c: WeatherConditions, into o: inout JSONWriter) {
        wind(c.wind, into: &o)
        o.add("visibilitySM", c.visibilitySM, decimals: 2)
        if c.visibilityPlus { o.add("visibilityPlus", true) }
        if c.visibilityLessThan { o.add("visibilityLessThan", true) }
        o.addRaw("weather", JSONWriter.array(c.weather.map(quoted)))
        o.addRaw("sky", JSONWriter.array(c.sky.map { sky($0.cover, base: $0.baseFt, cb: $0.isCumulonimbus, tcu: $0.isToweringCumulus) }))
        o.add("clearSky", c.clearSky)
        o.add("ceilingFt", c.ceilingFt)
    }

    /// One sky layer: cover, base and top (feet), cumulonimbus or towering cumulus.
    private static func sky(_ cover: String, base: Int?, top: Int? = nil, cb: Bool = false, tcu: Bool = false) -> String {
        var l = JSONWriter()
        l.add("cover", cover)
        l.add("baseFt", base)
        l.add("topFt", top)
        if cb { l.add("cb", true) }
        if tcu { l.add("tcu", true) }
        return l.result
    }

    private static func quoted(_ s: String) -> String {
        var out = ""
        JSONWriter.appendQuoted(s, to: &out)
        return out
    }

    static func metar(_ m: DecodedMETAR) -> String {
        var o = JSONWriter()
        o.add("station", m.station)
        conditions(m.conditions, into: &o)
        o.add("temperatureC", m.bestTemperatureC, decimals: 1)
        o.add("dewpointC", m.bestDewpointC, decimals: 1)
        o.add("altimeterInHg", m.altimeterInHg, decimals: 2)
        o.add("altimeterHPa", m.altimeterHPa)
        o.add("category", m.flightCategory)
        o.add("auto", m.isAuto ? true : nil)
        o.add("summary", m.summary)
        return o.result
    }

    static func taf(_ t: DecodedTAF, near reference: Double) -> String {
        var o = JSONWriter()
        o.add("station", t.station)
        o.add("validFrom", time(t.validFrom, near: reference))
        o.add("validTo", time(t.validTo, near: reference))
        o.addRaw("periods", JSONWriter.array(t.periods.map { p in
            var w = JSONWriter()
            w.add("kind", p.kind)
            w.add("probability", p.probability)
            w.add("start", time(p.start, near: reference))
            w.add("end", time(p.end, near: reference))
            conditions(p.conditions, into: &w)
            w.add("category", p.flightCategory)
            w.add("summary", p.summary)
            return w.result
        }))
        return o.result
    }

    static func pirep(_ p: DecodedPIREP) -> String {
        var o = JSONWriter()
        if p.isUrgent { o.add("urgent", true) }
        o.add("location", p.location)
        if let h = p.timeHour, let m = p.timeMinute { o.add("timeUTC", Timestamp.pad(h, 2) + Timestamp.pad(m, 2) + "Z") }
        o.add("altitudeFt", p.altitudeFt)
        o.add("altitudeNote", p.altitudeNote)
        o.add("aircraft", p.aircraftType)
        o.addRaw("sky", JSONWriter.array(p.sky.map { sky($0.cover, base: $0.baseFt, top: $0.topFt) }))
        o.add("visibilitySM", p.flightVisibilitySM)
        o.addRaw("weather", JSONWriter.array(p.weather.map(quoted)))
        o.add("temperatureC", p.temperatureC)
        wind(p.wind, into: &o)
        o.add("turbulence", p.turbulence)
        o.add("icing", p.icing)
        o.add("remarks", p.remarks)
        return o.result
    }

    static func winds(_ w: DecodedWindsAloft, near reference: Double) -> String {
        var o = JSONWriter()
        o.add("station", w.station)
        o.add("valid", time(w.valid, near: reference))
        o.addRaw("levels", JSONWriter.array(w.levels.map { l in
            var j = JSONWriter()
            j.add("altitudeFt", l.altitudeFt)
            j.add("directionDeg", l.directionDeg)
            j.add("speedKt", l.speedKt)
            j.add("temperatureC", l.temperatureC)
            if l.isLightAndVariable { j.add("lightAndVariable", true) }
            return j.result
        }))
        return o.result
    }
}
