import Testing
@testable import GatewayWeather

/// The METAR decoder on hand-decoded reports.
@Suite(.timeLimit(.minutes(5))) struct METARDecoderTests {
    @Test func fisbSample() throws {
        let m = try #require(DecodedMETAR.decode("METAR KSLE 161356Z 34008KT 10SM FEW040 16/06 A3012 RMK AO2 SLP201 T01560061="))
        #expect(m.kind == "METAR")
        #expect(m.station == "KSLE")
        #expect(m.day == 16 && m.hour == 13 && m.minute == 56)
        #expect(!m.isAuto)
        #expect(m.wind == WeatherWind(directionDeg: 340, speedKt: 8))
        #expect(m.visibilitySM == 10)
        #expect(!m.visibilityPlus && !m.visibilityLessThan)
        #expect(m.sky == [WeatherSkyLayer(cover: "FEW", baseFt: 4000)])
        #expect(m.ceilingFt == nil)
        #expect(m.weather.isEmpty)
        #expect(m.temperatureC == 16 && m.dewpointC == 6)
        #expect(m.temperatureTenthsC == 15.6 && m.dewpointTenthsC == 6.1)
        #expect(m.bestTemperatureC == 15.6)
        #expect(m.altimeterInHg == 30.12 && m.altimeterHPa == nil)
        #expect(m.flightCategory == "VFR")
        #expect(m.remarks == "AO2 SLP201 T01560061")
        #expect(m.summary == "Wind 340° 8 kt, visibility 10 SM, few 4,000 ft, 16/6 °C, altimeter 30.12 inHg, VFR")
    }

    @Test func toleratesWhitespaceAndMissingPrefix() throws {
        let m = try #require(DecodedMETAR.decode("  KSLE\n161356Z   34008KT 10SM\r\nFEW040  16/06 A3012=\n"))
        #expect(m.kind == "METAR" && m.station == "KSLE")
        #expect(m.wind?.directionDeg == 340 && m.visibilitySM == 10 && m.altimeterInHg == 30.12)
        #expect(m.remarks == nil && m.temperatureTenthsC == nil && m.bestTemperatureC == 16)
    }

    @Test func gustsAndVariableSector() throws {
        let m = try #require(DecodedMETAR.decode("KDEN 161353Z 24015G25KT 210V270 10SM SCT080 28/M03 A3001"))
        #expect(m.wind == WeatherWind(directionDeg: 240, speedKt: 15, gustKt: 25, variableFrom: 210, variableTo: 270))
        #expect(m.temperatureC == 28 && m.dewpointC == -3)
        #expect(m.flightCategory == "VFR")
        #expect(m.summary.hasPrefix("Wind 240° 15 kt gusting 25 kt (varying 210° to 270°), visibility 10 SM, scattered 8,000 ft, 28/-3 °C"))
    }

    @Test func fractionalVisibilityMistAndCeiling() throws {
        let m = try #require(DecodedMETAR.decode("SPECI KPDX 161410Z 00000KT 1 1/2SM BR BKN008 OVC015 09/08 A3005"))
        #expect(m.kind == "SPECI")
        #expect(m.wind == WeatherWind(speedKt: 0, isCalm: true))
        #expect(m.visibilitySM == 1.5)
        #expect(m.weather == ["mist"])
        #expect(m.sky == [WeatherSkyLayer(cover: "BKN", baseFt: 800), WeatherSkyLayer(cover: "OVC", baseFt: 1500)])
        #expect(m.ceilingFt == 800)
        #expect(m.flightCategory == "IFR")
        #expect(m.summary == "Wind calm, visibility 1 1/2 SM, mist, broken 800 ft, overcast 1,500 ft, 9/8 °C, altimeter 30.05 inHg, IFR")
    }

    @Test func lessThanAQuarterMileInFog() throws {
        let m = try #require(DecodedMETAR.decode("METAR KACV 161356Z 00000KT M1/4SM FG VV001 10/10 A3002"))
        #expect(m.visibilitySM == 0.25 && m.visibilityLessThan)
        #expect(m.weather == ["fog"])
        #expect(m.sky == [WeatherSkyLayer(cover: "VV", baseFt: 100)])
        #expect(m.ceilingFt == 100)
        #expect(m.flightCategory == "LIFR")
        #expect(m.summary.contains("visibility less than 1/4 SM, fog, vertical visibility 100 ft"))
    }

    @Test func thunderstormWithLightRain() throws {
        let m = try #require(DecodedMETAR.decode("METAR KMIA 161353Z 13012G22KT 3SM -TSRA SCT020CB BKN040 OVC100 26/23 A2990"))
        #expect(m.weather == ["thunderstorm with light rain"])
        #expect(m.sky.first == WeatherSkyLayer(cover: "SCT", baseFt: 2000, isCumulonimbus: true))
        #expect(m.ceilingFt == 4000)
        #expect(m.flightCategory == "MVFR")  // 3 SM is not below 3
    }

    @Test func tornadoAndShowersInTheVicinity() throws {
        let m = try #require(DecodedMETAR.decode("METAR KOKC 161353Z 20025G35KT 1/2SM +FC VCSH BKN005CB 22/18 A2950"))
        #expect(m.weather == ["tornado or waterspout", "vicinity showers"])
        #expect(m.visibilitySM == 0.5 && m.ceilingFt == 500)
        #expect(m.flightCategory == "LIFR")
    }

    @Test func weatherWords() {
        let cases: [(String, String?)] = [
            ("-RA", "light rain"), ("+TSRA", "thunderstorm with heavy rain"), ("-TSRA", "thunderstorm with light rain"),
            ("TSRA", "thunderstorm with rain"), ("BR", "mist"), ("VCSH", "vicinity showers"), ("FZDZ", "freezing drizzle"),
            ("-SHRA", "light rain showers"), ("+FC", "tornado or waterspout"), ("FC", "funnel cloud"), ("BLSN", "blowing snow"),
            ("TS", "thunderstorm"), ("VCTS", "vicinity thunderstorm"), ("-RASN", "light rain and snow"), ("MIFG", "shallow fog"),
            ("BCFG", "patches of fog"), ("TSRAGR", "thunderstorm with rain and hail"), ("NSW", "no significant weather"),
            ("AUTO", nil), ("CLR", nil), ("RMK", nil), ("FEW040", nil), ("XX", nil), ("", nil), ("-", nil), ("VC", nil), ("RATS", nil),
        ]
        for (code, english) in cases {
            #expect(WeatherGroups.weather(code) == english, "\(code)")
        }
    }

    @Test func cavokWithQNH() throws {
        let m = try #require(DecodedMETAR.decode("METAR EGLL 161350Z 24008KT CAVOK 18/09 Q1013 NOSIG="))
        #expect(m.isCAVOK && m.clearSky == "CAVOK")
        #expect(m.visibilityMetres == 9999 && m.visibilitySM == 6.21 && m.visibilityPlus)
        #expect(m.sky.isEmpty && m.ceilingFt == nil)
        #expect(m.altimeterHPa == 1013 && m.altimeterInHg == 29.91)
        #expect(m.flightCategory == "VFR")
        #expect(m.summary == "Wind 240° 8 kt, CAVOK, 18/9 °C, QNH 1013 hPa, VFR")
    }

    @Test func metricVisibility() throws {
        let paris = try #require(DecodedMETAR.decode("METAR LFPG 161400Z 27010KT 9999 FEW030 BKN045 15/08 Q1018"))
        #expect(paris.visibilityMetres == 9999 && paris.visibilitySM == 6.21 && paris.visibilityPlus)
        #expect(paris.ceilingFt == 4500 && paris.flightCategory == "VFR")
        #expect(paris.altimeterHPa == 1018 && paris.altimeterInHg == 30.06)
        let fog = try #require(DecodedMETAR.decode("METAR EDDF 161350Z 05004KT 0800 FG VV002 04/04 Q1021"))
        #expect(fog.visibilityMetres == 800 && fog.visibilitySM == 0.5 && !fog.visibilityPlus)
        #expect(fog.flightCategory == "LIFR")
        #expect(fog.summary.contains("visibility 800 m, fog"))
    }

    @Test func negativeTemperatures() throws {
        let m = try #require(DecodedMETAR.decode("METAR KBTV 161354Z 36010KT 10SM FEW250 M02/M05 A3030 RMK AO2 T10221050"))
        #expect(m.temperatureC == -2 && m.dewpointC == -5)
        #expect(m.temperatureTenthsC == -2.2 && m.dewpointTenthsC == -5.0)
        #expect(m.summary.contains("-2/-5 °C"))
    }

    @Test func missingFields() throws {
        let m = try #require(DecodedMETAR.decode("KSLE 161356Z"))
        #expect(m.station == "KSLE" && m.day == 16)
        #expect(m.wind == nil && m.visibilitySM == nil && m.sky.isEmpty && m.temperatureC == nil && m.altimeterInHg == nil)
        #expect(m.flightCategory == nil)
        #expect(m.summary == "")
        #expect(DecodedMETAR.decode("") == nil)
        #expect(DecodedMETAR.decode("METAR") == nil)
        #expect(DecodedMETAR.decode("METAR 161356Z 34008KT") == nil)
    }

    @Test func autoWithMissingGroups() throws {
        let m = try #require(DecodedMETAR.decode("METAR KXYZ 161355Z AUTO /////KT ////SM // ////// M01/M03 A2992 RMK AO2 PWINO"))
        #expect(m.isAuto)
        #expect(m.wind == nil && m.visibilitySM == nil && m.weather.isEmpty && m.sky.isEmpty)
        #expect(m.temperatureC == -1 && m.dewpointC == -3 && m.altimeterInHg == 29.92)
        #expect(m.flightCategory == nil)
        #expect(m.remarks == "AO2 PWINO")
    }

    @Test func flightCategoryThresholds() throws {
        func category(ceiling: Int?, visibility: Double?) -> String? {
            WeatherGroups.flightCategory(ceilingFt: ceiling, hasSky: ceiling != nil, visibilitySM: visibility)
        }
        #expect(category(ceiling: 499, visibility: 10) == "LIFR")
        #expect(category(ceiling: 500, visibility: 10) == "IFR")
        #expect(category(ceiling: 999, visibility: 10) == "IFR")
        #expect(category(ceiling: 1000, visibility: 10) == "MVFR")
        #expect(category(ceiling: 3000, visibility: 10) == "MVFR")
        #expect(category(ceiling: 3100, visibility: 10) == "VFR")
        #expect(category(ceiling: nil, visibility: 0.75) == "LIFR")
        #expect(category(ceiling: nil, visibility: 1) == "IFR")
        #expect(category(ceiling: nil, visibility: 2.5) == "IFR")
        #expect(category(ceiling: nil, visibility: 3) == "MVFR")
        #expect(category(ceiling: nil, visibility: 5) == "MVFR")
        #expect(category(ceiling: nil, visibility: 6) == "VFR")
        #expect(category(ceiling: nil, visibility: nil) == nil)
        #expect(category(ceiling: 5000, visibility: nil) == "VFR")
        #expect(WeatherGroups.flightCategory(ceilingFt: nil, hasSky: false, visibilitySM: 1, visibilityLessThan: true) == "LIFR")
        let reports = [
            ("KX 161355Z 00000KT 5SM HZ BKN031 12/10 A3009", "MVFR"), ("KX 161355Z 00000KT 6SM BKN031 12/10 A3009", "VFR"),
            ("KX 161355Z 00000KT 3SM BKN010 12/10 A3009", "MVFR"), ("KX 161355Z 00000KT 1SM BR OVC005 12/10 A3009", "IFR"),
            ("KX 161355Z 00000KT 10SM OVC004 12/10 A3009", "LIFR"), ("KX 161355Z 00000KT 10SM CLR 12/10 A3009", "VFR"),
            ("KX 161355Z 00000KT 2 3/4SM BR SCT050 12/10 A3009", "IFR"),
        ]
        for (text, expected) in reports {
            #expect(DecodedMETAR.decode(text)?.flightCategory == expected, "\(text)")
        }
    }
}

