extension String {
    /// The text with every control character (C0, DEL, C1; newlines and ESC included) written
    /// as a visible `\u{1B}` escape: safe to print to a terminal or the journal, so text from
    /// outside (a NOTAM, an acknowledgement id, a file name) can neither forge a log line nor
    /// send escape codes.
    public var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: Self.isControl) else { return self }
        var out = ""
        out.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            if Self.isControl(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value)
    }
}
