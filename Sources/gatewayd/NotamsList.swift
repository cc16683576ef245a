import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GatewaySupport
import GatewayDomain
import GatewayRecords
import GatewayNotams

/// `gatewayd notams list`.
struct NotamsList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the stored NOTAMs.",
                                                    usage: "gatewayd notams list [<options>]")

    @Flag(help: "Only those in force now (or at --at).")
    var active = false

    @Option(help: "Time for --active (ISO-8601 UTC; default now).")
    var at: String?

    @Option(help: "Only these severities (repeatable): critical, warning, caution, info.")
    var severity: [String] = []

    @Option(help: "Only those whose text contains this (case-insensitive).")
    var search: String?

    @Flag(help: "JSON Lines: number, location, severity, kind, start, end (estimated?), limits, text, translation, stale, source, geometry.")
    var json = false

    @OptionGroup var db: NotamDatabaseOption

    func validate() throws {
        for s in severity where AirspaceArea.Severity(name: s) == nil { throw ValidationError("--severity \(s): use critical, warning, caution or info") }
        if let at, Timestamp.parse(at) == nil { throw ValidationError("--at \(at) is not a UTC time like 2026-05-16T14:00:00Z") }
    }

    func run() throws {
        let store = try db.store(readOnly: true)
        let now = at.flatMap(Timestamp.parse) ?? Date().timeIntervalSince1970
        do {
            let stale = try store.isStale(at: Date().timeIntervalSince1970)
            let (stored, unreadable) = try store.allReadable()
            if !unreadable.isEmpty {
                Terminal.error("warning: \(unreadable.count) stored NOTAM row(s) cannot be read (damaged): skipped (\(unreadable.prefix(5).joined(separator: ", "))\(unreadable.count > 5 ? ", …" : "")); 'gatewayd notams fetch' or 'import' stores them anew")
            }
            var list = stored
            if active { list = list.filter { $0.isActive(at: now) } }
            if !severity.isEmpty { list = list.filter { severity.contains($0.severity) } }
            if let search { list = list.filter { $0.raw.lowercased().contains(search.lowercased()) } }
            Terminal.out(list.map { json ? NotamOutput.json($0, stale: stale) : NotamOutput.line($0).escapingControlCharacters })
            if list.isEmpty { Terminal.error("notams: none stored match (import or fetch first: gatewayd notams --help)") }
            if stale { Terminal.error("notams: stale: no refresh in the last 24 h") }
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}

/// `gatewayd notams show`.
struct NotamsShow: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one NOTAM: raw text, translation, geometry, validity.")

    @Argument(help: "Number (6/2174), key (FDC:6/2174) or id.")
    var number: String

    @OptionGroup var db: NotamDatabaseOption

    func run() throws {
        let store = try db.store()
        let found = try { () throws -> [Notam] in do { return try store.notams(matching: number) } catch { throw CommandFailure("\(error)") } }()
        guard !found.isEmpty else {
            throw CommandFailure("no stored NOTAM \(number) (gatewayd notams list shows what is stored)")
        }
        var lines: [String] = []
        if found.count > 1 { lines += ["\(found.count) stored NOTAMs share \(number):", ""] }
        for (i, n) in found.enumerated() {
            if i > 0 { lines += ["", String(repeating: "-", count: 40), ""] }
            lines += Self.describe(n)
        }
        // A NOTAM's text is from outside: its own line breaks stay, every other control
        // character (ESC, NUL…) is shown escaped, never sent to the terminal.
        Terminal.out(lines.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }.map { String($0).escapingControlCharacters })
    }

    static func describe(_ n: Notam) -> [String] {
        var lines = ["\(NotamStore.key(n))  \(n.severity.uppercased())\(n.kind.map { "  \($0.rawValue)" } ?? "")  source \(n.source)"]
        lines.append("valid: \(n.start.map(Timestamp.iso8601) ?? "?") → \(n.permanent ? "PERM" : n.end.map(Timestamp.iso8601) ?? "not given")\(n.endEstimated ? " (estimated)" : "")")
        if let q = n.q { lines.append("Q-line: \([q.fir, q.code, q.traffic, q.purpose, q.scope].map { $0 ?? "" }.joined(separator: "/")) FL\(q.lowerFL ?? 0)-FL\(q.upperFL ?? 999)") }
        if let l = n.limits {
            let floor = l.floorFt.map { "\($0) ft \(l.floorAGL ? "AGL" : "MSL")" } ?? "SFC"
            let ceiling = l.ceilingFt.map { "\(l.ceilingExclusive ? "below " : "")\($0) ft \(l.ceilingAGL ? "AGL" : "MSL")" } ?? "UNL"
            lines.append("limits: \(floor) – \(ceiling) (from \(l.origin))")
        }
        lines.append("geometry: \(n.geometry?.json ?? "none")")
        lines += ["", n.raw, "", "In plain English:", NotamTranslator.translate(n.text)]
        if !n.unparsed.isEmpty { lines.append("not understood: " + n.unparsed.joined(separator: "; ")) }
        return lines
    }
}

