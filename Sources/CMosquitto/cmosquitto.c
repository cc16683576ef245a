// libmosquitto loaded on first use (see cmosquitto.h), looked up once, like czlib.c. The few types
// used are declared here; scripts/check-mosquitto-abi.sh compiles this file with
// -DSKYGATE_CHECK_HEADER, which takes them from <mosquitto.h> instead and checks every prototype.
#include "cmosquitto.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef SKYGATE_CHECK_HEADER
#include <mosquitto.h>
#else
struct mosquitto;
typedef struct mqtt5__property mosquitto_property;
struct mosquitto_message {
    int mid; char *topic; void *payload; int payloadlen; int qos; bool retain;
};
enum mosq_opt_t { MOSQ_OPT_PROTOCOL_VERSION = 1 };
enum mosq_err_t { MOSQ_ERR_INVAL = 3, MOSQ_ERR_NO_CONN = 4 };
#define MQTT_PROTOCOL_V311 4
#define MQTT_PROTOCOL_V5 5
#endif

// One typedef per function (mosquitto_X has type mosq_X_fn), listed in FUNCTIONS.
typedef struct mosquitto mosq;
typedef int (*mosq_lib_init_fn)(void);
typedef int (*mosq_lib_version_fn)(int *, int *, int *);
typedef mosq *(*mosq_new_fn)(const char *, bool, void *);
typedef void (*mosq_destroy_fn)(mosq *);
typedef int (*mosq_int_option_fn)(mosq *, enum mosq_opt_t, int);
typedef int (*mosq_username_pw_set_fn)(mosq *, const char *, const char *);
typedef int (*mosq_tls_set_fn)(mosq *, const char *, const char *, const char *, const char *,
                               int (*)(char *, int, int, void *));
typedef int (*mosq_tls_insecure_set_fn)(mosq *, bool);
typedef int (*mosq_will_set_fn)(mosq *, const char *, int, const void *, int, bool);
typedef int (*mosq_reconnect_delay_set_fn)(mosq *, unsigned int, unsigned int, bool);
typedef int (*mosq_connect_async_fn)(mosq *, const char *, int, int);
typedef int (*mosq_loop_start_fn)(mosq *);
typedef int (*mosq_loop_stop_fn)(mosq *, bool);
typedef int (*mosq_disconnect_fn)(mosq *);
typedef int (*mosq_publish_fn)(mosq *, int *, const char *, int, const void *, int, bool);
typedef int (*mosq_subscribe_fn)(mosq *, int *, const char *, int);
typedef void (*mosq_connect_callback_set_fn)(mosq *, void (*)(mosq *, void *, int));
typedef void (*mosq_disconnect_callback_set_fn)(mosq *, void (*)(mosq *, void *, int));
typedef void (*mosq_publish_v5_callback_set_fn)(mosq *, void (*)(mosq *, void *, int, int,
                                                                 const mosquitto_property *));
typedef void (*mosq_message_callback_set_fn)(mosq *, void (*)(mosq *, void *,
                                                              const struct mosquitto_message *));
typedef void (*mosq_subscribe_callback_set_fn)(mosq *, void (*)(mosq *, void *, int, int,
                                                                const int *));
typedef const char *(*mosq_strerror_fn)(int);
typedef const char *(*mosq_connack_string_fn)(int);
typedef const char *(*mosq_reason_string_fn)(int);

#define FUNCTIONS(X) X(lib_init) X(lib_version) X(new) X(destroy) X(int_option) \
    X(username_pw_set) X(tls_set) X(tls_insecure_set) X(will_set) X(reconnect_delay_set) \
    X(connect_async) X(loop_start) X(loop_stop) X(disconnect) X(publish) X(subscribe) \
    X(connect_callback_set) X(disconnect_callback_set) X(publish_v5_callback_set) \
    X(message_callback_set) X(subscribe_callback_set) X(strerror) X(connack_string) \
    X(reason_string)

#define DECLARE(name) static mosq_##name##_fn mosq_##name;
FUNCTIONS(DECLARE)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static const char *failure;
static char dlerror_text[512];