/// The TAF decoder on hand-decoded forecasts.
@Suite(.timeLimit(.minutes(5))) struct TAFDecoderTests {
    @Test func amendedWithFM() throws {
        let t = try #require(DecodedTAF.decode("TAF.AMD KPDX 161340Z 1614/1718 33010KT P6SM SCT050\n     FM170000 32012KT P6SM BKN060="))
        #expect(t.station == "KPDX" && t.isAmended && !t.isCorrected)
        #expect(t.issued == WeatherDayTime(day: 16, hour: 13, minute: 40))
        #expect(t.validFrom == WeatherDayTime(day: 16, hour: 14) && t.validTo == WeatherDayTime(day: 17, hour: 18))
        #expect(t.periods.map(\.kind) == ["base", "FM"])
        let base = t.periods[0], fm = t.periods[1]
        #expect(base.start == WeatherDayTime(day: 16, hour: 14) && base.end == WeatherDayTime(day: 17, hour: 0))
        #expect(base.wind == WeatherWind(directionDeg: 330, speedKt: 10))
        #expect(base.visibilitySM == 6 && base.visibilityPlus)
        #expect(base.sky == [WeatherSkyLayer(cover: "SCT", baseFt: 5000)] && base.ceilingFt == nil)
        #expect(base.flightCategory == "VFR")
        #expect(fm.start == WeatherDayTime(day: 17, hour: 0, minute: 0) && fm.end == WeatherDayTime(day: 17, hour: 18))
        #expect(fm.wind == WeatherWind(directionDeg: 320, speedKt: 12))
        #expect(fm.ceilingFt == 6000 && fm.flightCategory == "VFR")
        #expect(fm.text == "32012KT P6SM BKN060")
        #expect(base.summary == "Wind 330° 10 kt, visibility more than 6 SM, scattered 5,000 ft, VFR")
    }

    @Test func tempoAndFM() throws {
        let t = try #require(DecodedTAF.decode("TAF KSLE 161130Z 1612/1712 VRB03KT P6SM SKC TEMPO 1612/1614 3SM BR BKN008 FM161800 34010KT P6SM FEW050"))
        #expect(!t.isAmended)
        #expect(t.periods.map(\.kind) == ["base", "TEMPO", "FM"])
        let base = t.periods[0], tempo = t.periods[1], fm = t.periods[2]
        #expect(base.wind == WeatherWind(isVariable: true, speedKt: 3))
        #expect(base.conditions.clearSky == "SKC" && base.flightCategory == "VFR")
        #expect(base.end == WeatherDayTime(day: 16, hour: 18))
        #expect(tempo.start == WeatherDayTime(day: 16, hour: 12) && tempo.end == WeatherDayTime(day: 16, hour: 14))
        #expect(tempo.visibilitySM == 3 && tempo.weather == ["mist"] && tempo.ceilingFt == 800)
        #expect(tempo.flightCategory == "IFR")
        #expect(fm.start == WeatherDayTime(day: 16, hour: 18, minute: 0) && fm.end == WeatherDayTime(day: 17, hour: 12))
        #expect(fm.sky == [WeatherSkyLayer(cover: "FEW", baseFt: 5000)] && fm.flightCategory == "VFR")
    }

    @Test func everyChangeGroup() throws {
        let t = try #require(DecodedTAF.decode("""
            TAF KXYZ 161720Z 1618/1718 18012KT 5SM -RA OVC020
              TEMPO 1618/1620 2SM RA BR
              BECMG 1620/1622 20010KT P6SM BKN040
              PROB30 1700/1704 1SM TSRA BKN008CB
              FM170600 22008KT P6SM SCT050
              PROB40 TEMPO 1710/1714 3SM SHRA
            """))
        #expect(t.periods.map(\.kind) == ["base", "TEMPO", "BECMG", "PROB30", "FM", "PROB40 TEMPO"])
        #expect(t.periods.map(\.flightCategory) == ["MVFR", "IFR", "VFR", "IFR", "VFR", "MVFR"])
        let base = t.periods[0]
        #expect(base.weather == ["light rain"] && base.ceilingFt == 2000 && base.end == WeatherDayTime(day: 17, hour: 6))
        let tempo = t.periods[1]
        #expect(tempo.weather == ["rain", "mist"] && tempo.visibilitySM == 2)
        #expect(tempo.ceilingFt == nil && tempo.sky.isEmpty)  // stated only; the category inherits OVC020
        let becmg = t.periods[2]
        #expect(becmg.start == WeatherDayTime(day: 16, hour: 20) && becmg.end == WeatherDayTime(day: 16, hour: 22))
        #expect(becmg.wind?.directionDeg == 200 && becmg.ceilingFt == 4000)
        let prob = t.periods[3]
        #expect(prob.probability == 30 && prob.start == WeatherDayTime(day: 17, hour: 0) && prob.end == WeatherDayTime(day: 17, hour: 4))
        #expect(prob.weather == ["thunderstorm with rain"] && prob.sky == [WeatherSkyLayer(cover: "BKN", baseFt: 800, isCumulonimbus: true)])
        let fm = t.periods[4]
        #expect(fm.start == WeatherDayTime(day: 17, hour: 6) && fm.end == WeatherDayTime(day: 17, hour: 18))
        let last = t.periods[5]
        #expect(last.probability == 40 && last.start == WeatherDayTime(day: 17, hour: 10) && last.end == WeatherDayTime(day: 17, hour: 14))
        #expect(last.weather == ["rain showers"] && last.visibilitySM == 3)
    }

    @Test func periodsInheritPrevailingConditions() throws {
        // A TEMPO with only a ceiling under P6SM.
        let a = try #require(DecodedTAF.decode("TAF KAAA 161130Z 1612/1712 27005KT P6SM SKC TEMPO 1614/1616 BKN008"))
        #expect(a.periods.map(\.flightCategory) == ["VFR", "IFR"])
        // A BECMG changes what later periods inherit: the TEMPO gets P6SM (not 2SM) with BKN025.
        let b = try #require(DecodedTAF.decode("TAF KAAA 161130Z 1612/1712 27005KT 2SM BR OVC009 BECMG 1614/1616 P6SM TEMPO 1618/1620 BKN025"))
        #expect(b.periods.map(\.flightCategory) == ["IFR", "IFR", "MVFR"])
    }

    @Test func missingParts() throws {
        #expect(DecodedTAF.decode("") == nil)
        #expect(DecodedTAF.decode("TAF") == nil)
        let t = try #require(DecodedTAF.decode("TAF KSLE"))
        #expect(t.issued == nil && t.validFrom == nil && t.periods.count == 1)
        #expect(t.periods[0].flightCategory == nil && t.periods[0].start == nil)
    }
}

/// The PIREP decoder on hand-decoded reports.
@Suite(.timeLimit(.minutes(5))) struct PIREPDecoderTests {
    @Test func fisbSample() throws {
        let p = try #require(DecodedPIREP.decode("PIREP SLE 161350Z KSLE UA /OV SLE090010/TM 1350/FL065/TP C172/SK SCT070/RM SMOOTH"))
        #expect(!p.isUrgent)
        #expect(p.station == "SLE" && p.reportingStation == "KSLE")
        #expect(p.issued == WeatherDayTime(day: 16, hour: 13, minute: 50))
        #expect(p.location == "SLE090010")
        #expect(p.timeHour == 13 && p.timeMinute == 50)
        #expect(p.altitudeFt == 6500 && p.altitudeNote == nil)
        #expect(p.aircraftType == "C172")
        #expect(p.sky == [DecodedPIREP.SkyLayer(cover: "SCT", baseFt: 7000)])
        #expect(p.remarks == "SMOOTH")
        #expect(p.turbulence == nil && p.icing == nil && p.temperatureC == nil && p.wind == nil)
    }

    @Test func urgentWithTurbulenceAndIcingRanges() throws {
        let p = try #require(DecodedPIREP.decode(
            "UUA /OV PDX270020/TM 1415/FL080/TP B737/TB LGT-MOD CHOP 080-100/IC LGT RIME 050-070/TA M05/WV 27045KT/SK BKN030-TOP050"))
        #expect(p.isUrgent && p.station == nil)
        #expect(p.location == "PDX270020" && p.timeHour == 14 && p.timeMinute == 15)
        #expect(p.altitudeFt == 8000 && p.aircraftType == "B737")
        #expect(p.turbulence == "light to moderate chop between 8,000 and 10,000 ft")
        #expect(p.icing == "light rime icing between 5,000 and 7,000 ft")
        #expect(p.temperatureC == -5)
        #expect(p.wind == WeatherWind(directionDeg: 270, speedKt: 45))
        #expect(p.sky == [DecodedPIREP.SkyLayer(cover: "BKN", baseFt: 3000, topFt: 5000)])
    }

    @Test func extraSpacesUnknownAltitudeNegatives() throws {
        let p = try #require(DecodedPIREP.decode("UA  /OV  KSLE /TM  1800 /FL UNKN /TP  UNKN /TB NEG /IC NEG"))
        #expect(p.location == "KSLE" && p.timeHour == 18 && p.timeMinute == 0)
        #expect(p.altitudeFt == nil && p.altitudeNote == "unknown")
        #expect(p.aircraftType == "UNKN")
        #expect(p.turbulence == "no turbulence" && p.icing == "no icing")
    }

    @Test func climbingModerateWeather() throws {
        let p = try #require(DecodedPIREP.decode("UA /OV SLE/TM 1200/FLDURC/TP PA28/TB MOD/SK OVC010/WX FV03SM -RA"))
        #expect(p.location == "SLE")
        #expect(p.altitudeFt == nil && p.altitudeNote == "during climb")
        #expect(p.turbulence == "moderate turbulence")
        #expect(p.sky == [DecodedPIREP.SkyLayer(cover: "OVC", baseFt: 1000)])
        #expect(p.flightVisibilitySM == 3 && p.weather == ["light rain"])
    }

    @Test func turbulenceAndIcingWords() {
        #expect(DecodedPIREP.describe("OCNL MOD CAT 350", noun: "turbulence") == "occasional moderate clear-air turbulence at 35,000 ft")
        #expect(DecodedPIREP.describe("MOD BLO 050", noun: "turbulence") == "moderate turbulence below 5,000 ft")
        #expect(DecodedPIREP.describe("SEV MXD 030-050", noun: "icing") == "severe mixed icing between 3,000 and 5,000 ft")
        #expect(DecodedPIREP.describe("TRACE RIME", noun: "icing") == "trace rime icing")
        #expect(DecodedPIREP.describe("", noun: "icing") == nil)
    }

    @Test func notAReport() throws {
        #expect(DecodedPIREP.decode("") == nil)
        #expect(DecodedPIREP.decode("HELLO WORLD") == nil)
        let bare = try #require(DecodedPIREP.decode("UA"))
        #expect(!bare.isUrgent && bare.location == nil && bare.altitudeFt == nil)
    }
}

/// The winds-aloft decoder on hand-decoded records.
@Suite(.timeLimit(.minutes(5))) struct WindsAloftDecoderTests {
    @Test func fisbSample() throws {
        let w = try #require(DecodedWindsAloft.decode("WINDS SLE 161800Z  FT 3000 6000 9000\nSLE 3010 3115+08 3120+03"))
        #expect(w.station == "SLE" && w.valid == WeatherDayTime(day: 16, hour: 18, minute: 0))
        #expect(w.altitudesFt == [3000, 6000, 9000])
        #expect(w.levels == [
            DecodedWindsAloft.Level(altitudeFt: 3000, directionDeg: 300, speedKt: 10, group: "3010"),
            DecodedWindsAloft.Level(altitudeFt: 6000, directionDeg: 310, speedKt: 15, temperatureC: 8, group: "3115+08"),
            DecodedWindsAloft.Level(altitudeFt: 9000, directionDeg: 310, speedKt: 20, temperatureC: 3, group: "3120+03"),
        ])
    }

    @Test func fullFormLightAndVariableAndOver100Knots() throws {
        let w = try #require(DecodedWindsAloft.decode("""
            WINDS SLE 161800Z  FT 3000 6000 9000 12000 18000 24000 30000 34000 39000
            SLE 9900 2714+10 2725+02 2732-04 2745-17 2758-29 750246 761652 731960
            """))
        #expect(w.levels.map(\.altitudeFt) == [3000, 6000, 9000, 12000, 18000, 24000, 30000, 34000, 39000])
        #expect(w.levels.map(\.directionDeg) == [nil, 270, 270, 270, 270, 270, 250, 260, 230])
        #expect(w.levels.map(\.speedKt) == [0, 14, 25, 32, 45, 58, 102, 116, 119])
        #expect(w.levels.map(\.temperatureC) == [nil, 10, 2, -4, -17, -29, -46, -52, -60])
        #expect(w.levels[0].isLightAndVariable && !w.levels[1].isLightAndVariable)
    }

    @Test func blankLevelsByColumn() throws {
        let text = "WINDS DEN 161200Z\nFT  3000    6000    9000   12000   18000   24000  30000  34000  39000\n"
            + "DEN" + String(repeating: " ", count: 14) + "2315+03 2425-03 2541-16 2558-28 256942 257451 258260"
        let w = try #require(DecodedWindsAloft.decode(text))
        #expect(w.matchedByColumn)
        #expect(w.station == "DEN" && w.valid == WeatherDayTime(day: 16, hour: 12))
        #expect(w.levels.map(\.altitudeFt) == [9000, 12000, 18000, 24000, 30000, 34000, 39000])
        #expect(w.levels.first == DecodedWindsAloft.Level(altitudeFt: 9000, directionDeg: 230, speedKt: 15, temperatureC: 3, group: "2315+03"))
        #expect(w.levels.last == DecodedWindsAloft.Level(altitudeFt: 39000, directionDeg: 250, speedKt: 82, temperatureC: -60, group: "258260"))
        // A blank between two groups only columns can place.
        let gap = try #require(DecodedWindsAloft.decode("WINDS ABC 161200Z  FT  3000    6000    9000\nABC 3010" + String(repeating: " ", count: 9) + "2725+02"))
        #expect(gap.matchedByColumn)
        #expect(gap.levels.map(\.altitudeFt) == [3000, 9000])
        #expect(gap.levels.map(\.speedKt) == [10, 25])
    }

    @Test func blankLevelsFromTheRight() throws {
        let w = try #require(DecodedWindsAloft.decode("WINDS DEN 161200Z  FT 3000 6000 9000 12000\nDEN 2315+03 2425-03"))
        #expect(!w.matchedByColumn)
        #expect(w.levels == [
            DecodedWindsAloft.Level(altitudeFt: 9000, directionDeg: 230, speedKt: 15, temperatureC: 3, group: "2315+03"),
            DecodedWindsAloft.Level(altitudeFt: 12000, directionDeg: 240, speedKt: 25, temperatureC: -3, group: "2425-03"),
        ])
    }

    @Test func groups() throws {
        let lv = try #require(DecodedWindsAloft.decodeGroup("9900", altitudeFt: 3000))
        #expect(lv.directionDeg == nil && lv.speedKt == 0 && lv.isLightAndVariable && lv.temperatureC == nil)
        let fast = try #require(DecodedWindsAloft.decodeGroup("731960", altitudeFt: 39000))
        #expect(fast.directionDeg == 230 && fast.speedKt == 119 && fast.temperatureC == -60)
        #expect(DecodedWindsAloft.decodeGroup("2714", altitudeFt: 3000)?.directionDeg == 270)
        #expect(DecodedWindsAloft.decodeGroup("9900+05", altitudeFt: 6000)?.temperatureC == 5)
        for bad in ["9910", "4010", "27", "2725+0X", "SLE", "27251", ""] {
            #expect(DecodedWindsAloft.decodeGroup(bad, altitudeFt: 9000) == nil, "\(bad)")
        }
    }

    @Test func withoutHeader() throws {
        let w = try #require(DecodedWindsAloft.decode("WINDS SLE 161800Z"))
        #expect(w.station == "SLE" && w.valid == WeatherDayTime(day: 16, hour: 18) && w.levels.isEmpty)
        #expect(DecodedWindsAloft.decode("HELLO") == nil)
        #expect(DecodedWindsAloft.decode("") == nil)
    }
}

/// Every decoder on 2,000 deterministic strings of real groups, broken groups and garbage: none
/// may trap, and what they return keeps its invariants.
@Suite(.timeLimit(.minutes(5))) struct WeatherTextFuzzTests {
    static let pieces: [String] = [
        "METAR", "SPECI", "TAF", "TAF.AMD", "PIREP", "WINDS", "KSLE", "SLE", "EGLL", "161356Z", "1614/1718", "1612/1614",
        "34008KT", "24015G25KT", "VRB03KT", "00000KT", "/////KT", "210V270", "10SM", "P6SM", "1", "1/2SM", "M1/4SM", "9999",
        "0800", "CAVOK", "CLR", "SKC", "FEW040", "BKN008", "OVC015", "SCT020CB", "VV001", "BKN///", "-TSRA", "+FC", "VCSH",
        "BR", "16/06", "M02/M05", "A3012", "Q1013", "RMK", "T01560061", "T1", "AUTO", "////", "NOSIG", "FM170000", "FM17",
        "TEMPO", "BECMG", "PROB30", "PROB40", "UA", "UUA", "/OV", "/TM", "/FL065", "/FLUNKN", "/FL", "/FL0", "/TP", "/SK",
        "/TB", "/IC", "/TA", "/WV", "/WX", "/RM", "LGT-MOD", "CHOP", "080-100", "NEG", "-", "TOP050", "BKN030-TOP050",
        "FT", "3000", "6000", "39000", "9900", "731960", "2725+02", "=", "/", "//", "", "M", "P", "G", "Z", "é", "🛩",
        "\u{301}", "5\u{301}", "\r\n", "99999999999999999999", "FM999999", "PROB", "T9999999999",
    ]
    static let separators = [" ", " ", " ", "", "\n", "  ", "/", "-"]

    @Test func noTrapAndSaneResults() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let categories: Set<String?> = [nil, "VFR", "MVFR", "IFR", "LIFR"]
        var decoded = 0
        for _ in 0..<2000 {
            var text = ""
            for _ in 0..<next(30) {
                text += Self.pieces[next(Self.pieces.count)] + Self.separators[next(Self.separators.count)]
            }
            if next(4) == 0 {  // raw garbage characters
                for _ in 0..<next(20) { text.append(Character(Unicode.Scalar(UInt8(32 + next(95))))) }
            }
            if let m = DecodedMETAR.decode(text) {
                decoded += 1
                #expect(categories.contains(m.flightCategory), "\(text)")
                #expect((m.ceilingFt ?? 0) >= 0 && (m.visibilitySM ?? 0) >= 0, "\(text)")
                _ = m.summary
            }
            if let t = DecodedTAF.decode(text) {
                decoded += 1
                #expect(t.periods.first?.kind == "base", "\(text)")
                for p in t.periods {
                    #expect(categories.contains(p.flightCategory), "\(text)")
                    _ = p.summary
                }
            }
            if let p = DecodedPIREP.decode(text) {
                decoded += 1
                #expect((p.altitudeFt ?? 0) >= 0 && (p.altitudeFt ?? 0) <= 99_900, "\(text)")
            }
            if let w = DecodedWindsAloft.decode(text) {
                decoded += 1
                for level in w.levels {
                    #expect(w.altitudesFt.contains(level.altitudeFt), "\(text)")
                    #expect(level.speedKt >= 0 && level.speedKt <= 199, "\(text)")
                }
            }
        }
        #expect(decoded > 200)  // the strings do reach the decoders' bodies
    }
}
