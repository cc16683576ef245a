#!/usr/bin/env bash
# Proves the Raspberry Pi build on an x86-64 Debian machine, as root: builds the aarch64 gatewayd
# with deploy/build-pi.sh (through deploy/pi-sdk.sh: Debian sid's Swift, linked against a Debian 12
# arm64 sysroot), builds the x86-64 release gatewayd, then runs the aarch64 one under
# qemu-aarch64-static in the Debian 12 (bookworm, glibc 2.36) arm64 root:
#   - decode --json, replay --json and fisb --json of every fixture give output byte-identical to
#     the x86-64 build's (stdout, stderr and exit status; every pair compared is listed);
#   - `gatewayd run` starts, answers /healthz, takes the demo flight over UDP from the aarch64
#     `gatewayd send`, raises its alerts (the head-on warning for ab4549 N825V, the TFR) and stops
#     on SIGTERM with exit status 0;
#   - the binary's size, highest GLIBC_ symbol version (<= 2.36) and shared libraries are printed;
#   - the arm64 Debian package is built from it (deploy/build-deb.sh) and tried by deploy/check-deb.sh
#     in a Debian 12 arm64 root under qemu (install, upgrade, remove, purge, apt repository).
# The last two lines are `aarch64 binary: PATH` and `aarch64 root: PATH` (qemu-aarch64-static -L PATH).
#
#   sudo deploy/check-pi.sh                 SDK in .build-pi/ (made the first time: ~1.4 GB download)
#   sudo PI_SDK_DIR=DIR deploy/check-pi.sh  reuse an SDK folder made by deploy/pi-sdk.sh DIR
#   BUILD_JOBS=N                            swift build -j N for both builds
# On a shared machine: sudo nice -n 19 deploy/check-pi.sh. Needs: debootstrap, qemu-user-static,
# curl, Swift 6.2+ on the host (for the x86-64 build). Outputs are kept in .build-pi/check/.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
export PI_SDK_DIR=${PI_SDK_DIR:-$repo/.build-pi}
jobs=()
[ -n "${BUILD_JOBS:-}" ] && jobs=(-j "$BUILD_JOBS")
say() { echo "check-pi: $*" >&2; }
fail() { say "FAILED: $*"; exit 1; }
start=$SECONDS
phase() { say "[$(( SECONDS - start )) s] $*"; }

say "builds gatewayd for aarch64 and x86-64, then runs the aarch64 one under qemu against the x86-64 one."
say "The first time it takes about an hour on 2 cores (the SDK ~5 min, downloading ~1.4 GB of Debian"
say "packages; the aarch64 build ~25 min; the x86-64 build ~20 min; the checks ~1.5 min); about 1.5 min"
say "once everything is built."
[ "$(id -u)" = 0 ] || fail "run as root (deploy/pi-sdk.sh needs debootstrap and chroot)"
# What the check needs from Debian, installed when missing (as root): qemu for the aarch64
# programs, binfmt-support for the handler debootstrap's second stage needs in the arm64 root.
if [ "$(id -u)" = 0 ] && { ! command -v qemu-aarch64-static >/dev/null 2>&1 || ! command -v update-binfmts >/dev/null 2>&1; }; then
  say "installing qemu-user-static and binfmt-support (apt-get)"
  apt-get install -y qemu-user-static binfmt-support >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1; apt-get install -y qemu-user-static binfmt-support >/dev/null 2>&1; } || true
fi
for t in qemu-aarch64-static curl readelf ss swift; do
  command -v "$t" >/dev/null 2>&1 || fail "$t is missing (apt-get install qemu-user-static curl binutils iproute2; Swift 6.2+ from swift.org)"
done

# 1. The aarch64 binary (build-pi.sh runs pi-sdk.sh, which makes or reuses the SDK).
phase "aarch64 build: deploy/build-pi.sh with PI_SDK_DIR=$PI_SDK_DIR"
report=$(deploy/build-pi.sh) || fail "deploy/build-pi.sh"
printf '%s\n' "$report" >&2
arm=$(printf '%s\n' "$report" | sed -n 's/^aarch64 binary: //p')
root=$(printf '%s\n' "$report" | sed -n 's/^aarch64 root: //p')
[ -x "$arm" ] && [ -d "$root" ] || fail "build-pi.sh named no binary or root"

