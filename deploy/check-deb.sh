#!/usr/bin/env bash
# The package tried as a user would, in a Debian 12 (bookworm) root made with debootstrap:
#
#   deploy/check-deb.sh DEB [--arch amd64|arm64]
#
# In the root (cached in .build-deb/, made once; arm64 through qemu-aarch64-static):
#   1. a hand installation by deploy/install.sh is in place (binary, unit, configuration);
#   2. `apt-get install ./DEB` pulls the dependencies and migrates that installation;
#   3. `gatewayd --version`; the installed binary's `readelf -d` NEEDED libraries hold no
#      libmosquitto (the fleet loads it on first use); `gatewayd replay` of the demo flight from
#      the installed binary gives the alert changes of fixtures/demo-flight.alerts.jsonl, byte for byte;
#   4. `systemd-analyze verify` of the installed unit; the man page renders (`man gatewayd`);
#      the shipped configuration passes `gatewayd config check`;
#   5. a modified /etc/gatewayd/gatewayd.toml survives an upgrade to a newer version whose
#      default changed (dpkg's conffile rule: the new default is put beside it);
#   6. `dpkg -r` keeps the configuration and the data; `dpkg -P` leaves no file of the package;
#   7. the apt repository deploy/build-apt-repo.sh makes, served over HTTP from this machine and
#      added with signed-by: `apt-get install skygate`, then a newer version published and taken
#      by `apt-get upgrade`.
# Prints `check-deb: SKIPPED: …` and exits 0 where debootstrap cannot reach Debian's archive
# (no network): the check did not run, and says so. Run as root (debootstrap, chroot, mount).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
say() { echo "check-deb: $*" >&2; }
fail() { echo "check-deb: FAILED: $*" >&2; exit 1; }
deb=""
arch=""
while [ $# -gt 0 ]; do
  case $1 in
    --arch) arch=$2; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) deb=$1; shift ;;
  esac
done
[ -n "$deb" ] && [ -f "$deb" ] || fail "give the package to check (deploy/build-deb.sh makes it): deploy/check-deb.sh dist/skygate_VERSION_ARCH.deb"
deb=$(realpath "$deb")
[ -n "$arch" ] || arch=$(dpkg-deb -f "$deb" Architecture)
[ "$(id -u)" = 0 ] || fail "run as root (debootstrap, chroot and mount need it)"
for tool in debootstrap dpkg-deb chroot mount python3 gpg dpkg-scanpackages apt-ftparchive readelf; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing (apt-get install debootstrap dpkg-dev apt-utils gnupg python3 binutils)"
done
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=$repo/.build-deb
mkdir -p "$cache"
base=$cache/bookworm-$arch

# A binfmt_misc handler for aarch64 programs, registered when missing: binfmt_misc mounted, then
# binfmt-support's update-binfmts, else the line Debian's qemu-user-static ships in
# /usr/lib/binfmt.d written to the kernel's register. Says why not (on stdout) when it cannot.
ensure_binfmt_aarch64() {
  local dir=/proc/sys/fs/binfmt_misc
  if [ -e "$dir/qemu-aarch64" ] && grep -q '^enabled' "$dir/qemu-aarch64"; then return 0; fi
  if [ ! -e "$dir/register" ]; then
    mount -t binfmt_misc binfmt_misc "$dir" 2>/dev/null || { echo "binfmt_misc is not mounted and cannot be (mount -t binfmt_misc binfmt_misc $dir)"; return 1; }
  fi
  if command -v update-binfmts >/dev/null 2>&1; then update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true; fi
  if [ ! -e "$dir/qemu-aarch64" ]; then
    local conf
    for conf in /usr/lib/binfmt.d/qemu-aarch64.conf /usr/lib/binfmt.d/qemu-aarch64-static.conf; do
      [ -f "$conf" ] && { grep -v '^#' "$conf" | head -n 1 > "$dir/register" 2>/dev/null || true; break; }
    done
  fi
  if [ -e "$dir/qemu-aarch64" ]; then
    echo 1 > "$dir/qemu-aarch64" 2>/dev/null || true
    grep -q '^enabled' "$dir/qemu-aarch64" && return 0
  fi
  echo "the kernel refused the qemu-aarch64 handler (apt-get install qemu-user-static binfmt-support, then update-binfmts --enable qemu-aarch64)"
  return 1
}
started=$(date +%s)

