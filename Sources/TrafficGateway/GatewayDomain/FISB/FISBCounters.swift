/// What the FIS-B store has seen, for summaries and tests.
package struct FISBCounters: Hashable, Sendable {
    /// Uplinks ingested.
    package var uplinks = 0
    /// Uplinks with no information frames.
    package var emptyUplinks = 0
    /// Uplinks whose header could not be read.
    package var badUplinks = 0
    /// Information frames decoded.
    package var frames = 0
    /// Frames, records or APDUs skipped as malformed (each also listed in `lastErrors`).
    package var skipped = 0
    /// APDUs naming a product this decoder does not know.
    package var unknownProducts = 0
    /// Segments received.
    package var segments = 0
    /// Products reassembled from segments.
    package var reassembled = 0
    /// Gridded product blocks received.
    package var gridded = 0
    /// Reports removed by cancellation.
    package var cancelled = 0
    /// Reports removed because their validity ended.
    package var expired = 0
    /// Reports dropped because their validity had already ended when they arrived.
    package var stale = 0

    /// Reports dropped over the store's limits (count or bytes), the oldest received first.
    package var dropped = 0
    /// Texts cut to the store's limit for one report.
    package var truncated = 0
    /// Gridded blocks not kept: the composites being assembled were at their limits.
    package var droppedBlocks = 0

    /// Creates zero counters.
    package init() {}

    /// One line: "12 uplinks (5 empty), 20 frames, 2 skipped, …".
    package var summary: String {
        "\(uplinks) uplinks (\(emptyUplinks) empty, \(badUplinks) bad), \(frames) frames, \(skipped) skipped, "
            + "\(unknownProducts) unknown products, \(segments) segments (\(reassembled) products reassembled), "
            + "\(gridded) gridded blocks, \(cancelled) cancelled, \(expired) expired, \(stale) stale on arrival"
            + (dropped + truncated + droppedBlocks == 0 ? ""
                : "; over the store's limits: \(dropped) dropped, \(truncated) texts cut, \(droppedBlocks) gridded blocks not kept")
    }
}
