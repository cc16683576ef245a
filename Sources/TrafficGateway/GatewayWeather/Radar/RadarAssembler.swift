import GatewayDomain
import GDL90

/// Assembles gridded FIS-B blocks into composites: one a kind and product time (never mixing
/// times: ground stations interleave the blocks of two observations), the latest complete one a
/// kind kept while it is worth showing, the complete ones before it for a loop (the last 30
/// minutes). Pure and deterministic: time comes in with each block. Memory is bounded by
/// `Limits` whatever is uplinked; what does not fit, or does not belong, is counted.
///
/// "Complete": a composite holding at least 90 % of the blocks of the most complete one of its
/// kind held (a time whose blocks keep coming is complete once it has caught up with the last).
package struct RadarAssembler: Sendable {
    /// What the assembler holds at most.
    package struct Limits: Sendable {
        /// Blocks (with bins, or announced empty) of every composite together: 40,000 (as the
        /// FIS-B store's composites), about 5 MB of bins.
        package var blocks = 40_000
        /// Composites of one kind (product times) held at once.
        package var timesPerKind = 16
        /// Seconds of composites kept for a loop before the latest complete one.
        package var loopWindow: Double = 30 * 60
        /// The defaults.
        package init() {}
    }

    /// What was counted.
    package struct Counters: Sendable, Equatable {
        /// Blocks taken into a composite.
        package var blocks = 0
        /// Blocks of a product that is not gridded, or an icing/turbulence level without altitude.
        package var unknownProduct = 0
        /// Blocks numbered outside the grid (or at the reserved scale 3).
        package var outsideGrid = 0
        /// Blocks holding bin values the product does not define (drawn as nothing).
        package var unknownValues = 0
        /// Blocks of a product time older than the loop window behind the newest of their kind.
        package var late = 0
        /// Composites begun for a time earlier than the newest of their kind (times going backwards).
        package var backwards = 0
        /// Composites dropped before they completed (aged out, or pushed out by a flood of times).
        package var incomplete = 0
        /// Complete composites dropped before their time (the block limit, or a flood of times).
        package var dropped = 0
        /// Blocks refused because the limit was reached with nothing older to drop.
        package var refused = 0

        /// One line: what was taken and what was not.
        package var summary: String {
            var parts = ["\(blocks) blocks"]
            for (n, what) in [(unknownProduct, "of unknown products"), (outsideGrid, "outside the grid"), (unknownValues, "with undefined values"),
                              (late, "too late"), (refused, "refused (memory bound)")] where n > 0 {
                parts.append("\(n) \(what)")
            }
            if backwards > 0 { parts.append("\(backwards) times going backwards") }
            if incomplete > 0 { parts.append("\(incomplete) composites never completed") }
            if dropped > 0 { parts.append("\(dropped) composites dropped (memory bound)") }
            return parts.joined(separator: ", ")
        }
    }

    /// The limits in force.
    package var limits: Limits
    /// The counters.
    package private(set) var counters = Counters()
    /// Blocks held by every composite together.
    package private(set) var blocksHeld = 0
    /// The latest reception time seen (the assembler's clock).
    package private(set) var now = -Double.infinity
    /// Composites by kind, oldest time first.
    private var composites: [RadarKind: [RadarComposite]] = [:]
    private var agedAt = -Double.infinity

    /// An empty assembler.
    package init(limits: Limits = Limits()) { self.limits = limits }

    /// The kinds with a complete composite, by name.
    package var kinds: [RadarKind] { composites.keys.filter { latest($0) != nil }.sorted() }

    /// The newest complete composite of `kind`.
    package func latest(_ kind: RadarKind) -> RadarComposite? {
        guard let list = composites[kind], let most = list.map(\.blockCount).max(), most > 0 else { return nil }
        return list.last { Self.isComplete($0, most: most) }
    }

    /// The complete composites of `kind` within the loop window before the latest, oldest first.
    package func loop(_ kind: RadarKind) -> [RadarComposite] {
        guard let list = composites[kind], let most = list.map(\.blockCount).max(), let last = latest(kind) else { return [] }
        return list.filter { $0.time >= last.time - limits.loopWindow && $0.time <= last.time && Self.isComplete($0, most: most) }
    }

    /// Every composite held (complete or not), for a status line.
    package var compositeCount: Int { composites.values.reduce(0) { $0 + $1.count } }

    /// About the bytes held.
    package var storageBytes: Int { composites.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.storageBytes } } }

    private static func isComplete(_ c: RadarComposite, most: Int) -> Bool { c.blockCount * 10 >= most * 9 }

    /// Adds the blocks of `receipts`, in order.
    package mutating func add(_ receipts: [GridBlockReceipt]) {
        for r in receipts { add(r) }
    }

    /// Adds one block.
    package mutating func add(_ receipt: GridBlockReceipt) {
        let block = receipt.block
        now = max(now, receipt.received)
        if now - agedAt >= 10 { age(at: now) }
        guard let kind = RadarKind(block) else {
            counters.unknownProduct += 1
            return
        }
        guard RadarGrid.contains(blockNumber: block.blockNumber), RadarGrid.factor(scale: block.scale) != nil else {
            counters.outsideGrid += 1
            return
        }
        // Drawn as nothing (`RadarLevels.index` maps them to 0); counted here.
        if let bins = block.bins {
            let levels = RadarLevels.of(kind)
            if bins.contains(where: { !levels.defines($0) }) { counters.unknownValues += 1 }
        }
        // A block without a product time is filed under its minute of reception.
        let time = receipt.productTime ?? (receipt.received / 60).rounded(.down) * 60
        if let newest = composites[kind]?.last?.time, time < newest - limits.loopWindow {
            counters.late += 1
            return
        }
        let marks = block.bins == nil ? block.emptyBlocks.count : 1
        guard makeRoom(for: marks, sparing: kind, time: time) else {
            counters.refused += 1
            return
        }
        var list: [RadarComposite]
        // Taken out of the table while changed: a copy left in it would make the composite's
        // bins and block table copied on every block.
        list = composites.removeValue(forKey: kind) ?? []
        let index: Int
        if let i = list.firstIndex(where: { $0.time == time }) {
            index = i
        } else {
            if let newest = list.last?.time, time < newest { counters.backwards += 1 }
            if list.count >= limits.timesPerKind { dropOne(of: &list) }
            let at = list.firstIndex { $0.time > time } ?? list.count
            list.insert(RadarComposite(kind: kind, time: time, received: receipt.received), at: at)
            index = at
        }
        blocksHeld += list[index].add(block, received: receipt.received)
        counters.blocks += 1
        composites[kind] = list
    }

    /// Drops composites no longer worth keeping at `time`: those older than the loop window
    /// behind their kind's latest complete one (or its newest), and a latest complete one past
    /// its kind's lifetime.
    package mutating func age(at time: Double) {
        agedAt = time
        for kind in Array(composites.keys) {
            guard var list = composites[kind] else { continue }
            let most = list.map(\.blockCount).max() ?? 0
            let latestTime = list.last { Self.isComplete($0, most: most) }?.time
            let horizon = (latestTime ?? list.last?.time ?? time) - limits.loopWindow
            list.removeAll { c in
                let stale = c.time < horizon || c.time + kind.lifetime < time
                if stale { forget(c, complete: Self.isComplete(c, most: most)) }
                return stale
            }
            composites[kind] = list.isEmpty ? nil : list
        }
    }

    private mutating func forget(_ c: RadarComposite, complete: Bool, early: Bool = false) {
        blocksHeld -= c.blockCount
        if !complete { counters.incomplete += 1 } else if early { counters.dropped += 1 }
    }

    /// Drops the composite of `list` least worth keeping: the oldest that is not the latest complete.
    private mutating func dropOne(of list: inout [RadarComposite]) {
        let most = list.map(\.blockCount).max() ?? 0
        let keep = list.lastIndex { Self.isComplete($0, most: most) }
        guard let i = list.indices.first(where: { $0 != keep }) else { return }
        forget(list[i], complete: Self.isComplete(list[i], most: most), early: true)
        list.remove(at: i)
    }

    /// Frees room for `marks` more blocks by dropping the oldest composites other than each kind's
    /// latest complete one and the one being filled (`kind` at `time`); false when that is not enough.
    private mutating func makeRoom(for marks: Int, sparing kind: RadarKind, time: Double) -> Bool {
        while blocksHeld + marks > limits.blocks {
            var victim: (kind: RadarKind, index: Int, time: Double)?
            for (k, list) in composites {
                let most = list.map(\.blockCount).max() ?? 0
                let keep = list.lastIndex { Self.isComplete($0, most: most) }
                for (i, c) in list.enumerated() where i != keep && !(k == kind && c.time == time) {
                    if victim == nil || c.time < victim!.time { victim = (k, i, c.time) }
                    break
                }
            }
            guard let v = victim, var list = composites[v.kind] else { return false }
            let most = list.map(\.blockCount).max() ?? 0
            forget(list[v.index], complete: Self.isComplete(list[v.index], most: most), early: true)
            list.remove(at: v.index)
            composites[v.kind] = list.isEmpty ? nil : list
        }
        return true
    }
}
