#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import GDL90
import GatewaySupport
import GatewayRecords
import GatewayWeather

/// `gatewayd bench --only radar` also measures the weather fetch of a 300-station area (issue
/// 42): a loopback HTTP server answers like the aviationweather.gov Data API (900 METARs: 3 h of
/// 300 stations, of which those older than 2 h expire as they are stored; 300 TAFs, 150 PIREPs,
/// 38 AIRMETs), the whole fetch (HTTP, JSON, SQLite in a file, one transaction a product) beside
/// fetching the same bytes only.
package enum WeatherFetchBenchmark {
    /// The answers by path.
    static func answers(now: Double) -> [String: [UInt8]] {
        var metars: [String] = [], tafs: [String] = [], pireps: [String] = [], sigmets: [String] = []
        for i in 0..<300 {
            let id = "K" + String(UnicodeScalar(65 + i / 26 % 26)!) + String(UnicodeScalar(65 + i % 26)!) + String(i / 676)
            let lat = 44 + Double(i % 20) * 0.1, lon = -124 + Double(i / 20) * 0.15
            for h in 0..<3 {
                metars.append(#"{"icaoId":"\#(id)","obsTime":\#(Int(now) - h * 3600 - 240),"rawOb":"METAR \#(id) 161356Z 34008KT 10SM FEW040 BKN120 16/06 A3012 RMK AO2 SLP201 T01560061","lat":\#(lat),"lon":\#(lon)}"#)
            }
            tafs.append(#"{"icaoId":"\#(id)","issueTime":\#(Int(now) - 7200),"validTimeTo":\#(Int(now) + 22 * 3600),"rawTAF":"TAF \#(id) 161130Z 1612/1712 32010KT P6SM BKN040 FM161800 30012KT P6SM SCT050 TEMPO 1620/1624 4SM -SHRA BKN025","lat":\#(lat),"lon":\#(lon)}"#)
            if i % 2 == 0 {
                pireps.append(#"{"obsTime":\#(Int(now) - i * 20),"rawOb":"\#(id) UA /OV \#(id)090010/TM 1350/FL065/TP C172/SK SCT070/TB LGT \#(i)","lat":\#(lat),"lon":\#(lon)}"#)
            }
            if i % 8 == 0 {
                sigmets.append(#"{"airSigmetType":"AIRMET","rawAirSigmet":"AIRMET TANGO \#(i) MOD TURB BLW FL180","validTimeFrom":\#(Int(now) - 600),"validTimeTo":\#(Int(now) + 6 * 3600),"coords":[{"lat":\#(lat),"lon":\#(lon)},{"lat":\#(lat + 0.5),"lon":\#(lon)},{"lat":\#(lat),"lon":\#(lon + 0.5)}]}"#)
            }
        }
        func array(_ items: [String]) -> [UInt8] { Array(("[" + items.joined(separator: ",") + "]").utf8) }
        return ["metar": array(metars), "taf": array(tafs), "pirep": array(pireps), "airsigmet": array(sigmets), "gairmet": Array("[]".utf8),
                "cwa": Array("[]".utf8), "windtemp": Array("FT  3000    6000    9000\nSLE 3010 3115+08 3120+03\n".utf8)]
    }

    /// A loopback HTTP/1.1 server answering `answers` by the last path component; its port.
    final class Server: Sendable {
        let fd: Int32, port: UInt16
        private let answers: [String: [UInt8]]
        init(_ answers: [String: [UInt8]]) throws {
            self.answers = answers
            (fd, port) = try IPv4Socket.bound(type: Int32(SOCK_STREAM.rawValue), address: "127.0.0.1", port: 0, what: "benchmark HTTP", inUse: "", reuseAddress: true)
            // The gateway's sockets are non-blocking: this one blocks in accept.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            listen(fd, 16)
            DispatchQueue(label: "gatewayd.bench-http").async { [self] in serve() }
        }
        private func serve() {
            while true {
                let c = accept(fd, nil, nil)
                if c < 0 { return }
                var buffer = [UInt8](repeating: 0, count: 8192)
                var head: [UInt8] = []
                while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
                    let n = buffer.withUnsafeMutableBytes { recv(c, $0.baseAddress, $0.count, 0) }
                    if n <= 0 { break }
                    head += buffer[0..<n]
                }
                let line = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self)
                let path = line.split(separator: " ").dropFirst().first.map { String($0.split(separator: "?")[0].split(separator: "/").last ?? "") } ?? ""
                let body = answers[path] ?? []
                let reply = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + body
                _ = reply.withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(c)
            }
        }
        func stop() { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
    }

    /// Best of `rounds`: the whole fetch into a fresh database file, beside the bare GETs.
    package static func run(rounds: Int = 5, progress: @Sendable (String) -> Void = { _ in }) async throws -> [Benchmarks.Result] {
        let now = Date().timeIntervalSince1970
        let served = answers(now: now)
        let server = try Server(served)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)/api/data"
        let area = WeatherArea(latitude: 45, longitude: -123, radiusNM: 150, station: "KSLE")
        var fetchBest = Double.infinity, getBest = Double.infinity
        var stored = 0, fileBytes = 0
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skygate-weather-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = AviationWeatherClient(baseURL: base)
        for round in 0..<rounds {
            progress("round \(round + 1) of \(rounds)")
            var began = DispatchTime.now().uptimeNanoseconds
            for p in AviationWeatherClient.Product.allCases {
                do { _ = try await client.http.get(client.url(p, area: area)) } catch { progress("\(p.rawValue): \(error)") }
            }
            getBest = min(getBest, Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9)
            let path = folder.appendingPathComponent("w\(round).sqlite").path
            let database = try GatewayDatabase(path: path)
            let fetch = WeatherFetch(client: client, store: WeatherStore(database: database), area: area)
            began = DispatchTime.now().uptimeNanoseconds
            _ = await fetch.run(at: now)
            fetchBest = min(fetchBest, Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9)
            stored = try fetch.store.count()
            try database.close()
            var info = stat()
            fileBytes = stat(path, &info) == 0 ? Int(info.st_size) : 0
        }
        let bytes = served.values.reduce(0) { $0 + $1.count }
        return [Benchmarks.Result(name: "weather: fetch of a 300-station area (loopback)", value: fetchBest * 1000, unit: "ms", baseline: getBest * 1000,
                                  note: "(baseline: the same \(bytes / 1024) kB fetched only) \(stored) reports stored, database \(fileBytes / 1024) kB")]
    }
}
