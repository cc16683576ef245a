import GDL90

/// The blocks of one gridded product kind at one product time, as heard so far (towers repeat
/// their blocks: a repeat replaces). Bins are kept in one buffer, 128 bytes a block; a block
/// announced empty holds no bins and is drawn as 0.
package struct RadarComposite: Sendable {
    /// The kind.
    package let kind: RadarKind
    /// The product time (observation, or valid time of a forecast grid), seconds since 1970.
    package let time: Double
    /// When its first and its latest block arrived.
    package private(set) var firstReceived: Double, lastReceived: Double
    /// Changes so far (each block added or replaced): a picture of it is current while this holds.
    package private(set) var revision = 0
    /// Blocks by key (`key(_:)`): the slot of their bins, or -1 for a block announced empty.
    private var slots: [UInt32: Int32] = [:]
    private var bins: [UInt8] = []

    /// An empty composite.
    package init(kind: RadarKind, time: Double, received: Double) {
        self.kind = kind
        self.time = time
        firstReceived = received
        lastReceived = received
    }

    /// Blocks heard (with bins or announced empty).
    package var blockCount: Int { slots.count }

    /// Blocks heard with bins.
    package var binnedBlockCount: Int { bins.count / GriddedBlock.binCount }

    /// About the bytes held: the bins and the table.
    package var storageBytes: Int { bins.capacity + slots.capacity * 16 + 64 }

    /// A block's identity in a composite: its number, hemisphere and scale.
    static func key(blockNumber: Int, southern: Bool, scale: Int) -> UInt32 {
        UInt32(blockNumber) | (southern ? 1 << 20 : 0) | UInt32(scale & 3) << 21
    }

    /// Adds `block` (of this kind and time, inside the grid: the assembler checks) received at
    /// `received`; returns the blocks gained (0 for a repeat, several for an empty-block bitmap).
    @discardableResult
    package mutating func add(_ block: GriddedBlock, received: Double) -> Int {
        let before = slots.count
        lastReceived = max(lastReceived, received)
        firstReceived = min(firstReceived, received)
        revision += 1
        if let values = block.bins {
            let key = Self.key(blockNumber: block.blockNumber, southern: block.southern, scale: block.scale)
            if let slot = slots[key], slot >= 0 {
                let start = Int(slot) * GriddedBlock.binCount
                bins.withUnsafeMutableBufferPointer { out in
                    for i in 0..<GriddedBlock.binCount { out[start + i] = values[i] }
                }
            } else {
                slots[key] = Int32(bins.count / GriddedBlock.binCount)
                bins.append(contentsOf: values)
            }
        } else {
            for n in block.emptyBlocks where RadarGrid.contains(blockNumber: n) {
                let key = Self.key(blockNumber: n, southern: block.southern, scale: block.scale)
                // A block heard with bins keeps them: the bitmap may be the older word.
                if slots[key] == nil { slots[key] = -1 }
            }
        }
        return slots.count - before
    }

    /// Every block: number, hemisphere, scale, and its 128 bins (nil when announced empty),
    /// coarse scales first (finer blocks are drawn over them), then by key.
    package func forEachBlock(_ body: (_ blockNumber: Int, _ southern: Bool, _ scale: Int, _ bins: ArraySlice<UInt8>?) -> Void) {
        let ordered = slots.sorted { a, b in
            let sa = a.key >> 21, sb = b.key >> 21
            return sa != sb ? sa > sb : a.key < b.key
        }
        for (key, slot) in ordered {
            let number = Int(key & 0xF_FFFF), southern = key & 1 << 20 != 0, scale = Int(key >> 21 & 3)
            if slot < 0 {
                body(number, southern, scale, nil)
            } else {
                let start = Int(slot) * GriddedBlock.binCount
                body(number, southern, scale, bins[start ..< start + GriddedBlock.binCount])
            }
        }
    }
}