static void load(void) {
    // SKYGATE_LIBMOSQUITTO names another library file (tests: one that is missing).
    const char *name = getenv("SKYGATE_LIBMOSQUITTO");
    void *library = dlopen(name && *name ? name : "libmosquitto.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(dlerror_text, sizeof dlerror_text, "%s", dlerror());
        failure = dlerror_text;
        return;
    }
    // The v5 functions (publish_v5_callback_set, int_option, reason_string) came with 1.6.
#define LOOK_UP(name) \
    if (!(mosq_##name = (mosq_##name##_fn)dlsym(library, "mosquitto_" #name))) { \
        failure = "libmosquitto.so.1 lacks mosquitto_" #name " (1.6 or newer is needed)"; \
        dlclose(library); return; }
    FUNCTIONS(LOOK_UP)
    if (mosq_lib_init() != 0) { failure = "mosquitto_lib_init failed"; return; }
    loaded = 1;
}

int skygate_mqtt_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *skygate_mqtt_load_error(void) { return skygate_mqtt_load() ? NULL : failure; }

void skygate_mqtt_version(int *major, int *minor, int *revision) {
    *major = *minor = *revision = 0;
    if (skygate_mqtt_load()) mosq_lib_version(major, minor, revision);
}

struct skygate_mqtt {
    mosq *m;
    skygate_mqtt_event callback;
    void *user;
    int protocol;
    int running; // loop_start's thread is running
};
// A NULL client (none can be made when the load failed) is MOSQ_ERR_INVAL below, as libmosquitto
// answers a NULL mosq.

// Trampolines: libmosquitto's callbacks (on its network thread) to the one skygate_mqtt_event.
static void emit(void *obj, int kind, int code, int mid, const char *topic, const void *payload,
                 int length, int retain) {
    skygate_mqtt *c = obj;
    if (c->callback) c->callback(c->user, kind, code, mid, topic, payload, length, retain);
}
static void on_connect(mosq *m, void *obj, int rc) {
    (void)m; emit(obj, SKYGATE_MQTT_CONNECT, rc, 0, NULL, NULL, 0, 0);
}
static void on_disconnect(mosq *m, void *obj, int rc) {
    (void)m; emit(obj, SKYGATE_MQTT_DISCONNECT, rc, 0, NULL, NULL, 0, 0);
}
// Called under 3.1.1 as well, with reason 0.
static void on_publish(mosq *m, void *obj, int mid, int reason, const mosquitto_property *props) {
    (void)m; (void)props; emit(obj, SKYGATE_MQTT_PUBLISH, reason, mid, NULL, NULL, 0, 0);
}
static void on_message(mosq *m, void *obj, const struct mosquitto_message *message) {
    (void)m;
    emit(obj, SKYGATE_MQTT_MESSAGE, 0, message->mid, message->topic, message->payload,
         message->payloadlen, message->retain);
}
static void on_subscribe(mosq *m, void *obj, int mid, int count, const int *granted) {
    (void)m;
    emit(obj, SKYGATE_MQTT_SUBSCRIBE, count > 0 ? granted[0] : 0x80, mid, NULL, NULL, 0, 0);
}

skygate_mqtt *skygate_mqtt_new(const char *client_id, int clean_session, int protocol,
                               skygate_mqtt_event callback, void *user) {
    if (!skygate_mqtt_load()) return NULL;
    skygate_mqtt *c = malloc(sizeof *c);
    if (!c) return NULL;
    *c = (skygate_mqtt){ .callback = callback, .user = user, .protocol = protocol };
    c->m = mosq_new(client_id, clean_session != 0, c);
    if (!c->m || mosq_int_option(c->m, MOSQ_OPT_PROTOCOL_VERSION, protocol) != 0) {
        if (c->m) mosq_destroy(c->m);
        free(c);
        return NULL;
    }
    mosq_connect_callback_set(c->m, on_connect);
    mosq_disconnect_callback_set(c->m, on_disconnect);
    mosq_publish_v5_callback_set(c->m, on_publish);
    mosq_message_callback_set(c->m, on_message);
    mosq_subscribe_callback_set(c->m, on_subscribe);
    return c;
}

// mosquitto_disconnect only queues the DISCONNECT for the network thread, which the forced stop
// may cancel first: the broker then sees the connection dropped and publishes the will (2 to 5
// times in 5 here). skygate_mqtt_disconnect and skygate_mqtt_stop(c, 0) first end it cleanly.
void skygate_mqtt_destroy(skygate_mqtt *c) {
    if (!c) return;
    if (c->running) { mosq_disconnect(c->m); mosq_loop_stop(c->m, true); }
    mosq_destroy(c->m);
    free(c);
}

int skygate_mqtt_credentials(skygate_mqtt *c, const char *username, const char *password) {
    return c ? mosq_username_pw_set(c->m, username, password) : MOSQ_ERR_INVAL;
}

int skygate_mqtt_tls(skygate_mqtt *c, const char *cafile, const char *capath) {
    if (!c) return MOSQ_ERR_INVAL;
    int rc = mosq_tls_set(c->m, cafile, cafile ? NULL : (capath ? capath : "/etc/ssl/certs"), NULL,
                          NULL, NULL);
    return rc ? rc : mosq_tls_insecure_set(c->m, false);
}

int skygate_mqtt_will(skygate_mqtt *c, const char *topic, const void *payload, int length, int qos,
                      int retain) {
    return c ? mosq_will_set(c->m, topic, length, payload, qos, retain != 0) : MOSQ_ERR_INVAL;
}

int skygate_mqtt_reconnect_delay(skygate_mqtt *c, unsigned min, unsigned max) {
    return c ? mosq_reconnect_delay_set(c->m, min, max, true) : MOSQ_ERR_INVAL;
}

// The network thread is started first. libmosquitto 2.0.11's loop_start thread waits while the
// client is in its "new" state, and a connect_async refused at once (broker down on this host: the
// CONNECT write fails) puts it back there, so that thread would never reconnect (seen here; open
// upstream as eclipse/mosquitto#1903). With the thread already running, connect_async only queues
// the CONNECT, and the thread's loop_forever meets the refusal and reconnects after the delay.
int skygate_mqtt_connect(skygate_mqtt *c, const char *host, int port, int keepalive) {
    if (!c) return MOSQ_ERR_INVAL;
    int started = !c->running;
    if (started) {
        int failed = mosq_loop_start(c->m);
        if (failed) return failed;
        c->running = 1;
    }
    int rc = mosq_connect_async(c->m, host, port, keepalive);
    if (rc == MOSQ_ERR_INVAL && started) skygate_mqtt_stop(c, 1);
    return rc;
}

int skygate_mqtt_publish(skygate_mqtt *c, const char *topic, const void *payload, int length,
                         int qos, int retain, int *mid) {
    return c ? mosq_publish(c->m, mid, topic, length, payload, qos, retain != 0) : MOSQ_ERR_INVAL;
}

int skygate_mqtt_subscribe(skygate_mqtt *c, const char *pattern, int qos, int *mid) {
    return c ? mosq_subscribe(c->m, mid, pattern, qos) : MOSQ_ERR_INVAL;
}

int skygate_mqtt_disconnect(skygate_mqtt *c) { return c ? mosq_disconnect(c->m) : MOSQ_ERR_INVAL; }

int skygate_mqtt_stop(skygate_mqtt *c, int force) {
    if (!c) return MOSQ_ERR_INVAL;
    int rc = c->running ? mosq_loop_stop(c->m, force != 0) : 0;
    c->running = 0;
    return rc;
}

const char *skygate_mqtt_error_text(int code) {
    return skygate_mqtt_load() ? mosq_strerror(code) : "libmosquitto not loaded";
}

const char *skygate_mqtt_refusal_text(int code, int protocol) {
    if (!skygate_mqtt_load()) return "libmosquitto not loaded";
    return protocol == MQTT_PROTOCOL_V5 ? mosq_reason_string(code) : mosq_connack_string(code);
}

const char *skygate_mqtt_reason_text(int code) {
    return skygate_mqtt_load() ? mosq_reason_string(code) : "libmosquitto not loaded";
}

#ifdef SKYGATE_CHECK_HEADER
// Every typedef above must be the type of the real function (scripts/check-mosquitto-abi.sh).
#define CHECK(name) _Static_assert(__builtin_types_compatible_p(__typeof__(&mosquitto_##name), \
                                   mosq_##name##_fn), "mosquitto_" #name);
FUNCTIONS(CHECK)
#endif
