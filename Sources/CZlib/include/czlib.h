// zlib's gzip reader and compressor for Swift, loaded with dlopen on first use (Debian's zlib1g, which every
// system has): a capture compressed as Stratux keeps its replay logs (`0001-uat.log.gz`) is read
// as it is, and the radar pictures' PNGs are compressed. Declared here without zlib.h (no build
// dependency); only readers of a .gz and writers of a PNG load it.
#ifndef SKYGATE_CZLIB_H
#define SKYGATE_CZLIB_H

/// An open gzip stream (zlib's gzFile).
typedef struct skygate_gz skygate_gz;

/// Loads libz.so.1 (once; thread-safe): 1 when ready, else 0.
int skygate_gz_load(void);
/// Why the load failed (dlerror's text), or NULL.
const char *skygate_gz_load_error(void);
/// Reads the gzip file open on `fd` (which it takes: `skygate_gz_close` closes it); NULL on failure.
skygate_gz *skygate_gz_open(int fd);
/// Reads up to `count` uncompressed bytes into `into`: the count read, 0 at the end, -1 on an
/// error (`skygate_gz_error` says which: a damaged or cut file).
int skygate_gz_read(skygate_gz *gz, void *into, unsigned count);
/// The last error's text, or NULL when none.
const char *skygate_gz_error(skygate_gz *gz);
/// Closes the stream and its descriptor.
void skygate_gz_close(skygate_gz *gz);

/// The most bytes `skygate_z_compress` can make of `length` bytes (zlib's compressBound); 0 when
/// the library cannot be loaded.
unsigned long skygate_z_bound(unsigned long length);
/// Compresses `length` bytes into a zlib stream (RFC 1950, as PNG's IDAT holds) at `level` (0–9):
/// 1 with `*written` set, 0 on failure (the library missing, `capacity` too small).
int skygate_z_compress(const void *bytes, unsigned long length, void *into, unsigned long capacity,
                       unsigned long *written, int level);
#endif