# The root, made once and kept (about 250 MB): minbase with systemd (for systemd-analyze) and man.
if [ ! -f "$base/.complete" ]; then
  rm -rf "$base"
  foreign=()
  if [ "$arch" != "$(dpkg --print-architecture)" ]; then
    [ -x /usr/bin/qemu-aarch64-static ] || fail "qemu-aarch64-static is missing (apt-get install qemu-user-static binfmt-support)"
    # debootstrap's second stage runs the root's own programs in a chroot: the kernel needs a
    # binfmt_misc handler for aarch64 programs, which a new machine (or a container) lacks.
    if ! why=$(ensure_binfmt_aarch64); then
      echo "check-deb: SKIPPED: no binfmt_misc handler for aarch64 programs can be registered here ($why): the $arch package was built but not installed anywhere"
      exit 0
    fi
    foreign=(--foreign)
  fi
  say "making a Debian 12 $arch root in ${base#"$repo"/} (once; a few minutes)"
  if ! debootstrap "${foreign[@]}" --arch="$arch" --variant=minbase --include=systemd,man-db,ca-certificates bookworm "$base" "$mirror" > "$cache/debootstrap-$arch.log" 2>&1; then
    if grep -qiE "Failed getting release file|Couldn't download|unable to fetch|Temporary failure|Could not resolve|Network is unreachable" "$cache/debootstrap-$arch.log"; then
      rm -rf "$base"
      echo "check-deb: SKIPPED: debootstrap cannot reach $mirror (no network?): the package was built but not installed anywhere (see ${cache#"$repo"/}/debootstrap-$arch.log)"
      exit 0
    fi
    fail "debootstrap failed (see ${cache#"$repo"/}/debootstrap-$arch.log)"
  fi
  if [ ${#foreign[@]} -gt 0 ]; then
    cp /usr/bin/qemu-aarch64-static "$base/usr/bin/"
    chroot "$base" /debootstrap/debootstrap --second-stage > "$cache/debootstrap-$arch-2.log" 2>&1 || fail "debootstrap's second stage failed (see ${cache#"$repo"/}/debootstrap-$arch-2.log)"
  fi
  echo "deb $mirror bookworm main" > "$base/etc/apt/sources.list"
  touch "$base/.complete"
fi

# A throwaway copy of the root for this run, with /proc, /dev and /sys, and apt's download cache
# shared with the host's (dependencies are fetched once).
work=$(mktemp -d "$cache/run-XXXXXX")
root=$work/root
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  for m in var/cache/apt/archives sys dev/pts dev proc; do umount -l "$root/$m" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
cp -a "$base" "$root"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
mount --bind /sys "$root/sys"
mkdir -p /var/cache/apt/archives/partial
mount --bind /var/cache/apt/archives "$root/var/cache/apt/archives"
# No service starts in the root (there is no running systemd to start it anyway).
printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
step() { say "$*"; }

# Files of the root before the package, to find any it leaves behind.
snapshot() {
  (cd "$root" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./tmp -o -path ./var/cache -o -path ./var/lib/apt \
     -o -path ./var/lib/dpkg -o -path ./var/log -o -path ./run -o -path ./root \) -prune -o -print | sort)
}
snapshot > "$work/before"

step "1/7 a hand installation by deploy/install.sh in the root"
mkdir -p "$work/hand"
dpkg-deb -x "$deb" "$work/hand"
deploy/install.sh --binary "$work/hand/usr/bin/gatewayd" --root "$root" > "$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "deploy/install.sh --root"; }
[ -f "$root/etc/systemd/system/gatewayd.service" ] && [ -x "$root/usr/local/bin/gatewayd" ] || fail "install.sh did not install"

step "2/7 apt-get install ./$(basename "$deb") (its dependencies from $mirror)"
cp "$deb" "$root/tmp/"
in_root apt-get update -qq > "$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get update in the root"; }
in_root apt-get install -y -q -o Dpkg::Options::=--force-confold "/tmp/$(basename "$deb")" > "$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get install"; }
say "    $(grep -c '^Setting up ' "$work/apt.log") packages set up, skygate's dependencies among them"
grep -E "^Setting up skygate|^skygate:" "$work/apt.log" | sed 's/^/    /' >&2 || true
for dep in $(dpkg-deb -f "$deb" Depends | sed 's/([^)]*)//g; s/,/ /g'); do
  in_root dpkg -s "$dep" > /dev/null 2>&1 || fail "dependency $dep not installed"
done
[ ! -e "$root/etc/systemd/system/gatewayd.service" ] || fail "install.sh's unit still shadows the packaged one"
[ ! -e "$root/usr/local/bin/gatewayd" ] || fail "install.sh's /usr/local/bin/gatewayd still comes first in PATH"
[ -f "$root/etc/gatewayd/gatewayd.service.from-install-sh" ] || fail "install.sh's unit was not kept for reference"
[ "$(stat -c %a "$root/etc/gatewayd/environment")" = 600 ] || fail "/etc/gatewayd/environment is not root-only"
in_root test -L /etc/systemd/system/multi-user.target.wants/gatewayd.service || fail "the service is not enabled"

