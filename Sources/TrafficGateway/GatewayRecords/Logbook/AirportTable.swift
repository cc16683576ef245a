import GatewaySupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GDL90

/// An airport of the table.
package struct Airport: Sendable, Equatable {
    /// ICAO-style identifier (`KSLE`, `K7S5`, `LROP`).
    package var ident: String
    /// FAA location identifier (`SLE`, `7S5`), when it has one.
    package var lid: String?
    /// Name.
    package var name: String
    /// Position.
    package var position: Position
    /// Field elevation, feet.
    package var elevationFt: Int

    /// The identifier a pilot uses: the ICAO id (`KSLE`), or the FAA LID (`7S5`) when the
    /// airport has no real ICAO id (airportsdata then gives "K" + LID, `K7S5`: a digit in it).
    package var spoken: String {
        if let lid, ident.contains(where: \.isNumber) { return lid }
        return ident
    }
}

/// The airport table (`data/airports.bin`, made by `scripts/airports/generate.py` from the
/// `airportsdata` package): memory-mapped, never parsed. Look-up by identifier is a binary
/// search of fixed records; the nearest airport is a binary search of the latitude index and
/// a scan of the band. Opening costs one `mmap`; pages are read as look-ups touch them.
package final class AirportTable: @unchecked Sendable {  // immutable after init: a read-only mapping
    private let base: UnsafeRawPointer
    private let size: Int
    private let count: Int
    private let lidCount: Int
    private let namesOffset: Int
    private let lidOffset: Int
    private let latOffset: Int
    /// The file it was read from.
    package let path: String
    /// The `airportsdata` version it was made from.
    package let sourceVersion: Int

    static let headerSize = 32, recordSize = 24

    /// Maps the table at `path`; an error naming the file when it is missing or not a table.
    package init(path: String) throws(GatewayError) {
        self.path = path
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw GatewayError.file(path: path, reason: "cannot open the airport table (\(String(cString: strerror(errno)))); regenerate it with scripts/airports/generate.py") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size >= Self.headerSize else {
            throw GatewayError.file(path: path, reason: "not an airport table (too short)")
        }
        size = Int(info.st_size)
        guard let map = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else {
            throw GatewayError.file(path: path, reason: "cannot map the airport table (\(String(cString: strerror(errno))))")
        }
        let mapped = UnsafeRawPointer(map)
        base = mapped
        let magic = Array(UnsafeRawBufferPointer(start: mapped, count: 8))
        func header(_ at: Int) -> Int { Int(UInt32(littleEndian: mapped.loadUnaligned(fromByteOffset: at, as: UInt32.self))) }
        count = header(8)
        lidCount = header(12)
        namesOffset = header(16)
        lidOffset = header(20)
        latOffset = header(24)
        sourceVersion = header(28)
        guard magic == Array("SKYAPT01".utf8), Self.headerSize + count * Self.recordSize <= lidOffset, lidOffset + lidCount * 8 <= latOffset,
              latOffset + count * 4 <= namesOffset, namesOffset <= size else {
            // Every property is set: the deinitializer unmaps.
            throw GatewayError.file(path: path, reason: "not an airport table of this version (regenerate it with scripts/airports/generate.py)")
        }
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }

    /// The airports in the table.
    package var airportCount: Int { count }

    /// The table `located()` finds, mapped at first use (nil when there is none).
    package static let shared: AirportTable? = located()

    /// A place as a person writes it: an airport of the shared table (`KSLE`, `7S5`) or
    /// `LAT,LON` (`44.91,-123.00`); nil for anything else (`notams fetch --near`, `weather fetch
    /// --near`, `[weather] near`).
    package static func place(_ s: String) -> Position? {
        if !s.contains(","), let a = shared?.airport(s) { return a.position }
        let v = s.split(separator: ",").compactMap { Double($0.trimmingWhitespace()) }
        guard v.count == 2, (-90...90).contains(v[0]), (-180...180).contains(v[1]) else { return nil }
        return Position(latitude: v[0], longitude: v[1])
    }

    /// The table found where an installed or a development `gatewayd` keeps it (see
    /// data/README.md), or nil when there is none (`notFound` says where it looked).
    package static func located(configured: String? = nil) -> AirportTable? {
        for c in searchPaths(configured: configured) { if let table = try? AirportTable(path: c) { return table } }
        return nil
    }

    /// One sentence for when `located` finds no table: where it looked, what goes without it, and
    /// how to install it (a binary copied away from its table would otherwise lose them silently).
    package static func notFound(configured: String? = nil) -> String {
        "no airport table found (looked for \(searchPaths(configured: configured).joined(separator: ", "))): flights get no "
            + "departure or arrival airport ('? → ?') and there is no nearest airport; put airports.bin beside gatewayd or in "
            + "/usr/share/gatewayd (the Debian package installs it there; data/airports.bin in the repository)"
    }

    /// Where `located` looks, in order: the path given, beside the executable, the installed
    /// share folder, a development build's repository, the working folder.
    package static func searchPaths(configured: String? = nil) -> [String] {
        var candidates: [String] = []
        if let configured { candidates.append(configured) }
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 {
            let exe = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            var dir = exe
            if let slash = dir.lastIndex(of: "/") { dir = String(dir[..<slash]) }
            candidates += [dir + "/airports.bin", dir + "/../share/gatewayd/airports.bin"]
            // A development build: .build/<triple>/debug/gatewayd → the repository's data/.
            if let range = dir.firstRange(of: "/.build/") { candidates.append(String(dir[..<range.lowerBound]) + "/data/airports.bin") }
        }
        candidates.append("data/airports.bin")
        return candidates
    }

    // MARK: Look-up

    private func u32(_ at: Int) -> Int { Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self))) }
    private func i32(_ at: Int) -> Int32 { Int32(littleEndian: base.loadUnaligned(fromByteOffset: at, as: Int32.self)) }
    private func code(_ at: Int) -> UInt32 { UInt32(bigEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }

    private static func code(_ text: String) -> UInt32? {
        let bytes = Array(text.uppercased().utf8)
        guard (1...4).contains(bytes.count) else { return nil }
        var v: UInt32 = 0
        for i in 0..<4 { v = v << 8 | UInt32(i < bytes.count ? bytes[i] : 0x20) }
        return v
    }

    /// The airport at record `index`.
    package func airport(at index: Int) -> Airport {
        let r = Self.headerSize + index * Self.recordSize
        func text(_ at: Int) -> String {
            String(decoding: UnsafeRawBufferPointer(start: base + at, count: 4), as: UTF8.self).trimmingSpaces()
        }
        let lid = text(r + 4)
        let nameLength = Int(base.load(fromByteOffset: r + 18, as: UInt8.self))
        let nameAt = namesOffset + u32(r + 20)
        let name = nameAt + nameLength <= size ? String(decoding: UnsafeRawBufferPointer(start: base + nameAt, count: nameLength), as: UTF8.self) : ""
        return Airport(ident: text(r), lid: lid.isEmpty ? nil : lid, name: name,
                       position: Position(latitude: Double(i32(r + 8)) / 1e6, longitude: Double(i32(r + 12)) / 1e6),
                       elevationFt: Int(Int16(littleEndian: base.loadUnaligned(fromByteOffset: r + 16, as: Int16.self))))
    }

    /// The airport `ident` names: an ICAO id (`KSLE`), an FAA LID (`SLE`, `7S5`); nil when unknown.
    package func airport(_ ident: String) -> Airport? {
        guard let key = Self.code(ident) else { return nil }
        if let i = search(count: count, at: { Self.headerSize + $0 * Self.recordSize }, key: key) { return airport(at: i) }
        if let i = search(count: lidCount, at: { self.lidOffset + $0 * 8 }, key: key) { return airport(at: u32(lidOffset + i * 8 + 4)) }
        return nil
    }

    private func search(count: Int, at offset: (Int) -> Int, key: UInt32) -> Int? {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            let c = code(offset(mid))
            if c == key { return mid }
            if c < key { lo = mid + 1 } else { hi = mid }
        }
        return nil
    }

    /// The airport nearest `position` within `withinNM`, with its distance; nil when none is that close.
    package func nearest(to position: Position, withinNM: Double = 3) -> (airport: Airport, distanceNM: Double)? {
        nearby(position, withinNM: withinNM, limit: 1).first
    }

    /// The airports within `withinNM` of `position`, nearest first, at most `limit`.
    package func nearby(_ position: Position, withinNM: Double, limit: Int = 10) -> [(airport: Airport, distanceNM: Double)] {
        let band = withinNM / 60
        let low = Int32(((position.latitude - band) * 1e6).rounded(.down))
        // First index in the latitude order at or above `low`.
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if i32(Self.headerSize + u32(latOffset + mid * 4) * Self.recordSize + 8) < low { lo = mid + 1 } else { hi = mid }
        }
        let high = position.latitude + band
        var found: [(airport: Airport, distanceNM: Double)] = []
        var k = lo
        while k < count {
            let index = u32(latOffset + k * 4)
            let r = Self.headerSize + index * Self.recordSize
            let lat = Double(i32(r + 8)) / 1e6
            if lat > high { break }
            let p = Position(latitude: lat, longitude: Double(i32(r + 12)) / 1e6)
            let d = Geodesy.distanceNM(position, p)
            if d <= withinNM { found.append((airport(at: index), d)) }
            k += 1
        }
        found.sort { $0.distanceNM < $1.distanceNM }
        return Array(found.prefix(limit))
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " || s.last == "\0" { s = s.dropLast() }
        return String(s)
    }
}
