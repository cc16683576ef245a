#!/usr/bin/env bash
# Release build of gatewayd for 64-bit Raspberry Pi OS (aarch64, Debian 12) with the Swift
# runtime linked statically: the Pi then needs only libcurl4, libsqlite3-0, libespeak-ng1 and libasound2
# from Debian.
#   deploy/build-pi.sh            natively on an aarch64 machine, or cross from x86-64 with an SDK
#   SWIFT_SDK=name deploy/build-pi.sh   pick the SDK (see `swift sdk list`)
set -euo pipefail
cd "$(dirname "$0")/.."
arch=$(uname -m)
if [ "$arch" = aarch64 ] || [ "$arch" = arm64 ]; then
  swift build -c release --static-swift-stdlib --product gatewayd
  out=.build/release/gatewayd
else
  sdk=${SWIFT_SDK:-$(swift sdk list 2>/dev/null | grep -iE 'aarch64|arm64' | head -n 1 || true)}
  if [ -z "$sdk" ]; then
    version=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9.]*\).*/\1/p' | head -n 1)
    installed=$(swift sdk list 2>/dev/null | grep -v 'No Swift SDKs' | tr '\n' ' ' || true)
    cat >&2 <<MSG
build-pi: this is $arch, not aarch64, and no aarch64 Swift SDK is installed (swift sdk list: ${installed:-none}).
To cross-build, make one for Debian 12 aarch64 with exactly this compiler's version (${version:-?}) that
also holds libcurl4-openssl-dev, libsqlite3-dev, libespeak-ng-dev and libasound2-dev (a custom container image guarantees both):
  1. Docker with arm64 emulation (apt-get install docker.io qemu-user-static binfmt-support), then
     printf 'FROM --platform=linux/arm64 swift:${version:-6.3.1}-bookworm\nRUN apt-get update && apt-get install -y libcurl4-openssl-dev libsqlite3-dev libespeak-ng-dev libasound2-dev\n' > Dockerfile.sdk
     docker build --platform linux/arm64 -t skygate-sdk-base -f Dockerfile.sdk .
  2. In a clone of github.com/swiftlang/swift-sdk-generator:
     swift run swift-sdk-generator make-linux-sdk --with-docker --from-container-image skygate-sdk-base \\
       --target aarch64-unknown-linux-gnu --sdk-name skygate-debian12-aarch64
     (make-linux-sdk --help lists the distribution options of your generator's version)
  3. swift sdk install Bundles/skygate-debian12-aarch64.artifactbundle, then run this script again
     (or SWIFT_SDK=skygate-debian12-aarch64 deploy/build-pi.sh).
Or build natively on the Pi (Swift ${version:-6.2+} for Debian 12 aarch64 from swift.org): deploy/build-pi.sh there.
MSG
    exit 1
  fi
  swift build -c release --static-swift-stdlib --product gatewayd --swift-sdk "$sdk"
  out=$(swift build -c release --swift-sdk "$sdk" --show-bin-path)/gatewayd
fi
# Strip with a tool that knows aarch64 (the host's strip does not when cross-building).
for tool in llvm-strip aarch64-linux-gnu-strip strip; do
  if command -v "$tool" >/dev/null 2>&1 && "$tool" "$out" 2>/dev/null; then break; fi
done
ls -l "$out"
file "$out" 2>/dev/null || true
# The Pi must need only Debian's libcurl4, libsqlite3-0, libespeak-ng1 and libasound2 (and libc,
# libstdc++): no Swift runtime.
needed=$(readelf -d "$out" 2>/dev/null | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')
echo "build-pi: shared libraries needed: ${needed:-(readelf not found)}" >&2
case " $needed " in
  *libswift*|*libFoundation*|*lib_FoundationICU*|*libdispatch*)
    echo "build-pi: the Swift runtime is linked dynamically: this SDK lacks its static libraries (usr/lib/swift_static)" >&2; exit 1 ;;
esac
echo "build-pi: copy $out to the Pi, then: sudo deploy/install.sh --binary gatewayd" >&2
