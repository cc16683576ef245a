#!/usr/bin/env bash
# Makes an aarch64 (Raspberry Pi OS 12, bookworm) cross-build SDK for gatewayd from Debian's own
# packages, on any Debian/Ubuntu x86-64 machine, as root (debootstrap and chroot need it).
#
#   deploy/pi-sdk.sh [DIR]                  make it, or reuse what DIR already holds (default .build-pi/)
#   deploy/pi-sdk.sh --run [DIR] -- CMD...  run CMD in the compiler root, the repository at /src
#
# What it makes under DIR (ignored by git: .build*/):
#   sid-amd64/    Debian sid amd64 root holding swiftlang 6.2.x, the host compiler. It needs sid's
#                 glibc (libc6 >= 2.42), so it runs in that root via chroot, never on the host.
#   sdk/          bound at /sdk inside that root:
#     bookworm-arm64/  the TARGET sysroot: Debian 12 arm64 libc6-dev, libcurl4-openssl-dev,
#                      libsqlite3-dev, libespeak-ng-dev, libasound2-dev (the voice), libstdc++-12-dev (unpacked, not installed: no emulation
#                      needed), plus sid's arm64 Swift resources (usr/libexec/swift/lib/swift and
#                      swift_static, from the arm64 swiftlang and libswiftlang packages). Linking
#                      against bookworm's libc keeps every GLIBC_ symbol version <= 2.36. It is also
#                      the root for `qemu-aarch64-static -L`.
#     swift-sdks/skygate-bookworm-aarch64.artifactbundle/   the Swift SDK (swift-sdk.json, toolset.json)
#     pi-glibc-compat.o  deploy/pi-glibc-compat.c for aarch64: sid's static Swift runtime calls six
#                      glibc 2.38 functions that bookworm's 2.36 lacks (see that file); the SDK's
#                      static-stdlib-args.lnk names this object so every static-stdlib link has them.
#   cache/ logs/ stamps/   package indices and the arm64 Swift packages, logs, one stamp per finished step.
#
# Only the Debian archive is used: the mirror the host's apt uses (/etc/apt/sources.list*, or
# PI_SDK_MIRROR=URL). About 1.4 GB is downloaded (printed before the download starts); the
# signatures are checked with the host's debian-archive-keyring (debootstrap, and gpgv + SHA256 for
# the indices and the arm64 Swift packages).
#
# Building with it (what deploy/build-pi.sh does inside the root; the package mirror git config of
# the host, url.*.insteadOf, is copied into the root's /etc/gitconfig and /opt/swift-packages bound):
#   deploy/pi-sdk.sh --run -- swift build -c release --static-swift-stdlib --product gatewayd \
#     --swift-sdks-path /sdk/swift-sdks --swift-sdk skygate-bookworm-aarch64 --scratch-path /src/.build-pi/build
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
sdk_name=skygate-bookworm-aarch64
triple=aarch64-unknown-linux-gnu
# What the TARGET sysroot holds (dependencies resolved by debootstrap).
target_pkgs=libc6-dev,libcurl4-openssl-dev,libsqlite3-dev,libespeak-ng-dev,libasound2-dev,libstdc++-12-dev,libgcc-12-dev
# What the compiler root holds: swiftlang (its dependencies bring binutils and gcc), libc6-dev and
# g++ (libstdc++) for what SwiftPM builds for the host itself (manifests, plugins, macros), git for
# SwiftPM's dependency checkouts, ca-certificates for https remotes.
host_pkgs=swiftlang,libc6-dev,g++,git,ca-certificates

mode=make
if [ "${1:-}" = --run ]; then mode=run; shift; fi
case "${1:-}" in
  -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  ''|--) dir=$repo/.build-pi ;;
  *) dir=$1; shift ;;
