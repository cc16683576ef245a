/// A regular expression over UTF-8 bytes: the NOTAM parser's patterns, without Foundation's
/// `NSRegularExpression` (which brings ICU, 34 MB of the static binary).
///
/// The syntax is the subset the parser's patterns use, with Perl/ICU semantics (leftmost match,
/// alternatives and greedy quantifiers tried in order, backtracking): literals and `\`-escapes,
/// classes `[A-Z0-9.]`, `\d \s \w \D \S \W`, `.`, groups `( )` and `(?: )`, `|`, quantifiers
/// `? * + {m} {m,} {m,n}` (and their lazy `?` forms), anchors `^ $ \b \B`, look-ahead `(?= )`
/// `(?! )` and fixed-width look-behind `(?<= )` `(?<! )`. Classes are ASCII: `\d` is 0-9, `\s`
/// the ASCII white space, and a byte of a non-ASCII character counts as a word character (so
/// `\b` sees "É" as a letter, as ICU does). Match ranges are byte offsets into the UTF-8 text.
///
/// Compiled once (patterns are constants: a syntax error is a programming error and traps) into a
/// small program run by a backtracking machine with an explicit stack; a search skips start
/// positions whose byte cannot begin a match.
///
/// Linear in the text (issue 40): with no back-references, whether the program matches from an
/// instruction at a text position depends on those two alone (not on the captures, nor on where
/// the search started), so reaching the same `split` at the same position a second time can only
/// fail again. Once a search has taken more than `Tuning.memoMinimumSteps` plus
/// `Tuning.memoStepsPerByte` steps a byte of the text left, it remembers every (split, position)
/// it has been at (a bitset, one row of splits a position) and treats a revisit as a failure:
/// each pair is then tried once, which is linear. Short searches stay below the threshold and
/// allocate nothing. `matches` keeps the memo from one match to the next, forgetting only the
/// states at a match's end (those on its way there are not known to fail; every other state
/// remembered did fail). Look-arounds of one class (all the NOTAM patterns have) cost one step;
/// a longer look-around body runs in an inner machine without a memo. A hard budget of steps is
/// kept as a belt (a text so long that its bitset would pass `Tuning.memoBits`, or such a
/// look-around): a search over it stops and says so (`Outcome.overBudget`, `Meter.overBudget`).
public struct TextPattern: Sendable {
    /// The pattern as written.
    public let source: String
    private let program: [Instruction]
    private let looks: [[Instruction]]
    /// Capturing groups.
    public let groupCount: Int
    private let firstBytes: ByteSet?
    /// The `split` instructions of `program` (each numbered in its `.split`, for the memo).
    public let splitCount: Int
    /// Instructions in the program and its look-arounds (the budget's unit).
    public var size: Int { program.count + looks.reduce(0) { $0 + $1.count } }

    /// When the memo switches on and where the budget lies. Tests and benchmarks change them.
    public struct Tuning: Sendable {
        /// Steps a byte of the text left (from the search's start), beyond `memoMinimumSteps`,
        /// before the memo switches on; nil: never (the plain backtracking machine).
        public var memoStepsPerByte: Int?
        /// Steps any search may take before the memo switches on (short texts never need it).
        public var memoMinimumSteps = 0
        /// Steps allowed a byte of the text left and an instruction of the program; nil: no budget.
        public var budgetStepsPerByteAndInstruction: Int?
        /// The largest memo, in bits (a longer text runs on its budget alone).
        public var memoBits: Int

        /// What the parser uses. With the memo the NOTAM patterns take at most about 35 steps a
        /// byte on the worst texts measured (`gatewayd bench --only patterns`), where the budget
        /// allows 2 × their 11 to 226 instructions; the memo (16 MB at most) covers texts up to
        /// 3 MB for the largest pattern (`range`, 41 splits), the budget the rest.
        public static let standard = Tuning(memoStepsPerByte: 8, memoMinimumSteps: 4_096, budgetStepsPerByteAndInstruction: 2, memoBits: 1 << 27)
        /// The memo from the first step, no budget (the exactness test's subject).
        public static let memoAlways = Tuning(memoStepsPerByte: 0, budgetStepsPerByteAndInstruction: nil, memoBits: Int.max)
        /// Plain backtracking (the exactness test's reference).
        public static let memoNever = Tuning(memoStepsPerByte: nil, budgetStepsPerByteAndInstruction: nil, memoBits: 0)
    }

