import CZlib

/// Writes PNG files (ISO/IEC 15948): 8-bit indexed colour, a palette, transparency by index
/// (tRNS), no interlace, filter 0 on every row. The image data is compressed with Debian's zlib
/// (loaded on first use, as the gzip reader does); without it the data is stored uncompressed in
/// deflate's stored blocks, which every reader reads too.
package enum PNGEncoder {
    /// An indexed PNG of `pixels` (`width` × `height` palette indices, rows top to bottom).
    /// `palette` holds RGB triples; the indices in `transparent` are fully transparent.
    package static func indexed(width: Int, height: Int, pixels: [UInt8], palette: [(UInt8, UInt8, UInt8)], transparent: Set<Int>) -> [UInt8] {
        precondition(pixels.count == width * height && !palette.isEmpty && palette.count <= 256)
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, 3, 0, 0, 0]  // bit depth 8, indexed colour, deflate, filter method 0, no interlace
        chunk("IHDR", header, into: &out)
        chunk("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] }, into: &out)
        if let last = transparent.filter({ $0 < palette.count }).max() {
            // tRNS holds alphas for the first entries; those after it are opaque.
            chunk("tRNS", (0...last).map { transparent.contains($0) ? 0 : 255 }, into: &out)
        }
        // Each row: filter type 0 (none), then its indices.
        var raw = [UInt8](repeating: 0, count: (width + 1) * height)
        raw.withUnsafeMutableBufferPointer { r in
            pixels.withUnsafeBufferPointer { p in
                for y in 0..<height {
                    let to = r.baseAddress! + y * (width + 1) + 1
                    to.update(from: p.baseAddress! + y * width, count: width)
                }
            }
        }
        chunk("IDAT", zlibStream(raw), into: &out)
        chunk("IEND", [], into: &out)
        return out
    }

    /// A zlib stream (RFC 1950) of `data`: compressed by zlib when it loads, else stored blocks.
    static func zlibStream(_ data: [UInt8]) -> [UInt8] {
        let bound = Int(skygate_z_bound(UInt(data.count)))
        if bound > 0 {
            var out = [UInt8](repeating: 0, count: bound)
            var written: UInt = 0
            let ok = data.withUnsafeBytes { d in
                out.withUnsafeMutableBytes { o in skygate_z_compress(d.baseAddress, UInt(d.count), o.baseAddress, UInt(o.count), &written, 6) }
            }
            if ok == 1 {
                out.removeSubrange(Int(written)...)
                return out
            }
        }
        return storedStream(data)
    }

    /// A zlib stream of stored (uncompressed) deflate blocks, at most 65,535 bytes each.
    static func storedStream(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        out.reserveCapacity(data.count + data.count / 65_535 * 5 + 11)
        var start = 0
        repeat {
            let n = min(65_535, data.count - start)
            let final: UInt8 = start + n == data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8 & 0xFF)]
            out += data[start ..< start + n]
            start += n
        } while start < data.count
        out.appendBigEndian(adler32(data))
        return out
    }

    /// Adler-32 (RFC 1950).
    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var i = 0
        while i < data.count {
            // 5,552 bytes keep the sums within 32 bits before the modulo.
            let end = min(data.count, i + 5552)
            while i < end {
                a &+= UInt32(data[i])
                b &+= a
                i += 1
            }
            a %= 65_521
            b %= 65_521
        }
        return b << 16 | a
    }

    /// Appends a chunk: length, type, data, CRC-32 of type and data.
    static func chunk(_ type: StaticString, _ data: [UInt8], into out: inout [UInt8]) {
        out.appendBigEndian(UInt32(data.count))
        let typed = Array(UnsafeBufferPointer(start: type.utf8Start, count: type.utf8CodeUnitCount)) + data
        out += typed
        out.appendBigEndian(crc32(typed))
    }

    /// The CRC-32 of PNG and zlib (polynomial 0xEDB88320, reflected).
    static func crc32(_ data: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in data { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ v: UInt32) {
        append(UInt8(v >> 24)); append(UInt8(v >> 16 & 0xFF)); append(UInt8(v >> 8 & 0xFF)); append(UInt8(v & 0xFF))
    }
}
