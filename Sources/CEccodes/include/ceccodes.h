// ecCodes (Debian's libeccodes0) for Swift: the few functions the forecast radar reads GRIB2
// with, loaded with dlopen on first use (a Recommends of the package: a Pi without it runs every
// other part of gatewayd, and the forecast says which package to install). The prototypes are
// ecCodes' own (eccodes.h, stable since 2.0), declared here with an opaque handle so the build
// needs no libeccodes-dev.
#ifndef SKYGATE_CECCODES_H
#define SKYGATE_CECCODES_H
#include <stddef.h>

typedef struct skygate_codes_handle skygate_codes_handle;

/// Loads libeccodes.so.0 (once; thread-safe): 1 when ready, else 0.
int skygate_eccodes_load(void);
/// Why the load failed (dlerror's text), or NULL.
const char *skygate_eccodes_load_error(void);

/// A handle on one GRIB message in `data` (ecCodes copies nothing: `data` must outlive it), or NULL.
skygate_codes_handle *skygate_codes_handle_new_from_message(const void *data, size_t length);
void skygate_codes_handle_delete(skygate_codes_handle *h);
int skygate_codes_get_long(const skygate_codes_handle *h, const char *key, long *value);
int skygate_codes_get_double(const skygate_codes_handle *h, const char *key, double *value);
int skygate_codes_get_string(const skygate_codes_handle *h, const char *key, char *value, size_t *length);
int skygate_codes_get_size(const skygate_codes_handle *h, const char *key, size_t *size);
int skygate_codes_get_double_array(const skygate_codes_handle *h, const char *key, double *values, size_t *length);
int skygate_codes_set_double(skygate_codes_handle *h, const char *key, double value);
const char *skygate_codes_get_error_message(int code);
#endif