    /// What one search found.
    public enum Outcome: Sendable {
        /// The leftmost match.
        case match(TextMatch)
        /// No match anywhere.
        case noMatch
        /// Stopped when its steps passed the budget: whether the text matches is not known.
        case overBudget
    }

    /// What searches cost, summed over every search it is handed to: the engine's steps, and
    /// the patterns whose search stopped over budget (the search then reports no match). It
    /// also carries how those searches run.
    public struct Meter: Sendable {
        /// The memo's threshold and the budget of the searches given this meter.
        public var tuning: Tuning
        /// Machine steps (instructions executed), look-arounds included.
        public var steps = 0
        /// Searches that switched the memo on.
        public var memoised = 0
        /// The sources of the patterns stopped over budget, in order (repeats kept).
        public var overBudget: [String] = []

        /// A meter with nothing counted, for searches tuned by `tuning`.
        public init(tuning: Tuning = .standard) { self.tuning = tuning }
    }

    /// Compiles `pattern`.
    public init(_ pattern: String) {
        source = pattern
        var parser = PatternParser(pattern: Array(pattern.utf8))
        let node = parser.parse()
        groupCount = parser.groups
        var compiler = PatternCompiler()
        compiler.emit(node)
        compiler.program.append(.match)
        var program = compiler.program
        splitCount = PatternCompiler.numberSplits(&program)
        self.program = program
        looks = compiler.looks.map { var look = $0; _ = PatternCompiler.numberSplits(&look); return look }
        firstBytes = PatternCompiler.firstBytes(program)
    }

    /// The first match in `text` at or after `from`.
    public func firstMatch(in text: [UInt8], from: Int = 0) -> TextMatch? {
        var meter = Meter()
        return firstMatch(in: text, from: from, meter: &meter)
    }

    /// The first match in `text` at or after `from`, its cost added to `meter` (nil when over budget).
    public func firstMatch(in text: [UInt8], from: Int = 0, meter: inout Meter) -> TextMatch? {
        if case .match(let m) = search(in: text, from: from, meter: &meter) { return m }
        return nil
    }

    /// The first match in `text` at or after `from`, or whether the search ran over budget.
    public func search(in text: [UInt8], from: Int = 0, meter: inout Meter) -> Outcome {
        text.withUnsafeBufferPointer { buffer in
            var machine = Machine(slots: 2 * (groupCount + 1), splits: splitCount, text: buffer.count, from: from, size: size, tuning: meter.tuning)
            defer { machine.account(into: &meter, source) }
            return firstMatch(in: buffer, from: from, machine: &machine)
        }
    }

    /// Every match, left to right, not overlapping.
    public func matches(in text: [UInt8]) -> [TextMatch] {
        var meter = Meter()
        return matches(in: text, meter: &meter)
    }

    /// Every match, left to right, not overlapping, their cost added to `meter`; over budget,
    /// the matches found before (and the pattern in `meter.overBudget`).
    public func matches(in text: [UInt8], meter: inout Meter) -> [TextMatch] {
        text.withUnsafeBufferPointer { buffer in
            var out: [TextMatch] = []
            var at = 0
            // One machine for the whole text: its steps, memo and budget span every search.
            var machine = Machine(slots: 2 * (groupCount + 1), splits: splitCount, text: buffer.count, from: 0, size: size, tuning: meter.tuning)
            defer { machine.account(into: &meter, source) }
            while at <= buffer.count, case .match(let m) = firstMatch(in: buffer, from: at, machine: &machine) {
                out.append(m)
                // States on the way to this match that sit at its end are not known to fail.
                machine.forget(at: m.range.upperBound)
                at = m.range.upperBound > m.range.lowerBound ? m.range.upperBound : m.range.upperBound + 1
            }
            return out
        }
    }

    /// Whether the pattern occurs in `text`.
    public func occurs(in text: [UInt8]) -> Bool { firstMatch(in: text) != nil }

    /// Whether the pattern occurs in `text`, its cost added to `meter` (false when over budget).
    public func occurs(in text: [UInt8], meter: inout Meter) -> Bool { firstMatch(in: text, meter: &meter) != nil }

