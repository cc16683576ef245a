import GatewaySupport
import GatewayDomain
import Dispatch
import ServiceLifecycle

/// The airspace watched: the NOTAM and airspace files and the stored NOTAMs in force at the
/// gateway's clock (one merge rule, `AirspaceSet`), loaded at start, re-read every minute
/// (activity windows move; `notams fetch` may have run), and after each NOTAM refresh. A set
/// unchanged since the last is neither handed in again nor recorded (a recording would otherwise
/// grow by every area each minute).
///
/// Issue 40: the first load can run off the start path (`firstInBackground`), so the sockets
/// open at once whatever the NOTAM texts cost to read; `check` (a cheap look at the files) still
/// makes a bad file an error at start. Loads run one at a time on a queue of their own and are
/// let go of when the source stops (a shutdown never waits for one), and a load never hands in
/// an older set than one already handed in.
package final class AirspaceSource: GatewaySource {
    /// Loads the areas in force at a time.
    package typealias Load = @Sendable (_ activeAt: Double) throws(GatewayError) -> [AirspaceArea]
    /// Checks at start what `load` will read (files there, readable, of the right shape).
    package typealias Check = @Sendable () throws(GatewayError) -> Void
    /// Fetches and stores NOTAMs; true when the store changed (then the areas are re-read).
    package typealias Refresh = @Sendable () async -> Bool

    private let load: Load
    private let check: Check?
    private let firstInBackground: Bool
    private let failed: (@Sendable (GatewayError) -> Void)?
    private let refresh: (job: Refresh, every: Duration)?
    private let clock: any Clock<Duration>
    /// The gateway the sets go to, from `start` to `stop`.
    private let inlet = Locked<GatewayInlet?>(nil)
    /// The last set handed in and the number of the load that read it.
    private let given = Locked<(areas: [AirspaceArea]?, load: Int)>((nil, 0))
    private let loads = Locked(0)
    private let stopped = Locked(false)
    /// Where loads run, one at a time: a queue of its own, not the global pool (whose few
    /// threads, one a core, a long load would hold from the rest of the process, its exit too).
    private let loading = DispatchQueue(label: "gatewayd.airspace-load")

    /// A source loading with `load`, re-reading every minute on `clock`, and running `refresh`
    /// 2 s after start and then at its interval. With `firstInBackground`, `start` runs `check`
    /// and leaves the first load to a global queue, telling `failed` when it fails; otherwise
    /// the first load is part of `start` (a replay's alerts must not depend on when it ends).
    package init(load: @escaping Load, check: Check? = nil, firstInBackground: Bool = false, failed: (@Sendable (GatewayError) -> Void)? = nil,
                refresh: (job: Refresh, every: Duration)? = nil, clock: any Clock<Duration> = ContinuousClock()) {
        self.load = load
        self.check = check
        self.firstInBackground = firstInBackground
        self.failed = failed
        self.refresh = refresh
        self.clock = clock
    }

    /// The re-read every minute and the NOTAM refresh, `PeriodicService`s on the injected clock
    /// (made anew at each call: the app asks once).
    package var services: [any Service] {
        var timers: [any Service] = [PeriodicService("airspace reload", delay: .seconds(60), every: .seconds(60), clock: clock) { await self.reload() }]
        if let refresh {
            timers.append(PeriodicService("NOTAM refresh", delay: .seconds(2), every: refresh.every, clock: clock) {
                guard self.inlet.value != nil else { return }
                if await refresh.job(), !Task.isCancelled { await self.reload() }
            })
        }
        return timers
    }

    /// Checks the files and loads the areas (or starts loading them, `firstInBackground`); the
    /// timers (`services`) then hand in what they read.
    package func start(_ inlet: GatewayInlet) throws(GatewayError) {
        let number = loads.withLock { $0 += 1; return $0 }
        if firstInBackground {
            try check?()
            // On a Dispatch queue, not a task: the cooperative pool may be busy at start.
            loading.async { [self, load, failed] in
                do throws(GatewayError) {
                    hand(try load(inlet.now()), number: number, to: inlet)
                } catch {
                    if !stopped.value { failed?(error) }
                }
            }
        } else {
            hand(try load(inlet.now()), number: number, to: inlet)
        }
        self.inlet.set(inlet)
    }

    /// Stops handing in and lets go of a load under way (it finishes on its queue, unheard).
    package func stop() {
        stopped.set(true)
        inlet.set(nil)
    }

    /// One load on `loading`; returns at once when the task is cancelled. A failure is dropped
    /// (the set in place is kept). Nothing before `start` or after `stop`.
    private func reload() async {
        guard let inlet = inlet.value else { return }
        let number = loads.withLock { $0 += 1; return $0 }
        let areas = await Offload.run(on: loading) { [load] in try? load(inlet.now()) } ?? nil
        guard let areas, !Task.isCancelled else { return }
        hand(areas, number: number, to: inlet)
    }

    private func hand(_ areas: [AirspaceArea], number: Int, to inlet: GatewayInlet) {
        guard !stopped.value else { return }
        let changed = given.withLock { last in
            // A load that started before the one handed in last read older files and store.
            guard number > last.load else { return false }
            last.load = number
            guard areas != last.areas else { return false }
            last.areas = areas
            return true
        }
        if changed { inlet.deliver(.airspace(areas)) }
    }
}
