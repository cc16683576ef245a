import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayRecords
@testable import GatewayNotams

/// The plain-English measurement over `fixtures/notams-english.txt`: the share of NOTAMs whose
/// translation keeps no raw date, coordinate, height or distance group and no contraction.
@Suite(.timeLimit(.minutes(5))) struct NotamEnglishMeasureTests {
    static func fixtureNotams() throws -> [String] { try englishNotamFixtures() }

    @Test func shareInPlainEnglish() throws {
        let notams = try Self.fixtureNotams()
        #expect(notams.count >= 100)
        var clean = 0
        var counts: [NotamTranslationAudit.Kind: Int] = [:]
        var report: [String] = []
        for raw in notams {
            let n = NotamParser.parse(raw, source: "fixture")
            let t = NotamTranslator.translate(n.text)
            let f = NotamTranslationAudit.findings(in: t)
            for x in f { counts[x.kind, default: 0] += 1 }
            if f.isEmpty { clean += 1 } else { report.append("\(n.text)\n  -> \(t)\n  !! \(f.map(\.description).joined(separator: "; "))") }
        }
        let share = Double(clean) / Double(notams.count)
        print("NOTAM-ENGLISH: \(clean)/\(notams.count) = \(Int((share * 1000).rounded()) / 10)% in plain English; left: "
              + NotamTranslationAudit.Kind.allCases.map { "\($0.rawValue) \(counts[$0] ?? 0)" }.joined(separator: ", "))
        if ProcessInfo.processInfo.environment["NOTAM_ENGLISH_REPORT"] != nil { print(report.joined(separator: "\n")) }
        #expect(share >= 0.95)
    }
}

/// Prints every fixture translation to review them (NOTAM_ENGLISH_DUMP=1 swift test --filter
/// NotamEnglishDump; skipped otherwise), each checked to say something.
@Suite(.timeLimit(.minutes(5)), .enabled(if: ProcessInfo.processInfo.environment["NOTAM_ENGLISH_DUMP"] != nil, "set NOTAM_ENGLISH_DUMP=1 to print the translations"))
struct NotamEnglishDump {
    @Test func dump() throws {
        let all = try NotamEnglishMeasureTests.fixtureNotams()
        #expect(!all.isEmpty)
        for raw in all {
            let n = NotamParser.parse(raw, source: "fixture")
            let english = NotamTranslator.translate(n.text)
            #expect(!english.isEmpty, "\(n.text)")
            print("# \(n.text)\n  \(english)")
        }
    }
}

