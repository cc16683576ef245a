/* glibc 2.38 symbols for a bookworm (glibc 2.36) link of Debian sid's static Swift runtime.
 *
 * deploy/pi-sdk.sh compiles this for aarch64 against the bookworm sysroot and names the object in
 * the SDK's static-stdlib-args.lnk / static-executable-args.lnk, so every `-static-stdlib` link
 * (swiftc) or `--static-swift-stdlib` build (swift build) with that SDK carries it.
 *
 * Why: sid's libswiftCore.a, libswift_Concurrency.a, libdispatch.a, libCoreFoundation.a and
 * lib_FoundationICU.a were compiled against glibc >= 2.38 headers. With _GNU_SOURCE those headers
 * redirect strtol/strtoll/strtoul/sscanf to __isoc23_strtol... (new in glibc 2.38), and
 * CoreFoundation/libdispatch call strlcpy/strlcat (also new in 2.38). Bookworm's libc.so.6 has
 * none of them, so the link against the bookworm sysroot fails with undefined references, and a
 * link against sid's libc would need GLIBC_2.38 at run time (Raspberry Pi OS 12 has 2.36).
 *
 * The definitions are hidden: they satisfy the archives' references inside the executable and are
 * never exported, so they do not interpose on the system's libc (on glibc >= 2.38 its own copies
 * stay in use by shared libraries).
 *
 * Semantics: the __isoc23_ variants differ from the old ones only in accepting a "0b"/"0B" binary
 * prefix when the base is 0 or 2 (and %b in scanf). Here they forward to glibc 2.36's functions,
 * i.e. behave exactly as the same runtime built against bookworm's headers would. strlcpy/strlcat
 * follow the BSD/glibc 2.38 contract (return the length of the string they tried to create).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMPAT __attribute__((visibility("hidden")))

COMPAT long __isoc23_strtol(const char *s, char **end, int base) { return strtol(s, end, base); }
COMPAT long long __isoc23_strtoll(const char *s, char **end, int base) { return strtoll(s, end, base); }
COMPAT unsigned long __isoc23_strtoul(const char *s, char **end, int base) { return strtoul(s, end, base); }
COMPAT unsigned long long __isoc23_strtoull(const char *s, char **end, int base) { return strtoull(s, end, base); }
COMPAT intmax_t __isoc23_strtoimax(const char *s, char **end, int base) { return strtoimax(s, end, base); }
COMPAT uintmax_t __isoc23_strtoumax(const char *s, char **end, int base) { return strtoumax(s, end, base); }

COMPAT int __isoc23_vsscanf(const char *s, const char *format, va_list ap) { return vsscanf(s, format, ap); }

COMPAT int __isoc23_sscanf(const char *s, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vsscanf(s, format, ap);
  va_end(ap);
  return n;
}

COMPAT size_t strlcpy(char *restrict dst, const char *restrict src, size_t size) {
  size_t len = strlen(src);
  if (size > 0) {
    size_t n = len < size - 1 ? len : size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
  }
  return len;
}

COMPAT size_t strlcat(char *restrict dst, const char *restrict src, size_t size) {
  size_t used = strnlen(dst, size);
  if (used == size) return size + strlen(src); /* no terminator within size: nothing appended */
  return used + strlcpy(dst + used, src, size - used);
}