    private func firstMatch(in text: UnsafeBufferPointer<UInt8>, from: Int, machine: inout Machine) -> Outcome {
        var start = from
        while start <= text.count {
            if let first = firstBytes {
                // Skip to the next byte that can begin a match.
                while start < text.count && !first.contains(text[start]) { start += 1 }
                if start == text.count { return .noMatch }
            }
            let end = machine.run(program, looks, text, at: start)
            if end >= 0 {
                var slots = machine.captures
                slots[0] = start
                slots[1] = end
                return .match(TextMatch(slots: slots))
            }
            if end == Machine.overBudget { return .overBudget }
            start += 1
        }
        return .noMatch
    }
}

/// One match: its range and its groups' ranges (byte offsets).
public struct TextMatch: Sendable {
    public let slots: [Int]

    /// The whole match.
    public var range: Range<Int> { slots[0]..<slots[1] }

    /// Group `n`'s range (0: the whole match); nil when the group took no part.
    public func range(at n: Int) -> Range<Int>? {
        let a = slots[2 * n], b = slots[2 * n + 1]
        return a >= 0 && b >= a ? a..<b : nil
    }
}

extension Array where Element == UInt8 {
    /// The text of `range` (a match's or a group's).
    public func text(_ range: Range<Int>?) -> String {
        guard let range else { return "" }
        return String(decoding: self[range], as: UTF8.self)
    }
}

// MARK: - Byte sets

struct ByteSet: Sendable, Equatable {
    private var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    static func == (a: ByteSet, b: ByteSet) -> Bool { a.bits == b.bits }

    @inline(__always) func contains(_ b: UInt8) -> Bool {
        let word: UInt64
        switch b >> 6 {
        case 0: word = bits.0
        case 1: word = bits.1
        case 2: word = bits.2
        default: word = bits.3
        }
        return word & (1 << UInt64(b & 63)) != 0
    }

    mutating func insert(_ b: UInt8) {
        let bit: UInt64 = 1 << UInt64(b & 63)
        switch b >> 6 {
        case 0: bits.0 |= bit
        case 1: bits.1 |= bit
        case 2: bits.2 |= bit
        default: bits.3 |= bit
        }
    }

    mutating func insert(_ range: ClosedRange<UInt8>) { for b in range { insert(b) } }
    mutating func formUnion(_ other: ByteSet) {
        bits = (bits.0 | other.bits.0, bits.1 | other.bits.1, bits.2 | other.bits.2, bits.3 | other.bits.3)
    }
    func inverted() -> ByteSet {
        var s = ByteSet()
        s.bits = (~bits.0, ~bits.1, ~bits.2, ~bits.3)
        return s
    }

    static let digits: ByteSet = { var s = ByteSet(); s.insert(0x30...0x39); return s }()
    static let space: ByteSet = { var s = ByteSet(); for b: UInt8 in [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D] { s.insert(b) }; return s }()
    /// Letters, digits, underscore, and every byte of a non-ASCII character.
    static let word: ByteSet = {
        var s = ByteSet()
        s.insert(0x30...0x39); s.insert(0x41...0x5A); s.insert(0x61...0x7A); s.insert(0x5F); s.insert(0x80...0xFF)
        return s
    }()
    static let notNewline: ByteSet = { var s = ByteSet(); s.insert(0x0A); return s.inverted() }()
}

// MARK: - Syntax

private indirect enum PatternNode {
    case empty
    case set(ByteSet)
    case concat([PatternNode])
    case alternation([PatternNode])
    case group(PatternNode, capture: Int?)
    case repetition(PatternNode, min: Int, max: Int?, greedy: Bool)
    case start, end, wordBoundary(Bool)
    case look(PatternNode, ahead: Bool, negative: Bool)

    /// The bytes it always consumes, when fixed (look-behind needs it).
    var width: Int? {
        switch self {
        case .empty, .start, .end, .wordBoundary, .look: return 0
        case .set: return 1
        case .concat(let parts):
            var w = 0
            for p in parts { guard let pw = p.width else { return nil }; w += pw }
            return w
        case .alternation(let alts):
            let ws = alts.map(\.width)
            guard let first = ws.first, let f = first, ws.allSatisfy({ $0 == f }) else { return nil }
            return f
        case .group(let n, _): return n.width
        case .repetition(let n, let min, let max, _):
            guard max == min, let w = n.width else { return nil }
            return w * min
        }
    }

    /// Whether it can match without consuming a byte.
    var nullable: Bool {
        switch self {
        case .empty, .start, .end, .wordBoundary, .look: return true
        case .set: return false
        case .concat(let parts): return parts.allSatisfy(\.nullable)
        case .alternation(let alts): return alts.contains(where: \.nullable)
        case .group(let n, _): return n.nullable
        case .repetition(let n, let min, _, _): return min == 0 || n.nullable
        }
    }
}

