// libcurl for Swift: curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
// call, so the few forms the gateway needs are wrapped here as typed inline functions.
#ifndef SKYGATE_CCURL_H
#define SKYGATE_CCURL_H
#include <curl/curl.h>

static inline CURLcode skygate_setopt_long(CURL *c, CURLoption o, long v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode skygate_setopt_string(CURL *c, CURLoption o, const char *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode skygate_setopt_pointer(CURL *c, CURLoption o, void *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode skygate_setopt_slist(CURL *c, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(c, o, v); }
typedef size_t (*skygate_write_callback)(char *ptr, size_t size, size_t nmemb, void *userdata);
static inline CURLcode skygate_setopt_write(CURL *c, CURLoption o, skygate_write_callback v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode skygate_getinfo_long(CURL *c, CURLINFO i, long *v) { return curl_easy_getinfo(c, i, v); }
#endif
