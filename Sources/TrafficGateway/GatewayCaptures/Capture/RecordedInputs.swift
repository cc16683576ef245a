import GatewayDomain

/// What a recording kept besides its datagrams, handed back in the one order both replay drivers
/// use (`CaptureReplay` for `replay`, `decode` and the tests; `CaptureSource` for `run --replay`):
/// by time, a gpsd fix first when a fix and an event share a time. Before this, `run --replay`
/// handed in every due fix before every due event, whatever their times (issue 39).
package struct RecordedInputs: Sendable {
    private let fixes: [TimedGPSFix]
    private var nextFix = 0
    private let events: [RecordedEvent]
    private var nextEvent = 0

    /// The fixes and events, each put in time order (equal times keep their order).
    package init(fixes: [TimedGPSFix], events: [RecordedEvent]) {
        self.fixes = fixes.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        self.events = events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// The next input due by `time` (a fix or an event) with its own time, nil when none is.
    package mutating func next(through time: Double) -> (time: Double, input: GatewayInput)? {
        let fix = nextFix < fixes.count && fixes[nextFix].time <= time ? fixes[nextFix] : nil
        let event = nextEvent < events.count && events[nextEvent].time <= time ? events[nextEvent] : nil
        if let fix, event.map({ fix.time <= $0.time }) ?? true {
            nextFix += 1
            return (fix.time, .gpsFix(fix.fix))
        }
        if let event {
            nextEvent += 1
            return (event.time, event.input)
        }
        return nil
    }
}