/// The coded groups, each read as a value (issue 26).
@Suite(.timeLimit(.minutes(5))) struct NotamGroupTests {
    @Test func datesTimesAndSchedules() {
        #expect(NotamGroups.date("2010300800") == "30 October 2020 08:00 UTC")
        #expect(NotamGroups.dateRange("2010300800-2010301200") == "from 30 October 2020 08:00 to 12:00 UTC")
        #expect(NotamGroups.dateRange("2605160600-2605201400EST") == "from 16 May 2026 06:00 UTC to 20 May 2026 14:00 UTC (estimated)")
        #expect(NotamGroups.dateRange("2512010000-PERM") == "from 1 December 2025 00:00 UTC until further notice (permanent)")
        #expect(NotamGroups.date("2613301200") == nil)  // month 13
        #expect(NotamTranslator.translate("AIRSPACE R2301E ACT SFC-FL240 DLY 1200-2000 MON-FRI")
            == "Airspace R2301E is active from the surface to flight level 240 daily 12:00 to 20:00 UTC Monday to Friday.")
    }

    @Test func coordinatesInEveryForm() {
        #expect(NotamGroups.coordinate("341118.10N0971213.30W") == "34°11′18″N 97°12′13″W")
        #expect(NotamGroups.coordinate("473624N1222007W") == "47°36′24″N 122°20′07″W")
        #expect(NotamGroups.coordinate("4736N12220W") == "47°36′N 122°20′W")
        #expect(NotamGroups.coordinate("334805N/1175517W") == "33°48′05″N 117°55′17″W")
        #expect(NotamGroups.coordinate("535000N0273400E") == "53°50′00″N 27°34′00″E")
        #expect(NotamGroups.coordinate("341159.7N0971213W") == "34°12′00″N 97°12′13″W")  // 59.7″ rounds into the minute
        // Written in two words, and a broken one (no leading zero, no letter) kept as written.
        #expect(NotamTranslator.translate("AIRSPACE UAS WI 1NM RADIUS OF 334805N 1175517W")
            == "Airspace: unmanned aircraft system (UAS) within 1-nautical-mile radius of 33°48′05″N 117°55′17″W.")
        #expect(NotamTranslator.translate("AIRSPACE UAS WI 1NM RADIUS OF 344142N975104") .contains("344142N975104"))
    }

    @Test func heightsDistancesFixesFrequencies() {
        #expect(NotamTranslator.translate("AIRSPACE BRADY MOA ACT 500FT AGL-FL180")
            == "Airspace Brady military operations area (MOA) is active from 500 ft above ground level to flight level 180.")
        #expect(NotamTranslator.translate("AIRSPACE TAOS MOA ACT UP TO BUT NOT INCLUDING FL225")
            == "Airspace Taos military operations area (MOA) is active up to but not including flight level 225.")
        #expect(NotamTranslator.translate("AIRSPACE PJE WI AN AREA DEFINED AS 2NM RADIUS OF TFD094017 SFC-13000FT MSL")
            == "Airspace: parachute jumping exercise (PJE) within an area defined as 2-nautical-mile radius of 17 nautical miles from TFD on the 094° radial from the surface to 13,000 ft above mean sea level.")
        #expect(NotamGroups.radialFix("TFD094017") == "17 nautical miles from TFD on the 094° radial")
        #expect(NotamTranslator.translate("COM ATIS FREQ 124.55 U/S")
            == "The automatic terminal information service (ATIS) frequency 124.55 MHz is out of service.")
        #expect(NotamTranslator.translate("NDB OTR 390KHZ U/S") == "The non-directional beacon (NDB) OTR 390 kHz is out of service.")
        #expect(NotamTranslator.translate("RWY 08 THR DSPLCD 500FT. 13275FT X 150FT AVBL")
            == "The threshold for runway 08 is displaced 500 ft. 13,275 ft by 150 ft is available.")
    }
}

