#!/usr/bin/env bash
# Release build of gatewayd for 64-bit Raspberry Pi OS (aarch64, Debian 12 or 13) with the Swift
# runtime linked statically: the Pi then needs only libcurl4, libsqlite3-0, libespeak-ng1 and
# libasound2 from Debian (the last two for the voice).
#
#   deploy/build-pi.sh            natively on an aarch64 machine; on x86-64, with the aarch64 Swift SDK
#                                 `swift sdk list` shows (swift.org), else with the SDK deploy/pi-sdk.sh
#                                 makes from Debian's packages (as root; ~1.4 GB downloaded the first time)
#   SWIFT_SDK=name deploy/build-pi.sh      pick an installed SDK (see `swift sdk list`)
#   PI_SDK_DIR=DIR deploy/build-pi.sh      use deploy/pi-sdk.sh with the SDK folder DIR (default
#                                          .build-pi/ of the repository) even when an SDK is installed
#   BUILD_JOBS=N                           swift build -j N
#   PI_GLIBC_MAX=2.36                      the highest GLIBC_ symbol version allowed (bookworm's)
#
# It strips the binary, then prints its size, the highest GLIBC_ symbol version it needs (fails
# above PI_GLIBC_MAX), the shared libraries it needs (readelf -d; fails if the Swift runtime is among
# them) and, as its last line, `aarch64 binary: PATH`. With pi-sdk.sh the binary is
# .build-pi/gatewayd (built in .build-pi/build) and the line before the last is `aarch64 root: PATH`
# (the Debian 12 arm64 root: qemu-aarch64-static -L PATH .build-pi/gatewayd runs it on x86-64).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
arch=$(uname -m)
jobs=()
[ -n "${BUILD_JOBS:-}" ] && jobs=(-j "$BUILD_JOBS")
glibc_max=${PI_GLIBC_MAX:-2.36}
say() { echo "build-pi: $*" >&2; }
root=
if [ "$arch" = aarch64 ] || [ "$arch" = arm64 ]; then
  swift build -c release --static-swift-stdlib --product gatewayd "${jobs[@]}" >&2
  out=.build/release/gatewayd
  for tool in llvm-strip strip; do
    if command -v "$tool" >/dev/null 2>&1 && "$tool" "$out" 2>/dev/null; then break; fi
  done
else
  sdk=${SWIFT_SDK:-}
  if [ -z "$sdk" ] && [ -z "${PI_SDK_DIR:-}" ]; then
    sdk=$(swift sdk list 2>/dev/null | grep -iE 'aarch64|arm64' | head -n 1 || true)
  fi
  if [ -n "$sdk" ]; then
    # An installed SDK (swift.org's, or one made with swift-sdk-generator).
    say "cross-building with the installed Swift SDK $sdk"
    swift build -c release --static-swift-stdlib --product gatewayd --swift-sdk "$sdk" "${jobs[@]}" >&2
    out=$(swift build -c release --swift-sdk "$sdk" --show-bin-path)/gatewayd
    # Strip with a tool that knows aarch64 (the host's strip does not when cross-building).
    for tool in llvm-strip aarch64-linux-gnu-strip strip; do
      if command -v "$tool" >/dev/null 2>&1 && "$tool" "$out" 2>/dev/null; then break; fi
    done
  else
    # The SDK deploy/pi-sdk.sh makes from Debian's packages: sid's Swift in a root of its own,
    # linking against a Debian 12 arm64 sysroot.
    dir=${PI_SDK_DIR:-$repo/.build-pi}
    if [ "$(id -u)" != 0 ]; then
      version=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9.]*\).*/\1/p' | head -n 1)
      cat >&2 <<MSG
build-pi: this is $arch, not aarch64, and no aarch64 Swift SDK is installed (swift sdk list). Either:
  - as root, let deploy/pi-sdk.sh make one from Debian's packages (about 1.4 GB downloaded and 5 GB
    on disk the first time, in ${dir#"$repo"/}): sudo deploy/build-pi.sh   (sudo deploy/check-pi.sh also
    runs the result under qemu), or
  - install a swift.org aarch64 Debian 12 SDK for this compiler (${version:-?}) that holds
    libcurl4-openssl-dev, libsqlite3-dev, libespeak-ng-dev and libasound2-dev (swift-sdk-generator make-linux-sdk --with-docker
    --from-container-image of swift:${version:-6.3.1}-bookworm with both added; see deploy/README.md),
    then run this script again (or SWIFT_SDK=name deploy/build-pi.sh), or
  - build natively on the Pi (Swift 6.2+ for Debian 12 aarch64 from swift.org): deploy/build-pi.sh there.
MSG
      exit 1
    fi
    deploy/pi-sdk.sh "$dir" >&2
    mkdir -p "$repo/.build-pi"
    # Inside the compiler root the repository is /src, the SDK folder /sdk. The build folder is in
    # the repository (.build-pi/build), whatever DIR is: only /src and /sdk are visible there.
    say "cross-building with Debian sid's Swift against the Debian 12 arm64 sysroot (a first build takes 15-30 minutes)"
    deploy/pi-sdk.sh --run "$dir" -- swift build -c release --static-swift-stdlib --product gatewayd "${jobs[@]}" \
      --swift-sdks-path /sdk/swift-sdks --swift-sdk skygate-bookworm-aarch64 --scratch-path /src/.build-pi/build >&2
    # The toolchain's llvm-objcopy knows aarch64 (the host's strip may not).
    deploy/pi-sdk.sh --run "$dir" -- /usr/libexec/swift/bin/llvm-objcopy --strip-all \
      /src/.build-pi/build/aarch64-unknown-linux-gnu/release/gatewayd /src/.build-pi/gatewayd
    out=$repo/.build-pi/gatewayd
    root=$(cd "$dir" && pwd)/sdk/bookworm-arm64
  fi
fi
case "$out" in /*) ;; *) out=$repo/$out ;; esac

file "$out" 2>/dev/null || true
size=$(stat -c %s "$out")
echo "size: $size bytes ($(( (size + 50000) / 100000 / 10 )).$(( (size + 50000) / 100000 % 10 )) MB), stripped"
# The highest GLIBC_ version among the symbol versions it needs (readelf knows any ELF machine).
glibc=$(readelf -W -V "$out" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -uV | tail -n 1)
echo "highest GLIBC symbol version: ${glibc:-none}"
if [ -z "$glibc" ] || [ "$(printf '%s\n' "${glibc#GLIBC_}" "$glibc_max" | sort -V | tail -n 1)" != "$glibc_max" ]; then
  say "$out needs ${glibc:-an unknown glibc}, above $glibc_max: it would not start on Raspberry Pi OS 12 (bookworm, glibc 2.36)"
  exit 1
fi
# The Pi must need only Debian's libcurl4, libsqlite3-0, libespeak-ng1, libasound2 (and libc's own): no Swift runtime.
needed=$(readelf -d "$out" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')
echo "needed (readelf -d): ${needed% }"
case " $needed " in
  *libswift*|*libFoundation*|*lib_FoundationICU*|*libdispatch*|*libBlocksRuntime*)
    say "the Swift runtime is linked dynamically: this SDK lacks its static libraries (usr/lib/swift_static)"; exit 1 ;;
esac
say "copy it to the Pi (beside the deploy/ folder), then: sudo deploy/install.sh --binary ./gatewayd"
[ -n "$root" ] && echo "aarch64 root: $root"
echo "aarch64 binary: $out"
