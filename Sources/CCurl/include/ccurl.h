// libcurl for Swift (Debian's libcurl4-openssl-dev): its header for the types and constants, and the
// functions the NOTAM client calls, loaded with dlopen on first use. Linked directly, libcurl would
// bring its TLS, Kerberos, LDAP, SSH and HTTP/2 libraries (some 25) into every gatewayd process,
// also those that never fetch (decode, replay, run without NOTAM credentials): start-up time and
// resident memory on a Pi. curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
// call, so the few forms the gateway needs are typed wrappers.
#ifndef SKYGATE_CCURL_H
#define SKYGATE_CCURL_H
#include <curl/curl.h>

/// Loads libcurl.so.4 (once; thread-safe) and initialises it: 1 when ready, else 0.
int skygate_curl_load(void);
/// Why the load failed (dlerror's text), or NULL.
const char *skygate_curl_load_error(void);

CURL *skygate_curl_easy_init(void);
void skygate_curl_easy_cleanup(CURL *c);
CURLcode skygate_curl_easy_perform(CURL *c);
const char *skygate_curl_easy_strerror(CURLcode code);
struct curl_slist *skygate_curl_slist_append(struct curl_slist *list, const char *value);
void skygate_curl_slist_free_all(struct curl_slist *list);

CURLcode skygate_setopt_long(CURL *c, CURLoption o, long v);
CURLcode skygate_setopt_string(CURL *c, CURLoption o, const char *v);
CURLcode skygate_setopt_pointer(CURL *c, CURLoption o, void *v);
CURLcode skygate_setopt_slist(CURL *c, CURLoption o, struct curl_slist *v);
typedef size_t (*skygate_write_callback)(char *ptr, size_t size, size_t nmemb, void *userdata);
CURLcode skygate_setopt_write(CURL *c, CURLoption o, skygate_write_callback v);
CURLcode skygate_getinfo_long(CURL *c, CURLINFO i, long *v);
/// HMAC-SHA256 of `data` with `key` into `out` (libcrypto loaded on first use): 1 when done, else 0.
int skygate_hmac_sha256(const void *key, int key_length, const unsigned char *data, size_t length, unsigned char out[32]);
/// Why libcrypto could not be used, or NULL.
const char *skygate_hmac_error(void);
#endif
