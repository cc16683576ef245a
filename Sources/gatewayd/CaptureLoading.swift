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

/// The date of a raw capture's heartbeat clock: `--date` when given, else the file's day (see
/// `CaptureDate`), with the note to print when the date was assumed. Captures with timestamps
/// need none (the midnight returned is then unused).
func rawCaptureDate(_ given: String?, _ capture: LoadedCapture) throws -> (midnight: Double, note: String?) {
    guard capture.isRaw else { return (0, nil) }
    let first = capture.datagrams.lazy.compactMap { RawStreamSegmenter.leadingHeartbeatSeconds($0.bytes) }.first
    guard let day = CaptureDate.resolve(given: given, path: capture.path, firstHeartbeatSeconds: first) else {
        throw ValidationError("--date \(given ?? "") is not a date like 2026-05-16")
    }
    let note = day.assumed ? "\(capture.path): a raw stream carries no date; assumed \(day.day) from \(day.source) (give --date to set it)" : nil
    return (day.midnight, note)
}

/// `rawCaptureDate`, its note printed at once (for commands that stream their output).
func rawCaptureMidnight(_ given: String?, _ capture: LoadedCapture) throws -> Double {
    let (midnight, note) = try rawCaptureDate(given, capture)
    if let note { Terminal.error("note: " + note) }
    return midnight
}
