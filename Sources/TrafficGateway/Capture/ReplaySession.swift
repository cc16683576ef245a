#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one argument of `gatewayd replay` names, with the files a flight recording keeps beside
/// its capture: a capture file (alone); a recording hour's stem (`REC/gdl90-2026-05-16-14`: its
/// `.pcapng` and, when present, the `.gps.jsonl` and `.events.jsonl` beside it); or a recording
/// folder (every hour in it, in order, as one session). One session is one replay: its hours
/// follow each other through the same pipeline, so a flight across an hour boundary stays one.
public struct ReplaySession: Sendable, Equatable {
    /// Capture files, in the order they are fed.
    public var captures: [String]
    /// gpsd logs recorded beside them (`gdl90-….gps.jsonl`).
    public var gpsLogs: [String]
    /// Session events recorded beside them (`gdl90-….events.jsonl`: airspace sets, acknowledgements).
    public var eventLogs: [String]

    /// Creates a session.
    public init(captures: [String], gpsLogs: [String] = [], eventLogs: [String] = []) {
        self.captures = captures
        self.gpsLogs = gpsLogs
        self.eventLogs = eventLogs
    }

    /// The flight recorder's names: `gdl90-YYYY-MM-DD-HH` and one of these endings.
    static let captureEnding = ".pcapng", gpsEnding = ".gps.jsonl", eventsEnding = ".events.jsonl"

    /// The session `argument` names; an error naming it and saying what to give instead when it is
    /// none (a side file given as the capture, a stem or folder without recordings).
    public static func resolve(_ argument: String) throws(GatewayError) -> ReplaySession {
        let manager = FileManager.default
        var info = stat()
        let exists = stat(argument, &info) == 0
        if exists && info.st_mode & S_IFMT == S_IFDIR { return try folder(argument) }
        for (ending, option) in [(gpsEnding, "--gps"), (eventsEnding, "--events")] where argument.hasSuffix(ending) {
            let stem = String(argument.dropLast(ending.count))
            throw GatewayError.invalidInput(
                "\(argument) is what the recorder keeps beside a capture, not a capture: replay the hour by its stem "
                + "('gatewayd replay \(stem)', which finds it) or give it with \(option) beside the capture")
        }
        if exists { return ReplaySession(captures: [argument]) }
        // A stem: the hour's files by their endings.
        if manager.fileExists(atPath: argument + captureEnding) {
            return ReplaySession(captures: [argument + captureEnding],
                                 gpsLogs: [argument + gpsEnding].filter { manager.fileExists(atPath: $0) },
                                 eventLogs: [argument + eventsEnding].filter { manager.fileExists(atPath: $0) })
        }
        throw GatewayError.file(path: argument, reason: "no such file (nor \(argument)\(captureEnding): a recording hour is given by its stem, a recording folder by its path)")
    }

    /// Every recorded hour in `path`, oldest first.
    static func folder(_ path: String) throws(GatewayError) -> ReplaySession {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
            throw GatewayError.file(path: path, reason: "cannot list the folder (\(describe(error)))")
        }
        let base = path.hasSuffix("/") ? path : path + "/"
        // The recorder's names sort by time: gdl90-YYYY-MM-DD-HH.
        let hours = names.filter { $0.hasPrefix("gdl90-") }.sorted()
        let session = ReplaySession(
            captures: hours.filter { $0.hasSuffix(captureEnding) }.map { base + $0 },
            gpsLogs: hours.filter { $0.hasSuffix(gpsEnding) }.map { base + $0 },
            eventLogs: hours.filter { $0.hasSuffix(eventsEnding) }.map { base + $0 })
        guard !session.captures.isEmpty else {
            throw GatewayError.file(path: path, reason: "no recordings in this folder (the recorder writes gdl90-YYYY-MM-DD-HH\(captureEnding) files; give a capture file to replay another)")
        }
        return session
    }
}
