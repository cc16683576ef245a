import Foundation
import GDL90
import Testing
@testable import GatewayCaptures

@Suite(.timeLimit(.minutes(5))) struct CaptureTests {
    let datagrams: [(time: Double, bytes: [UInt8])] = [
        (1_778_940_000.25, Message.heartbeat(Heartbeat(utcOK: true, secondsSinceMidnight: 50_400)).frame()),
        (1_778_940_001.5, [0x7E, 0x7D, 0x5E] + Message.heightAboveTerrain(HeightAboveTerrain(feet: 120)).frame()),
    ]

    @Test(arguments: [PcapWriter.Link.ethernet, .ethernetVLAN, .rawIPv4, .rawIPv6, .linuxSLL, .linuxSLL2])
    func pcapLinkTypesBothByteOrders(link: PcapWriter.Link) {
        for bigEndian in [false, true] {
            for nano in [false, true] {
                let file = PcapWriter.pcap(datagrams, link: link, nanoseconds: nano, bigEndian: bigEndian)
                #expect(CaptureFile.detect(file) == .pcap)
                let c = CaptureFile.parse(file)
                #expect(c.error == nil)
                #expect(c.datagrams.map(\.bytes) == datagrams.map(\.bytes))
                #expect(c.datagrams.map { $0.timestamp! } == datagrams.map(\.time))
            }
        }
    }

    @Test(arguments: [PcapWriter.Link.ethernet, .rawIPv6, .linuxSLL2])
    func pcapngBothByteOrdersAndResolutions(link: PcapWriter.Link) {
        for bigEndian in [false, true] {
            for nano in [false, true] {
                let file = PcapWriter.pcapng(datagrams, link: link, nanoseconds: nano, bigEndian: bigEndian)
                #expect(CaptureFile.detect(file) == .pcapng)
                let c = CaptureFile.parse(file)
                #expect(c.error == nil)
                #expect(c.datagrams.map(\.bytes) == datagrams.map(\.bytes))
                #expect(c.datagrams.map { $0.timestamp! } == datagrams.map(\.time))
            }
        }
    }

    /// A big-endian microsecond pcap with one raw-IPv4 record, assembled by hand.
    @Test func handBuiltBigEndianPcap() {
        let payload: [UInt8] = [0x7E, 0x09, 0x00, 0x78, 0xAA, 0xBB, 0x7E]
        var file: [UInt8] = [0xA1, 0xB2, 0xC3, 0xD4, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 101]
        let ipLength = 20 + 8 + payload.count
        let record: [UInt8] = [0x45, 0, 0, UInt8(ipLength), 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2,
                               0x0F, 0xA0, 0x0F, 0xA0, 0, UInt8(8 + payload.count), 0, 0] + payload
        file += [0x6A, 0x08, 0x6B, 0x60, 0x00, 0x07, 0xA1, 0x20, 0, 0, 0, UInt8(record.count), 0, 0, 0, UInt8(record.count)] + record
        let c = CaptureFile.parse(file)
        #expect(c.error == nil)
        #expect(c.datagrams.count == 1)
        #expect(c.datagrams[0].bytes == payload)
        #expect(c.datagrams[0].timestamp == 1_778_936_672.5)  // 0x6A086B60 s + 500000 µs
    }

    @Test func otherPortsAreSkippedAndPortOverride() {
        let file = PcapWriter.pcap(datagrams, port: 4001)
        #expect(CaptureFile.parse(file).datagrams.isEmpty)
        #expect(CaptureFile.parse(file).skipped == 2)
        #expect(CaptureFile.parse(file, port: 4001).datagrams.count == 2)
    }

    @Test func truncatedPcapKeepsWhatWasReadAndSaysWhere() {
        let file = PcapWriter.pcap(datagrams)
        let cut = Array(file.dropLast(5))
        let c = CaptureFile.parse(cut, name: "cut.pcap")
        #expect(c.datagrams.count == 1)
        let error = try! #require(c.error)
        #expect(error.offset == 24 + 16 + (file.count - 24) / 2 - 8 || error.offset! > 24)
        #expect(error.description.contains("cut.pcap"))
        #expect(error.description.contains("cut short"))
        // Header only, and a damaged length.
        #expect(CaptureFile.parse(Array(file.prefix(10))).error != nil)
        var damaged = file
        damaged[24 + 8] = 0xFF; damaged[24 + 9] = 0xFF; damaged[24 + 10] = 0xFF
        let d = CaptureFile.parse(damaged)
        #expect(d.datagrams.isEmpty)
        #expect(d.error?.reason.contains("damaged") == true)
    }

    @Test func truncatedPcapng() {
        let file = PcapWriter.pcapng(datagrams)
        let c = CaptureFile.parse(Array(file.dropLast(7)))
        #expect(c.datagrams.count == 1)
        #expect(c.error != nil)
    }

    @Test func dump978LinesBecomeFrames() {
        let uplink = (0..<432).map { UInt8(truncatingIfNeeded: $0) }
        let hex = uplink.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        let basic = UATADSBPayload(payloadType: 0, addressQualifier: 0, address: 0xABCDEF, position: Position(latitude: 40, longitude: -100),
                                   altitudeFt: 5000, velocity: .airborne(northKt: 100, eastKt: 0, supersonic: false), verticalRateFpm: 0).encode()
        let basicHex = basic.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        let text = "+\(hex);rs=3;t=1612345678.250;\n-\(basicHex);rs=5;t=1612345679.5;\n"
        let bytes = Array(text.utf8)
        #expect(CaptureFile.detect(bytes) == .dump978)
        let c = CaptureFile.parse(bytes)
        #expect(c.datagrams.count == 2)
        #expect(c.datagrams[0].timestamp == 1_612_345_678.25)
        #expect(c.datagrams[0].bytes == Message.uplink(Uplink(timeOfReception: nil, payload: uplink)).frame())
        #expect(c.datagrams[1].bytes == Message.basicReport(UATReport(timeOfReception: nil, payload: basic)).frame())
    }

    @Test func anythingElseIsRaw() {
        let raw = Message.heartbeat(Heartbeat()).frame()
        #expect(CaptureFile.detect(raw) == .raw)
        let c = CaptureFile.parse(raw)
        #expect(c.format == .raw)
        #expect(c.datagrams.first?.timestamp == nil)
        #expect(c.datagrams.first?.bytes == raw)
    }

    @Test func missingAndEmptyFilesAreClearErrors() throws {
        #expect(throws: CaptureError(path: "/nonexistent/x.pcap", offset: nil, reason: "no such file")) {
            try CaptureFile.read(path: "/nonexistent/x.pcap")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID()).pcap").path
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: CaptureError(path: path, offset: nil, reason: "the file is empty")) { try CaptureFile.read(path: path) }
    }

    /// Random garbage never traps: every reader bounds-checks.
    @Test func garbageNeverTraps() {
        var rng = SystemRandomNumberGenerator()
        let seeds: [[UInt8]] = [PcapWriter.pcap(datagrams), PcapWriter.pcapng(datagrams)]
        for seed in seeds {
            for _ in 0..<300 {
                var b = seed
                for _ in 0..<8 { b[Int.random(in: 0..<b.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
                _ = CaptureFile.parse(Array(b.prefix(Int.random(in: 0...b.count, using: &rng))))
            }
        }
    }
}
