import GatewaySupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One key of the configuration file: where it lives (`[section] name`), what it must be, how a
/// value is read into a `GatewayConfig` and how `config show` writes it back. `GatewayConfig.keys`
/// lists every key once; parsing, `config show` and the unknown-key error are all read off it.
package struct ConfigKey: Sendable {
    /// What a value is made of, for help and for `config show`.
    package enum Kind: Sendable, Equatable {
        /// A whole number.
        case integer
        /// A number, whole or not.
        case number
        /// true or false.
        case boolean
        /// A string (a path, an address, a name from a list).
        case string
        /// A string never shown (`config show` prints `****`).
        case secret
        /// An array of strings.
        case strings
    }

    /// The section: `feeds` for `[feeds]`.
    package let section: String
    /// The key within its section: `http_port`.
    package let name: String
    /// What the value is made of.
    package let kind: Kind
    /// What the value must be, in words: "integer 0–65535". Errors say "'http_port' in [feeds] must be …".
    package let help: String
    /// A comment line `config show` writes above the key, if any.
    package let note: String?
    private let read: @Sendable (TOMLValue, inout GatewayConfig) -> Bool
    private let show: @Sendable (GatewayConfig) -> String?
    /// What exactly is wrong with a value the key refused (a target URL's own error), nil: `help` says it.
    package var explain: @Sendable (TOMLValue) -> String? = { _ in nil }

    private init(copying key: ConfigKey, note: String?) {
        section = key.section
        name = key.name
        kind = key.kind
        help = key.help
        self.note = note
        read = key.read
        show = key.show
        explain = key.explain
    }

    /// The same key with `explain` saying what is wrong with a refused value.
    func explained(_ explain: @escaping @Sendable (TOMLValue) -> String?) -> ConfigKey {
        var copy = self
        copy.explain = explain
        return copy
    }

    /// The same key with a comment line above it in `config show`.
    func noted(_ note: String) -> ConfigKey { ConfigKey(copying: self, note: note) }

    /// A key from its parts. `read` stores a valid value and returns true, or returns false;
    /// `show` is the value as TOML (nil: unset, and `unset` is written instead, a comment, or nothing).
    init(_ section: String, _ name: String, kind: Kind, help: String, note: String? = nil, unset: String? = nil,
         read: @escaping @Sendable (TOMLValue, inout GatewayConfig) -> Bool, show: @escaping @Sendable (GatewayConfig) -> String?) {
        self.section = section
        self.name = name
        self.kind = kind
        self.help = help
        self.note = note
        self.read = read
        self.show = { config in show(config).map { "\(name) = \($0)" } ?? unset }
    }

    /// `section.name`.
    package var path: String { "\(section).\(name)" }

    /// Stores `value` in `config`; false (and `config` untouched) when the value is not what the key takes.
    package func read(_ value: TOMLValue, into config: inout GatewayConfig) -> Bool {
        var copy = config
        guard read(value, &copy) else { return false }
        config = copy
        return true
    }

    /// The key's line in `config show` (secrets masked), nil when unset and nothing is to be shown.
    package func line(_ config: GatewayConfig) -> String? { show(config) }
}

extension ConfigKey {
    /// An integer in `range`.
    static func integer(_ section: String, _ name: String, _ path: WritableKeyPath<GatewayConfig, Int> & Sendable,
                        in range: ClosedRange<Int>, help: String) -> ConfigKey {
        ConfigKey(section, name, kind: .integer, help: help, read: { value, c in
            guard case .integer(let i) = value, range.contains(i) else { return false }
            c[keyPath: path] = i
            return true
        }, show: { "\($0[keyPath: path])" })
    }

    /// A number in `range` (an integer is taken as one).
    static func number(_ section: String, _ name: String, _ path: WritableKeyPath<GatewayConfig, Double> & Sendable,
                       in range: ClosedRange<Double>, help: String? = nil,
                       shown: @escaping @Sendable (Double) -> String = { GatewayConfig.format($0) }) -> ConfigKey {
        ConfigKey(section, name, kind: .number, help: help ?? "a number from \(GatewayConfig.format(range.lowerBound)) to \(GatewayConfig.format(range.upperBound))",
                  read: { value, c in
            let number: Double
            switch value {
            case .integer(let i): number = Double(i)
            case .float(let d): number = d
            default: return false
            }
            guard range.contains(number) else { return false }
            c[keyPath: path] = number
            return true
        }, show: { shown($0[keyPath: path]) })
    }

    /// true or false.
    static func boolean(_ section: String, _ name: String, _ path: WritableKeyPath<GatewayConfig, Bool> & Sendable) -> ConfigKey {
        ConfigKey(section, name, kind: .boolean, help: "true or false", read: { value, c in
            guard case .bool(let b) = value else { return false }
            c[keyPath: path] = b
            return true
        }, show: { "\($0[keyPath: path])" })
    }

    /// A string that `parse` turns into the setting's type (nil: not valid), shown by `format`.
    static func text<T>(_ section: String, _ name: String, _ path: WritableKeyPath<GatewayConfig, T> & Sendable, help: String,
                        parse: @escaping @Sendable (String) -> T?, format: @escaping @Sendable (T) -> String) -> ConfigKey {
        ConfigKey(section, name, kind: .string, help: help, read: { value, c in
            guard case .string(let s) = value, let v = parse(s) else { return false }
            c[keyPath: path] = v
            return true
        }, show: { quoted(format($0[keyPath: path])) })
    }

    /// An optional string setting; `unset` is what `config show` writes when it is not set
    /// (a comment with an example, or nothing). A secret is shown as `****`.
    static func optional<T>(_ section: String, _ name: String, _ path: WritableKeyPath<GatewayConfig, T?> & Sendable, help: String,
                            secret: Bool = false, unset: String? = nil, note: String? = nil,
                            parse: @escaping @Sendable (String) -> T?, format: @escaping @Sendable (T) -> String) -> ConfigKey {
        ConfigKey(section, name, kind: secret ? .secret : .string, help: help, note: note, unset: unset, read: { value, c in
            guard case .string(let s) = value, let v = parse(s) else { return false }
            c[keyPath: path] = v
            return true
        }, show: { c in c[keyPath: path].map { secret ? "\"****\"" : quoted(format($0)) } })
    }

    /// An array of strings, each of which `parse` turns into an element (nil: not valid).
    static func list<T>(_ section: String, _ name: String, _ path: WritableKeyPath<GatewayConfig, [T]> & Sendable, help: String,
                        unset: String? = nil, parse: @escaping @Sendable (String) -> T?, format: @escaping @Sendable (T) -> String) -> ConfigKey {
        ConfigKey(section, name, kind: .strings, help: help, unset: unset, read: { value, c in
            guard case .array(let items) = value else { return false }
            var out: [T] = []
            for item in items {
                guard case .string(let s) = item, let v = parse(s) else { return false }
                out.append(v)
            }
            c[keyPath: path] = out
            return true
        }, show: { c in
            let items = c[keyPath: path]
            return unset != nil && items.isEmpty ? nil : "[" + items.map { quoted(format($0)) }.joined(separator: ", ") + "]"
        })
    }

    /// A TOML basic string.
    static func quoted(_ s: String) -> String {
        "\"\(s.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\""))\""
    }
}
