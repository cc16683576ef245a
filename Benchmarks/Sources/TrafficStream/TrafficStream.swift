import Foundation
import GatewaySimulation

/// A synthetic GDL 90 stream of `targets` targets and ownship, once a second, heartbeat first, as
/// `gatewayd bench` writes it (`CommandBenchmark.writeTrafficStream`), held in memory, and the
/// same bytes cut into datagrams of whole frames of at most 1,024 bytes, as Stratux sends them.
public struct TrafficStream: Sendable {
    /// The raw stream.
    public let bytes: [UInt8]
    /// The stream as datagrams of whole frames (together, exactly `bytes`).
    public let datagrams: [[UInt8]]
    /// The number of targets in the stream.
    public let targets: Int

    /// Writes a stream of about `megabytes` MB to a temporary file through GatewaySimulation and
    /// reads it back; the file is removed.
    public init(megabytes: Int, targets: Int = 500) {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("skygate-benchmarks-\(getpid())-\(megabytes)-\(targets).gdl90").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            try BenchmarkWorkloads.writeTrafficStream(path: path, megabytes: megabytes, targets: targets)
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            fatalError("cannot write the synthetic stream to \(path): \(error)")
        }
        datagrams = Self.datagrams(of: bytes, maximum: 1_024)
        self.targets = targets
    }

    /// Cuts `stream` at frame boundaries (each frame is flag, body, flag) into datagrams of at
    /// most `maximum` bytes (a longer frame goes alone).
    public static func datagrams(of stream: [UInt8], maximum: Int) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var frameStart: Int?
        var datagramStart = 0
        for (i, b) in stream.enumerated() where b == 0x7E {
            guard let s = frameStart else {
                frameStart = i
                continue
            }
            // The frame is stream[s...i]: close the datagram before it if it would not fit.
            if i + 1 - datagramStart > maximum && s > datagramStart {
                out.append(Array(stream[datagramStart..<s]))
                datagramStart = s
            }
            frameStart = nil
        }
        if datagramStart < stream.count { out.append(Array(stream[datagramStart...])) }
        return out
    }
}
