import GatewaySupport
import GatewayDomain
import GatewayRecords
import GatewayNotams
import GatewayWeather
import GatewayNotify

extension GatewayConfig {
    /// The places NOTAM changes are grouped at and measured from: the configured NOTAM
    /// locations, the weather's home and route airports, and `extra` (a command's `--location`
    /// and `--near`), each once, with its position from the airport table when it has one.
    package func notifyPlaces(extra: [String] = []) -> [NotifyPlace] {
        var seen = Set<String>()
        var out: [NotifyPlace] = []
        for name in extra + notamLocations + (weatherNear.map { [$0] } ?? []) + weatherRoute where seen.insert(name).inserted {
            out.append(NotifyPlace(name: name, position: AirportTable.place(name)))
        }
        return out
    }

    /// The notifier over `database` when `[notify] targets` names any, else nil.
    package func notifier(database: GatewayDatabase, clock: @escaping @Sendable () -> Double, log: @escaping @Sendable (String) -> Void) -> Notifier? {
        guard notify.enabled else { return nil }
        return Notifier(settings: notify, outbox: Outbox(database: database), clock: clock, log: log)
    }

    /// The NOTAM notices for a refresh (`extra`: the command's own places), nil without targets.
    package func notamNotices(extra: [String] = []) -> NotamNotices? {
        notify.enabled ? NotamNotices(settings: notify, places: notifyPlaces(extra: extra)) : nil
    }
}

/// What `run` watches to tell the pilot about the gateway itself (issue 54): no GDL90 for
/// `receiver_silent_min`, the storage degraded (the database in memory), the fleet's broker
/// refusing the gateway. Checked every 30 s; each episode said when it begins and when it ends.
package struct GatewayWatch: Sendable {
    /// The episodes' bookkeeping.
    package let episodes: GatewayEpisodes
    /// Messages decoded so far (the receiver's pulse).
    package let messages: @Sendable () -> Int
    /// Why the storage is degraded, nil when it is not.
    package let storage: @Sendable () -> String?
    /// The fleet broker's refusal, nil when it takes the gateway (or there is no fleet).
    package let broker: @Sendable () -> String?
    /// The clock.
    package let clock: @Sendable () -> Double
    private let pulse: Locked<(count: Int, since: Double)>

    /// A watch starting now.
    package init(episodes: GatewayEpisodes, messages: @escaping @Sendable () -> Int, storage: @escaping @Sendable () -> String?,
                 broker: @escaping @Sendable () -> String?, clock: @escaping @Sendable () -> Double) {
        self.episodes = episodes
        self.messages = messages
        self.storage = storage
        self.broker = broker
        self.clock = clock
        pulse = Locked((messages(), clock()))
    }

    /// One look; true when something was added to the outbox.
    package func check() -> Bool {
        let now = clock(), count = messages()
        let silentFor = pulse.withLock { p -> Double in
            if count != p.count { p = (count, now) }
            return now - p.since
        }
        let limit = Double(episodes.settings.receiverSilentMin) * 60
        var added = false
        let silence = limit > 0 && silentFor >= limit
            ? "No GDL90 from the receiver for \(Int(silentFor / 60)) min while the gateway runs: is the receiver powered, and is the gateway on its Wi-Fi with UDP 4000 open?" : nil
        added = ((try? episodes.update("receiver", problem: silence, began: "receiver silent", ended: "receiver heard again", now: now)) ?? false) || added
        added = ((try? episodes.update("storage", problem: storage().map { "Storage degraded: \($0). Alerts go on; what is kept is in memory until the card is usable." },
                                       began: "storage degraded", ended: "storage usable again", now: now)) ?? false) || added
        added = ((try? episodes.update("broker", problem: broker(), began: "the fleet broker refuses the gateway", ended: "the fleet broker takes the gateway again",
                                       severity: "caution", now: now)) ?? false) || added
        return added
    }
}