step "3/7 gatewayd --version; its NEEDED libraries; replay of the demo flight from the installed binary"
version=$(in_root gatewayd --version)
[ "$version" = "$(dpkg-deb -f "$deb" Version)" ] || fail "gatewayd --version says '$version', the package $(dpkg-deb -f "$deb" Version)"
# libmosquitto (the fleet) is loaded on first use, like libcurl and espeak-ng: a library the binary
# needs at start would make every Pi install it (read by the host's readelf: any architecture).
needed=$(readelf -d "$root/usr/bin/gatewayd" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' | tr '\n' ' ') || fail "readelf -d of the installed gatewayd"
[ -n "$needed" ] || fail "readelf -d lists no NEEDED library of the installed gatewayd"
case $needed in *libmosquitto*) fail "the installed gatewayd needs libmosquitto at start (NEEDED: $needed): the fleet must load it on first use" ;; esac
say "    NEEDED: ${needed% }; no libmosquitto (loaded on first use)"
cp fixtures/demo-flight.pcap fixtures/notams-demo.json "$root/tmp/"
in_root gatewayd replay --json /tmp/demo-flight.pcap > "$work/alerts.jsonl" 2> "$work/replay.err" ||
  { cat "$work/replay.err" >&2; fail "gatewayd replay"; }
cmp -s "$work/alerts.jsonl" fixtures/demo-flight.alerts.jsonl || { diff "$work/alerts.jsonl" fixtures/demo-flight.alerts.jsonl | head >&2; fail "the installed gatewayd's alerts differ from fixtures/demo-flight.alerts.jsonl"; }
# And with the canned NOTAMs, as the README's first command runs it: the TFR's four changes too.
in_root gatewayd replay --json --notams /tmp/notams-demo.json /tmp/demo-flight.pcap > "$work/alerts-notams.jsonl" 2> "$work/replay.err" ||
  { cat "$work/replay.err" >&2; fail "gatewayd replay --notams"; }
changes=$(wc -l < "$work/alerts-notams.jsonl")
[ "$changes" = 20 ] || fail "replay --notams gave $changes alert changes, not the demo flight's 20"
say "    $version; replay: $(wc -l < "$work/alerts.jsonl") alert changes, the same bytes as fixtures/demo-flight.alerts.jsonl; with --notams: $changes"

step "4/7 systemd-analyze verify; man gatewayd; completions; config check of the shipped configuration"
in_root systemd-analyze verify /lib/systemd/system/gatewayd.service > "$work/verify.log" 2>&1 || { cat "$work/verify.log" >&2; fail "systemd-analyze verify"; }
in_root man -P cat gatewayd > "$work/man.txt" 2> "$work/man.err" || { cat "$work/man.err" >&2; fail "man gatewayd"; }
grep -q "gatewayd notams fetch" "$work/man.txt" || fail "the man page has no 'gatewayd notams fetch'"
[ -s "$root/usr/share/bash-completion/completions/gatewayd" ] || fail "no bash completion"
# The README's first step after installing: the shipped configuration checks clean.
in_root gatewayd config check --config /etc/gatewayd/gatewayd.toml > "$work/config.log" 2>&1 || { cat "$work/config.log" >&2; fail "gatewayd config check of the shipped configuration"; }

step "5/7 a changed configuration survives an upgrade whose default changed"
echo 'udp_port = 4001  # changed by the pilot' >> "$root/etc/gatewayd/gatewayd.toml"
in_root mkdir -p /var/lib/private/gatewayd && echo keep > "$root/var/lib/private/gatewayd/gateway.sqlite"
newer=$(python3 - "$(dpkg-deb -f "$deb" Version)" <<'PY'
import sys
v = sys.argv[1]
head, _, tail = v.rpartition(".")
print(f"{head}.{int(tail) + 1}" if tail.isdigit() else v + ".1")
PY
)
next_deb=$work/skygate_${newer}_$arch.deb
dpkg-deb -R "$deb" "$work/next"
sed -i "s/^Version: .*/Version: $newer/" "$work/next/DEBIAN/control"
echo '# A line a newer version added to the default configuration.' >> "$work/next/etc/gatewayd/gatewayd.toml"
(cd "$work/next" && find . -type f ! -path './DEBIAN/*' -printf '%P\n' | sort | xargs md5sum > DEBIAN/md5sums) 2>/dev/null || true
dpkg-deb --build -Zxz "$work/next" "$next_deb" > /dev/null
cp "$next_deb" "$root/tmp/"
in_root apt-get install -y -q -o Dpkg::Options::=--force-confold "/tmp/$(basename "$next_deb")" > "$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "upgrade to $newer"; }
grep -q 'changed by the pilot' "$root/etc/gatewayd/gatewayd.toml" || fail "the upgrade replaced the pilot's configuration"
grep -q 'A line a newer version added' "$root/etc/gatewayd/gatewayd.toml.dpkg-dist" || fail "the new default is not beside it (gatewayd.toml.dpkg-dist)"
[ "$(in_root dpkg-query -W -f '${Version}' skygate)" = "$newer" ] || fail "dpkg does not have $newer installed"
say "    upgraded to $newer: the pilot's gatewayd.toml kept, the new default in gatewayd.toml.dpkg-dist"

