import GatewaySupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// A value in the TOML subset the configuration uses.
package enum TOMLValue: Sendable, Equatable {
    /// "text"
    case string(String)
    /// 123
    case integer(Int)
    /// 1.5
    case float(Double)
    /// true / false
    case bool(Bool)
    /// ["a", "b"]
    case array([TOMLValue])
}

/// A key of a configuration file with where it was written.
package struct TOMLEntry: Sendable, Equatable {
    /// `[section]` (empty at the top).
    package var section: String
    /// Key.
    package var key: String
    /// Value.
    package var value: TOMLValue
    /// 1-based line.
    package var line: Int
}

/// A configuration error naming file, line and key.
package struct ConfigError: Error, CustomStringConvertible, Equatable {
    /// The file.
    package var file: String
    /// The line (0: the file as a whole).
    package var line: Int
    /// What is wrong and what to do.
    package var message: String
    /// Creates an error.
    package init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }
    /// `file:line: message`.
    package var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// The subset of TOML the configuration needs: `[section]` tables, `key = value` with basic
/// strings (\" \\ \n \t escapes), integers, floats, booleans and arrays of those (on one line or
/// one item a line),
/// `#` comments. Anything else is an error naming its line, never silently ignored.
package enum TOMLSubset {
    /// Parses `text` (`file` is used in errors).
    package static func parse(_ text: String, file: String) throws(ConfigError) -> [TOMLEntry] {
        var out: [TOMLEntry] = []
        var section = ""
        var seen = Set<String>()
        // A byte-order mark and Windows line ends (an editor's habits) are accepted.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        var i = -1
        while i + 1 < lines.count {
            i += 1
            let n = i + 1
            var line = stripComment(String(lines[i])).trimmingWhitespaceAndNewlines()
            if line.isEmpty { continue }
            // An array written over several lines, one item a line (comments and a trailing
            // comma allowed), is read as if on one: the lines up to its closing bracket.
            if !line.hasPrefix("["), let eq = line.firstIndex(of: "="),
               line[line.index(after: eq)...].trimmingWhitespace().hasPrefix("["), openBrackets(line) > 0 {
                var j = i
                // Deeper than any array the configuration takes: said here, before lines are joined.
                guard openBrackets(line) <= maximumDepth else {
                    throw ConfigError(file: file, line: n, message: "arrays nested more than \(maximumDepth) deep")
                }
                while openBrackets(line) > 0 {
                    j += 1
                    guard j < lines.count else {
                        throw ConfigError(file: file, line: n, message: "the array opened here is not closed with ]")
                    }
                    line += " " + stripComment(String(lines[j])).trimmingWhitespaceAndNewlines()
                }
                i = j
            }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), !line.hasPrefix("[[") else { throw ConfigError(file: file, line: n, message: "a section is written [name]") }
                section = String(line.dropFirst().dropLast()).trimmingWhitespace()
                guard !section.isEmpty, section.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                    throw ConfigError(file: file, line: n, message: "bad section name [\(quoted(Substring(section)))]")
                }
                continue
            }
            guard let eq = line.firstIndex(of: "=") else {
                throw ConfigError(file: file, line: n, message: "expected key = value, found '\(line.prefix(40))'")
            }
            let key = line[..<eq].trimmingWhitespace()
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                throw ConfigError(file: file, line: n, message: "bad key '\(quoted(Substring(key)))'")
            }
            let full = section.isEmpty ? key : section + "." + key
            guard seen.insert(full).inserted else { throw ConfigError(file: file, line: n, message: "'\(key)' is set twice in [\(section)]") }
            var rest = Substring(line[line.index(after: eq)...].trimmingWhitespace())
            let value = try parseValue(&rest, file: file, line: n)
            guard rest.trimmingWhitespace().isEmpty else {
                throw ConfigError(file: file, line: n, message: "unexpected '\(quoted(rest.prefix(40)))' after the value of '\(key)'")
            }
            out.append(TOMLEntry(section: section, key: key, value: value, line: n))
        }
        return out
    }

    /// How many `[` outside strings are not closed on `line`.
    static func openBrackets(_ line: String) -> Int {
        var depth = 0, inString = false, escaped = false
        for c in line {
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if c == "[" {
                depth += 1
            } else if c == "]" {
                depth -= 1
            }
        }
        return depth
    }

    /// The line without a `#` comment (a `#` inside a string stays).
    static func stripComment(_ line: String) -> String {
        var inString = false
        var escaped = false
        var out = ""
        for c in line {
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if c == "#" {
                break
            }
            out.append(c)
        }
        return out
    }

    /// Arrays nest at most this deep (the configuration needs one level; a file nested 50,000 deep
    /// must be an error, not a stack overflow).
    static let maximumDepth = 8

    /// At most this much of a bad token is quoted back in an error.
    static func quoted(_ token: Substring) -> String {
        token.count <= 40 ? String(token) : String(token.prefix(40)) + "… (\(token.count) characters)"
    }

    static func parseValue(_ s: inout Substring, file: String, line: Int, depth: Int = 0) throws(ConfigError) -> TOMLValue {
        guard depth <= maximumDepth else { throw ConfigError(file: file, line: line, message: "arrays nested more than \(maximumDepth) deep") }
        s = s.drop { $0 == " " }
        guard let first = s.first else { throw ConfigError(file: file, line: line, message: "missing value") }
        if first == "\"" {
            s = s.dropFirst()
            var out = ""
            while let c = s.first {
                s = s.dropFirst()
                if c == "\"" { return .string(out) }
                if c == "\\" {
                    guard let e = s.first else { break }
                    s = s.dropFirst()
                    switch e {
                    case "n": out.append("\n")
                    case "t": out.append("\t")
                    case "\"": out.append("\"")
                    case "\\": out.append("\\")
                    default: throw ConfigError(file: file, line: line, message: "unknown escape \\\(e)")
                    }
                } else {
                    out.append(c)
                }
            }
            throw ConfigError(file: file, line: line, message: "unterminated string")
        }
        if first == "[" {
            s = s.dropFirst()
            var items: [TOMLValue] = []
            while true {
                s = s.drop { $0 == " " }
                if s.first == "]" { s = s.dropFirst(); return .array(items) }
                items.append(try parseValue(&s, file: file, line: line, depth: depth + 1))
                s = s.drop { $0 == " " }
                if s.first == "," { s = s.dropFirst(); continue }
                if s.first == "]" { s = s.dropFirst(); return .array(items) }
                throw ConfigError(file: file, line: line, message: "an array is written [\"a\", \"b\"]: items separated by commas")
            }
        }
        let token = s.prefix { $0 != "," && $0 != "]" && $0 != " " }
        s = s.dropFirst(token.count)
        switch token {
        case "true": return .bool(true)
        case "false": return .bool(false)
        default:
            let clean = token.replacingAll("_", with: "")
            if let i = Int(clean) { return .integer(i) }
            if let d = Double(clean), d.isFinite { return .float(d) }
            throw ConfigError(file: file, line: line, message: "'\(quoted(token))' is not a value (strings need \"quotes\")")
        }
    }
}