esac
[ "${1:-}" = -- ] && shift
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
sid=$dir/sid-amd64
sdk=$dir/sdk
sysroot=$sdk/bookworm-arm64
cache=$dir/cache
logs=$dir/logs
stamps=$dir/stamps
bundle=$sdk/swift-sdks/$sdk_name.artifactbundle

say() { echo "pi-sdk: $*" >&2; }
step=start said=
fail() { say "FAILED in step '$step': $*"; said=1; exit 1; }
trap 'rc=$?; [ $rc -ne 0 ] && [ -z "$said" ] && say "FAILED in step '\''$step'\'' (exit $rc; logs in $logs)"; exit $rc' EXIT
# A stamp holds what its step was made from (a package list); a different one redoes the step.
done_() { [ -f "$stamps/$1" ] && [ "$(head -n 1 "$stamps/$1")" = "${2:-}" ]; }
mark() { mkdir -p "$stamps"; { echo "${2:-}"; date -u +%FT%TZ; } > "$stamps/$1"; }

[ "$(id -u)" = 0 ] || fail "run as root (debootstrap, chroot and mount need it)"

# Runs "$@" inside the compiler root in a private mount namespace (the mounts vanish with it):
# /proc, /dev, the SDK at /sdk, the repository at /src, the Swift package mirror read-only.
in_root() {
  unshare --mount --propagation private -- /bin/bash -euo pipefail -c '
    root=$1 sdk=$2 repo=$3; shift 3
    mount -t proc proc "$root/proc"
    mount --bind /dev "$root/dev"
    mkdir -p "$root/sdk" "$root/src"
    mount --bind "$sdk" "$root/sdk"
    mount --bind "$repo" "$root/src"
    if [ -d /opt/swift-packages ]; then
      mkdir -p "$root/opt/swift-packages"
      mount --bind /opt/swift-packages "$root/opt/swift-packages"
      mount -o remount,bind,ro "$root/opt/swift-packages"
    fi
    exec chroot "$root" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 \
      PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin /bin/bash -c "cd /src && exec \"\$@\"" bash "$@"
  ' in_root "$sid" "$sdk" "$repo" "$@"
}

mkdir -p "$logs" "$cache" "$sdk"

if [ "$mode" = run ]; then
  step=run
  done_ sdk-bundle || fail "no SDK in $dir yet: run deploy/pi-sdk.sh ${dir#"$repo"/} first"
  [ $# -gt 0 ] || fail "usage: deploy/pi-sdk.sh --run [DIR] -- CMD [ARGS...]"
  trap - EXIT
  in_root "$@"
  exit $?
fi

step=tools
for t in debootstrap dpkg-deb tar xz curl gpgv unshare chroot readelf sha256sum; do
  command -v "$t" >/dev/null 2>&1 || fail "$t is missing (apt-get install debootstrap curl xz-utils util-linux)"
done
command -v qemu-aarch64-static >/dev/null 2>&1 || say "note: qemu-aarch64-static missing (apt-get install qemu-user-static): the self-test will not run the aarch64 binary"

keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || fail "$keyring is missing (apt-get install debian-archive-keyring)"

step=mirror
# The Debian archive the host's apt already uses (first .../debian URL in its sources).
mirror=${PI_SDK_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
    awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break } }
         $1 == "URIs:" { for (i = 2; i <= NF; i++) print $i }' |
    grep -E '/debian/?$' | head -n 1 || true)
fi
mirror=${mirror%/}
[ -n "$mirror" ] || fail "no Debian mirror (a .../debian URL) in /etc/apt/sources.list*: set PI_SDK_MIRROR=URL"
for suite in sid bookworm; do
  curl -sfI "$mirror/dists/$suite/Release" >/dev/null || fail "$mirror has no dists/$suite (set PI_SDK_MIRROR to a full Debian mirror)"
done
say "Debian mirror: $mirror (from ${PI_SDK_MIRROR:+PI_SDK_MIRROR}${PI_SDK_MIRROR:-/etc/apt/sources.list*})"

