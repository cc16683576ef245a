import GDL90
import Testing
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures
@testable import GatewayFeeds

/// OGN traffic in the one picture: fused with 1090 where the address type says ICAO, apart
/// where it does not; OGN's privacy bits kept; out through the feeds with its own id type.
@Suite struct OGNTrafficTests {
    static let t0 = 1_780_000_000.0
    static let parser = OGNBeaconParser()

    /// A pipeline with ownship from gpsd at 47°N 11°E, 3,000 ft, northbound at 100 kt.
    func pipeline() -> GatewayPipeline {
        var p = GatewayPipeline(outputs: .init(rebroadcast: Rebroadcast(), snapshotInterval: 1))
        for s in 0..<3 {
            _ = p.process(.gpsFix(Self.ownship(at: Double(s))), at: Self.t0 + Double(s))
        }
        return p
    }

    static func ownship(at s: Double) -> GPSFix {
        GPSFix(position: Position(latitude: 47 + s * 100 / 3600 / 60, longitude: 11), altitudeFt: 3000, groundSpeedKt: 100, trackDeg: 0)
    }

    /// An APRS line for a beacon at `lat`, `lon` heading south at 100 kt, 3,000 ft, id byte `flags`.
    static func line(_ callsign: String, flags: String, address: String, lat: String = "4700.60N", lon: String = "01100.00E") -> String {
        "\(callsign)>OGFLR,qAS,Test:/120003h\(lat)/\(lon)'180/100/A=003000 !W00! id\(flags)\(address) -050fpm +0.0rot 10.0dB 0e +0.1kHz"
    }

    static func beacon(_ line: String) -> OGNBeacon {
        guard case .beacon(let b) = parser.parse(line) else { preconditionFailure("not a beacon: \(line)") }
        return b
    }

    /// A 1090 (GDL 90) traffic report of ICAO 3C1234 at the same place as the OGN beacons.
    static func adsb(_ address: UInt32 = 0x3C1234) -> [UInt8] {
        Message.traffic(TrafficReport(address: address, position: Position(latitude: 47.01, longitude: 11), pressureAltitudeFt: 3000,
                                      groundSpeedKt: 100, verticalSpeedFpm: -50, trackDeg: 180, emitterCategory: 1, callsign: "DABCD")).frame()
    }

    /// The page's traffic table and scope give an OGN-only glider's height above or below
    /// ownship as the alerts do (from its GNSS altitude), not "altitude unknown" (seen on the
    /// cockpit page with a gaggle beside the demo flight: the alert said 200 ft above, the page
    /// had no height, since /api/traffic took only a pressure altitude).
    @Test func anOGNOnlyGlidersRelativeAltitudeIsOnTheTrafficAPI() throws {
        var p = pipeline()
        let glider = Self.line("FLRDDB001", flags: "06", address: "DDB001").replacingAll("A=003000", with: "A=003500")
        for s in 3..<6 {
            let t = Self.t0 + Double(s)
            _ = p.process(.gpsFix(Self.ownship(at: Double(s))), at: t)
            _ = p.process(.ogn([Self.beacon(glider)]), at: t + 0.5)
        }
        let json = CockpitAPI.traffic(p.core.snapshot(at: Self.t0 + 6))
        let row = try #require(json.split(separator: "{").first { $0.contains("\"address\":\"~ddb001\"") })
        #expect(row.contains("\"relativeAltitudeFt\":500"), "\(row)")
    }

    @Test func anICAOAddressHeardOn1090AndThroughOGNIsOneTargetAndOneAlert() {
        var p = pipeline()
        var alerts: [AlertEvent] = []
        var last: FeedSnapshot?
        for s in 3..<8 {
            let t = Self.t0 + Double(s)
            _ = p.process(.gpsFix(Self.ownship(at: Double(s))), at: t)
            var out = p.process(.datagram(Self.adsb()), at: t + 0.2)
            alerts += out.alerts
            out = p.process(.ogn([Self.beacon(Self.line("ICA3C1234", flags: "21", address: "3C1234", lat: "4700.61N"))]), at: t + 0.5)
            alerts += out.alerts
            last = out.snapshot ?? last
            if let s = out.snapshot { last = s }
        }
        let snapshot = p.core.snapshot(at: Self.t0 + 8)
        #expect(snapshot.targets.count == 1)
        let target = snapshot.targets.first
        #expect(target?.key == TargetKey(namespace: .icao, address: 0x3C1234))
        #expect(target?.heardVia == [.direct, .ogn])
        #expect(target?.callsign == "DABCD" && target?.pressureAltitudeFt == 3000 && target?.geometricAltitudeFt == 3000)
        let raised = alerts.filter { $0.change == .raised }
        #expect(raised.count == 1 && raised.first?.subject == "3c1234")
        #expect(Set(alerts.map(\.subject)) == ["3c1234"])
        // aircraft.json: one aircraft, its sources both.
        let json = FeedEncoders.aircraftJSON(snapshot)
        #expect(json.contains("\"gateway_sources\":[\"adsb\",\"ogn\"]") && json.contains("\"type\":\"adsb_icao\""))
    }

