import ArgumentParser
import TrafficGateway

/// A capture loaded for a command: its datagrams and, if the file was damaged, why reading stopped.
struct LoadedCapture {
    var path: String
    var isRaw: Bool
    var datagrams: [(time: Double?, bytes: [UInt8])]
    var damage: String?
}

/// Reads `path` (pcap, pcapng, dump978 text or raw GDL90) or fails with a message naming the file.
func loadCapture(_ path: String, port: UInt16) throws -> LoadedCapture {
    do {
        let capture = try CaptureFile.read(path: path, port: port)
        return LoadedCapture(
            path: path, isRaw: capture.format == .raw,
            datagrams: capture.datagrams.map { ($0.timestamp, $0.bytes) },
            damage: capture.error.map { "\($0)" })
    } catch {
        throw CommandFailure("\(error)")
    }
}

/// A failure that is not a usage mistake: printed as one sentence, exit status 1, no usage text.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
