/// What the FIS-B store has seen, for summaries and tests.
public struct FISBCounters: Hashable, Sendable {
    /// Uplinks ingested.
    public var uplinks = 0
    /// Uplinks with no information frames.
    public var emptyUplinks = 0
    /// Uplinks whose header could not be read.
    public var badUplinks = 0
    /// Information frames decoded.
    public var frames = 0
    /// Frames, records or APDUs skipped as malformed (each also listed in `lastErrors`).
    public var skipped = 0
    /// APDUs naming a product this decoder does not know.
    public var unknownProducts = 0
    /// Segments received.
    public var segments = 0
    /// Products reassembled from segments.
    public var reassembled = 0
    /// Gridded product blocks received.
    public var gridded = 0
    /// Reports removed by cancellation.
    public var cancelled = 0
    /// Reports removed because their validity ended.
    public var expired = 0
    /// Reports dropped because their validity had already ended when they arrived.
    public var stale = 0

    /// Reports dropped over the store's limits (count or bytes), the oldest received first.
    public var dropped = 0
    /// Texts cut to the store's limit for one report.
    public var truncated = 0
    /// Gridded blocks not kept: the composites being assembled were at their limits.
    public var droppedBlocks = 0

    /// Creates zero counters.
    public init() {}

    /// One line: "12 uplinks (5 empty), 20 frames, 2 skipped, …".
    public var summary: String {
        "\(uplinks) uplinks (\(emptyUplinks) empty, \(badUplinks) bad), \(frames) frames, \(skipped) skipped, "
            + "\(unknownProducts) unknown products, \(segments) segments (\(reassembled) products reassembled), "
            + "\(gridded) gridded blocks, \(cancelled) cancelled, \(expired) expired, \(stale) stale on arrival"
            + (dropped + truncated + droppedBlocks == 0 ? ""
                : "; over the store's limits: \(dropped) dropped, \(truncated) texts cut, \(droppedBlocks) gridded blocks not kept")
    }
}
