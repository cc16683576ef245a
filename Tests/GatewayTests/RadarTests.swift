import Foundation
import GDL90
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayWeather
@testable import GatewayFeeds
@testable import GatewaySimulation

/// The grid as DO-358 describes it, written here from the text and not from the code under test:
/// rings of 4′ from the equator, 450 blocks of 48′ a ring from 0° eastward, twice as wide (even
/// numbers only) from 60° N, 32 × 4 bins a block, north row first; a medium-scale (scale 1) block
/// covers 5 × 5 high-resolution blocks, its north-west corner that of its own block.
private enum IndependentGrid {
    /// The block (at high resolution) and bin holding a point of the northern hemisphere.
    static func highResolution(latitude: Double, longitude: Double) -> (block: Int, bin: Int) {
        let ring = Int((latitude * 15).rounded(.down))
        let east = longitude < 0 ? longitude + 360 : longitude
        let wide = ring * 450 >= 405_000
        let width = wide ? 1.6 : 0.8
        let column = Int((east / width).rounded(.down)) * (wide ? 2 : 1)
        let west = Double(column) * 0.8
        let row = Int(((Double(ring + 1) / 15 - latitude) * 60).rounded(.down))
        let binColumn = Int(((east - west) / (width / 32)).rounded(.down))
        return (ring * 450 + column, row * 32 + binColumn)
    }

    /// The bin of medium-scale block `block` holding a point, nil when outside it.
    static func medium(block: Int, latitude: Double, longitude: Double) -> Int? {
        let ring = block / 450, column = block % 450
        let north = Double(ring + 1) / 15, south = north - 5.0 / 15
        var west = Double(column) * 0.8
        if west >= 180 { west -= 360 }
        guard latitude < north, latitude >= south, longitude >= west, longitude < west + 4 else { return nil }
        return Int(((north - latitude) * 12).rounded(.down)) * 32 + Int(((longitude - west) / 0.125).rounded(.down))
    }
}

/// Pixels as GDAL reads them: `gdal_translate -of XYZ` (each pixel's centre, from the world file,
/// and its palette index, from the PNG); nil when GDAL is not installed (said on stderr).
private func gdalPixels(_ png: String) throws -> [(x: Double, y: Double, value: Int)]? {
    guard let translate = ["/usr/bin/gdal_translate", "/usr/local/bin/gdal_translate"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        FileHandle.standardError.write(Data("RadarTests: gdal_translate not found (apt install gdal-bin): GDAL's reading of the pictures skipped\n".utf8))
        return nil
    }
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("radar-\(UUID()).xyz").path
    defer { try? FileManager.default.removeItem(atPath: out) }
    let r = try runProcess(URL(fileURLWithPath: translate), ["-q", "-of", "XYZ", png, out])
    #expect(r.status == 0, "gdal_translate: \(r.errors)")
    return try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").compactMap { line in
        let f = line.split(separator: " ")
        guard f.count == 3, let x = Double(f[0]), let y = Double(f[1]), let v = Int(f[2]) else { return nil }
        return (x, y, v)
    }
}

private func receipt(_ block: GriddedBlock, time: Double, at received: Double) -> GridBlockReceipt {
    GridBlockReceipt(block: block, productTime: time, received: received)
}

/// Deterministic bins: a pattern of a block and a seed, every value of `range`.
private func pattern(_ n: Int, seed: Int, range: ClosedRange<UInt8> = 0...7) -> [UInt8] {
    let modulus = Int(range.upperBound) + 1
    return (0..<128).map { (i: Int) -> UInt8 in
        let v: Int = i * 7 + n * 13 + seed * 3 + (i / 32) * 5
        return UInt8(v % modulus)
    }
}