private struct PatternParser {
    let pattern: [UInt8]
    var at = 0
    var groups = 0

    init(pattern: [UInt8]) { self.pattern = pattern }

    mutating func parse() -> PatternNode {
        let node = alternation()
        precondition(at == pattern.count, "pattern: unexpected ')' at \(at)")
        return node
    }

    private var peek: UInt8? { at < pattern.count ? pattern[at] : nil }

    private mutating func alternation() -> PatternNode {
        var alts = [concatenation()]
        while peek == UInt8(ascii: "|") {
            at += 1
            alts.append(concatenation())
        }
        return alts.count == 1 ? alts[0] : .alternation(alts)
    }

    private mutating func concatenation() -> PatternNode {
        var parts: [PatternNode] = []
        while let c = peek, c != UInt8(ascii: "|"), c != UInt8(ascii: ")") {
            parts.append(quantified())
        }
        return parts.isEmpty ? .empty : parts.count == 1 ? parts[0] : .concat(parts)
    }

    private mutating func quantified() -> PatternNode {
        var node = atom()
        while let c = peek {
            var min = 0, max: Int? = nil
            switch c {
            case UInt8(ascii: "?"): max = 1; at += 1
            case UInt8(ascii: "*"): at += 1
            case UInt8(ascii: "+"): min = 1; at += 1
            case UInt8(ascii: "{"):
                guard let (lo, hi) = counts() else { return node }
                min = lo; max = hi
            default: return node
            }
            var greedy = true
            if peek == UInt8(ascii: "?") { greedy = false; at += 1 }
            precondition(max != nil || !node.nullable, "pattern: a repeated part that can match nothing at \(at)")
            node = .repetition(node, min: min, max: max, greedy: greedy)
        }
        return node
    }

    /// `{m}`, `{m,}`, `{m,n}`; nil (and `{` taken literally) otherwise.
    private mutating func counts() -> (Int, Int?)? {
        var i = at + 1
        func number() -> Int? {
            var n: Int?
            while i < pattern.count, pattern[i] >= 0x30, pattern[i] <= 0x39 { n = (n ?? 0) * 10 + Int(pattern[i] - 0x30); i += 1 }
            return n
        }
        guard let lo = number() else { return nil }
        var hi: Int? = lo
        if i < pattern.count, pattern[i] == UInt8(ascii: ",") { i += 1; hi = number() }
        guard i < pattern.count, pattern[i] == UInt8(ascii: "}") else { return nil }
        at = i + 1
        return (lo, hi)
    }

    private mutating func atom() -> PatternNode {
        let c = pattern[at]
        at += 1
        switch c {
        case UInt8(ascii: "("):
            var capture: Int? = nil
            var look: (ahead: Bool, negative: Bool)? = nil
            if peek == UInt8(ascii: "?") {
                at += 1
                switch pattern[at] {
                case UInt8(ascii: ":"): at += 1
                case UInt8(ascii: "="): look = (true, false); at += 1
                case UInt8(ascii: "!"): look = (true, true); at += 1
                case UInt8(ascii: "<"):
                    look = (false, pattern[at + 1] == UInt8(ascii: "!"))
                    at += 2
                default: preconditionFailure("pattern: unsupported group at \(at)")
                }
            } else {
                groups += 1
                capture = groups
            }
            let body = alternation()
            precondition(peek == UInt8(ascii: ")"), "pattern: missing ')'")
            at += 1
            if let look {
                precondition(look.ahead || body.width != nil, "pattern: look-behind must have a fixed width")
                return .look(body, ahead: look.ahead, negative: look.negative)
            }
            return .group(body, capture: capture)
        case UInt8(ascii: "["): return .set(bracket())
        case UInt8(ascii: "."): return .set(.notNewline)
        case UInt8(ascii: "^"): return .start
        case UInt8(ascii: "$"): return .end
        case UInt8(ascii: "\\"):
            let e = pattern[at]
            at += 1
            switch e {
            case UInt8(ascii: "b"): return .wordBoundary(true)
            case UInt8(ascii: "B"): return .wordBoundary(false)
            default: return .set(escape(e))
            }
        default:
            var s = ByteSet()
            s.insert(c)
            return .set(s)
        }
    }

