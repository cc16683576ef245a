import Logging
import ServiceLifecycle
import UnixSignals

extension SignalWatch {
    /// A logger for the `ServiceGroup`: its lines are not for the user and are dropped, except the
    /// signal it caught (the `sl-signal` metadata it logs before it starts stopping), which is
    /// remembered for the stopping line: then the line names SIGTERM or SIGINT however the group heard it.
    public var serviceGroupLogger: Logger {
        Logger(label: "gatewayd.services") { _ in SignalNameLogHandler { [weak self] name in self?.record(name) } }
    }

    /// Remembers the stop signal named `name`, when none came before.
    func record(_ name: String) {
        guard let signal = GatewayApp.stopSignals.first(where: { $0.description == name }) else { return }
        received(signal)
    }
}

/// Passes on the signal name a `ServiceGroup` logs when a signal makes it stop; drops everything else.
struct SignalNameLogHandler: LogHandler {
    /// The metadata key `ServiceGroup` names the signal under (its default logging configuration's).
    static let signalKey = ServiceGroupConfiguration.LoggingConfiguration.Keys().signalKey
    let onSignal: @Sendable (String) -> Void
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug
    var metadataProvider: Logger.MetadataProvider?

    init(onSignal: @escaping @Sendable (String) -> Void) { self.onSignal = onSignal }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        if let name = event.metadata?[Self.signalKey] { onSignal("\(name)") }
    }
}