# 2. The x86-64 binary, in a scratch folder of its own (.build is left alone).
phase "x86-64 build: swift build -c release --product gatewayd --scratch-path .build-pi/x86"
if [ -n "${X86_GATEWAYD:-}" ]; then
  # An x86-64 release build of this very tree made already (e.g. .build/release/gatewayd).
  x86=$X86_GATEWAYD
  say "x86-64: using $x86 (X86_GATEWAYD)"
else
  swift build -c release --product gatewayd "${jobs[@]}" --scratch-path "$repo/.build-pi/x86" >&2 || fail "the x86-64 build"
  x86=$(swift build -c release --scratch-path "$repo/.build-pi/x86" --show-bin-path)/gatewayd
fi
[ -x "$x86" ] || fail "no $x86"

out=$repo/.build-pi/check
rm -rf "$out"; mkdir -p "$out/x86" "$out/arm" "$out/home" "$out/xdg"
# Both run alike: the same working directory, locale, zone, and no stored NOTAMs of the host's.
run_x86() { env HOME="$out/home" XDG_DATA_HOME="$out/xdg" LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC "$x86" "$@"; }
run_arm() { env HOME="$out/home" XDG_DATA_HOME="$out/xdg" LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC qemu-aarch64-static -L "$root" "$arm" "$@"; }