    private func escape(_ e: UInt8) -> ByteSet {
        switch e {
        case UInt8(ascii: "d"): return .digits
        case UInt8(ascii: "D"): return ByteSet.digits.inverted()
        case UInt8(ascii: "s"): return .space
        case UInt8(ascii: "S"): return ByteSet.space.inverted()
        case UInt8(ascii: "w"): return .word
        case UInt8(ascii: "W"): return ByteSet.word.inverted()
        case UInt8(ascii: "n"): var s = ByteSet(); s.insert(0x0A); return s
        case UInt8(ascii: "t"): var s = ByteSet(); s.insert(0x09); return s
        case UInt8(ascii: "r"): var s = ByteSet(); s.insert(0x0D); return s
        default:
            precondition(!(e >= 0x41 && e <= 0x5A || e >= 0x61 && e <= 0x7A || e >= 0x30 && e <= 0x39), "pattern: unsupported escape \\\(Character(Unicode.Scalar(e)))")
            var s = ByteSet(); s.insert(e); return s
        }
    }

    private mutating func bracket() -> ByteSet {
        var s = ByteSet()
        var negated = false
        if peek == UInt8(ascii: "^") { negated = true; at += 1 }
        var first = true
        while let c = peek, c != UInt8(ascii: "]") || first {
            first = false
            at += 1
            var low = c
            if c == UInt8(ascii: "\\") {
                let e = pattern[at]
                at += 1
                let set = escape(e)
                if set != { var one = ByteSet(); one.insert(e); return one }() { s.formUnion(set); continue }
                low = e
            }
            if peek == UInt8(ascii: "-"), at + 1 < pattern.count, pattern[at + 1] != UInt8(ascii: "]") {
                var high = pattern[at + 1]
                at += 2
                if high == UInt8(ascii: "\\") { high = pattern[at]; at += 1 }
                precondition(low <= high, "pattern: bad range in a class")
                s.insert(low...high)
            } else {
                s.insert(low)
            }
        }
        precondition(peek == UInt8(ascii: "]"), "pattern: missing ']'")
        at += 1
        return negated ? s.inverted() : s
    }
}

// MARK: - Program

private enum Instruction: Sendable {
    case set(ByteSet)
    /// Try `first`, then `second` on failure; `memo`: the split's number (its row in the memo).
    case split(Int, Int, memo: Int)
    case jump(Int)
    case save(Int)
    case start, end
    case wordBoundary(Bool)
    /// A look-around: sub-program index, ahead or behind (by `width` bytes), negative or not.
    case look(Int, ahead: Bool, negative: Bool, width: Int)
    case match
}

private struct PatternCompiler {
    var program: [Instruction] = []
    var looks: [[Instruction]] = []

    mutating func emit(_ node: PatternNode) {
        switch node {
        case .empty: break
        case .set(let s): program.append(.set(s))
        case .concat(let parts): for p in parts { emit(p) }
        case .alternation(let alts):
            var jumps: [Int] = []
            for (i, alt) in alts.enumerated() {
                if i < alts.count - 1 {
                    let split = program.count
                    program.append(.match)  // patched below
                    emit(alt)
                    jumps.append(program.count)
                    program.append(.match)  // patched below
                    program[split] = .split(split + 1, program.count, memo: 0)
                } else {
                    emit(alt)
                }
            }
            for j in jumps { program[j] = .jump(program.count) }
        case .group(let body, let capture):
            if let n = capture { program.append(.save(2 * n)) }
            emit(body)
            if let n = capture { program.append(.save(2 * n + 1)) }
        case .repetition(let body, let min, let max, let greedy):
            for _ in 0..<min { emit(body) }
            if let max {
                // Nested optionals, x(x(x)?)?: each count tried once, most (or fewest) first.
                var exits: [Int] = []
                for _ in min..<max {
                    exits.append(program.count)
                    program.append(.match)
                    emit(body)
                }
                let out = program.count
                for e in exits { program[e] = greedy ? .split(e + 1, out, memo: 0) : .split(out, e + 1, memo: 0) }
            } else {
                let loop = program.count
                program.append(.match)
                emit(body)
                program.append(.jump(loop))
                let out = program.count
                program[loop] = greedy ? .split(loop + 1, out, memo: 0) : .split(out, loop + 1, memo: 0)
            }
        case .start: program.append(.start)
        case .end: program.append(.end)
        case .wordBoundary(let b): program.append(.wordBoundary(b))
        case .look(let body, let ahead, let negative):
            var sub = PatternCompiler()
            sub.looks = looks
            sub.emit(body)
            sub.program.append(.match)
            looks = sub.looks
            looks.append(sub.program)
            program.append(.look(looks.count - 1, ahead: ahead, negative: negative, width: body.width ?? 0))
        }
    }

