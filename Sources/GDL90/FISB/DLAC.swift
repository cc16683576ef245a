/// DLAC, the 6-bit character set of FIS-B text (DO-358, after ARINC 620): four characters in three
/// bytes. Code 0 is ETX (end of text), 27 NC (null), 28 TAB (the next code is a count of spaces),
/// 29 RS (record separator), 30 LF, 31 CC (change cipher); 1–26 are A–Z and 32–63 are the ASCII
/// characters 0x20–0x3F (space, punctuation, digits).
public enum DLAC {
    /// The record separator as it appears in decoded text.
    public static let recordSeparator: Character = "\u{1E}"

    /// ASCII for each code; 0 marks codes that produce no character.
    private static let table: [UInt8] = (0..<64).map { code -> UInt8 in
        switch code {
        case 1...26: UInt8(64 + code)
        case 29: 0x1E
        case 30: 0x0A
        case 31: 0x7C  // "|"
        case 32...63: UInt8(code)
        default: 0
        }
    }

    /// Decodes `count` bytes from `start` (capped to the array): ETX and NC are dropped, TAB
    /// expands to its count of spaces, RS is kept as U+001E and LF as a newline.
    public static func decode(_ bytes: [UInt8], from start: Int = 0, count: Int? = nil) -> String {
        String(decoding: decodeASCII(bytes, from: start, count: count), as: UTF8.self)
    }

    /// Spaces that TABs may add, per coded byte. Real text indents a few lines by a few spaces;
    /// a run of TAB codes would otherwise turn 440 bytes into 16 kB (a memory attack on UDP 4000),
    /// so the spaces past this budget are dropped.
    public static let tabSpacesPerByte = 4

    /// Decodes like `decode(_:from:count:)` but returns the ASCII bytes (no String is built).
    public static func decodeASCII(_ bytes: [UInt8], from start: Int = 0, count: Int? = nil) -> [UInt8] {
        let end = Swift.min(bytes.count, start + (count ?? (bytes.count - start)))
        guard start < end else { return [] }
        var out: [UInt8] = []
        out.reserveCapacity((end - start) * 4 / 3 + 1)
        var tabBudget = (end - start) * tabSpacesPerByte
        var acc = 0
        var bits = 0
        var tab = false
        for i in start..<end {
            acc = (acc << 8 | Int(bytes[i])) & 0x3FFF
            bits += 8
            while bits >= 6 {
                bits -= 6
                let code = (acc >> bits) & 0x3F
                if tab {
                    let spaces = Swift.min(code, tabBudget)
                    tabBudget -= spaces
                    out.append(contentsOf: repeatElement(0x20, count: spaces))
                    tab = false
                } else if code == 28 {
                    tab = true
                } else {
                    let c = table[code]
                    if c != 0 { out.append(c) }
                }
            }
        }
        return out
    }

    /// The DLAC code of one character: letters (either case), digits, space, the punctuation of
    /// 0x20–0x3F, newline, "|" and U+001E; anything else becomes "?" (code 63).
    public static func code(of scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x41...0x5A: Int(scalar.value) - 64
        case 0x61...0x7A: Int(scalar.value) - 96
        case 0x20...0x3F: Int(scalar.value)
        case 0x0A: 30
        case 0x1E: 29
        case 0x7C: 31
        default: 63
        }
    }

    /// Encodes `text`, four characters in three bytes; the last byte's spare bits are zero (ETX).
    public static func encode(_ text: String) -> [UInt8] {
        var w = BitWriter()
        for scalar in text.unicodeScalars { w.write(code(of: scalar), 6) }
        return w.bytes
    }

    /// Encodes `text` into exactly `width` bytes, padded with ETX (zero) codes or cut.
    public static func encode(_ text: String, width: Int) -> [UInt8] {
        var b = encode(text)
        if b.count > width { b.removeLast(b.count - width) }
        while b.count < width { b.append(0) }
        return b
    }
}
