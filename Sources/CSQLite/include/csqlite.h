// libsqlite3 (Debian's libsqlite3-dev) for Swift. SQLITE_TRANSIENT is a cast of -1 to a function
// pointer, which Swift cannot spell, so binding text and blobs goes through these two wrappers.
#ifndef SKYGATE_CSQLITE_H
#define SKYGATE_CSQLITE_H
#include <sqlite3.h>

static inline int skygate_bind_text(sqlite3_stmt *s, int i, const char *v, int n) {
    return sqlite3_bind_text(s, i, v, n, SQLITE_TRANSIENT);
}
static inline int skygate_bind_blob(sqlite3_stmt *s, int i, const void *v, int n) {
    return sqlite3_bind_blob(s, i, v, n, SQLITE_TRANSIENT);
}
#endif