/// Real-shaped NOTAMs of every family, written after the FAA's public examples (issue 26).
@Suite(.timeLimit(.minutes(5))) struct NotamTranslatorFamilyTests {
    func t(_ s: String) -> String { NotamTranslator.translate(s) }

    @Test func obstacleOfTheIssue() {
        #expect(t("OBST TOWER LGT (ASR 1287851) 341118.10N0971213.30W (4.7NM WNW 1F0) 1263.1FT (349.1FT AGL) U/S")
            == "Obstacle: the light on a tower (antenna structure registration 1287851) at 34°11′18″N 97°12′13″W (4.7 nautical miles west-northwest of 1F0) 1,263 ft above mean sea level (349 ft above ground level), is out of service.")
        #expect(t("OBST CRANE 374300N1222200W 250FT AGL LGTD") == "Obstacle: a crane at 37°43′00″N 122°22′00″W 250 ft above ground level, is lighted.")
        #expect(t("OBST WIND TURBINE LGTS 352000N0973500W (8NM S OKC) 1780FT (499FT AGL) U/S").hasSuffix("are out of service."))
    }

    @Test func aerodromeRunwayTaxiwayApron() {
        #expect(t("AD AP CLSD") == "The airport is closed.")
        #expect(t("AD AP BCN OTS") == "The airport beacon is out of service.")
        #expect(t("AD AP LAHSO NOT AUTH") == "The airport land and hold short operations (LAHSO) are not authorized.")
        #expect(t("RWY 16R/34L CLSD DLY 0500-1300") == "Runway 16R/34L is closed daily 05:00 to 13:00 UTC.")
        #expect(t("RWY 25L PAPI U/S") == "The precision approach path indicator (PAPI) for runway 25L is out of service.")
        #expect(t("RWY 15R/33L CLSD TO ACFT WINGSPAN MORE THAN 118FT") == "Runway 15R/33L is closed to aircraft wingspan more than 118 ft.")
        #expect(t("TWY A3 CLSD") == "Taxiway A3 is closed.")
        #expect(t("TWY B BTN TWY B1 AND TWY B3 CLSD") == "Taxiway B between taxiway B1 and taxiway B3 is closed.")
        #expect(t("TWY H2, H3 CLSD") == "Taxiways H2 and H3 are closed.")
        #expect(t("APRON TERMINAL 2 RAMP CLSD") == "Apron terminal 2 ramp is closed.")
        #expect(t("RWY 09L/27R CLSD DUE WIP") == "Runway 09L/27R is closed due work in progress.")
        // JO 7930.2's examples of an unsafe movement area (A/FD is now the chart supplement).
        #expect(t("RWY 15/33 UNSAFE BREAKS IN ASPH SE END") == "Runway 15/33 is unsafe: breaks in asphalt SE end.")
        #expect(t("RWY 16/34 UNSAFE DISABLD ACFT") == "Runway 16/34 is unsafe: disabled aircraft.")
        #expect(t("RWY 16/34 UNSAFE") == "Runway 16/34 is unsafe.")
    }

    @Test func navaidsAndCommunications() {
        #expect(t("NAV RWY 35 ILS U/S") == "The instrument landing system (ILS) for runway 35 is out of service.")
        #expect(t("ILS RWY 08R U/S") == "The instrument landing system (ILS) for runway 08R is out of service.")
        #expect(t("NAV VORTAC U/S") == "The VHF omnidirectional range and tactical air navigation aid (VORTAC) is out of service.")
        // The identifier before a navaid type stays a name, even when it spells a contraction.
        #expect(t("NAV ALS VOR U/S") == "The ALS VHF omnidirectional range (VOR) is out of service.")
        #expect(t("NAV LAS VORTAC VOR UNUSBL 045-090 BYD 20NM BLW 12000FT").hasSuffix("is unusable 045° to 090° beyond 20 nautical miles below 12,000 ft."))
        #expect(t("COM RCO 122.35 U/S") == "The remote communications outlet (RCO) 122.35 MHz is out of service.")
        #expect(t("TWR FREQ 120.900MHZ NOT AVBL, USE 118.100MHZ") == "The tower frequency 120.900 MHz is not available, use 118.100 MHz.")
        #expect(t("COM GND 121.9 U/S") == "The ground control 121.9 MHz is out of service.")
        #expect(t("SVC AWOS-3 OTS") == "The automated weather observing system (AWOS-3) is out of service.")
    }

    @Test func airspaceTFRAndSpecialUse() {
        #expect(t("OR..AIRSPACE SALEM, OR..TEMPORARY FLIGHT RESTRICTIONS WI AN AREA DEFINED AS 3NM RADIUS OF 473624N1222007W (SEA) SFC-3000FT MSL EFFECTIVE 2605161300 UTC UNTIL 2605161800 UTC.")
            == "Temporary flight restriction, Salem, OR: within an area defined as 3-nautical-mile radius of 47°36′24″N 122°20′07″W (SEA) from the surface to 3,000 ft above mean sea level effective 16 May 2026 13:00 UTC until 16 May 2026 18:00 UTC.")
        #expect(t("DC..AIRSPACE WASHINGTON, DC..P-56A ACT SFC-18000FT") == "Airspace, Washington, DC: P-56A is active from the surface to 18,000 ft.")
        #expect(t("AIRSPACE R4499A ACT SFC-7999FT") == "Airspace R4499A is active from the surface to 7,999 ft.")
        #expect(t("AIRSPACE W-157A ACT 3000FT-FL500") == "Airspace W-157A is active from 3,000 ft to flight level 500.")
    }

    @Test func proceduresAndFDC() {
        #expect(t("IAP APPLE VALLEY, APPLE VALLEY, CA. RNAV (GPS) RWY 18, AMDT 2... LNAV MDA 3520/HAT 1180 ALL CATS. TEMPORARY CRANE 3120 MSL 1.2NM SE OF RWY 18.")
            == "Instrument approach procedure, Apple Valley, Apple Valley, CA. Area navigation (RNAV) (GPS) runway 18, amendment 2. Lateral navigation (LNAV) minimum descent altitude (MDA) 3,520 ft/height above touchdown (HAT) 1,180 ft all categories. Temporary crane 3,120 ft above mean sea level 1.2 nautical miles southeast of runway 18.")
        #expect(t("IAP BOISE AIR TERMINAL/GOWEN FLD, BOISE, ID. RNAV (GPS) Y RWY 28R, AMDT 1... LPV DA NA. WAAS NOT AVBL.")
            .contains("Localizer performance with vertical guidance (LPV) decision altitude (DA) is not authorized. Wide area augmentation system (WAAS) is not available."))
        // CAT E is category E, not "category east".
        #expect(t("IAP WILL ROGERS WORLD, OKLAHOMA CITY, OK. VOR/DME RWY 35R, AMDT 4... CIRCLING CAT E NA. DME REQUIRED.")
            .hasSuffix("Circling category E is not authorized. DME required."))
        #expect(t("NM..ROUTE ZAB. V12 TAOS (TAS) VORTAC, NM TO CIMARRON (CIM) VORTAC, NM MOCA 9800.").hasSuffix("minimum obstruction clearance altitude (MOCA) 9,800 ft."))
        #expect(t("SID DENVER INTL, DENVER, CO. BAYLR FOUR DEPARTURE (RNAV)... RWY 34L, 425FT PER NM TO 8000.").hasSuffix("Runway 34L, 425 ft per nautical mile to 8000."))
    }

    @Test func gpsInterference() {
        #expect(t("NAV GPS (WSMR GPS 26-10) (INCLUDING WAAS, GBAS, AND ADS-B) MAY NOT BE AVBL WI A 372NM RADIUS CENTERED AT 330320N1063343W (TCS054036) FL400-UNL")
            == "GPS interference testing: GPS (WSMR GPS 26-10) (including wide area augmentation system (WAAS), ground-based augmentation system (GBAS), and automatic dependent surveillance–broadcast (ADS-B)) may not be available within a 372-nautical-mile radius centered at 33°03′20″N 106°33′43″W (36 nautical miles from TCS on the 054° radial) from flight level 400 upward, with no upper limit.")
    }

    /// The wrong expansions of the dictionary pass: APV, NM, CAT E, "(ATC)".
    @Test func identifiersAndMistakesOfTheDictionaryPass() {
        #expect(t("OBST TOWER LGT (ASR 1012345) 343500N1171200W (5.1NM E APV) 3412FT (452FT AGL) U/S").contains("5.1 nautical miles east of APV"))
        #expect(!t("OBST TOWER LGT (ASR 1012345) 343500N1171200W (5.1NM E APV) 3412FT (452FT AGL) U/S").lowercased().contains("approve"))
        #expect(t("AIRSPACE UAS WI 1NM RADIUS OF 344142N0975104W (34.75NM NE LAW)").contains("34.75 nautical miles northeast of LAW"))
        #expect(!t("CLIMB 425FT PER NM").contains("New Mexico"))
        #expect(t("CONTACT AIR TRAFFIC CONTROL (ATC) ON 124.55") == "Contact air traffic control (ATC) on 124.55 MHz.")
        #expect(t("CTC ATC ON 124.55") == "Contact air traffic control (ATC) on 124.55 MHz.")
    }

    /// A whole domestic NOTAM (header and validity) also reads.
    @Test func wholeDomesticNotam() {
        #expect(t("!SLE 05/012 SLE RWY 13/31 CLSD 2605160800-2605170800")
            == "NOTAM 05/012 (SLE): Runway 13/31 is closed. In force from 16 May 2026 08:00 UTC to 17 May 2026 08:00 UTC.")
    }
}

