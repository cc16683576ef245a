import Testing
@testable import GDL90

@Suite(.timeLimit(.minutes(5))) struct FISBGriddedTests {
    @Test func nexradKnownBytesAndBounds() throws {
        // Block 303 596 = row 674, column 296; high resolution, northern hemisphere, run-length.
        // 303 596 = 0x4A1EC: 0x80 | 0x4, then 0xA1 0xEC; runs: 16×2 → (15 << 3) | 2 = 0x7A, 16×3 → 0x7B, …
        var bins = [UInt8](repeating: 0, count: 128)
        for i in 0..<32 { bins[i] = i < 16 ? 2 : 3 }
        let block = GriddedBlock(productID: 63, blockNumber: 303_596, bins: bins)
        let bytes = block.encode()
        #expect(bytes == [0x84, 0xA1, 0xEC, 0x7A, 0x7B, 0xF8, 0xF8, 0xF8])
        let back = try GriddedBlock(productID: 63, payload: bytes)
        #expect(back == block)
        let b = back.bounds
        #expect(b.north == 45.0 && abs(b.south - 44.933_333) < 1e-6)
        #expect(abs(b.west - -123.2) < 1e-9 && abs(b.east - -122.4) < 1e-9)
        // Bin 33: second row (1 to 2 arc-minutes south of the top), second column (1.5 arc-minutes east).
        let bin = back.binBounds(33)
        #expect(abs(bin.north - (45 - 1.0 / 60)) < 1e-9 && abs(bin.south - (45 - 2.0 / 60)) < 1e-9)
        #expect(abs(bin.west - (-123.2 + 1.5 / 60)) < 1e-9 && abs(bin.east - (-123.2 + 3.0 / 60)) < 1e-9)
        #expect(back.bins?[33] == 0 && back.bins?[1] == 2)
    }

    @Test func scaleHemisphereAndWideBlocks() throws {
        // Medium resolution (scale 1): five blocks high and wide. North of 60°: double width.
        let medium = GriddedBlock(productID: 64, blockNumber: 450 * 600 + 10, scale: 1, bins: [UInt8](repeating: 1, count: 128))
        let mb = try GriddedBlock(productID: 64, payload: medium.encode()).bounds
        #expect(abs(mb.north - 40.066_667) < 1e-6 && abs(mb.north - mb.south - 4.0 / 60 * 5) < 1e-9)
        #expect(abs(mb.east - mb.west - 4.0) < 1e-9)
        let wide = GriddedBlock(productID: 64, blockNumber: 405_001, bins: [UInt8](repeating: 0, count: 128)).bounds
        #expect(wide.north == 60 + 4.0 / 60 && abs(wide.east - wide.west - 1.6) < 1e-9 && wide.west == 0)
        let south = try GriddedBlock(productID: 63, payload: GriddedBlock(productID: 63, blockNumber: 4500, southern: true, bins: [UInt8](repeating: 0, count: 128)).encode())
        #expect(south.southern && abs(south.bounds.north - -0.666_667) < 1e-6)
    }

    @Test func everyCodingRoundTrips() throws {
        var ramp = [UInt8](repeating: 0, count: 128)
        for i in 0..<128 { ramp[i] = UInt8(i / 20 % 7) }
        for (product, level) in [(103, nil), (70, 3), (71, 1), (84, nil), (90, 0), (91, 4)] as [(Int, Int?)] {
            let block = GriddedBlock(productID: product, blockNumber: 1234, scale: level == nil ? 0 : 1, altitudeLevel: level, bins: ramp)
            let back = try GriddedBlock(productID: product, payload: block.encode())
            #expect(back.bins == ramp, "product \(product)")
            #expect(back.altitudeLevel == level)
        }
        #expect(GriddedBlock(productID: 70, blockNumber: 0, altitudeLevel: 3, bins: []).altitudeFt == 8000)
        #expect(GriddedBlock(productID: 91, blockNumber: 0, altitudeLevel: 2, bins: []).altitudeFt == 22_000)
        // Turbulence: a 128-bin run needs the long form 0xE? + count−1.
        let flat = GriddedBlock(productID: 90, blockNumber: 0, altitudeLevel: 0, bins: [UInt8](repeating: 5, count: 128))
        #expect(Array(flat.encode().suffix(2)) == [0xE5, 127])
        // Lightning's 0xF8 stands for 32 empty bins.
        #expect(try GriddedBlock(productID: 103, payload: [0x80, 0, 1, 0xF8, 0xF8, 0xF8, 0xF8]).bins == [UInt8](repeating: 0, count: 128))
    }

    @Test func emptyBlockBitmap() throws {
        let e = GriddedBlock(productID: 63, blockNumber: 1000, emptyBlocks: [1001, 1004, 1005, 1012])
        let bytes = e.encode()
        // Offsets 0 and 3 in the first nibble (bits 4 and 7), offsets 4 and 11 in the next byte.
        #expect(bytes == [0x00, 0x03, 0xE8, 0x91, 0x81])
        #expect(try GriddedBlock(productID: 63, payload: bytes).emptyBlocks == [1000, 1001, 1004, 1005, 1012])
        // At medium scale (CONUS) each bit steps by the block's width, 5 base blocks (FAA SRT-047
        // App. B: "adjacent Global Blocks along the latitude are different by 5"): the same
        // bitmap from block 1000 of product 64 flags 1005, 1020, 1025 and 1060.
        let conus = try GriddedBlock(productID: 64, payload: [0x10, 0x03, 0xE8, 0x91, 0x81])
        #expect(conus.scale == 1 && conus.emptyBlocks == [1000, 1005, 1020, 1025, 1060])
        #expect(GriddedBlock(productID: 64, blockNumber: 1000, scale: 1, emptyBlocks: [1005, 1020, 1025, 1060]).encode() == [0x10, 0x03, 0xE8, 0x91, 0x81])
        // Eastward wraps at 360° within the ring: from column 448 one step is column 449, two are column 0.
        #expect(GriddedBlock.eastward(10 * 450 + 448, 1, scale: 0) == 10 * 450 + 449)
        #expect(GriddedBlock.eastward(10 * 450 + 448, 2, scale: 0) == 10 * 450)
        // North of 60° blocks are twice as wide: a step of 2.
        #expect(GriddedBlock.eastward(900 * 450 + 10, 1, scale: 0) == 900 * 450 + 12)
    }

    @Test func malformedBlocks() {
        // Bins stop at 64 of 128.
        #expect(throws: FISBError.self) { try GriddedBlock(productID: 63, payload: [0x80, 0, 1, 0xF8, 0xF8]) }
        // Runs past 128 bins.
        #expect(throws: FISBError.self) { try GriddedBlock(productID: 63, payload: [0x80, 0, 1, 0xF8, 0xF8, 0xF8, 0xF0, 0xF8]) }
        #expect(throws: FISBError.self) { try GriddedBlock(productID: 63, payload: [0x80]) }
        #expect(throws: FISBError.self) { try GriddedBlock(productID: 8, payload: [0x80, 0, 0]) }
    }

    /// Where and why each coding's runs fail, to the byte (payload offsets), and runs of every
    /// length decoded by each coding (runs of one and two bins are written without memset).
    @Test func runFailuresAndShortRunsOfEveryCoding() throws {
        func failure(_ product: Int, _ payload: [UInt8]) -> FISBError? {
            do { _ = try GriddedBlock(productID: product, payload: payload); return nil } catch { return error }
        }
        // NEXRAD: 64 of 128 bins, then the end (offset 5).
        let missing = failure(63, [0x80, 0, 1, 0xF8, 0xF8])
        #expect(missing?.reason == .truncated && missing?.offset == 5 && missing?.detail == "product 63 block 1: 64 of 128 bins present")
        // NEXRAD: 96 + 31 bins, then 32 more: 159, said after the run that overflows (offset 8).
        let over = failure(63, [0x80, 0, 1, 0xF8, 0xF8, 0xF8, 0xF0, 0xF8])
        #expect(over?.reason == .badLength && over?.offset == 8 && over?.detail == "product 63 block 1: runs total 159 bins, a block has 128")
        // Icing: 64 bins, then a run's value byte missing (the run starts at offset 5).
        let icing = failure(70, [0x80, 0, 1, 63, 0x02, 63])
        #expect(icing?.reason == .truncated && icing?.offset == 5 && icing?.detail == "icing run needs 2 bytes")
        // Turbulence: a long run's count byte missing (offset 3).
        let turbulence = failure(90, [0x80, 0, 1, 0xE5])
        #expect(turbulence?.reason == .truncated && turbulence?.offset == 3 && turbulence?.detail == "long turbulence run needs 2 bytes")
        // Lightning: value 8 is none, 0xF8 is 32 empty bins.
        let lightning = try GriddedBlock(productID: 103, payload: [0x80, 0, 1, 0x08, 0x13, 0x2C, 0xF8, 0xF8, 0xF8, 0xC3, 0xC0])
        #expect(lightning.bins == [0, 3, 3, 12, 12, 12] + [UInt8](repeating: 0, count: 96) + [UInt8](repeating: 3, count: 13) + [UInt8](repeating: 0, count: 13))
        // Every run length from 1 to 32 of a non-zero value, in each coding's own encoding.
        for length in 1...32 {
            var bins = [UInt8](repeating: 0, count: 128)
            for i in 0..<length { bins[i + 5] = 2 }
            for product in [63, 103, 70, 90] {
                let block = GriddedBlock(productID: product, blockNumber: 7, scale: 1, altitudeLevel: product == 70 || product == 90 ? 0 : nil, bins: bins)
                #expect(try GriddedBlock(productID: product, payload: block.encode()).bins == bins, "product \(product), a run of \(length)")
            }
        }
    }
}

@Suite(.timeLimit(.minutes(5))) struct FISBSUATests {
    @Test func parsesFieldsAndRebuildsText() throws {
        let text = "SUA 161330Z 4242|MOA-0042|H|M|SALEM MOA|2605161400|2605161800|5|179|A|Y|NFDC1|SALEM MOA|D1|SALEM"
        let sua = try #require(SUARecord(text))
        #expect(sua.validTime == "161330Z" && sua.scheduleID == "4242" && sua.airspaceID == "MOA-0042")
        #expect(sua.status == "H" && sua.type == "M" && sua.name == "SALEM MOA")
        #expect(sua.start == "2605161400" && sua.end == "2605161800")
        #expect(sua.floorFt == 500 && sua.ceilingFt == 17_900)
        #expect(sua.references == ["NFDC1", "SALEM MOA", "D1", "SALEM"])
        #expect(sua.text == text)
        #expect(SUARecord("NOTAM-D KSLE.05/012 …") == nil)
    }
}
