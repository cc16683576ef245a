import CMosquitto
import GatewaySupport

/// What an MQTT client reports, on libmosquitto's network thread.
package enum MQTTEvent: Sendable, Equatable {
    /// The broker accepted the connection.
    case connected
    /// The broker refused it: its CONNACK code and words ("not authorised").
    case refused(code: Int32, reason: String)
    /// The connection ended (`code` 0: asked for) or an attempt failed, with why.
    case lost(code: Int32, reason: String)
    /// A QoS 1 publish was acknowledged.
    case acknowledged(mid: Int32)
    /// A message arrived on a subscription.
    case message(topic: String, payload: [UInt8], retained: Bool)
    /// A subscription was granted (`granted` the QoS, 128 refused).
    case subscribed(mid: Int32, granted: Int32)
}

/// One MQTT 3.1.1 client over Debian's libmosquitto (`CMosquitto`, loaded on first use): its own
/// network thread connects, reconnects after every loss with a growing delay, resends the QoS 1
/// messages not yet acknowledged (with the same message ids), and reports through `events`.
///
/// MQTT 3.1.1, not 5: libmosquitto 2.0 gives up for good after an MQTT 5 refusal (a wrong
/// password would then never be retried once corrected on the broker), and keeps an MQTT 5
/// session across a broker restart only with properties its asynchronous connect cannot send.
/// Publishing is thread-safe; `close` stops the thread and no event is reported after it.
package final class MQTTClient: Sendable {
    /// How to connect.
    package struct Options: Sendable {
        /// The client id (the broker keeps a session under it).
        package var clientID: String
        /// False: the broker keeps the subscriptions and queues QoS 1 messages while away.
        package var cleanSession = true
        package var username: String?
        package var password: String?
        /// TLS: the CA file the broker's certificate is checked against (nil: the system's).
        package var tls = false
        package var caFile: String?
        /// The last will: topic, payload, retained (QoS 1).
        package var will: (topic: String, payload: String, retain: Bool)?
        /// Seconds between keep-alive pings (the broker drops a client silent for 1.5 times it).
        package var keepAlive: Int32 = 30
        /// The reconnect delay grows from `reconnectMin` to `reconnectMax` seconds.
        package var reconnectMin: UInt32 = 1
        package var reconnectMax: UInt32 = 120

        package init(clientID: String) { self.clientID = clientID }
    }

    private final class Sink: Sendable {
        let handler: @Sendable (MQTTEvent) -> Void
        /// Whether the connection is up (a clean close waits for its DISCONNECT to go out).
        let connected = Locked(false)
        init(_ handler: @escaping @Sendable (MQTTEvent) -> Void) { self.handler = handler }
    }

    /// The C client (nil once closed); publishes hold the lock, so `close` never frees it under one.
    private let handle: Locked<OpaquePointer?>
    private let sink: Unmanaged<Sink>

    /// Loads libmosquitto (once), or says why it cannot be.
    package static func load() throws(GatewayError) {
        guard skygate_mqtt_load() != 0 else {
            let why = skygate_mqtt_load_error().map { String(cString: $0) } ?? "unknown reason"
            throw GatewayError.setting(name: "fleet", message: "fleet: libmosquitto.so.1 cannot be loaded (\(why)): apt install libmosquitto1")
        }
    }

    /// The library's version, "2.0.11".
    package static var libraryVersion: String {
        var major: Int32 = 0, minor: Int32 = 0, revision: Int32 = 0
        skygate_mqtt_version(&major, &minor, &revision)
        return "\(major).\(minor).\(revision)"
    }

    /// A client configured by `options` (not connected: `connect`).
    package init(_ options: Options, events: @escaping @Sendable (MQTTEvent) -> Void) throws(GatewayError) {
        if options.tls, let ca = options.caFile { try FleetSettings.checkCAFile(ca) }
        try Self.load()
        let sink = Unmanaged.passRetained(Sink(events))
        let callback: skygate_mqtt_event = { user, kind, code, mid, topic, payload, length, retain in
            guard let user else { return }
            let sink = Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue()
            switch Int(kind) {
            case Int(SKYGATE_MQTT_CONNECT):
                if code == 0 { sink.connected.setWaking(true) }
                sink.handler(code == 0 ? .connected : .refused(code: code, reason: MQTTClient.refusal(code)))
            case Int(SKYGATE_MQTT_DISCONNECT):
                sink.connected.setWaking(false)
                sink.handler(.lost(code: code, reason: MQTTClient.errorText(code)))
            case Int(SKYGATE_MQTT_PUBLISH):
                sink.handler(.acknowledged(mid: mid))
            case Int(SKYGATE_MQTT_MESSAGE):
                let bytes = payload.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: Int(length))) } ?? []
                sink.handler(.message(topic: topic.map { String(cString: $0) } ?? "", payload: bytes, retained: retain != 0))
            case Int(SKYGATE_MQTT_SUBSCRIBE):
                sink.handler(.subscribed(mid: mid, granted: code))
            default: break
            }
        }
        guard let client = skygate_mqtt_new(options.clientID, options.cleanSession ? 1 : 0, 4, callback, sink.toOpaque()) else {
            sink.release()
            throw GatewayError.setting(name: "fleet", message: "fleet: libmosquitto could not make a client (id '\(options.clientID)')")
        }
        var rc = skygate_mqtt_credentials(client, options.username, options.password)
        if rc == 0, options.tls { rc = skygate_mqtt_tls(client, options.caFile, nil) }
        if rc == 0, let will = options.will {
            rc = Array(will.payload.utf8).withUnsafeBytes { skygate_mqtt_will(client, will.topic, $0.baseAddress, Int32($0.count), 1, will.retain ? 1 : 0) }
        }
        if rc == 0 { rc = skygate_mqtt_reconnect_delay(client, options.reconnectMin, options.reconnectMax) }
        guard rc == 0 else {
            skygate_mqtt_destroy(client)
            sink.release()
            let what = options.tls ? " (the CA file \(options.caFile ?? "/etc/ssl/certs"): readable PEM?)" : ""
            throw GatewayError.setting(name: "fleet", message: "fleet: the client cannot be set up: \(Self.errorText(rc))\(what)")
        }
        handle = Locked(client)
        self.sink = sink
    }

    deinit { close() }

    /// Starts connecting to `host:port` on the client's own thread (the name lookup blocks the
    /// caller: call it off the start path). 0, or the first attempt's error code (the thread
    /// goes on retrying anyway, but for invalid arguments).
    @discardableResult
    package func connect(host: String, port: Int, keepAlive: Int32 = 30) -> Int32 {
        handle.withLock { $0.map { skygate_mqtt_connect($0, host, Int32(port), keepAlive) } ?? 3 }
    }

    /// Queues `payload` for `topic`: the message id, or nil when it was not queued (QoS 0 while
    /// disconnected: dropped). A QoS 1 message queued while disconnected is sent on reconnect.
    @discardableResult
    package func publish(_ topic: String, _ payload: some Collection<UInt8>, qos: Int32, retain: Bool = false) -> Int32? {
        handle.withLock { client -> Int32? in
            guard let client else { return nil }
            var mid: Int32 = 0
            let rc = payload.withContiguousStorageIfAvailable { skygate_mqtt_publish(client, topic, $0.baseAddress, Int32($0.count), qos, retain ? 1 : 0, &mid) }
                ?? Array(payload).withUnsafeBytes { skygate_mqtt_publish(client, topic, $0.baseAddress, Int32($0.count), qos, retain ? 1 : 0, &mid) }
            // Not connected: a QoS 1 message is kept by libmosquitto (it has its id); QoS 0 is not.
            return rc == 0 || (rc == 4 && qos > 0) ? mid : nil
        }
    }

    /// `publish` of a string's UTF-8.
    @discardableResult
    package func publish(_ topic: String, text: String, qos: Int32, retain: Bool = false) -> Int32? {
        publish(topic, Array(text.utf8), qos: qos, retain: retain)
    }

    /// Subscribes to `pattern` (a filter such as `skygate/+/#`).
    @discardableResult
    package func subscribe(_ pattern: String, qos: Int32) -> Int32 {
        handle.withLock { client in
            var mid: Int32 = 0
            return client.map { skygate_mqtt_subscribe($0, pattern, qos, &mid) } ?? 3
        }
    }

    /// Disconnects cleanly (the broker publishes no will): waits, at most a second, for the
    /// DISCONNECT to go out, then stops the thread (at once: a thread between reconnect attempts
    /// would otherwise sleep out its delay, up to two minutes) and frees the client. Idempotent.
    package func close() {
        guard let client = handle.withLock({ c -> OpaquePointer? in defer { c = nil }; return c }) else { return }
        let connected = sink.takeUnretainedValue().connected
        let wasConnected = connected.value
        skygate_mqtt_disconnect(client)
        if wasConnected { connected.wait(until: { !$0 }, timeout: 1) }
        skygate_mqtt_stop(client, 1)
        skygate_mqtt_destroy(client)
        sink.release()
    }

    /// Stops the thread without a DISCONNECT, as if the process died: the broker publishes the
    /// will (tests).
    package func abandon() {
        guard let client = handle.withLock({ c -> OpaquePointer? in defer { c = nil }; return c }) else { return }
        skygate_mqtt_stop(client, 1)
        skygate_mqtt_destroy(client)
        sink.release()
    }

    /// The words of a CONNACK refusal ("not authorised").
    static func refusal(_ code: Int32) -> String {
        let text = String(cString: skygate_mqtt_refusal_text(code, 4))
        // "Connection Refused: not authorised." → "not authorised"
        var words = Substring(text)
        if let colon = words.firstIndex(of: ":") { words = words[words.index(after: colon)...] }
        return Self.tidy(String(words))
    }

    /// libmosquitto's words for an error code, without the final period.
    static func errorText(_ code: Int32) -> String {
        if code == 0 { return "disconnected" }
        if code == 7 { return "the connection was lost" }
        if code == 14 { return "the connection failed (refused or unreachable)" }
        if code == 8 { return "TLS handshake failed: the broker's certificate is not signed by the CA file or does not name the host given (check [fleet] ca_file and broker)" }
        if code == 15 { return "its name cannot be resolved (DNS)" }
        return tidy(String(cString: skygate_mqtt_error_text(code))).lowercased()
    }

    /// `text` without surrounding spaces and a final period.
    private static func tidy(_ text: String) -> String {
        var t = text.trimmingWhitespace()
        while t.hasSuffix(".") { t.removeLast() }
        return t
    }
}