# Package indices: for the sizes and the arm64 Swift packages' file names.
step=indices
index() { echo "$cache/index/$1_$2_Packages"; }
if ! done_ indices; then
  mkdir -p "$cache/index"
  total=0
  for sa in sid:amd64 sid:arm64 bookworm:arm64; do
    n=$(curl -sfI "$mirror/dists/${sa%:*}/main/binary-${sa#*:}/Packages.xz" | tr -d '\r' | awk 'tolower($1) == "content-length:" { print $2 }')
    total=$((total + ${n:-0}))
  done
  say "step 1/7: package indices, $((total / 1000000)) MB"
  # Checked like apt does: InRelease signed by a key of the host's debian-archive-keyring, the
  # index's SHA256 listed there.
  for suite in sid bookworm; do
    curl -sf -o "$cache/index/${suite}_InRelease" "$mirror/dists/$suite/InRelease" ||
      fail "download of $mirror/dists/$suite/InRelease"
    gpgv --keyring "$keyring" "$cache/index/${suite}_InRelease" 2>"$logs/gpgv-$suite.log" ||
      fail "$suite's InRelease is not signed by a key in $keyring (see $logs/gpgv-$suite.log)"
  done
  for sa in sid:amd64 sid:arm64 bookworm:arm64; do
    suite=${sa%:*} arch=${sa#*:}
    xzfile=$(index "$suite" "$arch").xz
    curl -sf -o "$xzfile" "$mirror/dists/$suite/main/binary-$arch/Packages.xz" ||
      fail "download of the $suite $arch package index from $mirror"
    want=$(awk -v f="main/binary-$arch/Packages.xz" '/^[^ ]/ { in256 = ($1 == "SHA256:") } in256 && $3 == f { print $1; exit }' "$cache/index/${suite}_InRelease")
    echo "${want:-none}  $xzfile" | sha256sum -c --quiet - 2>/dev/null || fail "the $suite $arch index does not match its InRelease's SHA256"
    xz -dc "$xzfile" > "$(index "$suite" "$arch")" && rm -f "$xzfile"
  done
  mark indices
fi
# field PKG FIELD SUITE ARCH: a field of a package in an index.
field() {
  awk -v p="$1" -v f="$2:" '
    $1 == "Package:" { cur = $2 } cur == p && $1 == f { print $2; exit }' "$(index "$3" "$4")"
}
# size_of SUITE ARCH PKG...: bytes to download for those packages.
size_of() {
  local s=$1 a=$2; shift 2
  awk -v list="$*" '
    BEGIN { n = split(list, l, " "); for (i = 1; i <= n; i++) want[l[i]] = 1 }
    $1 == "Package:" { cur = $2 } $1 == "Size:" && (cur in want) && !(cur in seen) { seen[cur] = 1; sum += $2 }
    END { printf "%d\n", sum }' "$(index "$s" "$a")"
}
mb() { echo $(( ($1 + 500000) / 1000000 )); }

step=versions
swift_ver=$(field swiftlang Version sid arm64)
[ -n "$swift_ver" ] || fail "sid has no arm64 swiftlang package"
[ "$swift_ver" = "$(field swiftlang Version sid amd64)" ] ||
  fail "sid's amd64 and arm64 swiftlang differ ($(field swiftlang Version sid amd64) vs $swift_ver): try again after the archive settles"
case "$swift_ver" in 6.2.*|6.[3-9].*) ;; *) fail "sid's swiftlang is $swift_ver, not 6.2 or later" ;; esac

# Plan: what is still missing and how much it downloads, before anything big is fetched.
step=plan
done_ sid-root "$host_pkgs" && done_ sysroot "$target_pkgs" ||
  say "step 2/7: working out the download (debootstrap --print-debs fetches each suite's index once more)"
