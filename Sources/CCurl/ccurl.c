// libcurl loaded on first use (see ccurl.h for why), its functions looked up once.
#include "ccurl.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static const char *failure;
static CURLcode (*global_init)(long);
static CURL *(*easy_init)(void);
static void (*easy_cleanup)(CURL *);
static CURLcode (*easy_perform)(CURL *);
static const char *(*easy_strerror)(CURLcode);
static struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
static void (*slist_free_all)(struct curl_slist *);
static CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
static CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);

static void load(void) {
    // SKYGATE_LIBCURL names another library file (tests: one that is missing).
    const char *name = getenv("SKYGATE_LIBCURL");
    void *library = dlopen(name && *name ? name : "libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) { failure = dlerror(); return; }
    global_init = dlsym(library, "curl_global_init");
    easy_init = dlsym(library, "curl_easy_init");
    easy_cleanup = dlsym(library, "curl_easy_cleanup");
    easy_perform = dlsym(library, "curl_easy_perform");
    easy_strerror = dlsym(library, "curl_easy_strerror");
    slist_append = dlsym(library, "curl_slist_append");
    slist_free_all = dlsym(library, "curl_slist_free_all");
    easy_setopt = dlsym(library, "curl_easy_setopt");
    easy_getinfo = dlsym(library, "curl_easy_getinfo");
    if (!global_init || !easy_init || !easy_cleanup || !easy_perform || !easy_strerror || !slist_append || !slist_free_all
        || !easy_setopt || !easy_getinfo) {
        failure = "libcurl.so.4 lacks a curl_ function the NOTAM client needs (too old?)";
        return;
    }
    if (global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) { failure = "curl_global_init failed"; return; }
    loaded = 1;
}

int skygate_curl_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *skygate_curl_load_error(void) { return loaded ? NULL : failure; }

CURL *skygate_curl_easy_init(void) { return skygate_curl_load() ? easy_init() : NULL; }
void skygate_curl_easy_cleanup(CURL *c) { if (c && loaded) easy_cleanup(c); }
CURLcode skygate_curl_easy_perform(CURL *c) { return loaded ? easy_perform(c) : CURLE_FAILED_INIT; }
const char *skygate_curl_easy_strerror(CURLcode code) { return loaded ? easy_strerror(code) : "libcurl not loaded"; }
struct curl_slist *skygate_curl_slist_append(struct curl_slist *list, const char *value) {
    return skygate_curl_load() ? slist_append(list, value) : list;
}
void skygate_curl_slist_free_all(struct curl_slist *list) { if (list && loaded) slist_free_all(list); }

CURLcode skygate_setopt_long(CURL *c, CURLoption o, long v) { return easy_setopt(c, o, v); }
CURLcode skygate_setopt_string(CURL *c, CURLoption o, const char *v) { return easy_setopt(c, o, v); }
CURLcode skygate_setopt_pointer(CURL *c, CURLoption o, void *v) { return easy_setopt(c, o, v); }
CURLcode skygate_setopt_slist(CURL *c, CURLoption o, struct curl_slist *v) { return easy_setopt(c, o, v); }
CURLcode skygate_setopt_write(CURL *c, CURLoption o, skygate_write_callback v) { return easy_setopt(c, o, v); }
CURLcode skygate_getinfo_long(CURL *c, CURLINFO i, long *v) { return easy_getinfo(c, i, v); }

// HMAC-SHA256 for the webhooks' signature (issue 54), from OpenSSL's libcrypto: libcurl4 (the
// OpenSSL flavour Debian ships) already depends on it, so it is there wherever a webhook can be
// sent, and it is loaded only when one is signed. Its two functions are declared here by hand
// (no libssl-dev needed to build): HMAC() and EVP_sha256() have kept these signatures since 1.1.
static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;
static const void *(*evp_sha256)(void);
static unsigned char *(*hmac)(const void *, const void *, int, const unsigned char *, size_t, unsigned char *, unsigned int *);
static const char *crypto_failure;

static void load_crypto(void) {
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libcrypto.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) { crypto_failure = dlerror(); return; }
    evp_sha256 = dlsym(library, "EVP_sha256");
    hmac = dlsym(library, "HMAC");
    if (!evp_sha256 || !hmac) crypto_failure = "libcrypto lacks HMAC or EVP_sha256";
}

int skygate_hmac_sha256(const void *key, int key_length, const unsigned char *data, size_t length, unsigned char out[32]) {
    pthread_once(&crypto_once, load_crypto);
    if (!evp_sha256 || !hmac) return 0;
    unsigned int n = 0;
    return hmac(evp_sha256(), key, key_length, data, length, out, &n) != NULL && n == 32;
}

const char *skygate_hmac_error(void) {
    pthread_once(&crypto_once, load_crypto);
    return crypto_failure;
}
