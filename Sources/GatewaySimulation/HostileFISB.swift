import GDL90

/// FIS-B uplinks a hostile neighbour on the Wi-Fi sends to UDP 4000 (issue 27, items 2 and 3):
/// text that expands, and gridded blocks that never make a real picture. Deterministic from a
/// seed, so the tests and `bench --only hostile` see the same bytes every run.
package enum HostileFISB {
    /// A 413 uplink holding one METAR for a station of its own (`K` and four letters from
    /// `station`) whose text is a run of DLAC tab codes: 440 bytes on the wire, about 16 kB of
    /// text once decoded, and a new store key each.
    package static func dlacTabRun(station: Int) -> [UInt8] {
        var codes: [Int] = []
        for scalar in "METAR K".unicodeScalars { codes.append(DLAC.code(of: scalar)) }
        var n = station
        for _ in 0..<4 {
            codes.append(1 + n % 26)  // A…Z
            n /= 26
        }
        codes.append(DLAC.code(of: " "))
        // Tab (28) then a count of 63 spaces, until the APDU is full.
        while codes.count + 2 <= 530 { codes += [28, 63] }
        let text = pack(codes)
        let apdu = APDU(productID: 413, time: APDU.Time(month: 5, day: 16, hour: 14, minute: 0), payload: text)
        return FISBUplink(header: FISBSamples.station, frames: [.apdu(apdu)]).encode()
    }

    /// `count` uplinks of gridded blocks as a flood makes them: block numbers anywhere up to
    /// 2^20, empty-block bitmaps flagging runs of blocks, product times that change so
    /// composites are finished and begun, gridded product ids with every altitude level, and
    /// segmented APDUs whose other segments never come.
    package static func griddedFlood(count: Int, seed: UInt64 = 0x5EED) -> [[UInt8]] {
        var rng = seed
        func next(_ bound: Int) -> Int {
            rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17
            return Int(rng % UInt64(bound))
        }
        let products = [63, 64, 70, 71, 84, 90, 91, 103]
        var out: [[UInt8]] = []
        out.reserveCapacity(count)
        for _ in 0..<count {
            var frames: [InformationFrame] = []
            var bytes = 8
            while bytes < 380 {
                let product = products[next(products.count)]
                let time = APDU.Time(hour: next(24), minute: next(60))
                let level = product == 70 || product == 71 || product == 90 || product == 91 ? next(8) : nil
                let block: GriddedBlock
                if next(3) == 0 {
                    let number = next(1 << 20 - 130)
                    block = GriddedBlock(productID: product, blockNumber: number, altitudeLevel: level,
                                         emptyBlocks: (1...124).map { GriddedBlock.eastward(number, $0, scale: 0) })
                } else {
                    block = GriddedBlock(productID: product, blockNumber: next(1 << 20), altitudeLevel: level,
                                         bins: (0..<GriddedBlock.binCount).map { _ in UInt8(next(8)) })
                }
                var apdu = APDU(productID: product, time: time, payload: block.encode())
                if next(10) == 0 {
                    // A segment of a product file whose other segments never come.
                    apdu = APDUReassembler.segment(apdu, fileID: next(4096), segmentPayload: 40).first ?? apdu
                }
                let encoded = apdu.encode()
                bytes += encoded.count + 2
                guard bytes < 424 else { break }
                frames.append(.apdu(apdu))
            }
            out.append(FISBUplink(header: FISBSamples.station, frames: frames).encode())
        }
        return out
    }

    /// Six-bit codes packed four to three bytes (zero bits pad the last byte).
    private static func pack(_ codes: [Int]) -> [UInt8] {
        var out: [UInt8] = []
        var acc = 0, bits = 0
        for c in codes {
            acc = acc << 6 | (c & 0x3F)
            bits += 6
            while bits >= 8 {
                bits -= 8
                out.append(UInt8(acc >> bits & 0xFF))
            }
        }
        if bits > 0 { out.append(UInt8(acc << (8 - bits) & 0xFF)) }
        return out
    }
}
