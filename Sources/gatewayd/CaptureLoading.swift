import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import GatewayCaptures
import GatewaySupport

/// Opens `path` (pcap, pcapng, dump978 text or raw GDL90) as a stream, read a window at a time
/// in constant memory, or fails with a message naming the file.
func openCapture(_ path: String, port: UInt16) throws -> CaptureStream {
    do { return try CaptureStream(path: path, port: port) } catch { throw CommandFailure("\(error)") }
}

/// The captures `arguments` name: a file as it is; a folder (a recording, a Stratux log folder,
/// a download of captures) as every capture in it, in time order, its other files named on
/// stderr with why they were skipped (`ReplaySession`).
func expandCaptures(_ arguments: [String]) throws -> [String] {
    var out: [String] = []
    for argument in arguments {
        var info = stat()
        guard stat(argument, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            out.append(argument)
            continue
        }
        let session: ReplaySession
        do { session = try ReplaySession.resolve(argument) } catch { throw CommandFailure("\(error)") }
        for skipped in session.skipped { Terminal.error("note: \(skipped): skipped") }
        out += session.captures + session.aprsLogs
    }
    return out
}

/// A failure that is not a usage mistake: printed as one sentence, exit status 1, no usage text.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The date of a raw capture's heartbeat clock: `--date` when given, else the file's day (see
/// `CaptureDate`), with the note to print when the date was assumed. Captures with timestamps
/// need none (the midnight returned is then unused).
func rawCaptureDate(_ given: String?, _ capture: inout CaptureStream) throws -> (midnight: Double, note: String?) {
    // dump978 lines without times: dated when opened, on `--date`'s day when given.
    if capture.format == .dump978, capture.undatedNote != nil {
        if let given {
            guard given.count == 10, Timestamp.parse(given) != nil else { throw ValidationError("--date \(given) is not a date like 2026-05-16") }
            do { try capture.dateUndatedLines(given: given) } catch { throw CommandFailure("\(error)") }
        }
        return (0, capture.undatedNote)
    }
    guard capture.format == .raw else { return (0, nil) }
    // From a second look at the file's start (the stream itself is not read).
    let found: CaptureDate?
    do { found = try CaptureDate.ofRawStream(at: capture.path, given: given) } catch { throw CommandFailure("\(error)") }
    guard let day = found else {
        throw ValidationError("--date \(given ?? "") is not a date like 2026-05-16")
    }
    let note = day.assumed ? "\(capture.path): a raw stream carries no date; assumed \(day.day) from \(day.source) (give --date to set it)" : nil
    return (day.midnight, note)
}

/// `rawCaptureDate`, its note printed at once (for commands that stream their output).
func rawCaptureMidnight(_ given: String?, _ capture: inout CaptureStream) throws -> Double {
    let (midnight, note) = try rawCaptureDate(given, &capture)
    if let note { Terminal.error("note: " + note) }
    return midnight
}
