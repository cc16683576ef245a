import Foundation
import GDL90

/// The fuzz targets: each takes arbitrary bytes and must neither crash, hang nor leak, whatever
/// they are. Chosen by `FUZZ_TARGET` (libFuzzer builds) or the first argument (replay builds).
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Deframer (any chunking) and every message decoder, then re-encode what decoded.
    case gdl90
    /// FIS-B uplink payloads: header, frames, APDUs, TWGO, text, gridded; then the product store.
    case fisb
    /// Capture files: pcap, pcapng, dump978 text, raw.
    case capture
    /// Airspace GeoJSON files.
    case airspace
    /// NOTAM texts (ICAO and FAA domestic) and FAA NOTAM API replies.
    case notam

    /// Runs the target on `data`.
    public func run(_ data: [UInt8]) {
        switch self {
        case .gdl90:
            var deframer = Deframer()
            let split = data.isEmpty ? 0 : Int(data[0]) % max(1, data.count)
            var messages = 0
            let handle: (DeframerEvent) -> Void = { event in
                guard case .frame(let f) = event, let m = try? Message.decode(f.message) else { return }
                messages += 1
                // Whatever decodes re-encodes, and the re-encoding decodes to the same value.
                let again = try? Message.decode(m.encode())
                if case .unknown = m {} else { precondition(again != nil, "re-encoded \(m.typeName) does not decode") }
            }
            deframer.feed(data[..<split], handle)
            deframer.feed(data[split...], handle)
            deframer.finish(handle)
            var pipeline = GatewayPipeline()
            _ = pipeline.ingest(data, at: 1_800_000_000)
            _ = pipeline.finish()
        case .fisb:
            var payload = Array(data.prefix(Uplink.payloadLength))
            if payload.count < Uplink.payloadLength { payload += [UInt8](repeating: 0, count: Uplink.payloadLength - payload.count) }
            var store = FISBProductStore()
            _ = store.ingest(payload: payload, at: 1_800_000_000)
            _ = store.flushHeld()
            _ = store.expire(at: 1_800_100_000)
        case .capture:
            let contents = CaptureFile.parse(data, name: "fuzz")
            for d in contents.datagrams.prefix(1000) { precondition(d.bytes.count <= 65_535, "datagram longer than UDP allows") }
        case .airspace:
            _ = try? AirspaceFile.parse(Data(data), name: "fuzz")
        case .notam:
            let n = NotamParser.parse(String(decoding: data, as: UTF8.self), source: "fuzz")
            _ = n.airspaceArea()
            _ = NotamTranslator.translate(n.text)
            _ = try? FAANotamAPI.parse(data, url: "fuzz")
            _ = try? FAANotamSearch.parse(data, url: "fuzz")
        }
    }

    /// The target named by `FUZZ_TARGET`, default gdl90.
    public static let selected: FuzzTarget = ProcessInfo.processInfo.environment["FUZZ_TARGET"].flatMap(FuzzTarget.init) ?? .gdl90
}

