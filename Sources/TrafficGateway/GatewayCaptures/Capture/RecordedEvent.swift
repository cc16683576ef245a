import GatewaySupport
import GatewayDomain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a live session was told besides GDL 90 and gpsd, as its flight recorder keeps it: the
/// airspace set given (NOTAM refreshes, files, the store re-read each minute) and the alerts
/// acknowledged, each with the time the core took it. Replayed with the datagrams (from the
/// recording's events interface, `RecordingChannel.events`, or `replay --events FILE`), they make
/// the replay of a recording the session it was, airspace included.
package struct RecordedEvent: Sendable, Equatable, Codable {
    /// What happened.
    package enum Change: Sendable, Equatable, Codable {
        /// The airspace areas watched from then on.
        case airspace([AirspaceArea])
        /// An airspace alert acknowledged (alert id or area id).
        case acknowledge(String)
        /// OGN beacons taken, as the APRS lines they came in (never a no-tracking one: the
        /// recorder leaves those out); a replay parses them again (`OGNBeaconParser`).
        case ogn([String])
    }

    /// Epoch seconds, as the core took it (microseconds, as recordings keep times).
    package var time: Double
    /// What happened.
    package var change: Change

    /// An event.
    package init(time: Double, change: Change) {
        self.time = time
        self.change = change
    }
}

/// The JSON Lines of a recording's `RecordedEvent`s: one a packet of its events interface, or the
/// `gdl90-….events.jsonl` beside the capture of a recording in the three-file form.
package enum RecordedEventLog {
    /// One line (no newline) for `event`.
    package static func line(_ event: RecordedEvent) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(event)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The events of the file at `path`, in time order; a line that is not one is an error naming it.
    package static func read(path: String) throws(GatewayError) -> [RecordedEvent] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GatewayError.file(path: path, reason: "cannot read the recorded events (missing or unreadable)")
        }
        return try parse(data, path: path)
    }

    /// The events of `data` (a file's contents, named `path` in errors), in time order; a line
    /// that is not one, or an area outside the Earth's ranges, is an error naming the line.
    package static func parse(_ data: Data, path: String) throws(GatewayError) -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        let decoder = JSONDecoder()
        for (n, line) in data.split(separator: 0x0A).enumerated() where !line.isEmpty {
            let event: RecordedEvent
            do {
                event = try decoder.decode(RecordedEvent.self, from: Data(line))
            } catch {
                throw GatewayError.file(path: path, reason: "line \(n + 1) is not a recorded event (airspace, acknowledgement or OGN beacons)")
            }
            if case .airspace(let areas) = event.change, let refused = AirspaceArea.checked(areas).refused.first {
                throw GatewayError.file(path: path, reason: "line \(n + 1): \(refused.escapingControlCharacters)")
            }
            events.append(event)
        }
        return events.sorted { $0.time < $1.time }
    }
}