    @Test func aFLARMIDEqualToAnICAOAddressIsAnotherTarget() {
        var p = pipeline()
        let t = Self.t0 + 3
        _ = p.process(.datagram(Self.adsb()), at: t)
        _ = p.process(.ogn([Self.beacon(Self.line("FLR3C1234", flags: "06", address: "3C1234", lat: "4702.00N", lon: "01102.00E"))]), at: t + 0.5)
        let snapshot = p.core.snapshot(at: t + 1)
        #expect(snapshot.targets.map(\.key) == [TargetKey(namespace: .icao, address: 0x3C1234), TargetKey(namespace: .flarm, address: 0x3C1234)])
        let flarm = snapshot.targets.last
        #expect(flarm?.ogn?.aircraftType == .glider && flarm?.emitterCategory == 9 && flarm?.heardVia == .ogn)
        #expect(FeedEncoders.aircraftJSON(snapshot).contains("\"hex\":\"~3c1234\",\"type\":\"other\""))
    }

    /// XCSoar's view: `$PFLAA` with FLARM's id type (1 ICAO, 2 FLARM, 0 anything else) and the
    /// OGN aircraft type; the relative altitude from the geometric one (ownship's is gpsd's).
    @Test func pflaaCarriesTheIDTypeAndAircraftType() {
        var p = pipeline()
        let t = Self.t0 + 3
        _ = p.process(.ogn([
            Self.beacon(Self.line("FLRDDA5BA", flags: "06", address: "DDA5BA", lat: "4700.60N")),
            Self.beacon(Self.line("ICA3C1234", flags: "21", address: "3C1234", lat: "4700.90N")),
            Self.beacon(Self.line("OGN2FD00F", flags: "1F", address: "2FD00F", lat: "4701.20N")),
        ]), at: t)
        let sentences = NMEA.sentences(p.core.snapshot(at: t))
        let pflaa = sentences.filter { $0.hasPrefix("$PFLAA") }.map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(pflaa.count == 3)
        let byID = Dictionary(uniqueKeysWithValues: pflaa.map { (String($0[6]), $0) })
        #expect(byID["DDA5BA"]?[5] == "2" && byID["DDA5BA"]?[11].hasPrefix("1") == true)  // FLARM, glider
        #expect(byID["3C1234"]?[5] == "1" && byID["3C1234"]?[11].hasPrefix("8") == true)  // ICAO, powered
        #expect(byID["2FD00F"]?[5] == "0" && byID["2FD00F"]?[11].hasPrefix("7") == true)  // OGN tracker, paraglider
        #expect(byID["DDA5BA"]?[4] == "0")  // the same 3,000 ft MSL as ownship
    }

