import Dispatch

extension SystemdNotifier {
    /// Sends `WATCHDOG=1` every `watchdogInterval` from `queue`, as a service: give it the queue
    /// whose stall should count as a hang (the core's), so systemd restarts a gateway that stopped
    /// working rather than one that merely hears nothing. Nil without a watchdog.
    package func watchdog(petting queue: DispatchQueue, clock: any Clock<Duration> = ContinuousClock()) -> PeriodicService? {
        guard let interval = watchdogInterval else { return nil }
        return PeriodicService("systemd watchdog", delay: .zero, every: .seconds(interval), clock: clock) {
            await withCheckedContinuation { done in
                queue.async {
                    notify("WATCHDOG=1")
                    done.resume()
                }
            }
        }
    }
}
