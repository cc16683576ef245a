import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayCaptures
@testable import GatewaySimulation

/// The byte-level formatters behind `decode`, `fisb` and every JSON feed: exact bytes for the
/// edge values (negative zero, nulls, rounding at the sixth decimal, non-ASCII and control
/// characters), and the streamed capture reader against the whole-file parse.
@Suite(.timeLimit(.minutes(5))) struct OutputFormattingTests {
    /// Raw bytes of every length up to 40 (the short ones copied with overlapping loads and
    /// stores), from every alignment, land after what was written before, byte for byte, with
    /// what follows right after them.
    @Test func rawBytesOfEveryLengthAreCopiedExactly() {
        let source = (0..<80).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for length in 0...40 {
            for start in 0..<8 {
                var out = OutputBuffer(capacity: 0)
                out.append("ab" as StaticString)
                source.withUnsafeBytes { out.append(raw: UnsafeRawBufferPointer(rebasing: $0[start..<(start + length)])) }
                out.append(byte: 0x7C)
                #expect(out.bytes == Array("ab".utf8) + source[start..<(start + length)] + [0x7C], "\(length) bytes from \(start)")
            }
        }
    }

    @Test func fixedPointEdgeValues() {
        #expect(JSONWriter.format(-0.0, decimals: 6) == "0")
        #expect(JSONWriter.format(-0.0000004, decimals: 6) == "0")
        #expect(JSONWriter.format(-0.0000006, decimals: 6) == "-0.000001")
        #expect(JSONWriter.format(39.7357684, decimals: 6) == "39.735768")
        #expect(JSONWriter.format(-95.8549449, decimals: 6) == "-95.854945")
        #expect(JSONWriter.format(2.5, decimals: 0) == "3")
        #expect(JSONWriter.format(-2.5, decimals: 0) == "-3")
        #expect(JSONWriter.format(12.30, decimals: 2) == "12.3")
        #expect(JSONWriter.format(100, decimals: 3) == "100")
        #expect(JSONWriter.format(0.05, decimals: 1) == "0.1")
        #expect(JSONWriter.format(1e16, decimals: 0) == "1e+16")
        #expect(JSONWriter.format(Double.infinity, decimals: 2) == "inf")
    }

    @Test func nullsAndNonFiniteNumbers() {
        var w = JSONWriter()
        w.add("s", nil as String?)
        w.add("i", nil as Int?)
        w.add("b", nil as Bool?)
        w.add("d", nil as Double?, decimals: 2)
        w.add("nan", Double.nan, decimals: 2)
        w.add("inf", -Double.infinity, decimals: 2)
        var clock = ISO8601Writer()
        w.add("t", time: nil, clock: &clock)
        w.add("min", Int.min)
        w.add("max", Int.max)
        #expect(w.result == #"{"s":null,"i":null,"b":null,"d":null,"nan":null,"inf":null,"t":null,"min":-9223372036854775808,"max":9223372036854775807}"#)
    }

    @Test func stringsKeepUnicodeAndEscapeControlCharacters() {
        var w = JSONWriter()
        w.add("callsign", "ÄB€7")
        w.add("text", "a\"b\\c\nd\re\tf\u{01}g\u{1F}h\u{7F}")
        w.addRaw(key: "k\"ey", "[1]")
        #expect(w.result == "{\"callsign\":\"ÄB€7\",\"text\":\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u001fh\u{7F}\",\"k\\\"ey\":[1]}")
        var s = ""
        JSONWriter.appendQuoted("\u{0}x", to: &s)
        #expect(s == "\"\\u0000x\"")
    }

    @Test func hexAddresses() {
        #expect(MessageFormatter.hex6(0) == "000000")
        #expect(MessageFormatter.hex6(0xABCDEF) == "abcdef")
        var out = OutputBuffer(capacity: 0)
        for v: UInt32 in [0, 0xA, 0x100000, 0xABCDEF, 0x1000000, 0xFFFFFFFF] {
            out.appendHex(v, width: 6)
            out.append(byte: 0x20)
        }
        #expect(out.text == "000000 00000a 100000 abcdef 1000000 ffffffff ")
    }

    @Test func cachedTimesMatchTheFormatter() {
        var clock = ISO8601Writer()
        var out = OutputBuffer(capacity: 0)
        let times = [0, 0.25, 1.9996, 1.9994, -0.001, -86_400.5, 1_778_940_000, 1_778_940_000.125, 1_778_940_000.125, 253_402_300_799.999]
        for t in times {
            clock.append(t, to: &out)
            out.append(byte: 0x0A)
        }
        #expect(out.text == times.map { Timestamp.iso8601($0) + "\n" }.joined())
        // Second after second across midnights (only the time of day rewritten), and jumps.
        var stepped = OutputBuffer(capacity: 0)
        var expected = ""
        var t = 1_778_976_000.0 - 3_601.5
        for k in 0..<9_000 {
            t += k % 997 == 0 ? 86_400 * Double(k % 3) - 0.75 : 1.125
            clock.append(t, to: &stepped)
            expected += Timestamp.iso8601(t)
        }
        #expect(stepped.text == expected)
        #expect(Timestamp.iso8601(1.9996) == "1970-01-01T00:00:02Z")
        #expect(Timestamp.iso8601(-0.001) == "1969-12-31T23:59:59.999Z")
    }

    @Test func trafficLinesPinnedByteForByte() {
        let full = TrafficReport(alertStatus: 1, addressType: .tisbICAO, address: 0xAB4549, position: Position(latitude: 45.0000004, longitude: -0.0000004),
                                 pressureAltitudeFt: -1000, airborne: false, extrapolated: true, groundSpeedKt: 0, verticalSpeedFpm: -64,
                                 trackDeg: 359.6, callsign: "N825V")
        let empty = TrafficReport(address: 0x00000F, position: nil, pressureAltitudeFt: nil, groundSpeedKt: nil, verticalSpeedFpm: nil, trackDeg: 0)
        let t = 1_778_940_003.25
        #expect(MessageFormatter.text(.traffic(full), time: t)
            == "2026-05-16T14:00:03.250Z  traffic    ab4549 N825V 45,0 -1000 ft 0 kt 360° -64 fpm ground extrapolated tis-b")
        #expect(MessageFormatter.text(.ownship(empty), time: nil) == "-  ownship    00000f - no position alt n/a gs n/a 0° vs n/a")
        #expect(MessageFormatter.json(.traffic(full), time: t, offset: 7)
            == #"{"type":"traffic","time":"2026-05-16T14:00:03.250Z","offset":7,"address":"ab4549","addressType":"tisbICAO","trafficAlert":true,"latitude":45,"longitude":0,"pressureAltitudeFt":-1000,"airborne":false,"extrapolated":true,"trackType":"trueTrack","nic":8,"nacp":8,"groundSpeedKt":0,"verticalSpeedFpm":-64,"trackDeg":359.6,"emitterCategory":1,"callsign":"N825V","emergency":0}"#)
        #expect(MessageFormatter.json(.ownship(empty), time: nil)
            == #"{"type":"ownship","time":null,"address":"00000f","addressType":"adsbICAO","trafficAlert":false,"latitude":null,"longitude":null,"pressureAltitudeFt":null,"airborne":true,"extrapolated":false,"trackType":"trueTrack","nic":8,"nacp":8,"groundSpeedKt":null,"verticalSpeedFpm":null,"trackDeg":0,"emitterCategory":1,"callsign":"","emergency":0}"#)
    }

    /// The traffic/ownship fast path (one cursor) against the field-by-field `JSONWriter` path it
    /// replaces, over edge values: the two must give the same bytes.
    @Test func reportFastPathMatchesTheFieldWriter() {
        let positions: [Position?] = [nil, Position(latitude: -0.0000005, longitude: 179.9999995), Position(latitude: 89.9999999, longitude: -180),
                                      Position(latitude: 37.1234565, longitude: -122.0000015), Position(latitude: 1e-7, longitude: -1e-7)]
        let callsigns = ["", "N825V", "ÄB€", "A\"B", "TAB\tX"]
        var clock = ISO8601Writer()
        for (i, position) in positions.enumerated() {
            for callsign in callsigns {
                for type in [AddressType.adsbICAO, .tisbTrackFile, AddressType(rawValue: 9)] {
                    let r = TrafficReport(alertStatus: UInt8(i % 2), addressType: type, address: UInt32(i * 0x54321), position: position,
                                          pressureAltitudeFt: i == 0 ? nil : -1000 + 25 * i, airborne: i % 2 == 0, extrapolated: i == 3,
                                          trackType: i == 2 ? .invalid : .trueTrack, nic: UInt8(i), nacp: 11, groundSpeedKt: i == 1 ? nil : 4095 - i,
                                          verticalSpeedFpm: i == 4 ? nil : -64 * i, trackDeg: Double(i) * 71.71875, emitterCategory: 39,
                                          callsign: callsign, emergency: 6)
                    for (time, offset) in [(nil, nil), (1_778_940_003.25, 0), (1_778_940_003.0, Int.max)] as [(Double?, Int?)] {
                        var fast = OutputBuffer(capacity: 0)
                        MessageFormatter.appendJSON(.traffic(r), time: time, offset: offset, to: &fast, clock: &clock)
                        var w = JSONWriter()
                        w.add("type", "traffic")
                        w.add("time", time.map(Timestamp.iso8601))
                        if let offset { w.add("offset", offset) }
                        MessageLineReference.addReport(r, to: &w)
                        #expect(fast.text == w.result)
                    }
                }
            }
        }
    }

    /// Digits two at a time, zero padding, and rounding without libm, against the standard library.
    @Test func digitsAndRoundingMatchTheStandardLibrary() {
        var values: [UInt64] = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 10_000, 65_535, 123_456_789, UInt64(Int64.max), UInt64.max]
        for p in 0..<20 { values.append(UInt64(pow(10.0, Double(p)))); values.append(UInt64(pow(10.0, Double(p))) - 1) }
        values += 0..<120  // one and two digits take a path of their own, up to width 2
        var out = OutputBuffer(capacity: 0)
        for v in values {
            for width in [0, 1, 2, 3, 6, 20] {
                out.removeAll()
                out.appendDigits(v, width: width)
                let plain = String(v)
                #expect(out.text == String(repeating: "0", count: max(0, width - plain.count)) + plain)
            }
        }
        let halves: [Double] = [0, 0.5, 1.5, 2.5, 0.49999999999999994, 4_503_599_627_370_495.5, 4_503_599_627_370_496, 8.999999999999998e15,
                                123_456.4999999, 123_456.5000001, 7.0000005e6, 1e-300]
        for x in halves { #expect(ByteCursor.roundedMagnitude(x) == Int64(x.rounded())) }
        for d in [0, 1, 2, 5, 6] {
            for v in [-0.0, 0.05, -0.05, 2.675, 1.005, 45.0000005, -45.0000005, 359.995, 4e15, -4e15, 9e15, 8.9e15, .nan, .infinity] {
                out.removeAll()
                out.append(v, decimals: d)
                let scaled = abs(v) * pow(10, Double(d))
                let expected: String
                if !((scaled).rounded() < 9e15) {
                    expected = String(v)
                } else {
                    let n = Int64(scaled.rounded()), p = Int64(pow(10, Double(d)))
                    var fracText = d == 0 ? "" : String(repeating: "0", count: d - String(n % p).count) + String(n % p)
                    while fracText.hasSuffix("0") { fracText.removeLast() }
                    expected = (v < 0 && n != 0 ? "-" : "") + String(n / p) + (fracText.isEmpty ? "" : "." + fracText)
                }
                #expect(out.text == expected, "\(v) with \(d) decimals")
            }
        }
    }

    @Test func linesAppendIntoOneGrowingBuffer() {
        var out = OutputBuffer(capacity: 0)
        var clock = ISO8601Writer()
        let report = TrafficReport(address: 0x123456, position: Position(latitude: 1, longitude: 2), pressureAltitudeFt: 3000,
                                   groundSpeedKt: 100, verticalSpeedFpm: 0, trackDeg: 90, callsign: "ABC")
        var expected = ""
        for i in 0..<2_000 {
            MessageFormatter.appendJSON(.traffic(report), time: Double(i) / 4, offset: i, to: &out, clock: &clock)
            out.append(byte: 0x0A)
            expected += MessageFormatter.json(.traffic(report), time: Double(i) / 4, offset: i) + "\n"
        }
        #expect(out.text == expected)
        out.removeAll()
        #expect(out.count == 0 && out.text.isEmpty)
    }

    /// Captures larger than the read window, in every format, give the datagrams of the
    /// whole-file parse, and damage found past the first window names its absolute offset.
    @Test func streamedCapturesMatchTheWholeFileParse() throws {
        let flight = DemoFlight().datagrams()
        var long: [(time: Double, bytes: [UInt8])] = []
        while long.reduce(0, { $0 + $1.bytes.count }) < CaptureStream.windowSize * 5 / 2 {
            let shift = Double(long.count)
            long += flight.map { (time: $0.time + shift, bytes: $0.bytes) }
        }
        let raw = long.flatMap(\.bytes)
        let dump978 = Array(String(repeating: FISBSamples.dump978(), count: 2_000).utf8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pcap = PcapWriter.pcap(long)
        for (name, bytes, format) in [("a.pcap", pcap, CaptureFormat.pcap), ("a.pcapng", PcapWriter.pcapng(long), .pcapng),
                                      ("a.gdl90", raw, .raw), ("a.978", dump978, .dump978),
                                      ("cut.pcap", Array(pcap.prefix(CaptureStream.windowSize + 1_000)), .pcap)] {
            let path = folder.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let whole = CaptureFile.parse(bytes, name: path)
            var stream = try CaptureStream(path: path)
            var streamed: [CapturedDatagram] = []
            while let d = stream.next() { streamed.append(d) }
            #expect(stream.format == format, "\(name)")
            #expect(streamed.count > 100, "\(name)")
            #expect(streamed == whole.datagrams, "\(name): \(streamed.count) streamed, \(whole.datagrams.count) parsed")
            #expect(stream.error == whole.error && stream.skipped == whole.skipped, "\(name): \(String(describing: stream.error))")
            if name == "cut.pcap" { #expect((stream.error?.offset ?? 0) > CaptureStream.windowSize - 2_000) }
        }
    }
}

/// The callsign written from its wire bytes on the stack is the very text of `callsign`:
/// trailing spaces and NULs trimmed, a NUL inside kept, bytes from 0x80 as Latin-1.
@Suite(.timeLimit(.minutes(5))) struct CallsignBytesTests {
    @Test func wireBytesGiveTheStringsUTF8() throws {
        let patterns: [[UInt8]] = [
            Array("N825V   ".utf8), Array("ABCDEFGH".utf8), [0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20], [0, 0, 0, 0, 0, 0, 0, 0],
            [0x41, 0x00, 0x42, 0x20, 0x20, 0x00, 0x20, 0x00], [0xC4, 0xFF, 0x80, 0x41, 0x7F, 0x1F, 0x22, 0x5C], [0xE9, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0xE9],
        ]
        let base = TrafficReport(address: 0xABCDEF, position: Position(latitude: 45, longitude: -123), pressureAltitudeFt: 3000,
                                 groundSpeedKt: 100, verticalSpeedFpm: 0, trackDeg: 90, callsign: "X")
        for p in patterns {
            var bytes = Message.traffic(base).encode()
            bytes.replaceSubrange(19..<27, with: p)
            guard case .traffic(let r) = try Message.decode(bytes[...]) else { Issue.record("not traffic"); continue }
            let fast = MessageFormatter.withCallsignUTF8(r) { Array($0) }
            #expect(fast == Array(r.callsign.utf8), "\(p)")
            // And both printers agree with the String-built lines.
            var w = JSONWriter()
            w.add("type", "traffic")
            w.add("time", nil as String?)
            MessageLineReference.addReport(r, to: &w)
            #expect(MessageFormatter.json(.traffic(r), time: nil) == w.result)
            #expect(MessageFormatter.text(.traffic(r), time: nil).contains(r.callsign.isEmpty ? " - " : r.callsign))
        }
    }
}
