#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// What the gateway used from full Foundation's string API (NSString bridging, which brings ICU),
// written on the standard library.

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Unicode white space other than line breaks):
    /// what `trimmingCharacters(in: .whitespaces)` did.
    public func trimmingWhitespace() -> String {
        trimmed { $0.properties.isWhitespace && !Self.isLineBreak($0) }
    }

    /// Without leading and trailing white space and line breaks.
    public func trimmingWhitespaceAndNewlines() -> String {
        trimmed { $0.properties.isWhitespace }
    }

    /// Every occurrence of `target` replaced by `replacement` (left to right, not overlapping).
    public func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return String(self) }
        let hay = Array(utf8), needle = Array(target.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(hay.count)
        var i = 0
        var changed = false
        while i < hay.count {
            if hay[i] == needle[0], i + needle.count <= hay.count, hay[i..<(i + needle.count)].elementsEqual(needle) {
                out.append(contentsOf: replacement.utf8)
                i += needle.count
                changed = true
            } else {
                out.append(hay[i])
                i += 1
            }
        }
        return changed ? String(decoding: out, as: UTF8.self) : String(self)
    }

    /// Padded with spaces on the right to `width` characters, or cut to it (table columns).
    public func paddedRight(_ width: Int) -> String {
        count >= width ? String(prefix(width)) : String(self) + String(repeating: " ", count: width - count)
    }

    private func trimmed(_ drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !drop($0) })!
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[first...last])
        return String(view)
    }

    private static func isLineBreak(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }
}

/// Creates `path` and its missing parents (`mkdir -p`); the reason, from the system, when it cannot.
public func makeDirectories(_ path: String) throws(GatewayError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for part in path.split(separator: "/") {
        prefix += part
        if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
            throw GatewayError.file(path: path, reason: "cannot create \(prefix) (\(String(cString: strerror(errno))))")
        }
        var info = stat()
        if stat(prefix, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
            throw GatewayError.file(path: path, reason: "\(prefix) is not a folder")
        }
        prefix += "/"
    }
}

/// A sentence for an error from the file system or elsewhere (the system's reason when it has one).
public func describe(_ error: any Error) -> String {
    if let e = error as? GatewayError { return e.description }
    if let e = error as? CocoaError, let posix = e.underlying as? POSIXError {
        return String(cString: strerror(posix.code.rawValue))
    }
    if let e = error as? POSIXError { return String(cString: strerror(e.code.rawValue)) }
    return "\(error)"
}