/// `gatewayd notams changes`.
struct NotamsChanges: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "changes", abstract: "What refreshes found: new, modified, cancelled, expired (kept 7 days).")

    @Flag(help: "Only changes not shown before.")
    var unread = false

    @Flag(help: "JSON Lines.")
    var json = false

    @OptionGroup var db: NotamDatabaseOption

    func run() throws {
        let store = try db.store()
        do {
            let changes = try store.changes(unreadOnly: unread)
            Terminal.out(changes.map { c in
                if json {
                    var w = JSONWriter()
                    w.add("time", Timestamp.iso8601(c.time))
                    w.add("kind", c.kind)
                    w.add("key", c.key)
                    w.add("number", c.number)
                    w.add("location", c.location)
                    w.add("summary", c.summary)
                    w.add("read", c.read)
                    return w.result
                }
                return "\(Timestamp.iso8601(c.time))  \(c.kind.paddedRight(9)) \(c.key)  \(c.summary)".escapingControlCharacters
            })
            if changes.isEmpty { Terminal.error("notams: no \(unread ? "unread " : "")changes") }
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}

/// Output forms of a NOTAM.
enum NotamOutput {
    static func json(_ n: Notam, stale: Bool) -> String {
        var w = JSONWriter()
        w.add("number", n.number ?? n.id)
        w.add("key", NotamStore.key(n))
        w.add("location", n.location ?? n.designator)
        w.add("severity", n.severity)
        w.add("kind", n.kind?.rawValue)
        w.add("start", n.start.map(Timestamp.iso8601))
        w.add("end", n.permanent ? "PERM" : n.end.map(Timestamp.iso8601))
        w.add("endEstimated", n.endEstimated)
        if let l = n.limits {
            w.add("floorFt", l.floorFt)
            w.add("floorRef", l.floorFt == nil ? "SFC" : (l.floorAGL ? "AGL" : "MSL"))
            w.add("ceilingFt", l.ceilingFt)
            w.add("ceilingRef", l.ceilingFt == nil ? "UNL" : (l.ceilingAGL ? "AGL" : "MSL"))
        }
        w.add("text", n.text)
        w.add("translation", NotamTranslator.translate(n.text))
        w.add("stale", stale)
        w.add("source", n.source)
        w.addRaw("geometry", n.geometry?.json ?? "null")
        return w.result
    }

    static func line(_ n: Notam) -> String {
        let end = n.permanent ? "PERM" : n.end.map(Timestamp.iso8601) ?? "?"
        return "\(NotamStore.key(n).paddedRight(14)) \(n.severity.paddedRight(8)) \(n.start.map(Timestamp.iso8601) ?? "?") → \(end)  \(n.text.prefix(90))"
    }
}
