// zlib's gz* functions loaded on first use (see czlib.h), looked up once.
#include "czlib.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

typedef void *gzFile;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static const char *failure;
static gzFile (*gz_dopen)(int, const char *);
static int (*gz_read)(gzFile, void *, unsigned);
static const char *(*gz_error)(gzFile, int *);
static int (*gz_close)(gzFile);
static int (*gz_buffer)(gzFile, unsigned);
static unsigned long (*z_bound)(unsigned long);
static int (*z_compress2)(unsigned char *, unsigned long *, const unsigned char *, unsigned long, int);

static void load(void) {
    // SKYGATE_LIBZ names another library file (tests: one that is missing).
    const char *name = getenv("SKYGATE_LIBZ");
    void *library = dlopen(name && *name ? name : "libz.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) { failure = dlerror(); return; }
    gz_dopen = dlsym(library, "gzdopen");
    gz_read = dlsym(library, "gzread");
    gz_error = dlsym(library, "gzerror");
    gz_close = dlsym(library, "gzclose");
    gz_buffer = dlsym(library, "gzbuffer");
    z_bound = dlsym(library, "compressBound");
    z_compress2 = dlsym(library, "compress2");
    if (!gz_dopen || !gz_read || !gz_error || !gz_close || !gz_buffer || !z_bound || !z_compress2) { failure = "libz.so.1 lacks a gz or compress function (too old?)"; return; }
    loaded = 1;
}

int skygate_gz_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *skygate_gz_load_error(void) { return loaded ? NULL : failure; }

skygate_gz *skygate_gz_open(int fd) {
    if (!skygate_gz_load()) return NULL;
    gzFile f = gz_dopen(fd, "rb");
    if (f) gz_buffer(f, 1 << 17);
    return (skygate_gz *)f;
}

int skygate_gz_read(skygate_gz *gz, void *into, unsigned count) { return gz_read((gzFile)gz, into, count); }

const char *skygate_gz_error(skygate_gz *gz) {
    int code = 0;
    const char *text = gz_error((gzFile)gz, &code);
    return code == 0 ? NULL : text;
}

void skygate_gz_close(skygate_gz *gz) { gz_close((gzFile)gz); }

unsigned long skygate_z_bound(unsigned long length) { return skygate_gz_load() ? z_bound(length) : 0; }

int skygate_z_compress(const void *bytes, unsigned long length, void *into, unsigned long capacity,
                       unsigned long *written, int level) {
    if (!skygate_gz_load()) return 0;
    unsigned long size = capacity;
    if (z_compress2((unsigned char *)into, &size, (const unsigned char *)bytes, length, level) != 0) return 0;
    *written = size;
    return 1;
}