    /// Numbers the splits of `program` 0, 1, 2…; returns how many there are.
    static func numberSplits(_ program: inout [Instruction]) -> Int {
        var n = 0
        for pc in program.indices {
            if case .split(let a, let b, _) = program[pc] {
                program[pc] = .split(a, b, memo: n)
                n += 1
            }
        }
        return n
    }

    /// The bytes a match can begin with; nil when it can be empty.
    static func firstBytes(_ program: [Instruction]) -> ByteSet? {
        var set = ByteSet()
        var seen = Set<Int>()
        var todo = [0]
        while let pc = todo.popLast() {
            guard seen.insert(pc).inserted else { continue }
            switch program[pc] {
            case .set(let s): set.formUnion(s)
            case .split(let a, let b, _): todo.append(a); todo.append(b)
            case .jump(let t): todo.append(t)
            case .save, .start, .end, .wordBoundary, .look: todo.append(pc + 1)
            case .match: return nil
            }
        }
        return set
    }
}

// MARK: - Machine

/// The backtracking machine, kept across the searches of one text (`matches`): its steps, its
/// memo of failed (split, position) states and its budget span them all.
private struct Machine {
    enum Frame { case branch(pc: Int, sp: Int), restore(slot: Int, value: Int) }
    /// `run`'s answer when the budget ran out.
    static let overBudget = -2
    var captures: [Int]
    var stack: [Frame] = []
    /// Instructions executed.
    private(set) var steps = 0
    /// The step at which the memo switches on (`Int.max`: never).
    private var memoFrom: Int
    /// The most steps allowed (`Int.max`: no budget).
    private let budget: Int
    /// The next step at which `checkpoint` runs (the lower of the two above still ahead).
    private var nextCheck: Int
    private let splits: Int
    private let textCount: Int
    private let memoBits: Int
    /// Failed states: bit (sp − memoBase) × splits + split; empty while the memo is off.
    private var memo: [UInt64] = []
    private var memoBase = 0
    private(set) var memoised = false
    private(set) var exhausted = false

    /// A machine for a text of `text` bytes searched from `from`, for a program of `splits`
    /// splits and `size` instructions.
    init(slots: Int, splits: Int, text: Int, from: Int, size: Int, tuning: TextPattern.Tuning) {
        captures = Array(repeating: -1, count: slots)
        stack.reserveCapacity(64)
        self.splits = splits
        textCount = text
        memoBits = tuning.memoBits
        let left = max(0, text - from) + 1
        let (m, o1) = (tuning.memoStepsPerByte ?? Int.max).multipliedReportingOverflow(by: left)
        let (mm, o4) = m.addingReportingOverflow(tuning.memoMinimumSteps)
        memoFrom = splits == 0 || tuning.memoStepsPerByte == nil || o1 || o4 ? Int.max : mm
        let (b, o2) = (tuning.budgetStepsPerByteAndInstruction ?? Int.max).multipliedReportingOverflow(by: left)
        let (bs, o3) = b.multipliedReportingOverflow(by: max(1, size))
        budget = tuning.budgetStepsPerByteAndInstruction == nil || o2 || o3 ? Int.max : bs
        nextCheck = min(memoFrom, budget)
    }

    /// A look-around's machine: no memo, the outer machine's budget left.
    private init(slots: Int, budget: Int) {
        captures = Array(repeating: -1, count: slots)
        splits = 0
        textCount = 0
        memoBits = 0
        memoFrom = Int.max
        self.budget = budget
        nextCheck = budget
    }

    /// Adds this machine's cost to `meter` (naming `source` when it ran over budget).
    func account(into meter: inout TextPattern.Meter, _ source: String) {
        meter.steps += steps
        if memoised { meter.memoised += 1 }
        if exhausted { meter.overBudget.append(source) }
    }

