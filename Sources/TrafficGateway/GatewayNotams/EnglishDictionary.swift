import GatewayRecords

/// The English words and proper names the translator writes in sentence case (issue 57): a NOTAM
/// is written in capitals, and what is an English word ("USING APPROVED ALTERNATIVE METHODS")
/// reads in lower case, what is a place's or a person's name ("DALLAS", "ALBUQUERQUE") in title
/// case, and what is neither (an identifier, a fix, a name the list lacks) stays as written.
/// The lists are generated from Debian's wamerican (`scripts/english-words/generate.py`, source
/// and licence in data/README.md) and compiled in: read once, on the first NOTAM translated.
enum EnglishDictionary {
    /// The words, as substrings of the compiled-in text (no copy of each word).
    static let words: Set<Substring> = Set(wordList.split(separator: "\n"))
    /// The proper names that are not also English words.
    static let names: Set<Substring> = Set(nameList.split(separator: "\n"))

    /// `upper` (a word as a NOTAM writes it) is an English word.
    static func isWord(_ upper: String) -> Bool { words.contains(Substring(upper.lowercased())) }

    /// `upper` is a proper name (and no English word).
    static func isName(_ upper: String) -> Bool { names.contains(Substring(upper.lowercased())) }

    /// A name in title case: "DALLAS" → "Dallas", "MCKINNEY" → "McKinney", "O'HARE" → "O'Hare",
    /// "WINSTON-SALEM" → "Winston-Salem".
    static func titled(_ upper: String) -> String {
        upper.split(separator: "-", omittingEmptySubsequences: false).map { part -> String in
            let lower = part.lowercased()
            guard let first = lower.first else { return "" }
            var out = String(first).uppercased() + lower.dropFirst()
            if lower.hasPrefix("mc"), lower.count > 3 { out = "Mc" + String(lower.dropFirst(2).first!).uppercased() + lower.dropFirst(3) }
            if lower.hasPrefix("o'"), lower.count > 2 { out = "O'" + String(lower.dropFirst(2).first!).uppercased() + lower.dropFirst(3) }
            return out
        }.joined(separator: "-")
    }

    /// A word written only with capital letters (and an apostrophe or hyphen inside).
    static func isCapitalised(_ s: String) -> Bool {
        s.count >= 2 && s.first!.isLetter && s.last!.isLetter
            && s.allSatisfy { ($0.isLetter && $0.isUppercase && $0.isASCII) || $0 == "'" || $0 == "-" }
    }
}