/// Every contraction of the table the translator does not expand is listed; one of the ~300
/// most common left unexpanded fails.
@Suite(.timeLimit(.minutes(5))) struct NotamContractionCoverageTests {
    @Test func everyCommonContractionIsExpanded() {
        #expect(NotamContractions.common.count >= 300)
        var unexpanded: [String] = []
        var commonMissing: [String] = []
        let common = Set(NotamContractions.common.map(\.key))
        for (c, meaning) in NotamContractions.all where meaning != c {
            // In a neutral context: "<C> REMARK." reads the word alone.
            let out = NotamTranslator.translate("NOTE \(c) THEN.")
            if !out.lowercased().contains(meaning.lowercased()) {
                unexpanded.append(c)
                if common.contains(c) { commonMissing.append(c) }
            }
        }
        if !unexpanded.isEmpty { print("NOTAM contractions not expanded: \(unexpanded.sorted().joined(separator: " "))") }
        #expect(commonMissing.isEmpty, "common contractions not expanded: \(commonMissing.sorted())")
    }
}

/// Hostile texts never trap the translator, and what it cannot read stays as written.
@Suite(.timeLimit(.minutes(5))) struct NotamTranslatorHostileTests {
    @Test func oddInputs() {
        for s in ["", " ", "RWY", "TWY ,", "OBST", "OBST LGT", "AD AP", "NAV RWY", "..", "...", "(", ")", "-", "!", "!A B C", "FL", "99999999999999999999999FT",
                  "1.5NM", "NM", "ABC999999", "9999N99999W", "0000N00000E-", "SFC-", "-FL180", "RWY 13/31 CLSD ( U/S", "ÄÖÜ 12€ RWY ½",
                  String(repeating: "RWY 1 CLSD ", count: 200), "OR..AIRSPACE", "OR..AIRSPACE X, OR..", "IAP", "S-", "AWOS-", "A A A A"] {
            let t0 = ContinuousClock.now
            _ = NotamTranslator.translate(s)
            let dt = ContinuousClock.now - t0
            if dt > .milliseconds(50) { print("SLOW \(dt): \(s.prefix(40))") }
        }
        #expect(NotamTranslator.translate("99999999999999999999999FT").hasSuffix("ft."))
        #expect(NotamTranslator.translate("USE ZZQX WITH CAUTION") == "Use ZZQX with caution.")
    }
}

