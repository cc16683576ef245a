extension FlightRecorder {
    /// Records one input at `time` (TEMPORARY until the one-file recorder lands).
    public func record(_ input: GatewayInput, at time: Double) {
        switch input {
        case .datagram(let bytes): bytes.withUnsafeBytes { record($0, at: time) }
        case .gpsFix(let fix): record(fix, at: time)
        case .airspace(let areas): record(RecordedEvent(time: time, change: .airspace(areas)))
        case .acknowledge(let id): record(RecordedEvent(time: time, change: .acknowledge(id)))
        case .tick, .announcement: break
        }
    }
}
