import GDL90

/// The global block grid of FIS-B's gridded products (DO-358): each hemisphere is cut into rings
/// of latitude 4 arc-minutes high, each ring into 450 blocks 48 arc-minutes wide, numbered from
/// the equator poleward and from 0° eastward (block = ring × 450 + column). North of 60° (block
/// 405,000 on) blocks are twice as wide and only even numbers are used. A block holds 32 × 4 bins
/// (west to east, north to south); at medium scale (1) a block and its bins are 5 times larger each
/// way, at low scale (2) 9 times, anchored at the block's own north-west corner.
package enum RadarGrid {
    /// Rings of latitude in a hemisphere (90° of 4′ rings).
    package static let rings = 1350
    /// Blocks in a ring.
    package static let blocksPerRing = GriddedBlock.blocksPerRing
    /// The first block north of 60° (twice as wide).
    package static let wideBlockThreshold = GriddedBlock.wideBlockThreshold
    /// Block numbers in a hemisphere: anything from here on lies outside the grid.
    package static let blockLimit = GriddedBlock.blockLimit
    /// Width of a bin at high resolution (1.5′), degrees.
    package static let binWidth = GriddedBlock.blockWidth / Double(GriddedBlock.binsPerRow)
    /// Height of a bin at high resolution (1′), degrees.
    package static let binHeight = GriddedBlock.blockHeight / Double(GriddedBlock.binCount / GriddedBlock.binsPerRow)

    /// The scale factor of a block's scale field (0 high: 1, 1 medium: 5, 2 low: 9), nil for 3 (reserved).
    package static func factor(scale: Int) -> Int? {
        (0...2).contains(scale) ? GriddedBlock.scaleFactor(scale) : nil
    }

    /// Whether `blockNumber` names a block of the grid.
    package static func contains(blockNumber: Int) -> Bool { blockNumber >= 0 && blockNumber < blockLimit }

    /// A bin's size in high-resolution bins (width, height) for a block at `scale`: the scale
    /// factor each way, the width doubled north of 60°.
    static func binSize(blockNumber: Int, scale: Int) -> (width: Int, height: Int) {
        let f = GriddedBlock.scaleFactor(scale)
        return (blockNumber >= wideBlockThreshold ? 2 * f : f, f)
    }
}