step "6/7 dpkg -r keeps configuration and data; dpkg -P leaves nothing"
in_root dpkg -r skygate > "$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log" >&2; fail "dpkg -r"; }
[ ! -e "$root/usr/bin/gatewayd" ] || fail "dpkg -r left /usr/bin/gatewayd"
grep -q 'changed by the pilot' "$root/etc/gatewayd/gatewayd.toml" || fail "dpkg -r removed the configuration"
[ -f "$root/etc/gatewayd/environment" ] || fail "dpkg -r removed /etc/gatewayd/environment"
[ -f "$root/var/lib/private/gatewayd/gateway.sqlite" ] || fail "dpkg -r removed the data"
in_root dpkg -P skygate > "$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log" >&2; fail "dpkg -P"; }
snapshot > "$work/after"
# No file the package held is left (its folders shared with other packages aside) ...
left=$(dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|/$||' | while read -r f; do
  [ -e "$root/$f" ] || continue
  [ -d "$root/$f" ] && [ -n "$(ls -A "$root/$f")" ] && continue
  echo "$f"
done)
# ... nor any file new since before the install that names it (what its scripts and systemd made:
# /etc/gatewayd, the data, the unit's enablement links and deb-systemd-helper's state).
left+=$(comm -13 "$work/before" "$work/after" | grep -iE 'gatewayd|skygate' || true)
[ -z "$left" ] || { echo "$left" >&2; fail "dpkg -P left these behind"; }
say "    removed: configuration and data kept; purged: nothing of the package left"

step "7/7 an apt repository over HTTP: install, then a newer version by apt-get upgrade"
gnupg=$work/gnupg
mkdir -m 700 "$gnupg"
repo_dir=$work/apt
GNUPGHOME=$gnupg deploy/build-apt-repo.sh "$repo_dir" "$deb" > "$work/repo.log" 2>&1 || { cat "$work/repo.log" >&2; fail "build-apt-repo.sh"; }
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$repo_dir" > "$work/http.log" 2>&1 &
server=$!
for _ in $(seq 50); do python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/Release')" 2>/dev/null && break; sleep 0.1; done
install -m 0644 "$repo_dir/skygate-archive-keyring.gpg" "$root/usr/share/keyrings/skygate-archive-keyring.gpg"
echo "deb [signed-by=/usr/share/keyrings/skygate-archive-keyring.gpg] http://127.0.0.1:$port/ ./" > "$root/etc/apt/sources.list.d/skygate.list"
in_root apt-get update -q > "$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get update with the skygate repository"; }
in_root apt-get install -y -q skygate > "$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get install skygate from the repository"; }
[ "$(in_root dpkg-query -W -f '${Version}' skygate)" = "$(dpkg-deb -f "$deb" Version)" ] || fail "the repository's version was not installed"
GNUPGHOME=$gnupg deploy/build-apt-repo.sh "$repo_dir" "$deb" "$next_deb" > "$work/repo.log" 2>&1 || { cat "$work/repo.log" >&2; fail "build-apt-repo.sh with the newer version"; }
in_root apt-get update -q > "$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get update after publishing $newer"; }
in_root apt-get upgrade -y -q -o Dpkg::Options::=--force-confold > "$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get upgrade"; }
[ "$(in_root dpkg-query -W -f '${Version}' skygate)" = "$newer" ] || fail "apt-get upgrade did not take $newer"
say "    installed $(dpkg-deb -f "$deb" Version) from http://127.0.0.1:$port/ (signed-by), upgraded to $newer"
say "passed: $(basename "$deb") in a Debian 12 $arch root, $(( $(date +%s) - started )) s"