/// A location ending in Q before a parenthesis ("(3.9NM SSW ABQ)") is no ICAO Q) item: the
/// NOTAM stays domestic (it was read as ICAO, its whole raw text becoming the body).
@Suite(.timeLimit(.minutes(5))) struct NotamParserItemTests {
    @Test func abqIsNotAQItem() {
        let n = NotamParser.parse("!ABQ 05/310 ABQ OBST TOWER LGT (ASR 1234567) 350300N1063700W (3.9NM SSW ABQ) 5612FT (302FT AGL) U/S 2605160000-2606150000", source: "t")
        #expect(n.number == "05/310" && n.designator == "ABQ" && n.end == Timestamp.parse("2026-06-15T00:00:00Z"))
        #expect(n.text == "OBST TOWER LGT (ASR 1234567) 350300N1063700W (3.9NM SSW ABQ) 5612FT (302FT AGL) U/S")
    }
}

/// Issue 44: what real NOTAMs still showed after the last round, on texts of their shapes.
@Suite(.timeLimit(.minutes(5))) struct NotamEnglishRound2Tests {
    static func english(_ text: String) -> String { NotamTranslator.translate(NotamParser.parse(text, source: "test").text) }

    /// Sentence case: plain words in lower case; a place's name keeps its capitals.
    @Test func sentenceCase() {
        let t = Self.english("!FDC 3/1234 GUY IAP GUYMON MUNI, GUYMON, OK. RNAV (GPS) RWY 18, AMDT 1. CHANGE BACKUP ALTIMETER NOTE TO READ: WHEN LOCAL ALTIMETER SETTING NOT RECEIVED, USE GUYMON ALTIMETER SETTING AND INCREASE LPV DA TO 3240 FT. 2305161200-2605161200")
        #expect(t.contains("backup altimeter note to read: when local altimeter setting not received, use GUYMON altimeter setting and increase"), "\(t)")
        let d = Self.english("!FDC 3/5678 ABC IAP SOME RGNL, SOMEWHERE, TX. ILS OR LOC RWY 35, AMDT 2. DELETE NOTE: HELICOPTER VISIBILITY REDUCTION BELOW 3/4 SM IS NOT AUTHORIZED. 2305161200-2605161200")
        #expect(d.contains("Delete note: helicopter visibility reduction below 3/4 statute miles is not authorized"), "\(d)")
    }

    /// Jargon: the contractions real NOTAMs kept, spelled out.
    @Test func jargonSpelledOut() {
        let obstacle = Self.english("!DFW 05/123 DFW OBST TREES (ASN UNKNOWN) 325000N0970000W (0.5NM S DFW) 36FT AGL/1104FT MSL 213FT RIGHT OF CL 2305161200-2605161200")
        #expect(obstacle.contains("Obstacle: trees (") && obstacle.contains("36 ft above ground level/1,104 ft mean sea level"), "\(obstacle)")
        let radio = Self.english("!ZAB 05/001 ZAB COM ARTCC RDO FREQ 133.65 U/S 2305161200-2305162000")
        #expect(radio.contains("air route traffic control center (ARTCC) radio"), "\(radio)")
        let apt = Self.english("!LBB 05/002 LBB AD AP APT ELEV 2885 FT NTL STD TEL 2305161200-2305162000")
        for raw in ["APT ", "NTL", "STD", "TEL"] { #expect(!apt.contains(raw), "\(raw) in \(apt)") }
        let misc = Self.english("!ABC 05/003 ABC NAV PBN CPDLC HUD TDZE SAR A/G FLD TXL RGNL 2305161200-2305162000")
        for raw in ["PBN ", "CPDLC ", "HUD ", "TDZE ", " SAR", "A/G", "FLD", "TXL", "RGNL"] { #expect(!misc.contains(raw) || misc.contains("(\(raw.trimmingCharacters(in: .whitespaces)))"), "\(raw) in \(misc)") }
    }
}

/// Sentence case (issue 57): English words in lower case (but a sentence's first), names in title
/// case, identifiers as written; heights written without their unit are feet. Hand-made texts in
/// the shapes the issue names, not the tuning set's.
@Suite(.timeLimit(.minutes(5))) struct NotamSentenceCaseTests {
    @Test func wordsLowerNamesTitledIdentifiersKept() {
        #expect(NotamTranslator.translate("IAP MCKINNEY NTL, DALLAS, TX. ILS OR LOC RWY 18, AMDT 3.")
                .hasPrefix("Instrument approach procedure, McKinney National, Dallas, TX."))
        #expect(NotamTranslator.translate("ODP PEROT FLD/FORT WORTH ALLIANCE, FORT WORTH, TX. TAKEOFF MINIMUMS.")
                .hasPrefix("Obstacle departure procedure, Perot Field/Fort Worth Alliance, Fort Worth, TX."))
        let words = NotamTranslator.translate("AIRSPACE RDO ALTIMETER UNREL. ACFT USING APPROVED ALTERNATIVE METHODS OF COMPLIANCE EXC PILOTS WHO DO NOT ADHERE.")
        #expect(words.contains("Aircraft using approved alternative methods of compliance except pilots who do not adhere"), "\(words)")
        // Glued sentences split, a word after a slash, a quoted name.
        #expect(NotamTranslator.translate("AIRSPACE UNREL.HEL OPS BY LAW ENFORCEMENT/SECURITY PERSONNEL").contains("by law enforcement/security personnel"))
        // A navaid's name before its identifier and type, in title case (route NOTAMs, hand-made).
        let navaidNames = NotamTranslator.translate("V12 GRAND ISLAND (GRI) VORTAC, NE TO O'NEILL (ONL) VORTAC, NE MEA 6000.")
        #expect(navaidNames.contains("Grand Island (GRI)") && navaidNames.contains("O'Neill (ONL)") && !navaidNames.contains("grand island"), "\(navaidNames)")
        // A name before INTL in running text; an airport that is also a word after "of".
        let setting = NotamTranslator.translate("OBTAIN ALTIMETER SETTING; WHEN NOT RECEIVED, USE FORT WORTH MEACHAM INTL ALTIMETER SETTING.")
        #expect(setting.contains("use Fort Worth Meacham International altimeter setting"), "\(setting)")
        #expect(NotamTranslator.translate("OBST CRANE 330FT AGL 2NM N OF SEE").contains("SEE"))
        // Fixes keep their names, English words or not.
        let route = NotamTranslator.translate("KS..ROUTE ZKC. V77 FLOSS INT, KS TO KARYN, KS MOCA 3000.")
        #expect(route.contains("V77 FLOSS intersection") && route.contains("to KARYN, KS"), "\(route)")
    }

    @Test func heightsWithoutTheirUnitAreFeet() {
        let t = NotamTranslator.translate("TAKEOFF OBSTACLE NOTES: RWY 31, TRANSMISSION LINES, UP TO 65 AGL/ UP TO 605 MSL.")
        #expect(t.contains("up to 65 ft above ground level, up to 605 ft above mean sea level"), "\(t)")
    }
}
