// ecCodes loaded on first use (see ceccodes.h for why), its functions looked up once.
#include "ceccodes.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static const char *failure;
static void *(*new_from_message)(void *, const void *, size_t);
static int (*handle_delete)(void *);
static int (*get_long)(const void *, const char *, long *);
static int (*get_double)(const void *, const char *, double *);
static int (*get_string)(const void *, const char *, char *, size_t *);
static int (*get_size)(const void *, const char *, size_t *);
static int (*get_double_array)(const void *, const char *, double *, size_t *);
static int (*set_double)(void *, const char *, double);
static const char *(*error_message)(int);

static void load(void) {
    // SKYGATE_LIBECCODES names another library file (tests: one that is missing).
    const char *name = getenv("SKYGATE_LIBECCODES");
    void *library = dlopen(name && *name ? name : "libeccodes.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library && !(name && *name)) library = dlopen("libeccodes.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) { failure = dlerror(); return; }
    new_from_message = dlsym(library, "codes_handle_new_from_message");
    handle_delete = dlsym(library, "codes_handle_delete");
    get_long = dlsym(library, "codes_get_long");
    get_double = dlsym(library, "codes_get_double");
    get_string = dlsym(library, "codes_get_string");
    get_size = dlsym(library, "codes_get_size");
    get_double_array = dlsym(library, "codes_get_double_array");
    set_double = dlsym(library, "codes_set_double");
    error_message = dlsym(library, "codes_get_error_message");
    if (!new_from_message || !handle_delete || !get_long || !get_double || !get_string || !get_size || !get_double_array
        || !set_double || !error_message) {
        failure = "libeccodes.so.0 lacks a codes_ function the forecast radar needs (too old?)";
        return;
    }
    loaded = 1;
}

int skygate_eccodes_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *skygate_eccodes_load_error(void) { return loaded ? NULL : failure; }

skygate_codes_handle *skygate_codes_handle_new_from_message(const void *data, size_t length) {
    return skygate_eccodes_load() ? new_from_message(NULL, data, length) : NULL;
}
void skygate_codes_handle_delete(skygate_codes_handle *h) { if (h && loaded) handle_delete(h); }
int skygate_codes_get_long(const skygate_codes_handle *h, const char *key, long *value) { return loaded ? get_long(h, key, value) : -1; }
int skygate_codes_get_double(const skygate_codes_handle *h, const char *key, double *value) { return loaded ? get_double(h, key, value) : -1; }
int skygate_codes_get_string(const skygate_codes_handle *h, const char *key, char *value, size_t *length) {
    return loaded ? get_string(h, key, value, length) : -1;
}
int skygate_codes_get_size(const skygate_codes_handle *h, const char *key, size_t *size) { return loaded ? get_size(h, key, size) : -1; }
int skygate_codes_get_double_array(const skygate_codes_handle *h, const char *key, double *values, size_t *length) {
    return loaded ? get_double_array(h, key, values, length) : -1;
}
int skygate_codes_set_double(skygate_codes_handle *h, const char *key, double value) { return loaded ? set_double(h, key, value) : -1; }
const char *skygate_codes_get_error_message(int code) { return loaded ? error_message(code) : "ecCodes not loaded"; }
