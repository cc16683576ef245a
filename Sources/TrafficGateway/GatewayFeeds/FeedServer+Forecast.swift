import GatewaySupport
import Hummingbird
import HTTPTypes
import HummingbirdCore
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The forecast radar's routes (issue 55):
/// - `/weather/forecast/` the current run (its hours, valid times and files) and every run kept
///   with its state (`complete` or `partial` and the hours missing);
/// - `/weather/forecast/<model>/<run>/fFF.png|pgw|json` a forecast hour's files as the store
///   wrote them, with `ETag` and `Last-Modified` (a file's size and modification time), so a map
///   tool or the page fetches a frame again only when a refresh rewrote it.
extension FeedServer {
    /// Adds the forecast routes to `router` (nothing kept: an empty index, every file 404).
    func addForecastRoutes(to router: Router<FeedRequestContext>) {
        let store = cockpit.forecast
        let index: @Sendable (Request, FeedRequestContext) async -> Response = { _, _ in
            guard let store else { return Self.json(#"{"current":null,"runs":[]}"#) }
            return await Offload.run(on: Self.forecastQueue, { Self.json(store.index()) }) ?? Self.text(.serviceUnavailable, "stopping\n")
        }
        router.get("/weather/forecast", use: index)
        router.get("/weather/forecast/:model/:run/:file") { request, context in
            let model = context.parameters.get("model").map { String($0) } ?? "", run = context.parameters.get("run").map { String($0) } ?? ""
            let name = context.parameters.get("file").map { String($0) } ?? ""
            guard let store, let path = store.path(model, run, name),
                  let format = PictureFile(rawValue: String(name.suffix(from: name.index(after: name.lastIndex(of: ".") ?? name.startIndex))))
            else {
                return Self.text(.notFound, "no such forecast file: \(model)/\(run)/\(name) (see /weather/forecast/ for the runs kept: <model>/<YYYYMMDDHH>/fFF.png, .pgw or .json)\n")
            }
            guard let file = await Offload.run(on: Self.forecastQueue, { Self.readKept(path) }) ?? nil else {
                return Self.text(.notFound, "no forecast file \(model)/\(run)/\(name) kept (see /weather/forecast/)\n")
            }
            var headers: HTTPFields = [.eTag: file.etag, .lastModified: HTTPDate.format(file.modified), .cacheControl: "no-cache"]
            if Self.notModified(request, etag: file.etag, modified: file.modified) {
                return Response(status: .notModified, headers: headers)
            }
            headers[.contentType] = format.contentType
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
        }
    }

    /// Where forecast files are read: a queue of its own, off the event loop.
    static let forecastQueue = DispatchQueue(label: "gatewayd.forecast-files")

    /// A kept file's bytes and validators (its size and modification time), nil when it is not
    /// there (pruned since the index was read) or cannot be read.
    static func readKept(_ path: String) -> (bytes: [UInt8], etag: String, modified: Double)? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= 64 << 20,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return ([UInt8](data), "\"\(String(data.count, radix: 16))-\(String(nanoseconds, radix: 16))\"", Double(info.st_mtim.tv_sec))
    }
}
