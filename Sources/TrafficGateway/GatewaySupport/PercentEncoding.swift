/// RFC 3986 percent-decoding of one path segment or query value (`%C3%89sa-1` → `Ésa-1`), without
/// Foundation: what a browser's `encodeURIComponent` made is read back. A `%` not followed by two
/// hex digits is kept as it is; bytes that are not UTF-8 become U+FFFD.
public enum PercentEncoding {
    /// `text` with each `%XX` replaced by its byte.
    public static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 <= bytes.count - 1, let hi = hex(bytes[i + 1]), let lo = hex(bytes[i + 2]) {
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x37
        case 0x61...0x66: b - 0x57
        default: nil
        }
    }
}
