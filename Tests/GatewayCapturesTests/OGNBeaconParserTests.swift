import Testing
@testable import GatewayDomain
@testable import GatewayCaptures

/// The OGN APRS specification's own example beacons (glidernet/ogn-aprs-protocol,
/// `valid_messages/`), one or more of every aircraft dialect, parsed with the values they state:
/// position to the `!Wab!` digit, course, speed, altitude (ft MSL), the id field's address, its
/// type, the aircraft type and the privacy bits, climb, turn rate, signal.
@Suite struct OGNBeaconParserTests {
    let parser = OGNBeaconParser()

    func beacon(_ line: String) throws -> OGNBeacon {
        guard case .beacon(let b) = parser.parse(line) else {
            Issue.record("not a beacon: \(parser.parse(line))")
            throw Failure()
        }
        return b
    }

    struct Failure: Error {}

    func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) < tolerance }

    @Test func flarm() throws {
        let b = try beacon("FLRDD89C9>OGFLR,qAS,LIDH:/115054h4543.22N/01132.84E'260/072/A=002542 !W10! id06DD89C9 +198fpm -0.8rot 7.0dB 0e +0.7kHz gps2x3")
        #expect(b.dialect == "OGFLR" && b.receiver == "LIDH" && b.callsign == "FLRDD89C9" && !b.relayed)
        #expect(b.secondOfDay == 11 * 3600 + 50 * 60 + 54)
        // 45°43.22' plus the !W1 digit: 43.221'; 11°32.84' plus 0.
        #expect(near(b.position.latitude, 45 + 43.221 / 60) && near(b.position.longitude, 11 + 32.840 / 60))
        #expect(b.trackDeg == 260 && b.groundSpeedKt == 72 && b.altitudeFt == 2542)
        #expect(b.address == 0xDD89C9 && b.addressType == .flarm && b.aircraftType == .glider && !b.stealth && !b.noTracking)
        #expect(b.climbFpm == 198 && b.turnRateRot == -0.8 && b.signalDB == 7.0 && b.errors == 0 && b.frequencyOffsetKHz == 0.7)
        #expect(b.key == TargetKey(namespace: .flarm, address: 0xDD89C9))
    }

    @Test func flarmWithAnICAOAddressAndADayTime() throws {
        let b = try beacon(#"ICAA8CBA8>OGFLR,qAS,MontCAIO:/231150z4512.12N\01059.03E^192/106/A=009519 !W20! id21A8CBA8 -039fpm +0.0rot 3.5dB 2e -8.7kHz gps1x2 s6.09 h43 rDF0267"#)
        #expect(b.secondOfDay == 11 * 3600 + 50 * 60)  // ddhhmm z: the 23rd, 11:50
        #expect(b.address == 0xA8CBA8 && b.addressType == .icao && b.aircraftType == .poweredPiston)
        #expect(b.key == TargetKey(namespace: .icao, address: 0xA8CBA8))
        #expect(near(b.position.latitude, 45 + 12.122 / 60) && near(b.position.longitude, 10 + 59.030 / 60))
        #expect(b.climbFpm == -39 && b.errors == 2)
    }

    @Test func ognTrackerWithFlightLevelAndARelay() throws {
        let b = try beacon("OGN2FD00F>OGNTRK,qAS,LZHL:/093213h4848.78N/01708.32E'000/000/A=000538 !W12! id072FD00F -058fpm +0.0rot FL003.12 32.8dB 0e -0.8kHz gps3x5")
        #expect(b.addressType == .ogn && b.aircraftType == .glider && b.address == 0x2FD00F)
        #expect(b.trackDeg == nil && b.groundSpeedKt == 0)  // 000/000: no data
        #expect(b.pressureAltitudeFt == 312 && b.altitudeFt == 538)
        let relayed = try beacon("FLRDD9C70>OGNTRK,OGN2FD00F*,qAS,LZHL:/093214h4848.77N/01708.33E'000/000/A=000515 !W56! id06DD9C70 -019fpm +0.0rot 32.2dB 0e -0.8kHz gps2x3")
        #expect(relayed.relayed && relayed.addressType == .flarm)
        #expect(parser.parse("OGN3FC859>OGNTRK,qAS,LZHL:>093215h h00 v00 9sat/1 164m 1002.6hPa +20.2degC 0% 3.34V 14/-110.5dBm 1/min") == .status)
    }

    @Test func fanet() throws {
        let b = try beacon("FNT1103CE>OGNFNT,qAS,FNB1103CE:/183727h5057.94N/00801.00Eg355/002/A=001042 !W10! id1E1103CE +03fpm")
        #expect(b.aircraftType == .paraglider && b.addressType == .flarm && b.address == 0x1103CE && b.climbFpm == 3)
        #expect(b.trackDeg == 355 && b.groundSpeedKt == 2)
        #expect(parser.parse("FNB1103CE>OGNFNT,TCPIP*,qAC,GLIDERN3:/183738h5057.95NI00801.00E&/A=001042") == .receiver)
        #expect(parser.parse(#"FNT1118C1>OGNFNT,qAS,BelaVista:>191924h Name="FlrmAIC" 26.0dB -12.1kHz"#) == .status)
    }

    @Test func pilotAware() throws {
        let b = try beacon(#"ICA404EC3>OGPAW,qAS,UKWOG:/104337h5211.24N\00032.65W^124/081/A=004026 !W62! id21404EC3 12.5dB +2.2kHz"#)
        #expect(b.addressType == .icao && b.address == 0x404EC3 && b.aircraftType == .poweredPiston)
        #expect(near(b.position.latitude, 52 + 11.246 / 60) && near(b.position.longitude, -(0 + 32.652 / 60)))
        #expect(b.signalDB == 12.5 && b.climbFpm == nil)
    }

    @Test func adsb() throws {
        let b = try beacon(#"ICA34364F>OGADSB,qAS,LEMDadsb:/140827h4038.69N\00344.37W^235/248/A=010350 id2534364F +1792fpm  fnANE06BK  "#)
        #expect(b.aircraftType == .jet && b.addressType == .icao && b.address == 0x34364F && b.climbFpm == 1792)
        #expect(b.flightNumber == "ANE06BK" && b.trafficReport().callsign == "ANE06BK")
    }

    @Test func adsl() throws {
        let b = try beacon("OGN631C45>OGADSL,qAS,OxfBarton:/104536h5145.96N/00111.47W'267/000/A=000312 !W25! id07631C45 -177fpm 22.8dB +2.5kHz gps63x63")
        #expect(b.addressType == .ogn && b.aircraftType == .glider && b.trackDeg == 267 && b.groundSpeedKt == 0 && b.altitudeFt == 312)
    }

    @Test func safeSky() throws {
        let b = try beacon("SKY3E5906>OGNSKY,qAS,SafeSky:/072446h5103.98N/00524.51E'197/034/A=001250 !W45! id1C3E5906 +000fpm gps4x1")
        #expect(b.addressType == .random && b.aircraftType == .paraglider && b.address == 0x3E5906)
        #expect(b.key.namespace == .ognRandom)
    }

    @Test func microtrak() throws {
        let b = try beacon("MTK39447C>OGNMTK,qAS,Microtrak:/170054h4909.81N/00218.71E'136/000/A=000209 !W15! id2339447C rssi-111 snr-5 sf10 gw1 abw0108000B36 gps16")
        #expect(b.addressType == .ogn && b.aircraftType == .poweredPiston && b.address == 0x39447C && b.altitudeFt == 209)
    }

    @Test func naviterFortyBitID() throws {
        let b = try beacon("NAV07220E>OGNAVI,qAS,NAVITER:/125447h4557.77N/01220.19E'258/056/A=006562 !W76! id1C4007220E +180fpm +0.0rot")
        #expect(b.addressType == .naviter && b.aircraftType == .paraglider && b.address == 0x07220E && b.climbFpm == 180)
        let flarm = try beacon("FLRFFFFFF>OGNAVI,NAV07220E*,qAS,NAVITER:/092002h1000.00S/01000.00W'000/000/A=003281 !W00! id2820FFFFFF +300fpm +1.7rot")
        #expect(flarm.addressType == .flarm && flarm.aircraftType == .reserved10 && flarm.relayed)  // 0x28: type 10, FLARM
        #expect(near(flarm.position.latitude, -10) && near(flarm.position.longitude, -10) && flarm.turnRateRot == 1.7)
    }

    @Test func flymasterWithoutAnID() throws {
        let b = try beacon("FMT924469>OGFLYM,qAS,FLYMASTER:/155232h3720.70N/00557.97W^222/092/A=000029 !W52!")
        #expect(!b.hasID && b.address == 0x924469 && b.addressType == .random && b.trackDeg == 222 && b.groundSpeedKt == 92)
    }

    @Test func plainAPRSBeforeOGN027() throws {
        let b = try beacon("FLRDDA5BA>APRS,qAS,LFMX:/165829h4415.41N/00600.03E'342/049/A=005524 id0ADDA5BA -454fpm -1.1rot 8.8dB 0e +51.2kHz gps4x5")
        #expect(b.dialect == "APRS" && b.aircraftType == .towPlane && b.addressType == .flarm && b.turnRateRot == -1.1)
        let still = try beacon("FLRDDDD33>APRS,qAS,LFNF:/165341h4344.27N/00547.41E'/A=000886 id06DDDD33 +020fpm +0.0rot 20.8dB 0e -14.3kHz gps3x4")
        #expect(still.trackDeg == nil && still.groundSpeedKt == nil && still.altitudeFt == 886)
    }

    @Test func receiversCommentsAndGarbage() {
        #expect(parser.parse("LILH>OGNSDR,TCPIP*,qAC,GLIDERN2:/132201h4457.61NI00900.58E&/A=000423") == .receiver)
        #expect(parser.parse("LILH>OGNSDR,TCPIP*,qAC,GLIDERN2:>132201h v0.2.7.RPI-GPU CPU:0.7 RAM:770.2/968.2MB") == .receiver)
        #expect(parser.parse("Letzi>APRS,TCPIP*,qAC,GLIDERN1:/165334h4704.82NI00808.73E&/A=001555") == .receiver)
        #expect(parser.parse("# aprsc 2.1.14-g5e22b37 26 May 2026 10:00:00 GMT GLIDERN1 37.187.40.234:14580") == .comment)
        for garbage in ["hello", "FLRDD89C9>OGFLR,qAS,LIDH:/115054h4543.22N", "FLRDD89C9>OGFLR,qAS,LIDH:/995054h4543.22N/01132.84E'260/072/A=002542",
                        "FLRDD89C9>OGFLR,qAS,LIDH:/115054h9943.22N/01132.84E'260/072/A=002542", String(repeating: "x", count: 5000)] {
            guard case .problem = parser.parse(garbage) else {
                Issue.record("\(garbage.prefix(40)) taken")
                continue
            }
        }
    }

    /// The privacy bits (the specification gives no example: such beacons must not reach the
    /// public network; a receiver of one's own may hear them): bit 7 stealth, bit 6 no-tracking.
    @Test func stealthAndNoTrackingBits() throws {
        let noTrack = try beacon("FLRDD1234>OGFLR,qAS,Home:/120000h4700.00N/01100.00E'090/050/A=003000 !W00! id46DD1234 +100fpm +0.0rot")
        #expect(noTrack.noTracking && !noTrack.stealth && noTrack.aircraftType == .glider && noTrack.addressType == .flarm)
        let stealth = try beacon("FLRDD1235>OGFLR,qAS,Home:/120000h4700.00N/01100.00E'090/050/A=003000 !W00! id86DD1235 +100fpm +0.0rot")
        #expect(stealth.stealth && !stealth.noTracking && stealth.isAnonymous)
    }

    @Test func emitterCategoriesFromAircraftTypes() {
        let expected: [OGNBeacon.AircraftType: UInt8] = [.glider: 9, .towPlane: 1, .helicopter: 7, .skydiver: 11, .paraglider: 12,
                                                         .hangGlider: 12, .balloon: 10, .drone: 14, .unknown: 0]
        for (type, category) in expected { #expect(type.emitterCategory == category, "\(type)") }
    }
}
