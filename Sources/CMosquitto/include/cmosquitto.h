// Debian's libmosquitto (libmosquitto1, MQTT 3.1.1 and 5) for Swift, loaded with dlopen on first use
// like CZlib: a gateway without a fleet never loads it, and building needs no header. Declared here
// without mosquitto.h; scripts/check-mosquitto-abi.sh compiles cmosquitto.c against the real header,
// when installed, to prove the prototypes match.
//
// One client is one `skygate_mqtt`: libmosquitto's own network thread (loop_start) runs it, and
// every callback arrives on that thread through the one `skygate_mqtt_event` function given at
// creation, with the `user` pointer given there.
#ifndef SKYGATE_CMOSQUITTO_H
#define SKYGATE_CMOSQUITTO_H

typedef struct skygate_mqtt skygate_mqtt;

/// What a callback reports (`kind`).
enum {
    /// The broker answered the connection: `code` 0 accepted, else the refusal (3.1.1's CONNACK
    /// return code, or 5's reason code; `skygate_mqtt_refusal_text` names it).
    SKYGATE_MQTT_CONNECT = 1,
    /// The connection ended: `code` 0 when asked for (`skygate_mqtt_disconnect`), else lost.
    SKYGATE_MQTT_DISCONNECT = 2,
    /// A publish finished: `mid`, and under MQTT 5 the broker's reason `code` (0 success,
    /// 16 no matching subscribers: both accepted; 0x80 and above refused, 0x87 not authorised).
    SKYGATE_MQTT_PUBLISH = 3,
    /// A message arrived on a subscription: `topic`, `payload`/`length`, `retain`.
    SKYGATE_MQTT_MESSAGE = 4,
    /// A subscription was acknowledged: `mid`, `code` the first granted QoS (0x80 refused).
    SKYGATE_MQTT_SUBSCRIBE = 5,
};

typedef void (*skygate_mqtt_event)(void *user, int kind, int code, int mid, const char *topic,
                                   const void *payload, int length, int retain);

/// Loads libmosquitto.so.1 and runs mosquitto_lib_init (once; thread-safe): 1 when ready, else 0.
/// SKYGATE_LIBMOSQUITTO names another library file (tests: one that is missing).
int skygate_mqtt_load(void);
/// Why the load failed (dlerror's text, or a missing function), or NULL.
const char *skygate_mqtt_load_error(void);
/// The library's version (mosquitto_lib_version); zeros when not loaded.
void skygate_mqtt_version(int *major, int *minor, int *revision);

/// A new client (not connected). `protocol` is 5 or 4 (3.1.1). `clean_session` 0 asks the broker
/// to keep the session (subscriptions, queued QoS 1 messages) while the client is away. NULL on
/// failure (the library not loaded, out of memory, an empty id with clean_session 0).
skygate_mqtt *skygate_mqtt_new(const char *client_id, int clean_session, int protocol,
                               skygate_mqtt_event callback, void *user);
/// Stops the network thread (when running) and frees the client. No callback runs after it returns.
void skygate_mqtt_destroy(skygate_mqtt *client);
/// Username and password (either may be NULL). A libmosquitto error code (0 success).
int skygate_mqtt_credentials(skygate_mqtt *client, const char *username, const char *password);
/// TLS with the broker's certificate checked against `cafile` (a PEM file) or, when NULL, the
/// certificates in `capath` (NULL: /etc/ssl/certs); the broker's host name is always checked.
int skygate_mqtt_tls(skygate_mqtt *client, const char *cafile, const char *capath);
/// The last will, published by the broker when the client vanishes. Set before connecting.
int skygate_mqtt_will(skygate_mqtt *client, const char *topic, const void *payload, int length,
                      int qos, int retain);
/// Reconnect delay: from `min` seconds growing up to `max` (libmosquitto 2.0 grows it as min × (n+1)²).
int skygate_mqtt_reconnect_delay(skygate_mqtt *client, unsigned min, unsigned max);
/// Starts connecting (the name lookup blocks the calling thread) and starts the network thread,
/// which then reconnects by itself after every loss, even when this first attempt failed.
/// The first attempt's error code (0 when the connection is under way); the thread runs anyway
/// unless the arguments were invalid (MOSQ_ERR_INVAL = 3).
int skygate_mqtt_connect(skygate_mqtt *client, const char *host, int port, int keepalive);
/// Queues a message; `*mid` receives its message id (QoS 1 is acknowledged with it). An error
/// code: 0 queued, 4 (MOSQ_ERR_NO_CONN) not connected: QoS 1 messages are then still queued and
/// sent on reconnect by libmosquitto, QoS 0 ones are dropped.
int skygate_mqtt_publish(skygate_mqtt *client, const char *topic, const void *payload, int length,
                         int qos, int retain, int *mid);
/// Subscribes to a topic filter (`skygate/+/#`).
int skygate_mqtt_subscribe(skygate_mqtt *client, const char *pattern, int qos, int *mid);
/// Disconnects cleanly (no will published).
int skygate_mqtt_disconnect(skygate_mqtt *client);
/// Stops the network thread: `force` 0 waits for a disconnect first, 1 stops now.
int skygate_mqtt_stop(skygate_mqtt *client, int force);
/// libmosquitto's text for an error code (mosquitto_strerror).
const char *skygate_mqtt_error_text(int code);
/// The text of a connection refusal (`SKYGATE_MQTT_CONNECT`'s code): CONNACK's under 3.1.1,
/// the reason code's under 5.
const char *skygate_mqtt_refusal_text(int code, int protocol);
/// The text of an MQTT 5 reason code (mosquitto_reason_string).
const char *skygate_mqtt_reason_text(int code);
#endif