# 3. Byte identity: every fixture through decode, replay and fisb.
phase "byte identity: aarch64 under qemu-aarch64-static -L $root against x86-64"
pairs=0 differ=0
compare() {   # compare NAME ARGS...: run both, compare stdout, stderr and the exit status
  local name=$1; shift
  local rx=0 ra=0
  run_x86 "$@" > "$out/x86/$name.out" 2> "$out/x86/$name.err" || rx=$?
  run_arm "$@" > "$out/arm/$name.out" 2> "$out/arm/$name.err" || ra=$?
  pairs=$((pairs + 1))
  local what="$(wc -l < "$out/x86/$name.out") lines, $(wc -c < "$out/x86/$name.out") bytes, exit $rx"
  if [ "$rx" = "$ra" ] && cmp -s "$out/x86/$name.out" "$out/arm/$name.out" && cmp -s "$out/x86/$name.err" "$out/arm/$name.err"; then
    echo "  identical  gatewayd $* ($what)" >&2
  else
    differ=$((differ + 1))
    echo "  DIFFERENT  gatewayd $* (x86-64: $what; aarch64: exit $ra)" >&2
    diff "$out/x86/$name.out" "$out/arm/$name.out" | head -n 6 >&2 || true
    diff "$out/x86/$name.err" "$out/arm/$name.err" | head -n 6 >&2 || true
  fi
}
captures=()
for f in fixtures/*.pcap fixtures/*.pcapng fixtures/*.gdl90 fixtures/fisb-sample.978 fixtures/scenarios/*.pcap; do
  [ -f "$f" ] && captures+=("$f")
done
[ ${#captures[@]} -ge 10 ] || fail "only ${#captures[@]} fixtures found"
for f in "${captures[@]}"; do
  name=$(echo "$f" | tr '/.' '__')
  compare "decode-$name" decode --json --date 2026-05-16 "$f"
  compare "replay-$name" replay --json --no-store --date 2026-05-16 "$f"
  compare "fisb-$name" fisb --json --date 2026-05-16 "$f"
done
# The replays the README and the fixtures' notes give, with their NOTAMs, airspace and gpsd fixes.
compare replay-demo-notams replay --json --no-store fixtures/demo-flight.pcap --notams fixtures/notams-demo.json
compare replay-demo-airspace replay --json --no-store fixtures/demo-flight.pcap --airspace fixtures/demo-airspace.geojson
compare replay-demo-readable replay --no-store fixtures/demo-flight.pcap --notams fixtures/notams-demo.json
compare replay-echo-gps replay --json --no-store fixtures/scenarios/echo.pcap --gps fixtures/scenarios/echo.gps.jsonl
compare decode-demo-readable decode fixtures/demo-flight.pcap
compare fisb-sample-readable fisb fixtures/fisb-sample.978
[ "$differ" = 0 ] || fail "$differ of $pairs pairs differ (outputs in $out/x86 and $out/arm)"
say "all $pairs pairs byte-identical (stdout, stderr, exit status)"

# 4. Time of the demo flight's replay, emulated against native (a sanity figure only: qemu-user
# translates every instruction; a Pi runs it natively).
measure() {   # measure RUNNER: "WALL CPU" seconds of the fastest of 3 runs (CPU: user + system)
  local best= cpu= w u sy
  for _ in 1 2 3; do
    read -r w u sy < <( { TIMEFORMAT='%R %U %S'; time "$1" replay --json --no-store fixtures/demo-flight.pcap \
      --notams fixtures/notams-demo.json > /dev/null 2>&1; } 2>&1 )
    if [ -z "$best" ] || [ "$(echo "$w < $best" | bc)" = 1 ]; then best=$w; cpu=$(printf '%.2f' "$(echo "$u + $sy" | bc)"); fi
  done
  echo "$best $cpu"
}
if command -v bc >/dev/null 2>&1; then
  read -r xw xc < <(measure run_x86); read -r aw ac < <(measure run_arm)
  say "replay --json fixtures/demo-flight.pcap --notams fixtures/notams-demo.json, best of 3:"
  say "  x86-64 native $xw s ($xc s CPU), aarch64 under qemu $aw s ($ac s CPU): a sanity figure only"
fi

# 5. The daemon under qemu: start, /healthz, the demo flight over UDP, alerts, SIGTERM.
phase "gatewayd run under qemu (loopback only, no database)"
free_port() {   # a port neither TCP nor UDP listens on
  local p
  while :; do
    p=$(( 20000 + RANDOM % 40000 ))
    [ -z "$(ss -Hlntu "( sport = :$p )" 2>/dev/null)" ] && { echo "$p"; return; }
  done
}
udp=$(free_port); http=$(free_port)
[ "$udp" != "$http" ] || http=$(free_port)
# The demo TFR (FDC 6/2174) without its activity window: `run` times by the clock, and the fixtures'
# areas are active only on 2026-05-16.
sed 's/"start":"2026-05-16T13:00:00Z","end":"2026-05-16T18:00:00Z",//' fixtures/demo-airspace.geojson > "$out/airspace.geojson"
grep -q 'FDC 6/2174' "$out/airspace.geojson" && ! grep -q '2026-05-16T13' "$out/airspace.geojson" || fail "could not make the always-active demo airspace"
printf '# empty: defaults and flags only\n' > "$out/gatewayd.toml"
# Started directly (not through run_arm), so $! is qemu itself, which hands SIGTERM to gatewayd.
# gatewayd gives its HTTP server 10 s to start: under emulation on a busy machine (or under nice)
# that can pass, so up to 3 attempts.
health=
for attempt in 1 2 3; do
  env HOME="$out/home" XDG_DATA_HOME="$out/xdg" LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC \
    qemu-aarch64-static -L "$root" "$arm" run --config "$out/gatewayd.toml" --no-database --bind 127.0.0.1 --udp-port "$udp" \
    --http-bind 127.0.0.1 --http-port "$http" --nmea-port 0 --gpsd 127.0.0.1:9 \
    --airspace "$out/airspace.geojson" --status-interval 5 > "$out/run.out" 2> "$out/run.err" &
  pid=$!
  trap 'kill -TERM "$pid" 2>/dev/null || true' EXIT
  for _ in $(seq 1 240); do
    kill -0 "$pid" 2>/dev/null || break
    code=$(curl -s -m 5 -o "$out/healthz-before.json" -w '%{http_code}' "http://127.0.0.1:$http/healthz" || true)
    if [ "$code" = 200 ] || [ "$code" = 503 ]; then health=$code; break; fi
    sleep 0.5
  done
  [ -n "$health" ] && break
  kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
  say "  attempt $attempt: gatewayd run did not answer /healthz: $(tail -n 2 "$out/run.err" | tr '\n' ' ')"
done
[ -n "$health" ] || fail "gatewayd run under qemu never answered http://127.0.0.1:$http/healthz (see $out/run.err)"
say "  started (udp $udp, http $http); /healthz before any GDL90: $health $(head -c 200 "$out/healthz-before.json")"
say "  sending fixtures/demo-flight.pcap at 10x (30 s) with the aarch64 gatewayd send"
run_arm send fixtures/demo-flight.pcap --to "127.0.0.1:$udp" --speed 10 > "$out/send.out" 2>&1 || { cat "$out/send.out" >&2; fail "gatewayd send"; }
code=$(curl -s -o "$out/healthz-after.json" -w '%{http_code}' "http://127.0.0.1:$http/healthz" || true)
say "  /healthz after the flight: $code $(head -c 200 "$out/healthz-after.json")"
[ "$code" = 200 ] || fail "/healthz answered $code after the demo flight"
sleep 1
t0=$SECONDS
kill -TERM "$pid"
rc=0; wait "$pid" || rc=$?
trap - EXIT
say "  SIGTERM: exit status $rc after $((SECONDS - t0)) s"
[ "$rc" = 0 ] || { tail -n 20 "$out/run.err" >&2; fail "gatewayd run exited $rc on SIGTERM"; }
say "  its alerts (stdout):"
sed 's/^/    /' "$out/run.out" >&2
grep -E 'ab4549' "$out/run.out" | grep -q 'N825V' && grep -E 'ab4549' "$out/run.out" | grep -qi 'warning' ||
  fail "no head-on warning for ab4549 N825V in run's output ($out/run.out)"
grep -q 'FDC 6/2174' "$out/run.out" || fail "no alert for the TFR FDC 6/2174 in run's output ($out/run.out)"
say "  head-on warning for ab4549 N825V and the TFR FDC 6/2174 raised"

# 6. What the Pi needs.
phase "the aarch64 binary"
size=$(stat -c %s "$arm")
glibc=$(readelf -W -V "$arm" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -uV | tail -n 1)
needed=$(readelf -d "$arm" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')
say "size $size bytes, stripped; highest symbol version $glibc; needs: ${needed% }"
extra=
for lib in $needed; do
  case "$lib" in
    libc.so.6|ld-linux-aarch64.so.1|libcurl.so.4|libsqlite3.so.0) ;;
    *) extra+=" $lib" ;;
  esac
done
# Swift's static-stdlib link arguments (usr/lib/swift_static/linux/static-stdlib-args.lnk) add
# -lstdc++ and -lm: the runtime is partly C++; libgcc_s (unwinding) comes with libstdc++.
[ -z "$extra" ] || say "besides libc, libcurl and libsqlite3 it needs${extra}: the static Swift runtime's link arguments add -lstdc++ and -lm (libgcc_s comes with libstdc++). All are on every Raspberry Pi OS: libm is part of libc6, libc6 depends on libgcc-s1, and apt (priority required) on libstdc++6"
# 7. The package a pilot installs: built from this binary, then installed, upgraded and purged in a
# Debian 12 arm64 root under qemu, and served from an apt repository (deploy/check-deb.sh).
if [ "${SKIP_DEB:-}" != 1 ]; then
  phase "the arm64 package: deploy/build-deb.sh --arch arm64, then deploy/check-deb.sh under qemu (SKIP_DEB=1 skips)"
  deb=$(deploy/build-deb.sh --arch arm64 --binary "$arm" | sed -n 's/^deb: //p')
  [ -n "$deb" ] || fail "deploy/build-deb.sh --arch arm64 made no package"
  deploy/check-deb.sh --arch arm64 "$deb" || fail "deploy/check-deb.sh $deb"
fi
say "passed in $(( (SECONDS - start) / 60 )) min $(( (SECONDS - start) % 60 )) s"
echo "aarch64 binary: $arm"
echo "aarch64 root: $root"