    /// A no-tracking sender alerts, and is in no feed, no recording and no fleet message; a
    /// stealth one shows under a pseudonym, without its address.
    @Test func noTrackingAlertsButIsShownNowhere() {
        var p = pipeline()
        var alerts: [AlertEvent] = []
        var rebroadcast: [[UInt8]] = []
        let hidden = Self.beacon(Self.line("FLRDD1234", flags: "46", address: "DD1234"))
        let stealth = Self.beacon(Self.line("FLRDD5678", flags: "86", address: "DD5678", lat: "4703.00N", lon: "01103.00E"))
        for s in 3..<8 {
            let t = Self.t0 + Double(s)
            _ = p.process(.gpsFix(Self.ownship(at: Double(s))), at: t)
            let out = p.process(.ogn([hidden, stealth]), at: t + 0.5)
            alerts += out.alerts
            rebroadcast += out.rebroadcast
        }
        let raised = alerts.filter { $0.change == .raised }
        #expect(raised.count == 1)
        #expect(raised.first?.subject.hasPrefix(TargetKey.hiddenPrefix) == true)
        #expect(!alerts.contains { $0.subject.contains("dd1234") || $0.message.lowercased().contains("dd1234") })
        // No recording: the recorder keeps `recorded`, which leaves the no-tracking beacon out.
        #expect(GatewayInput.ogn([hidden]).recorded == nil && !GatewayInput.ogn([hidden]).isRecorded)
        #expect(GatewayInput.ogn([hidden, stealth]).recorded == .ogn([stealth]))
        // No feed: the snapshot (aircraft.json, GeoJSON, the page, NMEA, the fleet) holds only the stealth one, anonymous.
        let snapshot = p.core.snapshot(at: Self.t0 + 8)
        #expect(snapshot.targets.count == 1)
        #expect(snapshot.targets.first?.key.namespace == .hidden && snapshot.targets.first?.callsign == nil)
        let feeds = FeedEncoders.aircraftJSON(snapshot) + FeedEncoders.trafficGeoJSON(snapshot) + NMEA.sentences(snapshot).joined()
        #expect(!feeds.lowercased().contains("dd1234") && !feeds.lowercased().contains("dd5678"))
        // GDL 90 to the EFBs: the stealth one only, under its pseudonym, self-assigned.
        var reports: [TrafficReport] = []
        var deframer = Deframer()
        for d in rebroadcast {
            deframer.feed(d) { event in
                if case .frame(let f) = event, case .traffic(let r)? = try? Message.decode(f.message) { reports.append(r) }
            }
        }
        #expect(!reports.isEmpty && reports.allSatisfy { $0.address == snapshot.targets.first?.key.address && $0.addressType == .adsbSelfAssigned })
    }

    @Test func ownshipsOwnFLARMIsItsGhost() {
        var configuration = GatewayCore.Configuration()
        configuration.ognOwnshipIDs = [0xDD1234]
        var p = GatewayPipeline(core: GatewayCore(configuration: configuration))
        _ = p.process(.gpsFix(Self.ownship(at: 0)), at: Self.t0)
        let out = p.process(.ogn([Self.beacon(Self.line("FLRDD1234", flags: "06", address: "DD1234", lat: "4700.00N"))]), at: Self.t0 + 0.5)
        #expect(out.alerts.isEmpty && p.core.picture.targets.isEmpty && p.core.picture.ghostsDropped == 1)
    }

    /// A no-tracking ICAO sender also heard on 1090 (issue 56): one target, the radio's, and
    /// nothing of the OGN beacon on it, whichever was heard first; one alert, never an
    /// `anon-` twin beside the ICAO one once 1090 has it.
    @Test(arguments: [false, true]) func aNoTrackingICAOSenderHeardOn1090IsTheRadiosTargetAlone(ognFirst: Bool) {
        var p = pipeline()
        var alerts: [AlertEvent] = []
        // Powered (8), ICAO address (1), no-tracking: id61.
        let hidden = Self.beacon(Self.line("ICA3C1234", flags: "61", address: "3C1234", lat: "4700.61N"))
        for s in 3..<10 {
            let t = Self.t0 + Double(s)
            alerts += p.process(.gpsFix(Self.ownship(at: Double(s))), at: t).alerts
            if !ognFirst || s >= 6 { alerts += p.process(.datagram(Self.adsb()), at: t + 0.2).alerts }
            alerts += p.process(.ogn([hidden]), at: t + 0.5).alerts
        }
        let snapshot = p.core.snapshot(at: Self.t0 + 10)
        #expect(snapshot.targets.map(\.key) == [TargetKey(namespace: .icao, address: 0x3C1234)])
        let target = snapshot.targets.first
        #expect(target?.ogn == nil && target?.heardVia == .direct, "nothing of the no-tracking beacon on the 1090 target")
        #expect(target?.callsign == "DABCD")
        #expect(p.core.picture.anonymousTwinsDropped >= 4)
        // One alert open at the end, the ICAO target's; a pseudonym's alert (OGN first) has cleared.
        var last: [String: AlertEvent.Change] = [:]
        for a in alerts { last[a.id] = a.change }
        let open = last.filter { $0.value != .cleared }.map(\.key)
        #expect(open.count == 1 && open.allSatisfy { !$0.hasPrefix("anon-") }, "\(alerts.map { "\($0.id) \($0.change)" })")
        #expect(!FeedEncoders.aircraftJSON(snapshot).contains("\"ogn\""))
        if !ognFirst { #expect(alerts.allSatisfy { !$0.id.hasPrefix("anon-") }) }
    }
}
