import GatewaySupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The UTC date of a raw GDL 90 stream, whose heartbeats carry only the time of day: the date the
/// user gave, else the date its FIS-B products point to (`ProductDateEvidence`), else the day the
/// file was last written (a recording ends when it is last written), never 1970. `assumed` says the date was not given, so the output can say so.
package struct CaptureDate: Sendable, Equatable {
    /// Epoch seconds of 0000Z of the stream's first day.
    package var midnight: Double
    /// Where the date came from, for the note printed when it was assumed ("file modification time").
    package var source: String
    /// True when the user did not give the date.
    package var assumed: Bool

    /// Creates a date.
    package init(midnight: Double, source: String, assumed: Bool) {
        self.midnight = midnight
        self.source = source
        self.assumed = assumed
    }

    /// The date of the raw stream at `path`: `given` (`YYYY-MM-DD`) when set, else the day of the
    /// file's modification time, stepped back a day when the stream's first heartbeat
    /// (`firstHeartbeatSeconds`, seconds since 0000Z) is later in the day than the file was
    /// last written (the recording began before midnight). Nil only when `given` is malformed.
    package static func resolve(given: String?, path: String, firstHeartbeatSeconds: Double?,
                               products: ProductDateEvidence = ProductDateEvidence()) -> CaptureDate? {
        if let given {
            guard given.count == 10, let midnight = Timestamp.parse(given) else { return nil }
            return CaptureDate(midnight: midnight, source: "--date", assumed: false)
        }
        let modified = modificationTime(of: path)
        // The products' own dates first: a file copied on another day has that day's time.
        if let (midnight, source) = products.midnight(fallback: modified.flatMap { $0 > 86_400 ? $0 : nil } ?? Date().timeIntervalSince1970) {
            return CaptureDate(midnight: midnight, source: source, assumed: true)
        }
        guard let modified, modified > 86_400 else {
            // No usable file time (a pipe, a file touched to the epoch): today, said as assumed.
            let now = Date().timeIntervalSince1970
            return CaptureDate(midnight: (now / 86_400).rounded(.down) * 86_400, source: "today's date", assumed: true)
        }
        var midnight = (modified / 86_400).rounded(.down) * 86_400
        if let first = firstHeartbeatSeconds, first > modified - midnight + 60 { midnight -= 86_400 }
        return CaptureDate(midnight: midnight, source: "the file's modification time", assumed: true)
    }

    /// Epoch seconds of the last write to `path` (nil when it cannot be read): one `stat`, where
    /// `FileManager.attributesOfItem` also looks up the owner's and group's names.
    static func modificationTime(of path: String) -> Double? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1_000_000_000
    }

    /// "2026-05-16".
    package var day: String { String(Timestamp.iso8601(midnight).prefix(10)) }
}

/// gpsd fixes as the JSON lines `gpspipe -w` prints (TPV reports with a `time`): a flight
/// recording's gpsd interface (`RecordingChannel.gpsd`), the `.gps.jsonl` beside the capture of
/// one in the three-file form, or a file given with `gatewayd replay --gps FILE`.
package enum GPSLog {
    /// Reads the TPV fixes of the gpspipe log at `path`; lines that are not TPV reports with a
    /// 2D/3D fix and a time are skipped and counted.
    package static func read(path: String) throws(GatewayError) -> (fixes: [TimedGPSFix], skipped: Int, invalid: [Int]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GatewayError.file(path: path, reason: "cannot read the gpsd log (missing or unreadable)")
        }
        return parse([UInt8](data))
    }

    /// Parses gpspipe JSON lines.
    /// `invalid`: the numbers of the lines that are not JSON objects at all (a damaged or wrong
    /// file), which a reader should name; reports of other classes (SKY, VERSION) are only skipped.
    package static func parse(_ bytes: [UInt8]) -> (fixes: [TimedGPSFix], skipped: Int, invalid: [Int]) {
        var fixes: [TimedGPSFix] = []
        var skipped = 0
        var invalid: [Int] = []
        for (number, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
        where !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) {
            guard JSONReader.object(line) != nil else {
                invalid.append(number + 1)
                skipped += 1
                continue
            }
            guard let fix = GPSDReport.fix(fromJSONLine: Array(line)),
                  let object = JSONReader.object(line),
                  let text = object["time"] as? String, let time = Timestamp.parse(text)
            else {
                skipped += 1
                continue
            }
            fixes.append(TimedGPSFix(time: time, fix: fix))
        }
        return (fixes, skipped, invalid)
    }
}