plan_total=0 plan_text=
if ! done_ sid-root "$host_pkgs"; then
  debs=$(debootstrap --print-debs --variant=minbase --include="$host_pkgs" sid "$(mktemp -d)" "$mirror" 2>"$logs/print-sid.log") ||
    fail "debootstrap --print-debs sid (see $logs/print-sid.log)"
  n=$(size_of sid amd64 $debs); plan_total=$((plan_total + n))
  plan_text+="  sid amd64 root with swiftlang $swift_ver: $(mb "$n") MB ($(echo $debs | wc -w) packages)"$'\n'
fi
if ! done_ sysroot "$target_pkgs"; then
  debs=$(debootstrap --print-debs --arch=arm64 --variant=minbase --include="$target_pkgs" bookworm "$(mktemp -d)" "$mirror" 2>"$logs/print-bookworm.log") ||
    fail "debootstrap --print-debs bookworm arm64 (see $logs/print-bookworm.log)"
  n=$(size_of bookworm arm64 $debs); plan_total=$((plan_total + n))
  plan_text+="  bookworm arm64 sysroot: $(mb "$n") MB ($(echo $debs | wc -w) packages)"$'\n'
fi
if ! done_ swift-arm64 "$swift_ver" || ! done_ sysroot "$target_pkgs"; then   # a new sysroot needs them again
  n=$(size_of sid arm64 swiftlang libswiftlang); plan_total=$((plan_total + n))
  plan_text+="  sid arm64 swiftlang + libswiftlang $swift_ver (only the Swift resources are kept): $(mb "$n") MB"$'\n'
fi
if [ "$plan_total" -gt 0 ]; then
  say "will download $(mb "$plan_total") MB from $mirror:"
  printf '%s' "$plan_text" >&2
else
  say "every root is already in $dir: nothing to download"
fi

# debootstrap with its output in a log, a progress line every 25 packages and its stage lines.
run_debootstrap() {
  local log=$1; shift
  debootstrap "$@" 2>&1 | tee "$log" | awk '
    /^I: Retrieving / && $3 != "InRelease" && $3 != "Packages" && $3 != "Release" && $3 != "Release.gpg" { r++; if (r % 25 == 0) printf "pi-sdk:   downloaded %d packages\n", r > "/dev/stderr"; next }
    /^I: (Validating|Extracting|Unpacking|Configuring|Retrieving|Checking component)/ { next }
    /^(I|W|E): / { print "pi-sdk:   " $0 > "/dev/stderr" }'
  return "${PIPESTATUS[0]}"
}