@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct RadarTests {
    /// A composite of scattered regional blocks (one above 60° N) drawn, then read back by GDAL
    /// pixel by pixel and each value found again through the independent grid.
    @Test func regionalPixelsMatchAnIndependentDecoding() throws {
        let time = FISBSamples.startTime
        var blocks: [Int: [UInt8]] = [:]
        for ring in [660, 661, 663] { for column in [290, 291, 293] { blocks[ring * 450 + column] = pattern(ring + column, seed: 1) } }
        var assembler = RadarAssembler()
        for (n, bins) in blocks { assembler.add(receipt(GriddedBlock(productID: 63, blockNumber: n, bins: bins), time: time, at: time + 60)) }
        assembler.add(receipt(GriddedBlock(productID: 63, blockNumber: 662 * 450 + 292, emptyBlocks: []), time: time, at: time + 61))
        let composite = try #require(assembler.latest(.nexradRegional))
        #expect(composite.blockCount == 10)
        let image = try RadarImage(composite)
        // 4 rings of 4 bins, 4 columns of 32 bins: the finest bin, one pixel each.
        #expect(image.width == 128 && image.height == 16 && image.pixelsPerBin == 1)
        let expectedNorth: Double = 664.0 / 15, expectedWest: Double = 290 * 0.8 - 360
        #expect(abs(image.north - expectedNorth) < 1e-9)
        #expect(abs(image.west - expectedWest) < 1e-9)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("radar-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paths = try RadarFiles.write(image, into: folder)
        #expect(paths.map { ($0 as NSString).lastPathComponent } == ["nexrad-regional.png", "nexrad-regional.pgw", "nexrad-regional.json"])
        guard let pixels = try gdalPixels(paths[0]) else { return }
        #expect(pixels.count == 128 * 16)
        var compared = 0
        for p in pixels {
            let (block, bin) = IndependentGrid.highResolution(latitude: p.y, longitude: p.x)
            let expected = blocks[block].map { Int($0[bin]) } ?? 0
            #expect(p.value == expected, "pixel at \(p.x), \(p.y): block \(block) bin \(bin)")
            compared += expected > 0 ? 1 : 0
        }
        #expect(compared > 900)
    }

    /// North of 60° blocks are twice as wide: a bin covers two pixels when the composite also
    /// holds narrow blocks, and GDAL's reading agrees with the independent grid.
    @Test func wideBlocksNorthOfSixtyCoverTwoPixels() throws {
        let time = FISBSamples.startTime
        var blocks: [Int: [UInt8]] = [:]
        blocks[899 * 450 + 200] = pattern(1, seed: 2)     // 59°56′–60° N, narrow
        blocks[900 * 450 + 200] = pattern(2, seed: 3)     // 60°–60°04′ N, wide (columns 200–201)
        var assembler = RadarAssembler()
        for (n, bins) in blocks { assembler.add(receipt(GriddedBlock(productID: 63, blockNumber: n, bins: bins), time: time, at: time)) }
        // An odd number north of 60° names the same wide block as its even neighbour.
        #expect(GriddedBlock.bounds(blockNumber: 900 * 450 + 201, southern: false, scale: 0).west == GriddedBlock.bounds(blockNumber: 900 * 450 + 200, southern: false, scale: 0).west)
        let image = try RadarImage(try #require(assembler.latest(.nexradRegional)))
        #expect(image.width == 64 && image.height == 8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("radar-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard let pixels = try gdalPixels(try RadarFiles.write(image, into: folder)[0]) else { return }
        for p in pixels {
            let (block, bin) = IndependentGrid.highResolution(latitude: p.y, longitude: p.x)
            #expect(p.value == (blocks[block].map { Int($0[bin]) } ?? 0), "pixel at \(p.x), \(p.y)")
        }
    }

    /// CONUS NEXRAD at medium scale: 5 × 5-bin blocks, "no data" and "< 20 dBZ" transparent.
    @Test func conusMediumScaleAndTransparency() throws {
        let time = FISBSamples.startTime
        let numbers = [615 * 450 + 300, 620 * 450 + 300, 615 * 450 + 305]
        var assembler = RadarAssembler()
        for n in numbers { assembler.add(receipt(GriddedBlock(productID: 64, blockNumber: n, scale: 1, bins: pattern(n, seed: 4)), time: time, at: time)) }
        let image = try RadarImage(try #require(assembler.latest(.nexradCONUS)))
        #expect(image.width == 64 && image.height == 8)
        let png = image.png()
        let chunks = try pngChunks(png)
        #expect(chunks.map(\.type) == ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"])
        #expect(Array(chunks[0].data.suffix(5)) == [8, 3, 0, 0, 0], "8-bit indexed")
        #expect(chunks[1].data.count == 8 * 3)
        #expect(chunks[2].data == [0, 0], "no data and < 20 dBZ fully transparent, nothing after them")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("radar-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard let pixels = try gdalPixels(try RadarFiles.write(image, into: folder)[0]) else { return }
        for p in pixels {
            let values = numbers.compactMap { n in IndependentGrid.medium(block: n, latitude: p.y, longitude: p.x).map { Int(pattern(n, seed: 4)[$0]) } }
            #expect(p.value == (values.first ?? 0), "pixel at \(p.x), \(p.y)")
        }
    }

    /// Blocks of two observation times interleaved (two ground stations) make two composites,
    /// never one; the latest complete is the newest with 90 % of the most complete one's blocks.
    @Test func timesAreNeverMixedAndLatestCompleteFollowsTheNinetyPercentRule() throws {
        let t1 = FISBSamples.startTime, t2 = t1 + 120
        var assembler = RadarAssembler()
        for i in 0..<100 {
            assembler.add(receipt(GriddedBlock(productID: 63, blockNumber: 660 * 450 + i, bins: [UInt8](repeating: 2, count: 128)), time: t1, at: t1 + Double(i)))
            if i < 50 {
                assembler.add(receipt(GriddedBlock(productID: 63, blockNumber: 660 * 450 + i, bins: [UInt8](repeating: 5, count: 128)), time: t2, at: t1 + Double(i) + 0.5))
            }
        }
        #expect(assembler.latest(.nexradRegional)?.time == t1)
        let first = try RadarImage(try #require(assembler.latest(.nexradRegional)))
        #expect(Set(first.pixels) == [2], "only the first time's values")
        for i in 50..<89 { assembler.add(receipt(GriddedBlock(productID: 63, blockNumber: 660 * 450 + i, bins: [UInt8](repeating: 5, count: 128)), time: t2, at: t1 + 200)) }
        #expect(assembler.latest(.nexradRegional)?.time == t1, "89 of 100: not yet")
        assembler.add(receipt(GriddedBlock(productID: 63, blockNumber: 660 * 450 + 89, bins: [UInt8](repeating: 5, count: 128)), time: t2, at: t1 + 201))
        #expect(assembler.latest(.nexradRegional)?.time == t2, "90 of 100")
        let second = try RadarImage(try #require(assembler.latest(.nexradRegional)))
        #expect(Set(second.pixels) == [5])
        #expect(assembler.loop(.nexradRegional).map(\.time) == [t1, t2])
        #expect(assembler.counters.backwards == 0)
    }

    /// Bad input of every kind: counted, never drawn wrong, memory bounded.
    @Test func badBlocksAreCountedAndMemoryStaysBounded() throws {
        let t = FISBSamples.startTime
        var assembler = RadarAssembler()
        // Outside the grid (north of 90°), at the reserved scale 3, of an unknown product.
        assembler.add(receipt(GriddedBlock(productID: 63, blockNumber: 607_500, bins: [UInt8](repeating: 1, count: 128)), time: t, at: t))
        assembler.add(receipt(GriddedBlock(productID: 63, blockNumber: 1000, scale: 3, bins: [UInt8](repeating: 1, count: 128)), time: t, at: t))
        assembler.add(receipt(GriddedBlock(productID: 65, blockNumber: 1000, bins: [UInt8](repeating: 1, count: 128)), time: t, at: t))
        #expect(assembler.counters.outsideGrid == 2 && assembler.counters.unknownProduct == 1 && assembler.blocksHeld == 0)
        // Bins beyond the palette (a NEXRAD value of 9, built past the decoder): drawn as no echo.
        var bins = [UInt8](repeating: 3, count: 128)
        bins[5] = 9
        assembler.add(receipt(GriddedBlock(productID: 63, blockNumber: 660 * 450, bins: bins), time: t, at: t))
        #expect(assembler.counters.unknownValues == 1)
        let image = try RadarImage(try #require(assembler.latest(.nexradRegional)))
        #expect(image.pixels[5] == 0 && image.pixels[4] == 3)
        // Times going backwards: an older composite begun is counted; one beyond the loop window is refused.
        assembler.add(receipt(GriddedBlock(productID: 63, blockNumber: 660 * 450 + 1, bins: bins), time: t - 120, at: t + 1))
        assembler.add(receipt(GriddedBlock(productID: 63, blockNumber: 660 * 450 + 1, bins: bins), time: t - 3600, at: t + 2))
        #expect(assembler.counters.backwards == 1 && assembler.counters.late == 1)
        // A composite that never completes ages out, counted: 1 block where the last time had 12.
        var aging = RadarAssembler()
        for n in 0..<12 { aging.add(receipt(GriddedBlock(productID: 63, blockNumber: 660 * 450 + n, bins: bins), time: t, at: t + 60)) }
        aging.add(receipt(GriddedBlock(productID: 63, blockNumber: 660 * 450, bins: bins), time: t + 120, at: t + 180))
        #expect(aging.latest(.nexradRegional)?.time == t)
        aging.age(at: t + 120 + 75 * 60 + 1)
        #expect(aging.compositeCount == 0 && aging.blocksHeld == 0)
        #expect(aging.counters.incomplete == 1)
        // A flood of times: at most `timesPerKind` composites a kind.
        var flood = RadarAssembler()
        for i in 0..<1_000 {
            flood.add(receipt(GriddedBlock(productID: 63, blockNumber: 660 * 450, bins: bins), time: t + Double(i), at: t + Double(i) / 100))
        }
        #expect(flood.compositeCount <= flood.limits.timesPerKind && flood.counters.incomplete + flood.counters.dropped > 900)
        // A flood of blocks of one time: held blocks never exceed the limit, the rest refused.
        var limits = RadarAssembler.Limits()
        limits.blocks = 2_000
        var blocksFlood = RadarAssembler(limits: limits)
        for n in 0..<5_000 { blocksFlood.add(receipt(GriddedBlock(productID: 63, blockNumber: 600 * 450 + n, bins: bins), time: t, at: t)) }
        #expect(blocksFlood.blocksHeld == 2_000 && blocksFlood.counters.refused == 3_000)
        // Empty-block bitmaps count against the limit too.
        blocksFlood.add(receipt(GriddedBlock(productID: 64, blockNumber: 500 * 450, scale: 1, emptyBlocks: Array(500 * 450 + 1 ... 500 * 450 + 100)), time: t, at: t))
        #expect(blocksFlood.blocksHeld == 2_000 && blocksFlood.counters.refused == 3_001)
        // A composite scattered over the globe is refused by the renderer, not drawn at gigapixels.
        var scattered = RadarAssembler()
        for n in [0, 1349 * 450 + 226] { scattered.add(receipt(GriddedBlock(productID: 63, blockNumber: n, bins: bins), time: t, at: t)) }
        let wide = try #require(scattered.latest(.nexradRegional))
        #expect(throws: RadarImage.Failure.self) { try RadarImage(wide) }
    }

    /// Every kind's name reads back; level files have five digits; the JSON says what it shows.
    @Test func kindsNamesAndSidecar() throws {
        let kinds: [RadarKind] = [.nexradRegional, .nexradCONUS, .lightning, .cloudTops, .icing(altitudeFt: 2000), .turbulence(altitudeFt: 24_000)]
        #expect(kinds.map(\.name) == ["nexrad-regional", "nexrad-conus", "lightning", "cloud-tops", "icing-02000", "turbulence-24000"])
        for k in kinds { #expect(RadarKind(name: k.name) == k) }
        #expect(RadarKind(name: "icing-2000") == nil && RadarKind(name: "icing-03000") == nil && RadarKind(name: "radar") == nil)
        #expect(RadarKind(productID: 71, altitudeFt: 24_000) == .icing(altitudeFt: 24_000))
        #expect(RadarKind(productID: 71, altitudeFt: 24_000)?.productID == 71 && RadarKind(productID: 91, altitudeFt: 20_000)?.name == "turbulence-20000")
        var assembler = RadarAssembler()
        assembler.add(receipt(GriddedBlock(productID: 63, blockNumber: 660 * 450, bins: pattern(0, seed: 0)), time: FISBSamples.startTime, at: FISBSamples.startTime + 75))
        let composite = try #require(assembler.latest(.nexradRegional))
        let text = try RadarImage(composite).json
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["product"] as? Int == 63)
        #expect(json["kind"] as? String == "nexrad-regional")
        #expect(json["time"] as? String == "2026-05-16T14:00:00Z")
        #expect(json["received"] as? String == "2026-05-16T14:01:15Z")
        let bounds = try #require(json["bounds"] as? [String: Double])
        #expect(bounds["north"] == 44.066667)
        #expect(bounds["south"] == 44.0)
        #expect(bounds["west"] == 0.0)
        #expect(bounds["east"] == 0.8)
        #expect(json["pixelsPerBin"] as? Int == 1)
        let levels = try #require(json["levels"] as? [[String: Any]])
        #expect(levels.count == 8)
        #expect(levels.first?["transparent"] as? Bool == true)
        #expect(levels.last?["label"] as? String == "≥ 55 dBZ")
    }

    /// The PNG's chunks are well formed (lengths, CRC-32) whether zlib compressed it or not.
    @Test func pngIsWellFormedWithAndWithoutZlib() throws {
        let pixels = (0..<(40 * 30)).map { UInt8($0 % 8) }
        let palette: [(UInt8, UInt8, UInt8)] = (0..<8).map { (UInt8($0 * 30), 0, 0) }
        for png in [PNGEncoder.indexed(width: 40, height: 30, pixels: pixels, palette: palette, transparent: [0])] {
            let chunks = try pngChunks(png)
            #expect(chunks.map(\.type) == ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"])
        }
        // Stored blocks: the zlib stream holds the rows verbatim after a 2-byte header, with Adler-32.
        let raw = (0..<70_000).map { UInt8($0 % 251) }
        let stored = PNGEncoder.storedStream(raw)
        #expect(stored.count == raw.count + 2 + 2 * 5 + 4)
        #expect(Array(stored[7..<17]) == Array(raw[0..<10]))
        #expect(PNGEncoder.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(PNGEncoder.crc32(Array("IEND".utf8)) == 0xAE42_6082)
    }

    /// `fisb --radar` on the bundled weather sample: a picture a kind, what GDAL reads of the
    /// regional one equal to the sample's own reflectivity at each bin's centre at 14:04.
    @Test func fisbRadarWritesThePicturesOfTheWeatherSample() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("radar-\(UUID())/new").path
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        let r = try runGatewayd(["fisb", "--radar", folder, fixtures.appendingPathComponent("fisb-weather.978").path])
        #expect(r.status == 0, "\(r.errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let kinds = ["cloud-tops", "icing-04000", "icing-08000", "lightning", "nexrad-conus", "nexrad-regional", "turbulence-06000"]
        #expect(names == kinds.flatMap { [$0 + ".json", $0 + ".pgw", $0 + ".png"] })
        #expect(r.errors.contains("nexrad-regional.png 128×156") && r.errors.contains("observed 2026-05-16T14:04:00Z (5 complete composites"))
        if let gdalinfo = ["/usr/bin/gdalinfo"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            for kind in kinds {
                let info = try runProcess(URL(fileURLWithPath: gdalinfo), [folder + "/" + kind + ".png"])
                #expect(info.status == 0 && info.output.contains("Driver: PNG") && info.output.contains(kind + ".pgw"), "\(kind): \(info.output)")
                #expect(info.output.contains("ColorInterp=Palette"))
            }
        }
        guard let pixels = try gdalPixels(folder + "/nexrad-regional.png") else { return }
        let time = WeatherSample.regionalTimes.last!
        var echoes = 0
        for p in pixels {
            let expected = Int(WeatherSample.intensity(dBZ: WeatherSample.reflectivity(latitude: p.y, longitude: p.x, time: time)))
            #expect(p.value == expected, "pixel at \(p.x), \(p.y)")
            if expected > 0 { echoes += 1 }
        }
        #expect(echoes > 1000)
    }

    /// `run` serves the pictures with validators: a map tool polling gets 304 until one changes.
    @Test func weatherEndpointsServeConditionally() throws {
        let store = RadarStore()
        let t = FISBSamples.startTime
        store.submit((0..<4).map { receipt(GriddedBlock(productID: 63, blockNumber: 660 * 450 + $0, bins: pattern($0, seed: 5)), time: t, at: t + 70) })
        store.drain()
        let hub = FeedHub()
        var sources = CockpitSources()
        sources.radar = store
        let server = FeedServer(hub: hub, cockpit: sources)
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        let index = loopbackGET(server.port, "/weather/")
        #expect(index.status == 200 && index.body.contains("\"kind\":\"nexrad-regional\"") && index.body.contains("\"png\":\"/weather/nexrad-regional.png\""))
        #expect(index.body.contains("\"counters\":{\"blocks\":4,") && index.body.contains("\"summary\":\"4 blocks\""))
        let png = loopbackGET(server.port, "/weather/nexrad-regional.png")
        #expect(png.status == 200 && png.head.lowercased().contains("content-type: image/png"))
        let etagLine = png.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }
        let etag = String(try #require(etagLine).dropFirst(5)).trimmingCharacters(in: .whitespaces)
        #expect(png.head.contains("Last-Modified: Sat, 16 May 2026 14:01:10 GMT"))
        #expect(loopbackRequest(server.port, "GET", "/weather/nexrad-regional.png", headers: ["If-None-Match": etag]).status == 304)
        #expect(loopbackRequest(server.port, "GET", "/weather/nexrad-regional.png", headers: ["If-Modified-Since": "Sat, 16 May 2026 14:01:10 GMT"]).status == 304)
        #expect(loopbackRequest(server.port, "GET", "/weather/nexrad-regional.png", headers: ["If-Modified-Since": "Sat, 16 May 2026 14:01:09 GMT"]).status == 200)
        let pgw = loopbackGET(server.port, "/weather/nexrad-regional.pgw")
        #expect(pgw.status == 200 && pgw.body.split(separator: "\n").count == 6)
        // A new block: a new tag, the old one no longer matches.
        store.submit([receipt(GriddedBlock(productID: 63, blockNumber: 660 * 450 + 9, bins: pattern(9, seed: 5)), time: t, at: t + 80)])
        store.drain()
        #expect(loopbackRequest(server.port, "GET", "/weather/nexrad-regional.png", headers: ["If-None-Match": etag]).status == 200)
        let missing = loopbackGET(server.port, "/weather/icing-02000.png")
        #expect(missing.status == 404 && missing.body.contains("no icing-02000 picture"))
        #expect(loopbackGET(server.port, "/weather/radar.gif").status == 404)
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
    }
}

/// A PNG's chunks after its signature, each length and CRC-32 checked.
private func pngChunks(_ png: [UInt8]) throws -> [(type: String, data: [UInt8])] {
    #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    var out: [(String, [UInt8])] = []
    var i = 8
    while i + 12 <= png.count {
        let length = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
        let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
        let data = Array(png[(i + 8)..<(i + 8 + length)])
        let crc = png[(i + 8 + length)..<(i + 12 + length)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        #expect(crc == PNGEncoder.crc32(Array(type.utf8) + data), "\(type) CRC")
        out.append((type, data))
        i += 12 + length
    }
    #expect(i == png.count)
    return out
}
