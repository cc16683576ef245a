/// Stable alert event ids, `"<boot>-<seq>"`: `boot` numbers the gateway's starts (a row of the
/// database's `gateway_boot`, so it grows across restarts), `seq` counts the events of that start
/// from 1. Unique per gateway and kept with the event everywhere it goes (the alert log, the SSE
/// stream's `id:`, the fleet's MQTT messages), so a consumer that saw an event twice knows it.
///
/// Stamped on the core's queue in the order the events happen, so within one start the ids are
/// in stream order; a consumer resumes after one (`Last-Event-ID`).
package struct AlertEventIDs: Sendable, Equatable {
    /// The start's number.
    package let boot: Int64
    /// The last sequence number given (0 before the first).
    package private(set) var seq: Int64

    /// Ids for the start `boot`, the first one `"boot-1"`.
    package init(boot: Int64) {
        self.boot = boot
        seq = 0
    }

    /// The next id.
    package mutating func next() -> String {
        seq += 1
        return "\(boot)-\(seq)"
    }

    /// `(boot, seq)` of an id this type made, else nil; `"BOOT-0"`, before the first id of a
    /// start, is one too (a client asking for a whole start).
    package static func parse(_ id: some StringProtocol) -> (boot: Int64, seq: Int64)? {
        guard let dash = id.firstIndex(of: "-"), let boot = Int64(id[..<dash]), let seq = Int64(id[id.index(after: dash)...]),
              boot > 0, seq >= 0 else { return nil }
        return (boot, seq)
    }
}