step=sid-root
if ! done_ sid-root "$host_pkgs"; then
  say "step 3/7: sid amd64 root with swiftlang (download, then dpkg installs ~3 GB) -> $sid"
  rm -rf "$sid.tmp"
  start=$SECONDS
  run_debootstrap "$logs/sid-root.log" --keyring="$keyring" --variant=minbase --include="$host_pkgs" sid "$sid.tmp" "$mirror" ||
    fail "debootstrap sid amd64 (see $logs/sid-root.log)"
  rm -rf "$sid"; mv "$sid.tmp" "$sid"
  rm -f "$stamps/compat" "$stamps/selftest"   # made with the old compiler
  rm -f "$sid"/var/cache/apt/archives/*.deb
  say "  sid root done in $((SECONDS - start)) s"
  mark sid-root "$host_pkgs"
fi
# The compiler and the aarch64 resources must be one version (swiftmodules are not portable across
# compilers). The indices are kept, so a DIR stays consistent; a root remade after sid moved on is not.
installed=$(chroot "$sid" dpkg-query -W -f '${Version}' swiftlang 2>/dev/null || true)
[ "$installed" = "$swift_ver" ] ||
  fail "the compiler root has swiftlang ${installed:-none} but the index now offers $swift_ver: remove $dir and run again"
in_root swiftc --version >/dev/null 2>&1 || fail "swiftc does not run in $sid (deploy/pi-sdk.sh --run -- swiftc --version)"

step=gitconfig
# The host's package mirror (url.<mirror>.insteadOf, from its system or global git config) and every
# checkout trusted (the repository is bound in, owned by someone else maybe). Written each run: the
# host's config may change.
{
  echo "# written by deploy/pi-sdk.sh from the host's git config"
  git -C / config --get-regexp '^url\..*\.insteadof$' 2>/dev/null | while read -r key value; do
    base=${key#url.}; base=${base%.insteadof}
    printf '[url "%s"]\n\tinsteadOf = %s\n' "$base" "$value"
  done || true
  printf '[safe]\n\tdirectory = *\n'
} > "$sid/etc/gitconfig"

step=sysroot
if ! done_ sysroot "$target_pkgs"; then
  say "step 4/7: bookworm arm64 sysroot (debootstrap --foreign downloads, dpkg-deb unpacks; nothing runs under emulation) -> $sysroot"
  rm -rf "$sysroot.tmp"
  start=$SECONDS
  run_debootstrap "$logs/sysroot.log" --keyring="$keyring" --foreign --arch=arm64 --variant=minbase --include="$target_pkgs" bookworm "$sysroot.tmp" "$mirror" ||
    fail "debootstrap --foreign bookworm arm64 (see $logs/sysroot.log)"
  # The first stage unpacks only the essential packages; the rest (the -dev ones) waits for a second
  # stage that would need binfmt_misc. A sysroot needs files, not configured packages: unpack them
  # all, keeping the merged-/usr symlinks (/lib -> usr/lib) the first stage made.
  n=0
  for deb in "$sysroot.tmp"/var/cache/apt/archives/*.deb; do
    dpkg-deb --fsys-tarfile "$deb" | tar -C "$sysroot.tmp" --keep-directory-symlink --no-same-owner -xf - ||
      fail "unpacking $(basename "$deb")"
    n=$((n + 1))
  done
  # Absolute symlinks would point into the host (or the compiler root) instead: make them relative.
  find "$sysroot.tmp" -xdev -type l -lname '/*' | while read -r link; do
    ln -sfnr "$sysroot.tmp$(readlink "$link")" "$link"
  done
  rm -rf "$sysroot.tmp"/var/cache/apt/archives/*.deb
  for h in aarch64-linux-gnu/curl/curl.h sqlite3.h stdio.h; do
    [ -f "$sysroot.tmp/usr/include/$h" ] || fail "the sysroot lacks usr/include/$h after unpacking"
  done
  rm -rf "$sysroot"; mv "$sysroot.tmp" "$sysroot"
  rm -f "$stamps/swift-arm64" "$stamps/compat" "$stamps/selftest"   # they lived in the old sysroot
  say "  sysroot done in $((SECONDS - start)) s ($n packages, glibc $(field libc6 Version bookworm arm64))"
  mark sysroot "$target_pkgs"
fi

step=swift-arm64
# sid's arm64 Swift resources into the sysroot, at the path Debian installs them
# (usr/libexec/swift/lib): swiftmodules and swiftrt.o in lib/swift/linux, the static runtime and
# Foundation in lib/swift_static/linux (both from swiftlang), the shared runtime in lib/swift/linux
# (libswiftlang). Only files are taken (dpkg-deb), never installed: the packages depend on sid's
# glibc, which bookworm does not have. The compiler-side parts (host plugins, docs) are left out.
if ! done_ swift-arm64 "$swift_ver"; then
  say "step 5/7: sid arm64 Swift resources $swift_ver -> $sysroot/usr/libexec/swift/lib"
  mkdir -p "$cache/debs"
  start=$SECONDS
  for p in libswiftlang swiftlang; do
    members=./usr/libexec/swift/lib/swift
    [ "$p" = swiftlang ] && members+=" ./usr/libexec/swift/lib/swift_static ./usr/libexec/swift/lib/clang"
    file=$(field "$p" Filename sid arm64); size=$(field "$p" Size sid arm64)
    deb=$cache/debs/$(basename "$file")
    if [ ! -f "$deb" ] || [ "$(stat -c %s "$deb")" != "$size" ]; then
      say "  downloading $(basename "$file") ($(mb "$size") MB)"
      curl -sf -o "$deb.part" "$mirror/$file" || fail "download of $mirror/$file"
      mv "$deb.part" "$deb"
    fi
    sha=$(field "$p" SHA256 sid arm64)
    echo "$sha  $deb" | sha256sum -c --quiet - || fail "$(basename "$deb"): SHA256 differs from the index"
    say "  unpacking $(basename "$deb")"
    dpkg-deb --fsys-tarfile "$deb" | tar -C "$sysroot" --keep-directory-symlink --no-same-owner -xf - \
      --exclude='./usr/libexec/swift/lib/swift/host' --exclude='./usr/libexec/swift/lib/swift/pm' \
      $members ||
      fail "unpacking $(basename "$deb")"
  done
  [ -f "$sysroot/usr/libexec/swift/lib/swift_static/linux/libswiftCore.a" ] || fail "no libswiftCore.a in the arm64 swiftlang"
  # The downloaded .debs (~530 MB) are kept in cache/debs only while this step is not done.
  rm -rf "$cache/debs"
  say "  Swift resources done in $((SECONDS - start)) s"
  mark swift-arm64 "$swift_ver"
fi

# swiftc looks for swiftrt.o under SYSROOT/usr/lib/swift(_static) when given -sdk, whatever the
# resource directory: give Debian's layout the swift.org one's names too.
for d in swift swift_static; do
  [ -e "$sysroot/usr/lib/$d" ] || ln -s "../libexec/swift/lib/$d" "$sysroot/usr/lib/$d"
done

step=compat
# The glibc 2.38 functions sid's static runtime needs, as an aarch64 object, named in the static
# link argument files (see deploy/pi-glibc-compat.c).
if ! done_ compat || [ "$repo/deploy/pi-glibc-compat.c" -nt "$sdk/pi-glibc-compat.o" ]; then
  say "step 6/7: deploy/pi-glibc-compat.c -> $sdk/pi-glibc-compat.o"
  cp "$repo/deploy/pi-glibc-compat.c" "$sdk/pi-glibc-compat.c"
  in_root /usr/libexec/swift/bin/clang --target=aarch64-linux-gnu --sysroot=/sdk/bookworm-arm64 \
    -O2 -fPIC -Wall -Werror -c /sdk/pi-glibc-compat.c -o /sdk/pi-glibc-compat.o ||
    fail "compiling deploy/pi-glibc-compat.c for aarch64"
  for lnk in static-stdlib-args.lnk static-executable-args.lnk; do
    f=$sysroot/usr/lib/swift_static/linux/$lnk
    grep -qx /sdk/pi-glibc-compat.o "$f" && continue
    [ -z "$(tail -c 1 "$f")" ] || echo >> "$f"   # Debian's file ends without a newline
    echo /sdk/pi-glibc-compat.o >> "$f"
  done
  mark compat
fi

step=sdk-bundle
# The Swift SDK: an artifact bundle in /sdk/swift-sdks (SwiftPM's --swift-sdks-path), its paths
# absolute as seen inside the compiler root. lld links (the toolchain's ld.lld knows aarch64).
if ! done_ sdk-bundle || [ "$0" -nt "$stamps/sdk-bundle" ]; then
  say "step 7/7: Swift SDK bundle $sdk_name -> $bundle"
  rm -rf "$bundle"
  mkdir -p "$bundle/$sdk_name"
  cat > "$bundle/info.json" <<JSON
{
  "schemaVersion": "1.0",
  "artifacts": {
    "$sdk_name": {
      "type": "swiftSDK",
      "version": "$swift_ver",
      "variants": [ { "path": "$sdk_name", "supportedTriples": ["x86_64-unknown-linux-gnu", "x86_64-pc-linux-gnu"] } ]
    }
  }
}
JSON
  cat > "$bundle/$sdk_name/swift-sdk.json" <<JSON
{
  "schemaVersion": "4.0",
  "targetTriples": {
    "$triple": {
      "sdkRootPath": "/sdk/bookworm-arm64",
      "swiftResourcesPath": "/sdk/bookworm-arm64/usr/lib/swift",
      "swiftStaticResourcesPath": "/sdk/bookworm-arm64/usr/lib/swift_static",
      "toolsetPaths": ["toolset.json"]
    }
  }
}
JSON
  cat > "$bundle/$sdk_name/toolset.json" <<JSON
{
  "schemaVersion": "1.0",
  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] },
  "cCompiler": { "extraCLIOptions": ["-fuse-ld=lld"] },
  "cxxCompiler": { "extraCLIOptions": ["-fuse-ld=lld"] }
}
JSON
  # The same for SwiftPM's older --destination flag. Static runtime only: swiftc takes the static
  # resource directory (swift_static) as -resource-dir for a -static-stdlib link.
  cat > "$sdk/destination.json" <<JSON
{
  "version": 1,
  "target": "$triple",
  "sdk": "/sdk/bookworm-arm64",
  "toolchain-bin-dir": "/usr/libexec/swift/bin",
  "extra-swiftc-flags": ["-resource-dir", "/sdk/bookworm-arm64/usr/lib/swift_static", "-use-ld=lld"],
  "extra-cc-flags": ["-fuse-ld=lld"],
  "extra-cpp-flags": ["-fuse-ld=lld"]
}
JSON
  mark sdk-bundle
fi

# Self-test (seconds): hello world, and a Foundation one (ICU, CoreFoundation, libcurl-free), for
# aarch64 with the static runtime, run under qemu against the bookworm root.
step=selftest
if ! done_ selftest || [ "$stamps/sdk-bundle" -nt "$stamps/selftest" ] || [ "$stamps/compat" -nt "$stamps/selftest" ]; then
  say "self-test: hello world for aarch64 with -static-stdlib"
  mkdir -p "$sdk/selftest"
  echo 'print("hello from aarch64")' > "$sdk/selftest/hello.swift"
  cat > "$sdk/selftest/hello-foundation.swift" <<'SWIFT'
import Foundation
let date = ISO8601DateFormatter().date(from: "2026-01-02T03:04:05Z")!
let json = try! JSONSerialization.data(withJSONObject: ["n": 42], options: [.sortedKeys])
print("hello Foundation", Int(date.timeIntervalSince1970), String(decoding: json, as: UTF8.self),
      String(format: "%.2f", 3.14159), URL(string: "https://example.org/a?b=1")!.host ?? "-")
SWIFT
  for prog in hello hello-foundation; do
    in_root swiftc -target "$triple" -sdk /sdk/bookworm-arm64 \
      -resource-dir /sdk/bookworm-arm64/usr/lib/swift_static -use-ld=lld -static-stdlib -O \
      "/sdk/selftest/$prog.swift" -o "/sdk/selftest/$prog" > "$logs/selftest-$prog.log" 2>&1 ||
      { cat "$logs/selftest-$prog.log" >&2; fail "linking $prog.swift for aarch64 (see $logs/selftest-$prog.log)"; }
    glibc=$(readelf -W -V "$sdk/selftest/$prog" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)
    if command -v qemu-aarch64-static >/dev/null 2>&1; then
      out=$(qemu-aarch64-static -L "$sysroot" "$sdk/selftest/$prog") || fail "$prog did not run under qemu-aarch64-static -L $sysroot"
    else
      out="(not run: no qemu-aarch64-static)"
    fi
    say "  $prog: $(stat -c %s "$sdk/selftest/$prog") bytes, highest symbol version ${glibc:-?}, prints: $out"
    [ "$(printf '%s\n' "${glibc:-GLIBC_9}" GLIBC_2.36 | sort -V | tail -n 1)" = GLIBC_2.36 ] ||
      fail "$prog needs ${glibc:-an unknown GLIBC}: it would not start on bookworm (2.36)"
  done
  # The SDK bundle as SwiftPM uses it (what deploy/build-pi.sh does): a C target including curl.h
  # and sqlite3.h, linked with -lcurl -lsqlite3 like the project's CCurl and CSQLite.
  say "self-test: swift build --swift-sdk $sdk_name of a two-target package (C with libcurl and SQLite, Swift with Foundation)"
  pkg=$sdk/selftest/pkg
  mkdir -p "$pkg/Sources/CLibs/include" "$pkg/Sources/hello"
  cat > "$pkg/Package.swift" <<'SWIFT'
// swift-tools-version:6.0
import PackageDescription
let package = Package(name: "hello", targets: [
  .target(name: "CLibs", linkerSettings: [.linkedLibrary("curl"), .linkedLibrary("sqlite3")]),
  .executableTarget(name: "hello", dependencies: ["CLibs"]),
])
SWIFT
  printf '#include <curl/curl.h>\n#include <sqlite3.h>\nconst char *clibs_versions(void);\n' > "$pkg/Sources/CLibs/include/clibs.h"
  cat > "$pkg/Sources/CLibs/clibs.c" <<'C'
#include <stdio.h>
#include "clibs.h"
const char *clibs_versions(void) {
  static char buf[256];
  snprintf(buf, sizeof buf, "%s, SQLite %s", curl_version(), sqlite3_libversion());
  return buf;
}
C
  cat > "$pkg/Sources/hello/main.swift" <<'SWIFT'
import CLibs
import Foundation
print("hello from SwiftPM:", String(cString: clibs_versions()), "on", ProcessInfo.processInfo.processorCount, "cores")
SWIFT
  spm=(swift build -c release --static-swift-stdlib --swift-sdks-path /sdk/swift-sdks --swift-sdk "$sdk_name"
       --package-path /sdk/selftest/pkg --scratch-path /sdk/selftest/pkg-build)
  in_root "${spm[@]}" > "$logs/selftest-swiftpm.log" 2>&1 ||
    { tail -n 30 "$logs/selftest-swiftpm.log" >&2; fail "swift build with the SDK bundle (see $logs/selftest-swiftpm.log)"; }
  bin=$sdk/selftest/pkg-build/$triple/release/hello
  glibc=$(readelf -W -V "$bin" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)
  needed=$(readelf -d "$bin" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')
  out="(not run: no qemu-aarch64-static)"
  if command -v qemu-aarch64-static >/dev/null 2>&1; then
    out=$(qemu-aarch64-static -L "$sysroot" "$bin") || fail "the SwiftPM hello did not run under qemu-aarch64-static -L $sysroot"
  fi
  say "  SwiftPM hello: highest symbol version ${glibc:-?}, needs ${needed}, prints: $out"
  [ "$(printf '%s\n' "${glibc:-GLIBC_9}" GLIBC_2.36 | sort -V | tail -n 1)" = GLIBC_2.36 ] ||
    fail "the SwiftPM hello needs ${glibc:-an unknown GLIBC}: it would not start on bookworm (2.36)"
  mark selftest
fi

trap - EXIT
say "ready: Swift $swift_ver for $triple, sysroot Debian 12 (glibc $(field libc6 Version bookworm arm64))"
say "  compiler root: $sid"
say "  aarch64 root (qemu-aarch64-static -L): $sysroot"
say "  SDK: --swift-sdks-path /sdk/swift-sdks --swift-sdk $sdk_name (inside: deploy/pi-sdk.sh --run ${dir#"$repo"/} -- CMD)"
