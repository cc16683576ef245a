import GDL90
import Testing

/// One semicircle step (ICD §3.5.1.3).
let lsb = 180.0 / 8_388_608

/// A position on the semicircle grid, so that it survives encoding exactly.
func grid(_ lat: Double, _ lon: Double) -> Position {
    Position(latitude: (lat / lsb).rounded() * lsb, longitude: (lon / lsb).rounded() * lsb)
}

@Suite(.timeLimit(.minutes(5))) struct MessageTests {
    /// ICD §2.2.4: `00 81 41 DB D0 08 02`.
    @Test func icdHeartbeat() throws {
        let message = try Message.decode(hex("00 81 41 DB D0 08 02"))
        guard case .heartbeat(let hb) = message else { Issue.record("not a heartbeat"); return }
        #expect(hb.gpsPositionValid)
        #expect(hb.uatInitialized)
        #expect(!hb.maintenanceRequired && !hb.ident && !hb.addressTypeTalkback && !hb.gpsBatteryLow && !hb.ratcs)
        #expect(hb.csaRequested)
        #expect(!hb.csaNotAvailable)
        #expect(hb.utcOK)
        #expect(hb.secondsSinceMidnight == 0xD0DB)
        #expect(hb.uplinkCount == 1)
        #expect(hb.basicLongCount == 2)
        #expect(message.encode() == hex("00 81 41 DB D0 08 02"))
    }

    @Test func heartbeatTimestampBit16() throws {
        let hb = Heartbeat(utcOK: true, secondsSinceMidnight: 86_399, uplinkCount: 31, basicLongCount: 1023)
        let bytes = Message.heartbeat(hb).encode()
        #expect(bytes[2] & 0x80 != 0)
        #expect(try Message.decode(bytes) == .heartbeat(hb))
    }

    /// ICD §3.5.2, Table 12: the worked traffic report example.
    @Test func icdTrafficReport() throws {
        let frame = hex("7E 14 00 AB 45 49 1F EF 15 A8 89 78 0F 09 A9 07 B0 01 20 01 4E 38 32 35 56 20 20 20 00 57 D6 7E")
        let (frames, errors) = deframe(frame)
        #expect(errors.isEmpty)
        let message = try Message.decode(try #require(frames.first))
        guard case .traffic(let t) = message else { Issue.record("not traffic"); return }
        #expect(t.alertStatus == 0)
        #expect(!t.trafficAlert)
        #expect(t.addressType == .adsbICAO)
        #expect(t.address == 0o52642511)
        let position = try #require(t.position)
        #expect(abs(position.latitude - 44.90708) < lsb)
        #expect(abs(position.longitude - -122.99488) < lsb)
        #expect(t.pressureAltitudeFt == 5000)
        #expect(t.airborne)
        #expect(!t.extrapolated)
        #expect(t.trackType == .trueTrack)
        #expect(t.nic == 10)
        #expect(t.nacp == 9)
        #expect(t.groundSpeedKt == 123)
        #expect(t.verticalSpeedFpm == 64)
        #expect(t.trackDeg == 45)
        #expect(t.emitterCategory == 1)
        #expect(t.callsign == "N825V")
        #expect(t.emergency == 0)
        #expect(message.frame() == frame)
    }

    @Test func noDataValuesBecomeNil() throws {
        // Traffic: altitude 0xFFF, horizontal 0xFFF, vertical 0x800, NIC 0 with lat/lon 0.
        var bytes = hex("14 00 AB 45 49 00 00 00 00 00 00 FF F9 09 FF F8 00 20 01 4E 38 32 35 56 20 20 20 00")
        guard case .traffic(let t) = try Message.decode(bytes) else { Issue.record("not traffic"); return }
        #expect(t.position == nil)
        #expect(t.pressureAltitudeFt == nil)
        #expect(t.groundSpeedKt == nil)
        #expect(t.verticalSpeedFpm == nil)
        #expect(Message.traffic(t).encode() == bytes)
        // Lat/lon 0 with a non-zero NIC is a real position (Gulf of Guinea).
        bytes[13] = 0x89
        guard case .traffic(let t2) = try Message.decode(bytes) else { Issue.record("not traffic"); return }
        #expect(t2.position == Position(latitude: 0, longitude: 0))
        // Height above terrain 0x8000.
        #expect(try Message.decode(hex("09 80 00")) == .heightAboveTerrain(HeightAboveTerrain(feet: nil)))
        #expect(try Message.decode(hex("09 01 00")) == .heightAboveTerrain(HeightAboveTerrain(feet: 256)))
        #expect(try Message.decode(hex("09 FF 38")) == .heightAboveTerrain(HeightAboveTerrain(feet: -200)))
        // VFOM 0x7FFF not available, 0x7FFE at least 32766.
        guard case .ownshipGeoAltitude(let g) = try Message.decode(hex("0B FF 38 FF FF")) else { Issue.record(); return }
        #expect(g.altitudeFt == -1000)
        #expect(g.verticalWarning)
        #expect(g.vfom == nil)
        #expect(g.vfomMeters == nil)
        guard case .ownshipGeoAltitude(let g2) = try Message.decode(hex("0B 00 C8 7F FE")) else { Issue.record(); return }
        #expect(g2.altitudeFt == 1000)
        #expect(!g2.verticalWarning)
        #expect(g2.vfom == .atLeast32766)
        guard case .ownshipGeoAltitude(let g3) = try Message.decode(hex("0B 00 00 00 0A")) else { Issue.record(); return }
        #expect(g3.vfomMeters == 10)
    }

    @Test func negativeVerticalSpeedAndSouthernEasternPosition() throws {
        let report = TrafficReport(
            alertStatus: 1, addressType: .tisbICAO, address: 0xA1B2C3,
            position: Position(latitude: -33.9, longitude: 151.2), pressureAltitudeFt: -1000,
            airborne: false, extrapolated: true, trackType: .magneticHeading, nic: 0, nacp: 11,
            groundSpeedKt: 0, verticalSpeedFpm: -1280, trackDeg: 358.59375, emitterCategory: 14,
            callsign: "VH-ABC", emergency: 5)
        let decoded = try Message.decode(Message.ownship(report).encode())
        guard case .ownship(let r) = decoded else { Issue.record(); return }
        #expect(r.verticalSpeedFpm == -1280)
        #expect(r.pressureAltitudeFt == -1000)
        #expect(abs(r.position!.latitude - -33.9) < 180.0 / 8_388_608)
        #expect(abs(r.position!.longitude - 151.2) < 180.0 / 8_388_608)
        #expect(r.trackDeg == 358.59375)
        #expect(r.trafficAlert && r.extrapolated && !r.airborne)
        #expect(r.callsign == "VH-ABC")
        #expect(r.emergency == 5)
    }

    @Test func roundTripEveryMessageType() throws {
        let uatADSB = UATADSBPayload(
            payloadType: 1, addressQualifier: 0, address: 0xA4F2C1, position: Position(latitude: 45.5, longitude: -122.75),
            altitudeFt: 4500, nic: 9, velocity: .airborne(northKt: -100, eastKt: 50, supersonic: false), verticalRateFpm: -512,
            emitterCategory: 1, callsign: "N123AB", emergency: 0, nacp: 9, secondaryAltitudeFt: 4700)
        let basic = UATADSBPayload(
            payloadType: 0, addressQualifier: 2, address: 0x123456, position: Position(latitude: -10, longitude: 170),
            altitudeFt: 1000, nic: 7, velocity: .ground(speedKt: 12, trackDeg: 90, trackType: .trueTrack), verticalRateFpm: nil,
            verticalRateIsBarometric: false)
        let messages: [Message] = [
            .heartbeat(Heartbeat(gpsPositionValid: true, maintenanceRequired: true, ident: true, addressTypeTalkback: true,
                                 gpsBatteryLow: true, ratcs: true, uatInitialized: true, csaRequested: true, csaNotAvailable: true,
                                 utcOK: true, secondsSinceMidnight: 70_000, uplinkCount: 17, basicLongCount: 600)),
            .initialization(Initialization(audioTest: true, audioInhibit: false, cdtiOK: true, csaAudioDisable: true, csaDisable: false)),
            .uplink(Uplink(timeOfReception: 0x123456, payload: (0..<432).map { UInt8(truncatingIfNeeded: $0 * 7) })),
            .uplink(Uplink(timeOfReception: nil, payload: [UInt8](repeating: 0x7E, count: 432))),
            .heightAboveTerrain(HeightAboveTerrain(feet: -42)),
            .ownship(TrafficReport(address: 0xABCDEF, position: grid(47.5, -122.25), pressureAltitudeFt: 2500,
                                   groundSpeedKt: 110, verticalSpeedFpm: 640, trackDeg: 90, callsign: "N12345")),
            .ownshipGeoAltitude(OwnshipGeometricAltitude(altitudeFt: 2650, verticalWarning: false, vfom: .meters(12))),
            .traffic(TrafficReport(alertStatus: 1, addressType: .adsbSelfAssigned, address: 0x7E7D7E, position: nil,
                                   pressureAltitudeFt: nil, nic: 0, groundSpeedKt: nil, verticalSpeedFpm: nil, trackDeg: 0)),
            .basicReport(UATReport(timeOfReception: 5, adsb: basic)),
            .longReport(UATReport(timeOfReception: nil, adsb: uatADSB)),
            .foreFlightID(ForeFlightID(serialNumber: 0x0102030405060708, deviceName: "Stratux", deviceLongName: "skygate-1.0", capabilities: 1)),
            .foreFlightID(ForeFlightID(serialNumber: nil, deviceName: "SG", deviceLongName: "", capabilities: 0)),
            .foreFlightAHRS(ForeFlightAHRS(rollDeg: -12.5, pitchDeg: 3.1, headingDeg: 271.4, headingIsMagnetic: true,
                                           indicatedAirspeedKt: 105, trueAirspeedKt: 112)),
            .foreFlightAHRS(ForeFlightAHRS(rollDeg: nil, pitchDeg: nil, headingDeg: nil, indicatedAirspeedKt: nil, trueAirspeedKt: nil)),
            .stratuxHeartbeat(StratuxHeartbeat(protocolVersion: 1, gpsValid: true, ahrsValid: false)),
            .stratuxStatus(StratuxStatus(versionMajor: 1, versionMinor: 6, versionType: 2, versionBuild: 3, flags: 0x01E5,
                                         connectedHardware: 2, satellitesLocked: 9, satellitesTracked: 14, uatTargets: 3, esTargets: 12,
                                         uatMessagesPerMinute: 900, esMessagesPerMinute: 4000, cpuTemperatureC: 51.3,
                                         towers: [grid(45.25, -122.5), grid(44, -121)])),
            .levilAHRS(LevilAHRS(rollDeg: 10.2, pitchDeg: -2.5, headingDeg: 180.0, slipSkidDeg: 0.3, yawRateDegPerSec: 3.0,
                                 gLoad: 1.1, indicatedAirspeedKt: nil, pressureAltitudeFt: 3500, verticalSpeedFpm: -300)),
            .unknown(id: 0x33, payload: [1, 2, 3]),
        ]
        for message in messages {
            let frame = message.frame()
            let (frames, errors) = deframe(frame)
            #expect(errors.isEmpty, "\(message.typeName)")
            let decoded = try Message.decode(try #require(frames.first))
            #expect(decoded == message, "\(message.typeName) round trip")
            #expect(decoded.encode() == message.encode())
        }
    }

    @Test func uatPayloadFieldsDecode() throws {
        let adsb = UATADSBPayload(
            payloadType: 1, addressQualifier: 0, address: 0xA4F2C1, position: Position(latitude: 45.5, longitude: -122.75),
            altitudeFt: 4500, nic: 9, velocity: .airborne(northKt: 0, eastKt: -120, supersonic: false), verticalRateFpm: 640,
            emitterCategory: 1, callsign: "N123AB", emergency: 0, nacp: 9, secondaryAltitudeFt: 4700)
        let report = UATReport(timeOfReception: nil, adsb: adsb)
        #expect(report.payload.count == 34)
        let decoded = report.adsb
        #expect(decoded.address == 0xA4F2C1)
        #expect(abs(decoded.position!.latitude - 45.5) < 360.0 / 16_777_216)
        #expect(abs(decoded.position!.longitude - -122.75) < 360.0 / 16_777_216)
        #expect(decoded.altitudeFt == 4500)
        #expect(decoded.groundSpeedKt == 120)
        #expect(abs(decoded.trackDeg! - 270) < 1e-9)
        #expect(decoded.verticalRateFpm == 640)
        #expect(decoded.callsign == "N123AB")
        #expect(decoded.emitterCategory == 1)
        #expect(decoded.secondaryAltitudeFt == 4700)
        // Hand-computed state vector bytes: lat 45.5° → 0x206AAA (23 bits), alt (4500+1000)/25+1 = 221 = 0x0DD.
        #expect(report.payload[10] == 0x0D)
        #expect(report.payload[11] == 0xD9)
    }

    @Test func uatTrackFromComponents() {
        func track(_ n: Int, _ e: Int) -> Double? {
            UATADSBPayload(payloadType: 0, addressQualifier: 0, address: 1, position: nil, altitudeFt: nil,
                           velocity: .airborne(northKt: n, eastKt: e, supersonic: false), verticalRateFpm: nil).trackDeg
        }
        #expect(abs(track(100, 0)! - 0) < 1e-9)
        #expect(abs(track(0, 100)! - 90) < 1e-9)
        #expect(abs(track(-100, 0)! - 180) < 1e-9)
        #expect(abs(track(100, 100)! - 45) < 1e-9)
        #expect(abs(track(-100, -100)! - 225) < 1e-9)
        #expect(track(0, 0) == nil)
    }

    /// Stratux pads Basic/Long reports to 436 bytes like an uplink: accepted, fields intact.
    @Test func paddedStratuxReportsAreAccepted() throws {
        let adsb = UATADSBPayload(payloadType: 0, addressQualifier: 0, address: 0xAAAAAA, position: Position(latitude: 40, longitude: -100),
                                  altitudeFt: 3000, velocity: .airborne(northKt: 10, eastKt: 10, supersonic: false), verticalRateFpm: 0)
        var bytes: [UInt8] = [0x1E, 0, 0, 0] + adsb.encode()
        bytes += [UInt8](repeating: 0, count: 436 - bytes.count)
        guard case .basicReport(let r) = try Message.decode(bytes) else { Issue.record(); return }
        #expect(r.adsb.address == 0xAAAAAA)
        #expect(r.adsb.altitudeFt == 3000)
        #expect(r.timeOfReception == 0)
        #expect(Message.basicReport(r).encode() == bytes)
    }

    @Test func shortMessagesAreLengthErrors() {
        #expect(throws: MessageError(reason: .length, messageID: 0x14, expected: 28, actual: 10)) {
            try Message.decode([UInt8](repeating: 0x14, count: 10))
        }
        #expect(throws: MessageError.self) { try Message.decode(hex("00 81")) }
        #expect(throws: MessageError.self) { try Message.decode([UInt8]()) }
    }

    /// SkyRadar also uses 0x65; only ForeFlight's sub-IDs and lengths decode as ForeFlight.
    @Test func foreignMessage0x65IsUnknown() throws {
        let skyRadar: [UInt8] = [0x65, 0x2A, 0x00, 0x01]
        #expect(try Message.decode(skyRadar) == .unknown(id: 0x65, payload: [0x2A, 0x00, 0x01]))
    }

    /// A frame with a stuffed flag inside the payload, in the traffic address: 0x7E7D7E.
    @Test func addressNeedingEscapes() throws {
        let t = TrafficReport(address: 0x7E7D7E, position: grid(1, 2), pressureAltitudeFt: 1000,
                              groundSpeedKt: 100, verticalSpeedFpm: 0, trackDeg: 11.25)
        let frame = Message.traffic(t).frame()
        #expect(frame.filter { $0 == 0x7E }.count == 2)
        #expect(try Message.decode(deframe(frame).frames[0]) == .traffic(t))
    }
}
