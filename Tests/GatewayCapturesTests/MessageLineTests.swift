import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayCaptures

/// Every message type's one-cursor line against the field-by-field text it replaced
/// (`MessageLineReference`), over messages decoded from seeded random bytes: every field at odd
/// values, absent values, long strings and bytes that need escaping.
@Suite(.timeLimit(.minutes(5))) struct MessageLineTests {
    /// SplitMix64: the same bytes on every run.
    struct Seeded {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
    }

    /// Messages of every type the decoder knows, decoded from random bytes behind each ID.
    static func corpus() -> [Message] {
        var random = Seeded(state: 24)
        // (ID, second byte if the type needs one, fourth byte if it needs one)
        let kinds: [(UInt8, UInt8?, UInt8?)] = [(0x00, nil, nil), (0x02, nil, nil), (0x07, nil, nil), (0x09, nil, nil), (0x0A, nil, nil),
                                                 (0x0B, nil, nil), (0x14, nil, nil), (0x1E, nil, nil), (0x1F, nil, nil), (0x65, 0, nil),
                                                 (0x65, 1, nil), (0xCC, nil, nil), (0x53, 0x58, nil), (0x4C, 0x45, 0x01), (0x33, nil, nil)]
        var messages: [Message] = []
        var seen = Set<Int>()
        for (id, second, fourth) in kinds {
            for length in Array(1...80) + [436] {
                for _ in 0..<12 {
                    var bytes = (0..<length).map { _ in random.byte() }
                    bytes[0] = id
                    if let second, length > 1 { bytes[1] = second }
                    if let fourth, length > 3 { bytes[3] = fourth }
                    guard let m = try? Message.decode(bytes) else { continue }
                    messages.append(m)
                    seen.insert(m.typeIndex)
                }
            }
        }
        // And the values random bytes rarely give: absent fields, whole and negative angles.
        messages += [
            .foreFlightAHRS(ForeFlightAHRS(rollDeg: nil, pitchDeg: -0.0, headingDeg: 359.9, indicatedAirspeedKt: nil, trueAirspeedKt: nil)),
            .foreFlightAHRS(ForeFlightAHRS(rollDeg: -2, pitchDeg: 1e15, headingDeg: nil, indicatedAirspeedKt: 100, trueAirspeedKt: 104)),
            .levilAHRS(LevilAHRS(rollDeg: 0.1, pitchDeg: -180, headingDeg: 0.30000000000000004)),
            .foreFlightID(ForeFlightID(serialNumber: nil, deviceName: "St\"rx\\", deviceLongName: "Ünïcode\tlong")),
            .stratuxStatus(StratuxStatus(versionMajor: 1, versionMinor: 6, cpuTemperatureC: .nan,
                                         towers: [Position(latitude: 37.5, longitude: -122.25), Position(latitude: -0.000004, longitude: 0)])),
            .ownshipGeoAltitude(OwnshipGeometricAltitude(altitudeFt: -1000, verticalWarning: true, vfom: .atLeast32766)),
            .heightAboveTerrain(HeightAboveTerrain(feet: nil)),
            .unknown(id: 0xFF, payload: []),
        ]
        #expect(seen.count == Message.typeNames.count, "every message type is in the corpus")
        return messages
    }

    @Test func everyTypesJSONLineIsTheFieldWritersText() {
        var clock = ISO8601Writer()
        var count = 0
        for (i, m) in Self.corpus().enumerated() {
            let time: Double? = i % 7 == 0 ? nil : 1_778_940_000 + Double(i) * 0.125
            let offset: Int? = i % 5 == 0 ? nil : i * 1000
            var out = OutputBuffer(capacity: 0)
            MessageFormatter.appendJSON(m, time: time, offset: offset, to: &out, clock: &clock)
            #expect(out.text == MessageLineReference.json(m, time: time, offset: offset), "\(m)")
            count += 1
        }
        #expect(count > 2000)
    }

    @Test func everyTypesReadableLineIsTheInterpolatedText() {
        var clock = ISO8601Writer()
        for (i, m) in Self.corpus().enumerated() {
            if case .stratuxStatus(let s) = m, Int(s.uatTargets) + Int(s.esTargets) > Int(UInt16.max) { continue }  // the old text trapped
            let time: Double? = i % 7 == 0 ? nil : 1_778_940_000 + Double(i) * 0.125
            var out = OutputBuffer(capacity: 0)
            MessageFormatter.appendText(m, time: time, to: &out, clock: &clock)
            #expect(out.text == MessageLineReference.text(m, time: time), "\(m)")
        }
    }

    /// A Stratux status whose two target counts sum past 65,535 printed its sum by trapping
    /// (`decode` of such a frame crashed); it is now the plain sum.
    @Test func stratuxTargetCountsAddWithoutTrapping() {
        let m = Message.stratuxStatus(StratuxStatus(versionMajor: 1, versionMinor: 6, uatTargets: 40_000, esTargets: 40_000))
        #expect(MessageFormatter.text(m, time: nil) == "-  Stratux status v1.6, 80000 targets")
    }

    @Test func rejectedFrameLinesAreTheDescriptionsText() {
        var clock = ISO8601Writer()
        for (i, reason) in FrameError.Reason.allCases.enumerated() {
            for (offset, length) in [(0, 0), (7, 3), (123_456_789, 1025)] {
                let e = FrameError(reason: reason, offset: offset, length: length)
                let t = 1_778_940_000 + Double(i) / 3
                var json = OutputBuffer(capacity: 0)
                MessageFormatter.appendJSON(e, time: t, to: &json, clock: &clock)
                #expect(json.text == MessageFormatter.json(e, time: t))
                var untimed = OutputBuffer(capacity: 0)
                MessageFormatter.appendJSON(e, time: nil, to: &untimed, clock: &clock)
                #expect(untimed.text == MessageFormatter.json(e, time: nil))
                var text = OutputBuffer(capacity: 0)
                MessageFormatter.appendText(e, time: t, to: &text, clock: &clock)
                #expect(text.text == "\(Timestamp.iso8601(t))  error      \(e)")
            }
        }
    }
}
