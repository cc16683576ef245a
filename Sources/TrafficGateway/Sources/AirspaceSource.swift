/// The airspace watched: the NOTAM and airspace files and the stored NOTAMs in force at the
/// gateway's clock (one merge rule, `AirspaceSet`), loaded at start (a bad file is an error
/// there), re-read every minute (activity windows move; `notams fetch` may have run), and after
/// each NOTAM refresh. A set unchanged since the last is neither handed in again nor recorded
/// (a recording would otherwise grow by every area each minute).
public final class AirspaceSource: GatewaySource {
    /// Loads the areas in force at a time.
    public typealias Load = @Sendable (_ activeAt: Double) throws(GatewayError) -> [AirspaceArea]
    /// Fetches and stores NOTAMs; true when the store changed (then the areas are re-read).
    public typealias Refresh = @Sendable () async -> Bool

    private let load: Load
    private let refresh: (job: Refresh, every: Duration)?
    private let clock: any Clock<Duration>
    private let given = Locked<[AirspaceArea]?>(nil)
    private let timers = Locked<[Task<Void, Never>]>([])

    /// A source loading with `load`, re-reading every minute on `clock`, and running `refresh`
    /// 2 s after start and then at its interval.
    public init(load: @escaping Load, refresh: (job: Refresh, every: Duration)? = nil, clock: any Clock<Duration> = ContinuousClock()) {
        self.load = load
        self.refresh = refresh
        self.clock = clock
    }

    public func start(_ inlet: GatewayInlet) throws(GatewayError) {
        hand(try load(inlet.now()), to: inlet)
        let reload: @Sendable () async -> Void = { [load] in
            if let areas = await Offload.run(on: .global(), { try? load(inlet.now()) }) ?? nil { self.hand(areas, to: inlet) }
        }
        var jobs = [PeriodicService("airspace reload", delay: .seconds(60), every: .seconds(60), clock: clock, job: reload).start()]
        if let refresh {
            jobs.append(PeriodicService("NOTAM refresh", delay: .seconds(2), every: refresh.every, clock: clock) {
                if await refresh.job(), !Task.isCancelled { await reload() }
            }.start())
        }
        timers.set(jobs)
    }

    public func stop() {
        for t in timers.value { t.cancel() }
    }

    private func hand(_ areas: [AirspaceArea], to inlet: GatewayInlet) {
        let changed = given.withLock { last in
            guard areas != last else { return false }
            last = areas
            return true
        }
        if changed { inlet.deliver(.airspace(areas)) }
    }
}