    /// Forgets the states at `position` (after a match ending there: those on its way are not
    /// failures). States before it are never visited again; those after it all failed.
    mutating func forget(at position: Int) {
        guard memoised, position >= memoBase else { return }
        var bit = (position - memoBase) * splits
        let end = bit + splits
        while bit < end {
            memo[bit >> 6] &= ~(1 << UInt64(bit & 63))
            bit += 1
        }
    }

    /// Runs at `nextCheck`: switches the memo on (states from `start` on) or stops over budget.
    /// False when over budget.
    private mutating func checkpoint(start: Int) -> Bool {
        if steps >= budget {
            exhausted = true
            return false
        }
        if steps >= memoFrom {
            memoFrom = Int.max
            let columns = textCount - start + 1
            let (bits, overflow) = columns.multipliedReportingOverflow(by: splits)
            if !overflow && bits <= memoBits {
                memo = Array(repeating: 0, count: (bits + 63) >> 6)
                memoBase = start
                memoised = true
            }
        }
        nextCheck = min(memoFrom, budget)
        return true
    }

    /// Runs `program` at `start`: the end of the first match found (captures in `captures`),
    /// -1 when none, `Machine.overBudget` when the steps ran out first.
    mutating func run(_ program: [Instruction], _ looks: [[Instruction]], _ text: UnsafeBufferPointer<UInt8>, at start: Int) -> Int {
        for i in captures.indices { captures[i] = -1 }
        stack.removeAll(keepingCapacity: true)
        var pc = 0, sp = start
        while true {
            steps += 1
            if steps >= nextCheck, !checkpoint(start: start) { return Self.overBudget }
            var ok = true
            switch program[pc] {
            case .set(let s):
                if sp < text.count && s.contains(text[sp]) { sp += 1; pc += 1 } else { ok = false }
            case .split(let a, let b, let index):
                if memoised {
                    // Been here before: that try failed (a success would have ended the search).
                    let bit = (sp - memoBase) * splits + index
                    let word = bit >> 6, mask: UInt64 = 1 << UInt64(bit & 63)
                    if memo[word] & mask != 0 { ok = false; break }
                    memo[word] |= mask
                }
                stack.append(.branch(pc: b, sp: sp))
                pc = a
            case .jump(let t): pc = t
            case .save(let slot):
                stack.append(.restore(slot: slot, value: captures[slot]))
                captures[slot] = sp
                pc += 1
            case .start:
                if sp == 0 { pc += 1 } else { ok = false }
            case .end:
                let n = text.count
                let atEnd = sp == n || (sp == n - 1 && (text[sp] == 0x0A || text[sp] == 0x0D))
                    || (sp == n - 2 && text[sp] == 0x0D && text[sp + 1] == 0x0A)
                if atEnd { pc += 1 } else { ok = false }
            case .wordBoundary(let want):
                let before = sp > 0 && ByteSet.word.contains(text[sp - 1])
                let after = sp < text.count && ByteSet.word.contains(text[sp])
                if (before != after) == want { pc += 1 } else { ok = false }
            case .look(let index, let ahead, let negative, let width):
                var found = false
                let from = ahead ? sp : sp - width
                if from >= 0 {
                    let body = looks[index]
                    if body.count == 2, case .set(let s) = body[0] {
                        // One class (every look-around the NOTAM patterns have): tested in place,
                        // one step, no machine built at each candidate position.
                        found = from < text.count && s.contains(text[from])
                    } else {
                        // Anything longer runs unmemoised, on what is left of the budget.
                        var inner = Machine(slots: captures.count, budget: budget == Int.max ? Int.max : budget - steps)
                        let end = inner.run(body, looks, text, at: from)
                        steps += inner.steps
                        if end == Self.overBudget { exhausted = true; return Self.overBudget }
                        found = end >= 0
                    }
                }
                if found != negative { pc += 1 } else { ok = false }
            case .match:
                return sp
            }
            if ok { continue }
            // Backtrack: undo captures down to the latest branch, then take it.
            var resumed = false
            while let frame = stack.popLast() {
                switch frame {
                case .restore(let slot, let value): captures[slot] = value
                case .branch(let p, let s): pc = p; sp = s; resumed = true
                }
                if resumed { break }
            }
            if !resumed { return -1 }
        }
    }
}
